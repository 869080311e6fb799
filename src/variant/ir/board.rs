//! The board as International Relations reads it at the start of a phase: Controlled
//! Territory (IR-E1), permissions (IR-G1), frozen units (IR-D2), and what each order is
//! (an aggression, an entry into an ally's territory, or neither).

use super::grammar::{IrCommand, TreatyKind};
use crate::map::{Map, Power, ProvinceId};
use crate::rules::{Order, Owner, PhaseKind, Position, PowerOrder, Unit, VariantRefusal};
use crate::variant::{Sender, VariantOrder};

use super::state::IrState;

/// A `PERMIT` order of the phase (IR-G1): `by` lets `to` move into `dest` (from `from`
/// only, for the form naming a unit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Permit {
    pub by: Power,
    pub to: Power,
    pub from: Option<ProvinceId>,
    pub dest: ProvinceId,
}

/// The phase's permissions, from its variant orders.
pub fn permits(orders: &[VariantOrder]) -> Vec<Permit> {
    orders
        .iter()
        .filter_map(|v| match (v.command.get::<IrCommand>(), v.from) {
            (Some(IrCommand::PermitMove { power, unit, dest }), Sender::Power(by)) => {
                Some(Permit {
                    by,
                    to: *power,
                    from: Some(unit.province()),
                    dest: dest.province,
                })
            }
            (Some(IrCommand::PermitInto { power, province }), Sender::Power(by)) => Some(Permit {
                by,
                to: *power,
                from: None,
                dest: *province,
            }),
            _ => None,
        })
        .collect()
}

/// A move an order makes or helps: whose unit moves, from where, to where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub mover: Power,
    pub from: ProvinceId,
    pub dest: ProvinceId,
}

/// What an order is under IR-B1, IR-D2 and IR-G1, in the precedence of §3.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A frozen unit's order (IR-X10).
    Frozen(VariantRefusal),
    /// A support or convoy of a frozen unit (IR-X11).
    SupportsFrozen(VariantRefusal),
    /// An act of aggression against a power it may not attack (IR-X8).
    Aggression(VariantRefusal),
    /// The power's own move into an ally's territory without its permission (IR-G1): void,
    /// warned on receipt (IR-W1).
    Unpermitted(Power),
}

/// The board and the relations at the start of a phase.
pub struct Board<'a> {
    pub map: &'a Map,
    pub position: &'a Position,
    pub s: &'a IrState,
    pub permits: &'a [Permit],
}

