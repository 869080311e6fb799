//! A phase's orders: what each power must order and how complete its orders are (H18 may
//! say otherwise), the orders and a rule set's commands taken as they come (each checked by
//! the game's rules first, H3; a rule set's command taken as H1 says), and whether the phase
//! may be processed.

use crate::command::RuleCommand;
use crate::map::{Map, Power};
use crate::rules::VariantRefusal;
use crate::rules::{self, Order, Owner, PhaseKind, PowerOrder, Rules, UnitSpec, Warning};
use crate::variant::{
    CommandContext, Early, Line, OrderStatus, Reader, Readiness, Sender, Slot, Taken, Variant,
    VariantOrder,
};

use super::{Game, Player, Refused, Status};

/// An order a power gave, taken: as the rules read it, with the rule set's warnings on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderTaken {
    pub order: PowerOrder,
    pub warnings: Vec<Warning>,
}

/// What a rule set's command did (H1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandTaken {
    /// Applied at once (H2): its lines, for those who may read them now (and the next
    /// results, which repeat them); the reply's echo (None: the command as read); and a
    /// refusal the rule set gave of what it could not apply.
    Immediate {
        lines: Vec<Line>,
        echo: Option<String>,
        refused: Option<VariantRefusal>,
    },
    /// Kept with the sender's orders of this phase; the reply's echo.
    Kept { echo: Option<String> },
}

impl Game {
    /// A power's order, from the player signed on as `signed` (in a duplex game the order
    /// is the unit's power's, if the player holds it): refused unless the game runs and
    /// the rules accept it against the power's standing orders (H3); else taken, with the
    /// rules' warnings. The first order of a power in this mail starts its new adjustment
    /// set.
    pub fn give_order(
        &mut self,
        map: &Map,
        variant: &dyn Variant,
        signed: Power,
        order: Order,
    ) -> Result<OrderTaken, Refused> {
        let power = self.order_power(map, signed, &order);
        let fresh = !self.since.ordered.contains(&power);
        if self.status != Status::Active {
            return Err(Refused::NotTakingOrders(self.name.clone()));
        }
        let po = PowerOrder::new(power, order);
        let warnings = {
            let parts = self.view_parts();
            let rules = variant.rules(&self.view(map, &parts), &self.variant_state);
            let standing = self.standing_for(power, fresh);
            let verdict = rules::check_orders(map, rules.as_ref(), &self.position, standing, &[po]);
            if let Some(Some(refusal)) = verdict.into_iter().next() {
                return Err(Refused::Order(refusal));
            }
            rules
                .warning(map, &self.position, &po)
                .into_iter()
                .collect()
        };
        self.take_order(power, po, fresh);
        if fresh {
            self.since.ordered.push(power);
        }
        self.touch_orders();
        Ok(OrderTaken {
            order: po,
            warnings,
        })
    }

    /// A rule set's command from `sender` (`text`: the line as written): refused unless the
    /// game runs and the rule set takes it (H1); applied at once (H2) or kept with the
    /// sender's orders. The first command of a replacing set in this mail clears the
    /// sender's set.
    pub fn take_command(
        &mut self,
        map: &Map,
        variant: &dyn Variant,
        sender: Sender,
        cmd: &RuleCommand,
        text: &str,
    ) -> Result<CommandTaken, Refused> {
        if self.status != Status::Active {
            return Err(Refused::NotTakingOrders(self.name.clone()));
        }
        let parts = self.view_parts();
        let cx = CommandContext {
            game: self.view(map, &parts),
            sender,
            text,
        };
        let taken = variant.take_command(&cx, &self.variant_state, cmd)?;
        let replacing = matches!(taken, Taken::Replacing { .. });
        match taken {
            Taken::Immediate => {
                let mut state = self.variant_state.clone();
                let applied = variant.apply_now(&cx, &mut state, cmd)?;
                self.variant_state = state;
                self.immediate.extend(applied.lines.iter().cloned());
                self.touch();
                Ok(CommandTaken::Immediate {
                    lines: applied.lines,
                    echo: applied.echo,
                    refused: applied.refused,
                })
            }
            Taken::Order { slot, echo } | Taken::Replacing { slot, echo } => {
                if replacing && let Some(set) = slot.set() {
                    let set = set.to_string();
                    if !self.since.replaced_sets.contains(&set) {
                        self.clear_variant_set(sender, &set);
                        self.since.replaced_sets.push(set);
                    }
                }
                self.set_variant_order(VariantOrder {
                    from: sender,
                    command: cmd.clone(),
                    slot,
                });
                // The reply lists the standing orders of a power's player.
                match sender {
                    Sender::Power(_) => self.touch_orders(),
                    Sender::Master => self.touch(),
                }
                Ok(CommandTaken::Kept { echo })
            }
        }
    }

