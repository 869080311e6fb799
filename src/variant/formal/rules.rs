//! War in adjudication (`formal.md` §5): moves and retreats that need a war are refused on
//! receipt and void at processing (H3, H4, H13; FD-2.5, FD-2.7, FD-2.8), and spheres of
//! influence are declared by a holding unit whose adjacent claim contends like a move (H4,
//! H11; FD-4).

use std::collections::{BTreeMap, BTreeSet};

use super::grammar::FormalCommand;
use crate::map::{Location, Map, Power, ProvinceId};
use crate::rules::{
    Order, OrderCheck, Owner, Position, PowerOrder, PseudoMove, Refusal, Rewrite, Rules, Strength,
    Unit, VariantRefusal,
};
use crate::variant::{GameView, Sender, Slot};

use super::state::{FormalState, pair};
use crate::variant::order_check::OwnOrderCheck;

/// A declaration of a sphere of influence in this turn's orders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    pub power: Power,
    /// Where the declaring unit stands.
    pub unit_at: ProvinceId,
    pub target: ProvinceId,
    /// Void at processing (FD-2.8): the power it needs a war with.
    pub void_by: Option<Power>,
    /// 1 + its uncut supports (FD-4.4).
    pub strength: u32,
    /// Its supports: where the supporting unit stands, whether the support is a standard
    /// support to move (`S A Par - Bur`), and whether it is cut.
    pub supports: Vec<(ProvinceId, bool, bool)>,
}

impl Claim {
    pub fn adjacent(&self) -> bool {
        self.unit_at != self.target
    }
}

/// What war forbids (FD-2.5): who stands in the way of `a` entering `dest`, and the code.
pub struct Wars<'a> {
    pub wars: &'a BTreeSet<(Power, Power)>,
    /// This turn's declarations: (declarer, target) (FD-2.7).
    pub declared: &'a BTreeSet<(Power, Power)>,
    pub soi: &'a BTreeMap<ProvinceId, Power>,
}

impl Wars<'_> {
    pub fn at_war(&self, a: Power, b: Power) -> bool {
        self.wars.contains(&pair(a, b)) || self.declared.contains(&(a, b))
    }

    /// The first of FD-2.5 (a) (moves only), (b), (c) that forbids `a` to enter `dest`:
    /// its error code and the power it needs a war with.
    pub fn blocker(
        &self,
        position: &Position,
        a: Power,
        dest: ProvinceId,
        is_move: bool,
    ) -> Option<(&'static str, Power)> {
        let peace = |b: Power| b != a && !self.at_war(a, b);
        if is_move
            && let Some(Owner::Power(b)) = position.unit_in(dest).map(|u| u.owner)
            && peace(b)
        {
            return Some(("FD-E8", b));
        }
        if let Some(b) = position.owner_of(dest)
            && peace(b)
        {
            return Some(("FD-E9", b));
        }
        match self.soi.get(&dest) {
            Some(b) if peace(*b) => Some(("FD-E10", *b)),
            _ => None,
        }
    }

    /// The refusal of FD-E8/E9/E10 for `order` (`A Bur - Mun`).
    pub fn refusal(
        &self,
        map: &Map,
        a: Power,
        order: &str,
        dest: ProvinceId,
        (code, b): (&'static str, Power),
    ) -> VariantRefusal {
        let prov = map.province_name(dest);
        let what = match code {
            "FD-E8" => format!("is occupied by {b}"),
            "FD-E9" => format!("is a supply centre of {b}"),
            _ => format!("is a sphere of influence of {b}"),
        };
        VariantRefusal::new(
            code,
            format!("{order}: {prov} {what}, and {a} is not at war with {b}."),
        )
    }
}