impl Board<'_> {
    fn owner_at(&self, p: ProvinceId) -> Option<Power> {
        self.position.unit_in(p).and_then(|u| u.owner.power())
    }

    /// Whether `p` is in `CT(b, a)`, Controlled Territory of `b` as `a` sees it (IR-E1).
    pub fn controls(&self, b: Power, a: Power, p: ProvinceId) -> bool {
        self.controls_with(b, a, p, self.owner_at(p))
    }

    /// [`Board::controls`], the power whose unit stands in `p` known.
    fn controls_with(&self, b: Power, a: Power, p: ProvinceId, occupant: Option<Power>) -> bool {
        if b == a {
            return false;
        }
        if occupant == Some(b) {
            return true;
        }
        let enemy_there = occupant.is_some_and(|x| x != a && x != b && self.s.at_war(x, a));
        if enemy_there {
            return false;
        }
        let minor = {
            let prov = self.map.province(p);
            prov.supply_centre && prov.home_of.is_none()
        };
        self.map.in_home_country(p, b) || (minor && self.position.owner_of(p) == Some(b))
    }

    /// Whether `by` has permitted a move of `mover`'s unit from `from` into `dest`.
    pub fn permitted(&self, by: Power, mover: Power, from: ProvinceId, dest: ProvinceId) -> bool {
        self.permits.iter().any(|p| {
            p.by == by && p.to == mover && p.dest == dest && p.from.is_none_or(|f| f == from)
        })
    }

    /// The move an order makes (a move or retreat) or helps (a support to move, a convoy).
    pub fn entry(&self, po: &PowerOrder) -> Option<Entry> {
        match po.order {
            Order::Move { unit, dest, .. } | Order::Retreat { unit, dest } => Some(Entry {
                mover: po.power,
                from: unit.province(),
                dest: dest.province,
            }),
            Order::SupportMove { target, dest, .. } => Some(Entry {
                mover: self.owner_at(target.province())?,
                from: target.province(),
                dest: dest.province,
            }),
            Order::Convoy { army, dest, .. } => Some(Entry {
                mover: self.owner_at(army.province())?,
                from: army.province(),
                dest: dest.province,
            }),
            _ => None,
        }
    }

    /// The powers an order (a movement order of `po.power`) is an aggression against
    /// (IR-E1), alphabetical: the controllers of the destination other than the moving
    /// unit's owner, leaving out any that permitted the move.
    pub fn victims(&self, po: &PowerOrder) -> Vec<Power> {
        let Some(e) = self.entry(po) else {
            return Vec::new();
        };
        let a = po.power;
        let occupant = self.owner_at(e.dest);
        // What `controls_with` asks of each power, asked once for the order: an enemy of
        // `a` in the province (for every power but the occupant), and the minor centre's
        // owner.
        let enemy_there = occupant.is_some_and(|x| x != a && self.s.at_war(x, a));
        let prov = self.map.province(e.dest);
        let minor_owner = if prov.supply_centre && prov.home_of.is_none() {
            self.position.owner_of(e.dest)
        } else {
            None
        };
        Power::ALL
            .into_iter()
            .filter(|b| {
                let b = *b;
                let controls = occupant == Some(b)
                    || (!enemy_there
                        && (self.map.in_home_country(e.dest, b) || minor_owner == Some(b)));
                b != a && b != e.mover && controls && !self.permitted(b, e.mover, e.from, e.dest)
            })
            .collect()
    }

    /// The unowned minor centre an order attacks (IR-E2), if any.
    pub fn minor_attacked(&self, po: &PowerOrder) -> Option<ProvinceId> {
        if matches!(po.order, Order::Retreat { .. }) {
            return None;
        }
        let e = self.entry(po)?;
        let prov = self.map.province(e.dest);
        (prov.supply_centre && prov.home_of.is_none() && self.position.owner_of(e.dest).is_none())
            .then_some(e.dest)
    }

    /// The power whose territory or centre freezes a unit in the lapsing Spring (IR-D2), and
    /// whether it stands in that power's home country (else on a centre it owns).
    pub fn frozen(&self, unit: &Unit) -> Option<(Power, Power, bool)> {
        if self.position.phase.kind != PhaseKind::Movement {
            return None;
        }
        let Owner::Power(a) = unit.owner else {
            return None;
        };
        let p = unit.location.province;
        self.s
            .treaties
            .iter()
            .filter(|t| {
                t.binds(a)
                    && t.lapsing_in(self.position.phase)
                    && t.lapsing.as_ref().is_some_and(|l| l.by.contains(&a))
            })
            .find_map(|t| {
                let b = t.other(a);
                if self.map.in_home_country(p, b) {
                    Some((a, b, true))
                } else if self.map.province(p).supply_centre && self.position.owner_of(p) == Some(b)
                {
                    Some((a, b, false))
                } else {
                    None
                }
            })
    }

    fn unit_words(&self, unit: &Unit) -> String {
        format!(
            "{} {}",
            unit.kind.letter(),
            self.map.location_name(unit.location)
        )
    }

    /// What an order is (None: an ordinary order), in §3's precedence: IR-X10, IR-X11,
    /// IR-X8, then an unpermitted entry (IR-G1).
    pub fn verdict(&self, po: &PowerOrder) -> Option<Verdict> {
        // Every verdict needs a treaty: one that lapses (IR-D2), an ally to attack (IR-B1)
        // or to enter (IR-G1).
        if self.s.treaties.is_empty() {
            return None;
        }
        let phase = self.position.phase;
        if let Some(spec) = po.order.unit()
            && let Some(unit) = self.position.unit_in(spec.province())
            && let Some((a, b, home)) = self.frozen(unit)
        {
            let where_ = if home {
                format!("stands in territory of {b}")
            } else {
                format!("stands on a supply centre of {b}")
            };
            return Some(Verdict::Frozen(VariantRefusal::new(
                "IR-X10",
                format!(
                    "{} {where_} while {a}'s treaty lapses; it takes no orders this turn.",
                    self.unit_words(unit)
                ),
            )));
        }
        let helped = match po.order {
            Order::SupportHold { target, .. } | Order::SupportMove { target, .. } => {
                Some(target.province())
            }
            Order::Convoy { army, .. } => Some(army.province()),
            _ => None,
        };
        if let Some(p) = helped
            && let Some(unit) = self.position.unit_in(p)
            && self.frozen(unit).is_some()
        {
            return Some(Verdict::SupportsFrozen(VariantRefusal::new(
                "IR-X11",
                format!("{} cannot be supported this turn.", self.unit_words(unit)),
            )));
        }
        if matches!(po.order, Order::Retreat { .. }) || phase.kind == PhaseKind::Retreat {
            // A retreat is no aggression; into an ally's territory it needs permission.
            let e = self.entry(po)?;
            return Power::ALL
                .into_iter()
                .find(|b| {
                    self.s.allied(po.power, *b, phase).is_some()
                        && self.controls(*b, po.power, e.dest)
                        && !self.permitted(*b, po.power, e.from, e.dest)
                })
                .map(Verdict::Unpermitted);
        }
        let a = po.power;
        let own = self.entry(po).is_some_and(|e| e.mover == a);
        let victims = self.victims(po);
        let forbidden = |b: Power| -> Option<TreatyKind> {
            if let Some(t) = self.s.lapsing(a, b, phase)
                && t.lapsing.as_ref().is_some_and(|l| l.by.contains(&a))
            {
                return Some(t.kind);
            }
            match self.s.allied(a, b, phase) {
                Some(t) if !own => Some(t.kind),
                _ => None,
            }
        };
        if let Some((b, kind)) = victims.iter().find_map(|b| forbidden(*b).map(|k| (*b, k))) {
            return Some(Verdict::Aggression(VariantRefusal::new(
                "IR-X8",
                format!(
                    "{} is an act of aggression against {b}, with which {a} has an {kind}.",
                    po.order.display(self.map)
                ),
            )));
        }
        if own && matches!(po.order, Order::Move { .. }) {
            return victims
                .into_iter()
                .find(|b| self.s.allied(a, *b, phase).is_some())
                .map(Verdict::Unpermitted);
        }
        None
    }
}