    /// `CLEAR`: the orders of the player's powers (in a duplex game, every power they hold)
    /// are cleared, their rule set's commands included.
    pub fn clear_orders_of(&mut self, power: Power) {
        for q in self.held_with(power) {
            self.drop_orders(q);
        }
        self.all_in_since = None;
        self.touch_orders();
    }

    /// Postal press, held back until the next results.
    pub fn hold_postal(&mut self, readers: Vec<Reader>, subject: String, body: String) {
        self.postal.push((readers, subject, body));
        self.touch();
    }

    /// Notes, once a mail changed the game, since when every order has been in (or that
    /// some are missing): the tick processes a phase early a delay after it.
    pub fn note_all_in(
        &mut self,
        map: &Map,
        variant: &dyn Variant,
        now: chrono::DateTime<chrono::Utc>,
    ) {
        if self.status == Status::Active && self.all_in(map, variant) {
            if self.all_in_since.is_none() {
                self.all_in_since = Some(now);
            }
        } else {
            self.all_in_since = None;
        }
    }

    /// The powers still in the game (with a unit or a centre).
    pub fn surviving_powers(&self) -> Vec<Power> {
        crate::variant::surviving_powers(&self.position)
    }

    /// The powers that must order in the current phase (H18 may leave some out).
    pub fn powers_to_order(&self, map: &Map, variant: &dyn Variant) -> Vec<Power> {
        self.statuses(map, variant)
            .into_iter()
            .filter_map(|(p, s)| s.map(|_| p))
            .collect()
    }

    /// A power's order status: `received` (every unit ordered, or an adjustment set sent),
    /// `incomplete` (some), `none`; None when it has nothing to order (H18 may say
    /// otherwise).
    pub fn order_status(
        &self,
        map: &Map,
        variant: &dyn Variant,
        power: Power,
    ) -> Option<OrderStatus> {
        self.readiness(map, variant).status(power)
    }

    /// A power's order status as everyone but the power and the master may know it (H18,
    /// H20: [`crate::variant::Readiness::public`]; a ballot is left out).
    pub fn public_order_status(
        &self,
        map: &Map,
        variant: &dyn Variant,
        power: Power,
    ) -> Option<OrderStatus> {
        self.readiness(map, variant).public_status(power)
    }

    /// Who the judge waits for in the current phase and when it may process it (H18): the
    /// standard game's answer, as the rule set changes it.
    pub fn readiness(&self, map: &Map, variant: &dyn Variant) -> Readiness {
        let parts = self.view_parts();
        let view = self.view(map, &parts);
        let rules = variant.rules(&view, &self.variant_state);
        let mut standard = Readiness {
            statuses: [None; 7],
            public: None,
            early: Early::WhenAllIn,
        };
        for p in Power::ALL {
            standard.set(p, self.standard_status(map, rules.as_ref(), p));
        }
        variant.readiness(&view, &self.variant_state, standard)
    }

    /// Every power's order status (see [`Game::order_status`]).
    fn statuses(&self, map: &Map, variant: &dyn Variant) -> Vec<(Power, Option<OrderStatus>)> {
        let r = self.readiness(map, variant);
        Power::ALL.into_iter().map(|p| (p, r.status(p))).collect()
    }

    /// Every power's order status as everyone may know it ([`Game::public_order_status`]).
    fn public_statuses(
        &self,
        map: &Map,
        variant: &dyn Variant,
    ) -> Vec<(Power, Option<OrderStatus>)> {
        let r = self.readiness(map, variant);
        Power::ALL
            .into_iter()
            .map(|p| (p, r.public_status(p)))
            .collect()
    }

    /// The standard game's answer: whether a power must order, and how complete its
    /// orders are.
    fn standard_status(&self, map: &Map, rules: &dyn Rules, power: Power) -> Option<OrderStatus> {
        let pos = &self.position;
        let needed = match pos.phase.kind {
            PhaseKind::Movement => pos
                .units
                .iter()
                .filter(|u| u.owner == Owner::Power(power))
                .count(),
            PhaseKind::Retreat => pos
                .dislodged
                .iter()
                .filter(|d| d.unit.owner == Owner::Power(power))
                .count(),
            // Any adjustment set counts: a power may choose to build fewer.
            PhaseKind::Adjustment => {
                let n = rules.adjustment_count(pos, power);
                let must = n < 0
                    || n > 0
                        && rules
                            .build_sites(map, pos, power)
                            .iter()
                            .any(|s| pos.unit_in(*s).is_none());
                return must.then(|| {
                    if self.submitted.contains(&power) {
                        OrderStatus::Received
                    } else {
                        OrderStatus::None
                    }
                });
            }
            PhaseKind::Own(_) => return None,
        };
        if needed == 0 {
            return None;
        }
        // A rule set's order for a unit (a hold exchange, a sphere of influence) is that
        // unit's order.
        let given = self.orders.get(&power).map(Vec::len).unwrap_or(0)
            + self
                .variant_orders
                .iter()
                .filter(|v| v.from == Sender::Power(power) && matches!(v.slot, Slot::Unit(_)))
                .count();
        Some(if given == 0 {
            OrderStatus::None
        } else if given < needed {
            OrderStatus::Incomplete
        } else {
            OrderStatus::Received
        })
    }