/// This turn's declarations of war in the orders: (declarer, target).
pub fn declared(game: &GameView<'_>) -> BTreeSet<(Power, Power)> {
    game.variant_orders
        .iter()
        .filter_map(|v| match (v.command.get::<FormalCommand>(), v.from) {
            (Some(FormalCommand::DeclareWar { on }), Sender::Power(a)) => Some((a, *on)),
            _ => None,
        })
        .collect()
}

/// The moves of the turn's unit orders: (power, from, to).
fn moves(game: &GameView<'_>) -> Vec<(Power, ProvinceId, ProvinceId)> {
    game.orders
        .iter()
        .filter_map(|po| match po.order {
            Order::Move { unit, dest, .. } => Some((po.power, unit.province(), dest.province)),
            _ => None,
        })
        .collect()
}

/// Whether the support of the unit in `at` (a `power`'s) for a claim on `target` is cut: a
/// unit of another power is ordered to move into `at` from anywhere but `target`.
fn cut(game: &GameView<'_>, power: Power, at: ProvinceId, target: ProvinceId) -> bool {
    moves(game)
        .iter()
        .any(|(p, from, to)| *p != power && *to == at && *from != target)
}

/// The turn's declarations of spheres of influence (FD-4), as the state and the orders give
/// them.
pub fn claims(game: &GameView<'_>, s: &FormalState) -> Vec<Claim> {
    let declared = declared(game);
    let wars = Wars {
        wars: &s.wars,
        declared: &declared,
        soi: &s.soi,
    };
    let mut out = Vec::new();
    for v in game.variant_orders {
        let (Some(FormalCommand::Soi { province, .. }), Sender::Power(a), Slot::Unit(at)) =
            (v.command.get::<FormalCommand>(), v.from, &v.slot)
        else {
            continue;
        };
        let target = province.unwrap_or(*at);
        let adjacent = target != *at;
        let void_by = if adjacent {
            wars.blocker(game.position, a, target, false)
                .map(|(_, b)| b)
        } else {
            None
        };
        let mut supports = Vec::new();
        for other in game.variant_orders {
            if let (
                Some(FormalCommand::SupportSoi {
                    unit,
                    target: supported,
                    province,
                }),
                Sender::Power(p),
            ) = (other.command.get::<FormalCommand>(), other.from)
                && supported.province() == *at
                && *province == target
            {
                let from = unit.province();
                supports.push((from, false, cut(game, p, from, target)));
            }
        }
        for po in game.orders {
            if let Order::SupportMove {
                unit,
                target: t,
                dest,
            } = po.order
                && t.province() == *at
                && dest.province == target
            {
                let from = unit.province();
                supports.push((from, true, cut(game, po.power, from, target)));
            }
        }
        let uncut = supports.iter().filter(|(_, _, c)| !c).count();
        out.push(Claim {
            power: a,
            unit_at: *at,
            target,
            void_by,
            strength: 1 + u32::try_from(uncut).unwrap_or(0),
            supports,
        });
    }
    out
}

/// The adjudication rules of a Formal game.
pub struct FormalRules {
    /// The phase is being resolved: a move that needs a war is void, not refused (FD-2.8).
    pub resolving: bool,
    pub wars: BTreeSet<(Power, Power)>,
    pub declared: BTreeSet<(Power, Power)>,
    pub soi: BTreeMap<ProvinceId, Power>,
    pub claims: Vec<Claim>,
}

impl FormalRules {
    fn wars(&self) -> Wars<'_> {
        Wars {
            wars: &self.wars,
            declared: &self.declared,
            soi: &self.soi,
        }
    }
}

impl OwnOrderCheck for FormalRules {
    fn resolving(&self) -> bool {
        self.resolving
    }

    /// FD-2.5, FD-2.7: moves and retreats that need a war are refused on receipt.
    fn own_refusal(&self, map: &Map, position: &Position, po: &PowerOrder) -> Result<(), Refusal> {
        let (dest, is_move) = match po.order {
            Order::Move { dest, .. } => (dest.province, true),
            Order::Retreat { dest, .. } => (dest.province, false),
            _ => return Ok(()),
        };
        let w = self.wars();
        match w.blocker(position, po.power, dest, is_move) {
            Some(b) => Err(Refusal::Variant(w.refusal(
                map,
                po.power,
                &po.order.display(map),
                dest,
                b,
            ))),
            None => Ok(()),
        }
    }

