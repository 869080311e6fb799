//! Order validity for movement phases (H3): which orders are legal, and the legal set the
//! resolver sees. Illegal orders are refused with a reason; their unit holds (DATC 4.E.1).

use crate::map::{Location, Map, ProvinceId, Terrain};

use super::hooks::{Rewrite, Rules};
use super::order::{Order, PowerOrder, Refusal, UnitSpec};
use super::position::{Owner, Position, Unit, UnitKind};

/// A legal movement-phase order, with every reference turned into a unit index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Legal {
    Hold,
    /// `dest` is coast-exact for fleets. `convoy`: the army goes by convoy only (ordered
    /// via convoy, not adjacent, or a convoy of its own power shows the intent; DATC 4.A.3).
    Move {
        dest: Location,
        convoy: bool,
    },
    SupportHold {
        target: usize,
    },
    /// `coast`: the coast the supporter named, if any; it must match the move's.
    SupportMove {
        target: usize,
        dest: ProvinceId,
        coast: Option<crate::map::Coast>,
    },
    Convoy {
        army: usize,
        dest: ProvinceId,
    },
}

/// The result of validation: one legal order per unit (default hold), which order each
/// came from, and the refused orders with their reasons.
#[derive(Debug)]
pub(crate) struct Validated {
    pub legal: Vec<Legal>,
    /// For each unit, the index in the input of the order it follows (None: no order).
    pub source: Vec<Option<usize>>,
    pub refused: Vec<(usize, Refusal)>,
    /// Per unit, how the rule set rewrote its order (H4); empty when nothing was.
    pub rewrites: Vec<Option<Rewrite>>,
}

/// The position with a province → unit table and the fleets at sea, built once per
/// validation.
pub(crate) struct Board<'a> {
    position: &'a Position,
    unit_at: [u8; 128],
    fleets: u128,
}

impl<'a> Board<'a> {
    pub(crate) fn new(map: &Map, position: &'a Position) -> Board<'a> {
        let mut unit_at = [u8::MAX; 128];
        for (i, u) in position.units.iter().enumerate() {
            if let Some(slot) = unit_at.get_mut(u.location.province.index()) {
                *slot = u8::try_from(i).unwrap_or(u8::MAX);
            }
        }
        Board {
            position,
            unit_at,
            fleets: fleet_seas(map, position),
        }
    }

    fn unit_in(&self, p: ProvinceId) -> Option<usize> {
        match self.unit_at.get(p.index()).copied() {
            None | Some(u8::MAX) => None,
            Some(i) => Some(usize::from(i)),
        }
    }
}

/// Finds the unit an order names: it must exist, belong to `owner` when given, and be of
/// the kind written (when written). The coast of the ordered unit is ignored (DATC 6.B.10).
fn find_unit(
    map: &Map,
    board: &Board<'_>,
    spec: &UnitSpec,
    owner: Option<crate::map::Power>,
) -> Result<usize, Refusal> {
    let place = || map.location_name(Location::province(spec.province()));
    let i = board
        .unit_in(spec.province())
        .ok_or_else(|| Refusal::NoUnit(place()))?;
    let unit = board
        .position
        .units
        .get(i)
        .ok_or_else(|| Refusal::NoUnit(place()))?;
    if let Some(power) = owner {
        match unit.owner {
            Owner::Neutral => return Err(Refusal::NeutralUnit),
            Owner::Power(p) if p != power => {
                return Err(Refusal::ForeignUnit {
                    place: place(),
                    owner: p.name().to_string(),
                    power: power.name().to_string(),
                });
            }
            _ => {}
        }
    }
    if let Some(kind) = spec.kind
        && kind != unit.kind
    {
        return Err(Refusal::WrongUnitKind {
            place: place(),
            actual: unit.kind.name().to_lowercase(),
            ordered: kind.name().to_lowercase(),
        });
    }
    Ok(i)
}

/// The unit a rule set's own order names (`F Lon HOLD EXCHANGE …`), checked as every
/// order's unit is: it exists, it is `owner`'s, it is of the kind written. The refusals are
/// the judge's generic ones (`NO-UNIT`, `FOREIGN-UNIT`, `WRONG-UNIT-KIND`).
pub fn unit_named<'p>(
    map: &Map,
    position: &'p Position,
    spec: &UnitSpec,
    owner: crate::map::Power,
) -> Result<&'p Unit, Refusal> {
    let board = Board::new(map, position);
    let i = find_unit(map, &board, spec, Some(owner))?;
    position
        .units
        .get(i)
        .ok_or_else(|| Refusal::NoUnit(map.location_name(Location::province(spec.province()))))
}

