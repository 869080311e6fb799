//! Adjudication of a Winter adjustment phase: builds, removals, waives, and civil-disorder
//! removals by distance (the 2023 rule the DATC v3.0 follows).

use crate::map::{Location, Map, Power, ProvinceId, Terrain};

use super::hooks::Rules;
use super::order::{Order, PowerOrder, Refusal, UnitSpec};
use super::outcome::{Failure, OrderResult, PhaseRecord, UnitRecord};
use super::position::{Owner, Position, Unit, UnitId, UnitKind};

/// Whether any power has an adjustment to make (used to skip an empty Winter).
pub(crate) fn adjustments_needed(map: &Map, rules: &dyn Rules, position: &Position) -> bool {
    Power::ALL.into_iter().any(|p| {
        let count = rules.adjustment_count(position, p);
        count < 0
            || count > 0
                && rules
                    .build_sites(map, position, p)
                    .into_iter()
                    .any(|s| position.unit_in(s).is_none())
    })
}

fn check_build(
    map: &Map,
    rules: &dyn Rules,
    position: &Position,
    power: Power,
    spec: UnitSpec,
    built: &[ProvinceId],
) -> Result<Unit, Refusal> {
    let p = spec.province();
    let place = map.location_name(Location::province(p));
    if !rules.build_sites(map, position, power).contains(&p) {
        return Err(if map.province(p).home_of == Some(power) {
            Refusal::CentreNotOwned {
                place,
                power: power.name().to_string(),
            }
        } else {
            Refusal::NotHomeCentre {
                place,
                power: power.name().to_string(),
            }
        });
    }
    if position.unit_in(p).is_some() {
        return Err(Refusal::Occupied(place));
    }
    if built.contains(&p) {
        return Err(Refusal::DoubleBuild(place));
    }
    let province = map.province(p);
    let kind = spec.kind.unwrap_or(UnitKind::Army);
    let location = match kind {
        UnitKind::Army => {
            if province.terrain == Terrain::Sea {
                return Err(Refusal::ArmyAtSea(place));
            }
            Location::province(p)
        }
        UnitKind::Fleet => {
            if province.terrain != Terrain::Coast {
                return Err(Refusal::FleetInland(place));
            }
            match (province.coasts.is_empty(), spec.location.coast) {
                (true, _) => Location::province(p),
                (false, Some(c)) if province.coasts.contains(&c) => spec.location,
                (false, _) => return Err(Refusal::BuildCoastNeeded(place)),
            }
        }
    };
    Ok(Unit::new(Owner::Power(power), kind, location))
}

/// The number of steps from `from` to the nearest province in `targets`, over any border
/// (armies and fleets alike may count over land and sea: the 2023 rule).
fn distance(map: &Map, from: ProvinceId, targets: u128) -> u32 {
    let mut seen = 1u128 << from.index();
    let mut frontier = seen;
    let mut steps = 0;
    while frontier != 0 {
        if frontier & targets != 0 {
            return steps;
        }
        let mut next = 0u128;
        let mut f = frontier;
        while f != 0 {
            let i = f.trailing_zeros() as usize;
            f &= f - 1;
            if let Some(q) = map.province_ids().nth(i) {
                next |= map.neighbours_bits(q);
            }
        }
        frontier = next & !seen;
        seen |= next;
        steps += 1;
    }
    u32::MAX
}

/// Civil-disorder removal order (DATC 6.J, 2023 rulebook): farthest from an owned supply
/// centre first; at equal distance fleets before armies; then alphabetically by the
/// province's English name.
fn civil_disorder_order(map: &Map, position: &Position, power: Power, units: &mut [Unit]) {
    let owned: u128 = map
        .province_ids()
        .filter(|p| position.owner_of(*p) == Some(power))
        .fold(0, |acc, p| acc | 1u128 << p.index());
    units.sort_by(|a, b| {
        let da = distance(map, a.location.province, owned);
        let db = distance(map, b.location.province, owned);
        db.cmp(&da)
            .then_with(|| (b.kind == UnitKind::Fleet).cmp(&(a.kind == UnitKind::Fleet)))
            .then_with(|| {
                map.province(a.location.province)
                    .name
                    .cmp(&map.province(b.location.province).name)
            })
    });
}

/// A unit the phase record lists as removed.
fn removed_record(u: &Unit, order: Order, given: bool) -> UnitRecord {
    UnitRecord {
        id: u.id,
        owner: u.owner,
        from: u.location,
        order,
        given,
        moved_to: None,
        dislodged_by: None,
        gone: true,
        built: false,
    }
}