    /// The orders a power's next order is checked against: its standing orders, or none
    /// when the order starts a new adjustment set (`fresh`: the first of its message).
    pub fn standing_for(&self, power: Power, fresh: bool) -> &[PowerOrder] {
        if fresh && self.position.phase.kind == PhaseKind::Adjustment {
            &[]
        } else {
            self.orders_of(power)
        }
    }

    /// Takes one order of a power's message (`fresh`: the first order taken from that
    /// message). In an adjustment phase a message's orders replace the whole set of an
    /// earlier message; otherwise each order replaces the earlier one for its unit (see
    /// [`Game::set_orders`]).
    fn take_order(&mut self, power: Power, order: PowerOrder, fresh: bool) {
        if fresh && self.position.phase.kind == PhaseKind::Adjustment {
            self.orders.remove(&power);
        }
        if self.position.phase.kind == PhaseKind::Adjustment {
            self.orders.entry(power).or_default().push(order);
            if !self.submitted.contains(&power) {
                self.submitted.push(power);
            }
        } else {
            self.set_orders(power, vec![order]);
        }
    }

    /// Stores a power's new orders. Each order replaces the power's earlier order for the
    /// same unit (njudge semantics: a later message corrects an earlier one unit by unit),
    /// a variant order for that unit included; adjustment orders replace the whole earlier
    /// set.
    fn set_orders(&mut self, power: Power, new: Vec<PowerOrder>) {
        let list = self.orders.entry(power).or_default();
        if self.position.phase.kind == PhaseKind::Adjustment {
            *list = new;
        } else {
            for o in new {
                let unit = o.order.unit().map(|u| u.province());
                list.retain(|old| old.order.unit().map(|u| u.province()) != unit);
                if let Some(p) = unit {
                    self.variant_orders
                        .retain(|v| !(v.from == Sender::Power(power) && v.slot == Slot::Unit(p)));
                }
                list.push(o);
            }
        }
        if !self.submitted.contains(&power) {
            self.submitted.push(power);
        }
    }

    /// Keeps a variant command with this phase's orders (H1), replacing the sender's
    /// earlier one in the same slot; a command for a unit replaces the unit's order.
    fn set_variant_order(&mut self, order: VariantOrder) {
        if let (Sender::Power(power), Slot::Unit(p)) = (order.from, &order.slot)
            && let Some(list) = self.orders.get_mut(&power)
        {
            list.retain(|o| o.order.unit().map(|u| u.province()) != Some(*p));
        }
        self.variant_orders
            .retain(|v| !(v.from == order.from && v.slot == order.slot));
        if let Sender::Power(power) = order.from
            && !self.submitted.contains(&power)
        {
            self.submitted.push(power);
        }
        self.variant_orders.push(order);
    }

    /// Clears the sender's variant commands of a set ([`Slot::Member`]): a new message
    /// replaces them (H1, [`crate::variant::Taken::Replacing`]).
    fn clear_variant_set(&mut self, from: Sender, set: &str) {
        self.variant_orders
            .retain(|v| !(v.from == from && v.slot.set() == Some(set)));
    }

    /// Every standing order, in a stable order (powers alphabetical, then as given).
    pub fn all_orders(&self) -> Vec<PowerOrder> {
        self.orders.values().flatten().copied().collect()
    }

    /// Drops a power's orders, its rule set's commands included (`CLEAR`, a seat abandoned).
    pub(super) fn drop_orders(&mut self, power: Power) {
        self.orders.remove(&power);
        self.variant_orders
            .retain(|v| v.from != Sender::Power(power));
        self.submitted.retain(|p| *p != power);
    }

    /// Whether the phase may be processed before its deadline: the rule set allows it (H18),
    /// someone plays, and every order the judge waits for is in ([`Game::ready`]).
    pub fn all_in(&self, map: &Map, variant: &dyn Variant) -> bool {
        let r = self.readiness(map, variant);
        r.early == Early::WhenAllIn
            && self.players.iter().any(Player::is_playing)
            && self.all_received(&r)
    }

    /// Whether the judge waits for `power`'s orders: always for a played seat; for an
    /// abandoned or dummy power only in a NONMR game, which waits for a replacement (njudge).
    /// In an NMR game a power nobody plays stalls nothing: it takes the civil-disorder
    /// defaults.
    pub fn awaits(&self, power: Power) -> bool {
        !self.settings.nmr || self.player(power).is_none_or(Player::is_playing)
    }