/// Whether a unit could move to `dest` province in one step (any coast, for fleets). Used
/// for supports: "the supporting unit must be able to move there itself".
pub(crate) fn can_reach(map: &Map, unit: &Unit, dest: ProvinceId) -> bool {
    match unit.kind {
        UnitKind::Army => map.army_border(unit.location.province, dest),
        UnitKind::Fleet => map.fleet_targets(unit.location, dest).next().is_some(),
    }
}

/// The sea areas next to a province, as a bit set.
fn adjacent_seas(map: &Map, p: ProvinceId) -> u128 {
    map.sea_neighbours_bits(p)
}

/// The sea areas that hold a fleet.
pub(crate) fn fleet_seas(map: &Map, position: &Position) -> u128 {
    position
        .units
        .iter()
        .filter(|u| u.kind == UnitKind::Fleet && map.is_sea(u.location.province))
        .fold(0, |acc, u| acc | 1u128 << u.location.province.index())
}

/// Whether the fleets at sea (`fleets`) form a chain from `from` to `to`: the test for a
/// convoyed move to be possible at all (DATC 6.D.32, issue 4.E.1: with no such chain the
/// order is illegal, not merely unsuccessful).
pub(crate) fn convoy_possible(map: &Map, from: ProvinceId, to: ProvinceId, fleets: u128) -> bool {
    let end = adjacent_seas(map, to) & fleets;
    let mut seen = adjacent_seas(map, from) & fleets;
    let mut frontier = seen;
    while frontier != 0 {
        if frontier & end != 0 {
            return true;
        }
        let mut next = 0u128;
        let mut f = frontier;
        while f != 0 {
            let i = f.trailing_zeros() as usize;
            f &= f - 1;
            if let Some(q) = map.province_at(i) {
                next |= adjacent_seas(map, q) & fleets;
            }
        }
        frontier = next & !seen;
        seen |= next;
    }
    false
}

/// Whether the fleet in sea area `through` is a necessary link of some convoy route from
/// `from` to `to` over the fleets at sea: it lies on a chain of fleets none of which can
/// be left out (an induced path). A convoy order by a fleet that no route needs is
/// illegal (DATC 6.G.7 and 6.G.19, 2023 rules).
pub(crate) fn fleet_needed(
    map: &Map,
    from: ProvinceId,
    to: ProvinceId,
    fleets: u128,
    through: ProvinceId,
) -> bool {
    let target = 1u128 << through.index();
    if fleets & target == 0 {
        return false;
    }
    let seas_near = |p: usize| -> u128 {
        map.province_at(p)
            .map(|q| adjacent_seas(map, q) & fleets)
            .unwrap_or(0)
    };
    let walk = Walk {
        near_from: adjacent_seas(map, from) & fleets,
        near_to: adjacent_seas(map, to) & fleets,
        target,
        seas_near: &seas_near,
    };
    let mut starts = walk.near_from;
    while starts != 0 {
        let s = starts.trailing_zeros() as usize;
        starts &= starts - 1;
        if walk.from(s, 1u128 << s) {
            return true;
        }
    }
    false
}

/// Depth-first search over induced paths of fleets for [`fleet_needed`].
struct Walk<'a> {
    near_from: u128,
    near_to: u128,
    target: u128,
    seas_near: &'a dyn Fn(usize) -> u128,
}

impl Walk<'_> {
    /// Extends the path ending at sea `last`. Each new sea touches the path only at its
    /// last sea and does not touch the start province (else a fleet could be skipped);
    /// the path ends at the first sea that touches the destination.
    fn from(&self, last: usize, path: u128) -> bool {
        if self.near_to & (1u128 << last) != 0 {
            return path & self.target != 0;
        }
        let mut next = (self.seas_near)(last) & !path & !self.near_from;
        while next != 0 {
            let s = next.trailing_zeros() as usize;
            next &= next - 1;
            if (self.seas_near)(s) & path != 1u128 << last {
                continue;
            }
            if self.from(s, path | 1u128 << s) {
                return true;
            }
        }
        false
    }
}

fn is_land(map: &Map, p: ProvinceId) -> bool {
    map.province(p).terrain != Terrain::Sea
}