pub(crate) fn adjudicate_adjustments(
    map: &Map,
    rules: &dyn Rules,
    position: &Position,
    orders: &[PowerOrder],
) -> (Vec<OrderResult>, Position, PhaseRecord) {
    let mut after = position.clone();
    let mut results = Vec::new();
    let mut record = PhaseRecord::default();
    for power in Power::ALL {
        let count = rules.adjustment_count(position, power);
        let mut left = count.unsigned_abs() as usize;
        let mut built: Vec<ProvinceId> = Vec::new();
        let mut removed: Vec<ProvinceId> = Vec::new();
        for po in orders.iter().filter(|po| po.power == power) {
            // H3 at resolution: an order taken on receipt may have become one the rule set
            // refuses (a power voted out by this very Winter's vote: its removals are the
            // judge's, SRV-AMB-5). A refused removal is made by the rule below.
            let verdict: Result<(), Refusal> = match rules.validate(map, position, po) {
                Err(r) => Err(r),
                Ok(()) => match po.order {
                    Order::Build { unit } => {
                        if count <= 0 || left == 0 {
                            Err(Refusal::NoBuilds {
                                power: power.name().to_string(),
                            })
                        } else {
                            check_build(map, rules, position, power, unit, &built).map(|u| {
                                built.push(u.location.province);
                                let id = after.place_unit(u);
                                record.units.push(UnitRecord {
                                    id,
                                    owner: u.owner,
                                    from: u.location,
                                    order: po.order,
                                    given: true,
                                    moved_to: Some(u.location),
                                    dislodged_by: None,
                                    gone: false,
                                    built: true,
                                });
                                left -= 1;
                            })
                        }
                    }
                    Order::Waive => {
                        if count <= 0 || left == 0 {
                            Err(Refusal::NoBuilds {
                                power: power.name().to_string(),
                            })
                        } else {
                            left -= 1;
                            Ok(())
                        }
                    }
                    Order::Remove { unit } | Order::Disband { unit } => {
                        let p = unit.province();
                        let place = map.location_name(Location::province(p));
                        let must_remove = count < 0 && left > 0;
                        match position.unit_in(p) {
                            None => Err(Refusal::NoUnit(place)),
                            Some(u) if u.owner != Owner::Power(power) => {
                                Err(Refusal::ForeignUnit {
                                    place,
                                    owner: u.owner.to_string(),
                                    power: power.name().to_string(),
                                })
                            }
                            Some(u) if unit.kind.is_some_and(|k| k != u.kind) => {
                                Err(Refusal::WrongUnitKind {
                                    place,
                                    actual: u.kind.name().to_lowercase(),
                                    ordered: unit
                                        .kind
                                        .map(|k| k.name().to_lowercase())
                                        .unwrap_or_default(),
                                })
                            }
                            Some(_) if removed.contains(&p) => Err(Refusal::Duplicate {
                                unit: map.location_name(Location::province(p)),
                            }),
                            Some(u) if must_remove || rules.may_disband(map, position, u) => {
                                removed.push(p);
                                after.units.retain(|x| x.location.province != p);
                                record.units.push(removed_record(u, po.order, true));
                                if must_remove {
                                    left -= 1;
                                }
                                Ok(())
                            }
                            Some(_) => Err(Refusal::NoRemovals {
                                power: power.name().to_string(),
                            }),
                        }
                    }
                    _ => Err(Refusal::WrongPhase {
                        expected: if matches!(po.order, Order::Retreat { .. }) {
                            "retreat"
                        } else {
                            "movement"
                        },
                    }),
                },
            };
            results.push(OrderResult {
                owner: Owner::Power(power),
                order: po.order,
                given: true,
                failure: verdict.err().map(Failure::Illegal),
                dislodged: false,
                note: None,
            });
        }
        if count < 0 && left > 0 {
            let mut candidates: Vec<Unit> = after
                .units
                .iter()
                .filter(|u| u.owner == Owner::Power(power))
                .copied()
                .collect();
            let chosen: Vec<Unit> =
                match rules.civil_disorder_removals(map, &after, power, &candidates, left) {
                    Some(ids) => ids
                        .iter()
                        .filter_map(|id: &UnitId| candidates.iter().find(|u| u.id == *id))
                        .copied()
                        .take(left)
                        .collect(),
                    None => {
                        civil_disorder_order(map, &after, power, &mut candidates);
                        candidates.into_iter().take(left).collect()
                    }
                };
            for u in chosen {
                after
                    .units
                    .retain(|x| x.location.province != u.location.province);
                let order = Order::Remove {
                    unit: UnitSpec::new(Some(u.kind), u.location),
                };
                record.units.push(removed_record(&u, order, false));
                results.push(OrderResult {
                    owner: Owner::Power(power),
                    order,
                    given: false,
                    failure: None,
                    dislodged: false,
                    note: None,
                });
            }
        } else if count > 0 {
            for _ in 0..left {
                results.push(OrderResult {
                    owner: Owner::Power(power),
                    order: Order::Waive,
                    given: false,
                    failure: None,
                    dislodged: false,
                    note: None,
                });
            }
        }
    }
    after.sort_units();
    (results, after, record)
}