    /// FD-2.5(b)(c) for a retreat: the war's error, not the generic "cannot retreat there".
    fn own_refusal_instead(
        &self,
        map: &Map,
        position: &Position,
        po: &PowerOrder,
        _refusal: &Refusal,
    ) -> Option<Refusal> {
        let Order::Retreat { dest, .. } = po.order else {
            return None;
        };
        let w = self.wars();
        w.blocker(position, po.power, dest.province, false)
            .map(|b| {
                Refusal::Variant(w.refusal(map, po.power, &po.order.display(map), dest.province, b))
            })
    }
}

impl Rules for FormalRules {
    /// H3: the parts above, put together by [`OwnOrderCheck::check`].
    fn check_order(
        &self,
        map: &Map,
        position: &Position,
        po: &PowerOrder,
        standard: Option<&Refusal>,
    ) -> OrderCheck {
        OwnOrderCheck::check(self, map, position, po, standard)
    }

    /// FD-2.8: a move that needs a war it no longer has is void; a unit declaring a sphere
    /// of influence holds (FD-4.3, 4.4), and so does a unit supporting a claim (its support
    /// counts for the claim, FD-4.4; the result line says so).
    fn rewrite(
        &self,
        map: &Map,
        position: &Position,
        po: &PowerOrder,
        given: bool,
    ) -> Option<Rewrite> {
        let unit = po.order.unit()?;
        let backing = self.claims.iter().find_map(|c| {
            c.supports
                .iter()
                .find(|(from, standard, _)| *from == unit.province() && *standard == given)
                .map(|(_, _, cut)| (c, *cut))
        });
        if let Some((c, cut)) = backing {
            let note = format!(
                "supports the claim on {}{}",
                map.province_name(c.target),
                if cut { "; cut" } else { "" }
            );
            return Some(Rewrite {
                order: Order::Hold { unit },
                show_given: given,
                note,
            });
        }
        if given {
            let Order::Move { dest, .. } = po.order else {
                return None;
            };
            let (_, b) = self
                .wars()
                .blocker(position, po.power, dest.province, true)?;
            return Some(Rewrite {
                order: Order::Hold { unit },
                show_given: true,
                note: format!("void: not at war with {b}"),
            });
        }
        let claim = self.claims.iter().find(|c| c.unit_at == unit.province())?;
        let target = map.province_name(claim.target);
        let note = match claim.void_by {
            Some(b) => format!("SOI {target}; void: not at war with {b}"),
            None => format!("SOI {target}"),
        };
        Some(Rewrite {
            order: Order::Hold { unit },
            show_given: false,
            note,
        })
    }

    /// FD-4.4 (H11): an adjacent claim contends for its province like a move.
    fn pseudo_moves(
        &self,
        _map: &Map,
        _position: &Position,
        _orders: &[PowerOrder],
    ) -> Vec<PseudoMove> {
        self.claims
            .iter()
            .filter(|c| c.adjacent() && c.void_by.is_none())
            .map(|c| PseudoMove {
                owner: Owner::Power(c.power),
                province: c.target,
                strength: Strength::new(c.strength, 1),
            })
            .collect()
    }

    /// FD-2.5(b)(c) for retreats (H13).
    fn retreat_allowed(
        &self,
        _map: &Map,
        position: &Position,
        unit: &Unit,
        dest: Location,
    ) -> bool {
        match unit.owner {
            Owner::Power(a) => self
                .wars()
                .blocker(position, a, dest.province, false)
                .is_none(),
            Owner::Neutral => true,
        }
    }
}