/// Picks the coast-exact destination of a fleet move (DATC 6.B.1–6.B.3): a named coast must
/// be reachable; an unnamed one is taken when exactly one coast is reachable.
fn fleet_destination(map: &Map, unit: &Unit, dest: Location) -> Result<Location, Refusal> {
    let name = |l: Location| map.location_name(l);
    let mut reachable = map.fleet_targets(unit.location, dest.province);
    let first = reachable.next();
    let second = reachable.next();
    match (dest.coast, first, second) {
        (Some(_), _, _) if map.fleet_border(unit.location, dest) => Ok(dest),
        (None, Some(only), None) => Ok(only),
        (None, Some(_), Some(_)) => Err(Refusal::CoastNeeded {
            unit: unit.display(map),
            dest: name(dest),
        }),
        _ => Err(Refusal::Unreachable {
            unit: unit.display(map),
            dest: name(dest),
        }),
    }
}

/// Checks one movement-phase order against the position (the DATC's legality, then H3).
fn check(
    map: &Map,
    rules: &dyn Rules,
    board: &Board<'_>,
    po: &PowerOrder,
) -> Result<(usize, Legal), Refusal> {
    let position = board.position;
    let units = &position.units;
    let get = |i: usize| units.get(i).ok_or(Refusal::NoUnit(String::new()));
    let unit_spec = match po.order {
        Order::Hold { unit }
        | Order::Move { unit, .. }
        | Order::SupportHold { unit, .. }
        | Order::SupportMove { unit, .. }
        | Order::Convoy { unit, .. } => unit,
        Order::Retreat { .. } | Order::Disband { .. } => {
            return Err(Refusal::WrongPhase {
                expected: "retreat",
            });
        }
        Order::Build { .. } | Order::Remove { .. } | Order::Waive => {
            return Err(Refusal::WrongPhase {
                expected: "adjustment",
            });
        }
    };
    let i = find_unit(map, board, &unit_spec, Some(po.power))?;
    let unit = get(i)?;
    let here = unit.location.province;
    let legal = match po.order {
        Order::Hold { .. } => Legal::Hold,
        Order::Move {
            dest, via_convoy, ..
        } => {
            if dest.province == here {
                return Err(Refusal::MoveToSelf(unit.display(map)));
            }
            match unit.kind {
                UnitKind::Army => {
                    // The coast an army is ordered to is ignored (DATC 6.B.12).
                    let dest = Location::province(dest.province);
                    let adjacent = map.army_border(here, dest.province);
                    let by_sea = is_land(map, dest.province)
                        && convoy_possible(map, here, dest.province, board.fleets);
                    if !by_sea && (via_convoy || !adjacent) {
                        return Err(Refusal::Unreachable {
                            unit: unit.display(map),
                            dest: map.location_name(dest),
                        });
                    }
                    Legal::Move {
                        dest,
                        convoy: via_convoy || !adjacent,
                    }
                }
                UnitKind::Fleet => {
                    if via_convoy {
                        return Err(Refusal::OnlyArmiesConvoyed);
                    }
                    Legal::Move {
                        dest: fleet_destination(map, unit, dest)?,
                        convoy: false,
                    }
                }
            }
        }
        Order::SupportHold { target, .. } => {
            let t = find_unit(map, board, &target, None)?;
            if t == i {
                return Err(Refusal::SupportSelf);
            }
            let tp = get(t)?.location.province;
            if !can_reach(map, unit, tp) {
                return Err(Refusal::SupportUnreachable {
                    unit: unit.display(map),
                    dest: map.location_name(Location::province(tp)),
                });
            }
            Legal::SupportHold { target: t }
        }
        Order::SupportMove { target, dest, .. } => {
            let t = find_unit(map, board, &target, None)?;
            if t == i || dest.province == here {
                return Err(Refusal::SupportSelf);
            }
            let target_unit = get(t)?;
            if target_unit.location.province == dest.province {
                return Err(Refusal::MoveToSelf(target_unit.display(map)));
            }
            if !can_reach(map, unit, dest.province) {
                return Err(Refusal::SupportUnreachable {
                    unit: unit.display(map),
                    dest: map.location_name(Location::province(dest.province)),
                });
            }
            Legal::SupportMove {
                target: t,
                dest: dest.province,
                coast: dest.coast,
            }
        }
        Order::Convoy { army, dest, .. } => {
            if unit.kind != UnitKind::Fleet || !map.is_sea(here) {
                return Err(Refusal::ConvoyFromLand);
            }
            let a = find_unit(map, board, &army, None)?;
            let army_unit = get(a)?;
            if army_unit.kind != UnitKind::Army {
                return Err(Refusal::OnlyArmiesConvoyed);
            }
            let from = army_unit.location.province;
            if from == dest.province || !is_land(map, dest.province) {
                return Err(Refusal::Unreachable {
                    unit: army_unit.display(map),
                    dest: map.location_name(Location::province(dest.province)),
                });
            }
            if !fleet_needed(map, from, dest.province, board.fleets, here) {
                return Err(Refusal::NoConvoyRoute {
                    fleet: unit.display(map),
                    from: map.location_name(Location::province(from)),
                    to: map.location_name(Location::province(dest.province)),
                });
            }
            Legal::Convoy {
                army: a,
                dest: dest.province,
            }
        }
        Order::Retreat { .. }
        | Order::Disband { .. }
        | Order::Build { .. }
        | Order::Remove { .. }
        | Order::Waive => Legal::Hold,
    };
    rules.validate(map, position, po)?;
    Ok((i, legal))
}

