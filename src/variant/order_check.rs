//! H3 as the rule sets write it, in parts: their own refusal of an order the standard game
//! takes, their refusal in place of the standard game's where their code covers the fault,
//! and a remark on an order taken. [`OwnOrderCheck::check`] is the one body that puts the
//! parts together; a rule set's `Rules::check_order` calls it.

use crate::map::Map;
use crate::rules::{OrderCheck, Position, PowerOrder, Refusal, Warning};

/// The parts of a rule set's H3; each defaults to saying nothing.
pub(crate) trait OwnOrderCheck {
    /// The phase is being resolved: an order the standard game takes is not asked about
    /// (a refusal then is the rule set's rewrite, H4, and a remark is not shown).
    fn resolving(&self) -> bool {
        false
    }

    /// The rule set's own refusal of an order the standard game takes.
    fn own_refusal(
        &self,
        _map: &Map,
        _position: &Position,
        _po: &PowerOrder,
    ) -> Result<(), Refusal> {
        Ok(())
    }

    /// The rule set's refusal in place of the standard game's `refusal`.
    fn own_refusal_instead(
        &self,
        _map: &Map,
        _position: &Position,
        _po: &PowerOrder,
        _refusal: &Refusal,
    ) -> Option<Refusal> {
        None
    }

    /// A remark on an order taken (it will be rewritten, say).
    fn own_warning(&self, _map: &Map, _position: &Position, _po: &PowerOrder) -> Option<Warning> {
        None
    }

    /// H3: the rule set's word on an order (`standard`: the standard game's refusal, None
    /// when it takes the order): its refusal in place of the standard one, else its own
    /// refusal, else its remark.
    fn check(
        &self,
        map: &Map,
        position: &Position,
        po: &PowerOrder,
        standard: Option<&Refusal>,
    ) -> OrderCheck {
        match standard {
            Some(r) => self
                .own_refusal_instead(map, position, po, r)
                .map_or(OrderCheck::Stands, OrderCheck::Refused),
            None if self.resolving() => OrderCheck::Stands,
            None => match self.own_refusal(map, position, po) {
                Err(r) => OrderCheck::Refused(r),
                Ok(()) => self
                    .own_warning(map, position, po)
                    .map_or(OrderCheck::Stands, OrderCheck::Warned),
            },
        }
    }
}
