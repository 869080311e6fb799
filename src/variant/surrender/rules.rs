//! What a client may not do to its protectorate (SUR-3) through the shared relations H8–H10,
//! one way, with the client's self-dislodgement waiver (SUR-3.7); and the exchange unit
//! holding (SUR-8.3, H4).

use std::collections::BTreeMap;

use crate::map::{Map, Power};
use crate::rules::{MoveContext, Order, Owner, Position, PowerOrder, Rewrite, Rules, Unit};

/// The adjudication rules of a Surrender game: the relations as they stand when the phase
/// is resolved.
pub struct SurrenderRules {
    /// Client → protectorate.
    pub protector: BTreeMap<Power, Power>,
    /// The units ordered to hold for an exchange: province → the note on their result line.
    pub exchanges: Vec<(crate::map::ProvinceId, String)>,
}

impl SurrenderRules {
    fn power(u: &Unit) -> Option<Power> {
        match u.owner {
            Owner::Power(p) => Some(p),
            Owner::Neutral => None,
        }
    }

    /// Whether `c` is a client of `p` (directly: SUR-7.2).
    fn client_of(&self, c: Option<Power>, p: Option<Power>) -> bool {
        matches!((c, p), (Some(c), Some(p)) if self.protector.get(&c) == Some(&p))
    }

    fn is_client(&self, c: Option<Power>) -> bool {
        c.is_some_and(|c| self.protector.contains_key(&c))
    }
}

impl Rules for SurrenderRules {
    /// SUR-8.3: the exchange unit holds; its result line says what it was ordered.
    fn rewrite(
        &self,
        _map: &Map,
        _position: &Position,
        order: &PowerOrder,
        given: bool,
    ) -> Option<Rewrite> {
        let unit = order.order.unit()?;
        if given {
            return None;
        }
        let note = self
            .exchanges
            .iter()
            .find(|(p, _)| *p == unit.province())
            .map(|(_, n)| n.clone())?;
        Some(Rewrite {
            order: Order::Hold { unit },
            show_given: false,
            note,
        })
    }

    /// H8: SUR-3.1 (a client's move never dislodges its protectorate) and SUR-3.7(b) (a
    /// client may dislodge its own unit).
    fn may_not_dislodge(&self, ctx: &MoveContext<'_>) -> bool {
        let (a, d) = (Self::power(ctx.attacker), Self::power(ctx.defender));
        if self.client_of(a, d) {
            return true;
        }
        a == d && !self.is_client(a)
    }

    /// H9: SUR-3.3, a client's attack never cuts its protectorate's support.
    fn may_not_cut(&self, attacker: &Unit, supporter: &Unit) -> bool {
        let (a, s) = (Self::power(attacker), Self::power(supporter));
        a == s || self.client_of(a, s)
    }

    /// H10: SUR-3.2 (a client's support never helps dislodge its protectorate) and SUR-3.7
    /// (a client's support counts against its own unit when the client itself or its
    /// protectorate attacks, (a) and (b); not when a third power does, (c)).
    fn support_excluded(&self, supporter: &Unit, ctx: &MoveContext<'_>) -> bool {
        let (s, a, d) = (
            Self::power(supporter),
            Self::power(ctx.attacker),
            Self::power(ctx.defender),
        );
        if self.client_of(s, d) {
            return true;
        }
        if s != d {
            return false;
        }
        let waived = match d {
            Some(c) => match self.protector.get(&c) {
                Some(p) => a == Some(c) || a == Some(*p),
                None => false,
            },
            None => false,
        };
        !waived
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Location;
    use crate::rules::UnitKind;

    fn unit(p: Power) -> Unit {
        let map = Map::standard().unwrap();
        let vie = map.find_province("vie").unwrap();
        Unit::new(Owner::Power(p), UnitKind::Army, Location::province(vie))
    }

    fn rules() -> SurrenderRules {
        SurrenderRules {
            protector: [(Power::Austria, Power::Russia)].into_iter().collect(),
            exchanges: Vec::new(),
        }
    }

    fn ctx<'a>(attacker: &'a Unit, defender: &'a Unit) -> MoveContext<'a> {
        MoveContext {
            attacker,
            defender,
            destination: defender.location.province,
        }
    }

    #[test]
    fn sur_3_1_and_3_4_one_way() {
        let (c, p, t) = (
            unit(Power::Austria),
            unit(Power::Russia),
            unit(Power::Turkey),
        );
        let r = rules();
        assert!(r.may_not_dislodge(&ctx(&c, &p)), "SUR-3.1");
        assert!(!r.may_not_dislodge(&ctx(&p, &c)), "SUR-3.4");
        assert!(!r.may_not_dislodge(&ctx(&t, &p)));
        assert!(r.may_not_dislodge(&ctx(&t, &t)), "independent: standard");
    }

    #[test]
    fn sur_3_2_and_3_3() {
        let (c, p, t) = (
            unit(Power::Austria),
            unit(Power::Russia),
            unit(Power::Turkey),
        );
        let r = rules();
        assert!(r.support_excluded(&c, &ctx(&t, &p)), "SUR-3.2");
        assert!(!r.support_excluded(&p, &ctx(&t, &c)), "SUR-3.4");
        assert!(r.may_not_cut(&c, &p), "SUR-3.3");
        assert!(!r.may_not_cut(&p, &c), "SUR-3.4");
        assert!(r.may_not_cut(&t, &t));
    }

    #[test]
    fn sur_3_7_the_waiver_is_the_clients_only() {
        let (c, p, t) = (
            unit(Power::Austria),
            unit(Power::Russia),
            unit(Power::Turkey),
        );
        let r = rules();
        assert!(!r.support_excluded(&c, &ctx(&p, &c)), "SUR-3.7(a)");
        assert!(!r.may_not_dislodge(&ctx(&c, &c)), "SUR-3.7(b)");
        assert!(!r.support_excluded(&c, &ctx(&c, &c)), "SUR-3.7(b) supports");
        assert!(r.support_excluded(&c, &ctx(&t, &c)), "SUR-3.7(c)");
        assert!(
            r.may_not_dislodge(&ctx(&p, &p)),
            "the protectorate keeps the rule"
        );
        assert!(r.support_excluded(&p, &ctx(&c, &p)));
    }

    #[test]
    fn sur_3_6_and_7_2_no_relation_between_siblings_or_up_the_chain() {
        let r = SurrenderRules {
            protector: [
                (Power::Austria, Power::Russia),
                (Power::Turkey, Power::Russia),
                (Power::Italy, Power::Austria),
            ]
            .into_iter()
            .collect(),
            exchanges: Vec::new(),
        };
        let (a, t, i, ru) = (
            unit(Power::Austria),
            unit(Power::Turkey),
            unit(Power::Italy),
            unit(Power::Russia),
        );
        assert!(!r.may_not_dislodge(&ctx(&t, &a)), "SUR-3.6 siblings");
        assert!(!r.may_not_dislodge(&ctx(&i, &ru)), "SUR-7.2 up the chain");
        assert!(r.may_not_dislodge(&ctx(&i, &a)), "SUR-3.1 direct");
    }
}