/// Validates a movement phase's orders. A later order for the same unit replaces an
/// earlier one (the earlier is refused as a duplicate), as a player's correction would.
pub(crate) fn validate_movement(
    map: &Map,
    rules: &dyn Rules,
    position: &Position,
    orders: &[PowerOrder],
) -> Validated {
    let n = position.units.len();
    let mut legal = vec![Legal::Hold; n];
    let mut source: Vec<Option<usize>> = vec![None; n];
    let mut refused = Vec::with_capacity(orders.len());
    let board = Board::new(map, position);
    let mut accepted: Vec<(usize, usize, Legal)> = Vec::with_capacity(orders.len());
    for (k, po) in orders.iter().enumerate() {
        match check(map, rules, &board, po) {
            Ok((i, l)) => accepted.push((k, i, l)),
            Err(r) => refused.push((k, r)),
        }
    }
    for (k, i, l) in accepted {
        if let (Some(slot), Some(src)) = (legal.get_mut(i), source.get_mut(i)) {
            if let Some(prev) = *src {
                refused.push((
                    prev,
                    Refusal::Duplicate {
                        unit: position
                            .units
                            .get(i)
                            .map(|u| u.display(map))
                            .unwrap_or_default(),
                    },
                ));
            }
            *slot = l;
            *src = Some(k);
        }
    }

    // H4: the rule set may rewrite any unit's order, a given one or its default hold. A
    // rewritten order is checked again; one that is no longer legal holds.
    let mut rewrites: Vec<Option<Rewrite>> = Vec::new();
    for (i, unit) in position.units.iter().enumerate() {
        let Owner::Power(power) = unit.owner else {
            continue;
        };
        let k = source.get(i).copied().flatten();
        let given = k.and_then(|k| orders.get(k)).copied();
        let po = given.unwrap_or_else(|| {
            PowerOrder::new(
                power,
                Order::Hold {
                    unit: UnitSpec::new(Some(unit.kind), unit.location),
                },
            )
        });
        let Some(rw) = rules.rewrite(map, position, &po, given.is_some()) else {
            continue;
        };
        let l = match check(map, rules, &board, &PowerOrder::new(power, rw.order)) {
            Ok((j, l)) if j == i => l,
            _ => Legal::Hold,
        };
        if let Some(slot) = legal.get_mut(i) {
            *slot = l;
        }
        if rewrites.is_empty() {
            rewrites = vec![None; n];
        }
        if let Some(slot) = rewrites.get_mut(i) {
            *slot = Some(rw);
        }
    }

    // Convoy intent (DATC 4.A.3, the 1982/2000/2023 rulebooks): an army ordered to an
    // adjacent province goes by convoy when a fleet of its own power orders a legal convoy
    // of exactly that move. There is then no fallback to the land route (DATC 6.G.8).
    let convoys: Vec<(usize, usize, ProvinceId)> = legal
        .iter()
        .enumerate()
        .filter_map(|(f, l)| match l {
            Legal::Convoy { army, dest } => Some((f, *army, *dest)),
            _ => None,
        })
        .collect();
    for (f, a, to) in convoys {
        let (Some(fleet), Some(army)) = (position.units.get(f), position.units.get(a)) else {
            continue;
        };
        if fleet.owner != army.owner || army.kind != UnitKind::Army {
            continue;
        }
        if let Some(Legal::Move { dest, convoy }) = legal.get_mut(a)
            && dest.province == to
        {
            *convoy = true;
        }
    }
    refused.sort_unstable_by_key(|(k, _)| *k);
    Validated {
        legal,
        source,
        refused,
        rewrites,
    }
}