    /// Whether everyone who must order has a complete set and nobody waits (the master
    /// included, when the rule set waits for it: H18): what the master's `PROCESS` asks.
    /// Only the powers the judge waits for count ([`Game::awaits`]).
    pub fn ready(&self, map: &Map, variant: &dyn Variant) -> bool {
        let r = self.readiness(map, variant);
        r.early != Early::WaitsForMaster && self.all_received(&r)
    }

    /// Whether every power that owes orders has sent them all, and none asked to wait.
    fn all_received(&self, r: &Readiness) -> bool {
        Power::ALL.into_iter().all(|p| match r.status(p) {
            None => true,
            Some(_) if !self.awaits(p) => true,
            Some(s) => s == OrderStatus::Received && !self.player(p).is_some_and(|pl| pl.wait),
        })
    }

    /// The powers that must order and hold processing until the deadline (`SET WAIT`).
    pub fn waiting_powers(&self, map: &Map, variant: &dyn Variant) -> Vec<Power> {
        self.statuses(map, variant)
            .into_iter()
            .filter(|(p, s)| s.is_some() && self.player(*p).is_some_and(|pl| pl.wait))
            .map(|(p, _)| p)
            .collect()
    }

    /// Whether the rule set waits for the master before the phase is processed (H18).
    pub fn waits_for_master(&self, map: &Map, variant: &dyn Variant) -> bool {
        self.readiness(map, variant).early == Early::WaitsForMaster
    }

    /// The powers the judge waits for that must order and have not sent a complete set (the
    /// late powers at a deadline, each told so itself, and the master).
    pub fn missing_powers(&self, map: &Map, variant: &dyn Variant) -> Vec<Power> {
        self.awaited(missing(self.statuses(map, variant)))
    }

    /// The late powers as everyone may know them ([`Game::public_order_status`]): the ones
    /// named to everyone at the deadline, whose orders the judge waits for.
    pub fn public_missing_powers(&self, map: &Map, variant: &dyn Variant) -> Vec<Power> {
        self.awaited(missing(self.public_statuses(map, variant)))
    }

    /// The played seats that must order now and have sent nothing (each misses the phase
    /// if it is processed so), and those that sent something: what
    /// [`Game::count_missed`] counts.
    pub fn missing_and_ordered(
        &self,
        map: &Map,
        variant: &dyn Variant,
    ) -> (Vec<Power>, Vec<Power>) {
        let mut missed = Vec::new();
        let mut ordered = Vec::new();
        for (p, s) in self.statuses(map, variant) {
            match s {
                Some(_) if !self.is_played(p) => {}
                Some(OrderStatus::None) => missed.push(p),
                Some(_) => ordered.push(p),
                None => {}
            }
        }
        (missed, ordered)
    }

    /// The powers of `powers` the judge waits for.
    fn awaited(&self, powers: Vec<Power>) -> Vec<Power> {
        powers.into_iter().filter(|p| self.awaits(*p)).collect()
    }

    /// The powers that must order now as everyone may know it.
    pub fn public_powers_to_order(&self, map: &Map, variant: &dyn Variant) -> Vec<Power> {
        self.public_statuses(map, variant)
            .into_iter()
            .filter_map(|(p, s)| s.map(|_| p))
            .collect()
    }

    /// Units of a power that have no standing order (for the "missing orders" reply).
    pub fn unordered_units(&self, power: Power) -> Vec<UnitSpec> {
        let mut given: Vec<_> = self
            .orders
            .get(&power)
            .map(|v| {
                v.iter()
                    .filter_map(|o| o.order.unit().map(|u| u.province()))
                    .collect()
            })
            .unwrap_or_default();
        given.extend(self.variant_orders.iter().filter_map(|v| match v.slot {
            Slot::Unit(p) if v.from == Sender::Power(power) => Some(p),
            _ => None,
        }));
        self.position
            .units
            .iter()
            .filter(|u| u.owner == Owner::Power(power) && !given.contains(&u.location.province))
            .map(|u| UnitSpec::new(Some(u.kind), u.location))
            .collect()
    }

    /// Orders that name a unit of the power, for its reply listing.
    pub fn orders_of(&self, power: Power) -> &[PowerOrder] {
        self.orders.get(&power).map(Vec::as_slice).unwrap_or(&[])
    }
}

/// The powers whose status is not `received`.
fn missing(statuses: Vec<(Power, Option<OrderStatus>)>) -> Vec<Power> {
    statuses
        .into_iter()
        .filter(|(_, s)| s.is_some_and(|s| s != OrderStatus::Received))
        .map(|(p, _)| p)
        .collect()
}

#[cfg(test)]
mod tests;
