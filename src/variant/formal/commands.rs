//! Formal Diplomacy's commands (§3): declarations of war, surrenders, spheres of influence,
//! their supports and undos, all kept with the movement orders; each refused with the spec's
//! code and sentence in the table's order.

use super::grammar::FormalCommand;
use crate::map::{Map, Power, ProvinceId};
use crate::rules::{self, Owner, PhaseKind, Unit, VariantRefusal};
use crate::variant::{CommandContext, Sender, Slot, Taken};

use super::rules::{Wars, declared};
use super::state::{FormalState, eliminated};

fn refuse<T>(code: &'static str, sentence: String) -> Result<T, VariantRefusal> {
    Err(VariantRefusal::new(code, sentence))
}

/// The sender's own commands of this kind in the phase's order set.
fn own<'a>(cx: &'a CommandContext<'_>, a: Power) -> impl Iterator<Item = &'a FormalCommand> + 'a {
    cx.game
        .commands::<FormalCommand>()
        .filter(move |(from, _)| *from == Sender::Power(a))
        .map(|(_, c)| c)
}

/// `A Gascony`.
fn unit_words(map: &Map, u: &Unit) -> String {
    format!("{} {}", u.kind.letter(), map.location_name(u.location))
}

/// H1: whether and how a command is taken now.
pub fn take(
    cx: &CommandContext<'_>,
    s: &FormalState,
    command: &FormalCommand,
) -> Result<Taken, VariantRefusal> {
    let map = cx.game.map;
    let position = cx.game.position;
    let Sender::Power(a) = cx.sender else {
        return refuse(
            "NOT-A-POWER",
            "wars, surrenders and spheres of influence are a power's; sign on as the power (or BECOME it)".into(),
        );
    };
    let movement = position.phase.kind == PhaseKind::Movement;
    let not_movement = || {
        refuse(
            "FD-E4",
            format!(
                "{} can only be given with Spring or Fall movement orders.",
                cx.text
            ),
        )
    };
    match command {
        FormalCommand::DeclareWar { on: b } => {
            if !movement {
                return not_movement();
            }
            if eliminated(position, *b) {
                return refuse("FD-E3", format!("{b} is not a power still in this game."));
            }
            if *b == a {
                return refuse("FD-E1", "a power cannot declare war on itself.".into());
            }
            if s.at_war(a, *b) {
                return refuse("FD-E2", format!("{a} is already at war with {b}."));
            }
            if own(cx, a).any(|c| *c == FormalCommand::DeclareWar { on: *b }) {
                return refuse(
                    "FD-E17",
                    format!("{a} has already declared war on {b} in these orders."),
                );
            }
            if own(cx, a).any(|c| *c == FormalCommand::Surrender) {
                return surrender_and_war();
            }
            Ok(Taken::Order {
                slot: Slot::Named(format!("dwo {}", b.name())),
                echo: None,
            })
        }
        FormalCommand::Surrender => {
            if !movement {
                return not_movement();
            }
            if own(cx, a).any(|c| matches!(c, FormalCommand::DeclareWar { .. })) {
                return surrender_and_war();
            }
            let enemies = s.enemies(a);
            if enemies.is_empty() {
                return refuse("FD-E5", format!("{a} is not at war with anyone."));
            }
            if let Some((prov, b)) = controlled_home(map, position, a, &enemies) {
                return refuse(
                    "FD-E6",
                    format!(
                        "{a} may not surrender while it controls {}, in the home country of {b}, with which it is at war.",
                        map.province_name(prov)
                    ),
                );
            }
            Ok(Taken::Order {
                slot: Slot::Named("surrender".into()),
                echo: None,
            })
        }
        FormalCommand::UndoSoi { province } => {
            if !movement {
                return not_movement();
            }
            if s.soi.get(province) != Some(&a) {
                return refuse(
                    "FD-E15",
                    format!(
                        "{} is not a sphere of influence of {a}.",
                        map.province_name(*province)
                    ),
                );
            }
            Ok(Taken::Order {
                slot: Slot::Named(format!("undo soi {}", map.code(*province))),
                echo: None,
            })
        }
        FormalCommand::Soi { unit, province } => {
            if !movement {
                return not_movement();
            }
            let target = match (unit, province) {
                (_, Some(p)) => *p,
                (Some(u), None) => u.province(),
                (None, None) => return refuse("FD-E11", "name a province".into()),
            };
            if let Some(b) = s.soi.get(&target) {
                return refuse(
                    "FD-E14",
                    format!(
                        "{} is already a sphere of influence of {b}.",
                        map.province_name(target)
                    ),
                );
            }
            let declared = declared(&cx.game);
            let wars = Wars {
                wars: &s.wars,
                declared: &declared,
                soi: &s.soi,
            };
            let by = match unit {
                Some(spec) => {
                    let u = rules::unit_named(map, position, spec, a)
                        .map_err(|r| VariantRefusal::new(r.code(), r.to_string()))?;
                    check_declarer(map, position, &wars, a, u, target)?;
                    u.location.province
                }
                None => pick_declarer(map, position, &wars, a, target)?,
            };
            Ok(Taken::Order {
                slot: Slot::Unit(by),
                echo: None,
            })
        }
        FormalCommand::SupportSoi {
            unit,
            target,
            province,
        } => {
            if !movement {
                return not_movement();
            }
            let u = rules::unit_named(map, position, unit, a)
                .map_err(|r| VariantRefusal::new(r.code(), r.to_string()))?;
            if position.unit_in(target.province()).is_none() {
                return refuse(
                    "NO-UNIT",
                    format!(
                        "there is no unit in {}",
                        map.province_name(target.province())
                    ),
                );
            }
            if !rules::can_reach(map, u, *province) {
                return refuse(
                    "SUPPORT-UNREACHABLE",
                    format!(
                        "{} cannot reach {}, so it cannot support a claim there",
                        unit_words(map, u),
                        map.province_name(*province)
                    ),
                );
            }
            Ok(Taken::Order {
                slot: Slot::Unit(u.location.province),
                echo: None,
            })
        }
    }
}

fn surrender_and_war<T>() -> Result<T, VariantRefusal> {
    refuse(
        "FD-E7",
        "a power cannot surrender and declare war in the same turn.".into(),
    )
}

/// FD-3.2: a home province of an enemy that `a` controls (owns its centre, or has a unit in
/// its home country), if any: the first by enemy, then province code.
fn controlled_home(
    map: &Map,
    position: &crate::rules::Position,
    a: Power,
    enemies: &[Power],
) -> Option<(ProvinceId, Power)> {
    for b in enemies {
        let mut country = map.home_country(*b);
        country.sort_by(|x, y| map.code(*x).cmp(map.code(*y)));
        for p in country {
            let owned = map.province(p).supply_centre && position.owner_of(p) == Some(a);
            let occupied = position
                .unit_in(p)
                .is_some_and(|u| u.owner == Owner::Power(a));
            if owned || occupied {
                return Some((p, *b));
            }
        }
    }
    None
}

/// FD-4.1 for a named unit: in place, or adjacent to an empty province it could legally
/// enter; FD-E11, FD-E12, then FD-E9/E10.
fn check_declarer(
    map: &Map,
    position: &crate::rules::Position,
    wars: &Wars<'_>,
    a: Power,
    u: &Unit,
    target: ProvinceId,
) -> Result<(), VariantRefusal> {
    if u.location.province == target {
        return Ok(());
    }
    if !rules::can_reach(map, u, target) {
        return refuse(
            "FD-E11",
            format!(
                "{} cannot declare {}: it is not there and cannot move there.",
                unit_words(map, u),
                map.province_name(target)
            ),
        );
    }
    let order = format!(
        "{} {} SOI {}",
        u.kind.letter(),
        map.display_location(u.location),
        map.display_code(target)
    );
    open_to_claim(map, position, wars, a, target, u.location.province, &order)
}

/// FD-4.1b for an adjacent claim on `target` from `from`: the province is empty (FD-E12) and
/// open to `a` without a war (FD-E9, FD-E10; `order` is the claim as the error quotes it).
fn open_to_claim(
    map: &Map,
    position: &crate::rules::Position,
    wars: &Wars<'_>,
    a: Power,
    target: ProvinceId,
    from: ProvinceId,
    order: &str,
) -> Result<(), VariantRefusal> {
    if position.unit_in(target).is_some() {
        return refuse(
            "FD-E12",
            format!(
                "{} is occupied, so it cannot be declared from {}.",
                map.province_name(target),
                map.province_name(from)
            ),
        );
    }
    match wars.blocker(position, a, target, false) {
        Some(b) => Err(wars.refusal(map, a, order, target, b)),
        None => Ok(()),
    }
}

/// FD-4.1 when no unit is named: the power's unit in the province, else its only unit that
/// could declare it (FD-E11, FD-E13).
fn pick_declarer(
    map: &Map,
    position: &crate::rules::Position,
    wars: &Wars<'_>,
    a: Power,
    target: ProvinceId,
) -> Result<ProvinceId, VariantRefusal> {
    if let Some(u) = position.unit_in(target)
        && u.owner == Owner::Power(a)
    {
        return Ok(target);
    }
    let mut candidates: Vec<&Unit> = position
        .units
        .iter()
        .filter(|u| u.owner == Owner::Power(a) && rules::can_reach(map, u, target))
        .collect();
    candidates.sort_by(|x, y| {
        map.code(x.location.province)
            .cmp(map.code(y.location.province))
    });
    match candidates.as_slice() {
        [] => refuse(
            "FD-E11",
            format!(
                "{a} has no unit in {} and no unit next to it that could move there.",
                map.province_name(target)
            ),
        ),
        [one] => {
            check_declarer(map, position, wars, a, one, target)?;
            Ok(one.location.province)
        }
        [first, ..] => {
            let order = format!("SOI {}", map.display_code(target));
            open_to_claim(
                map,
                position,
                wars,
                a,
                target,
                first.location.province,
                &order,
            )?;
            refuse(
                "FD-E13",
                format!(
                    "several units could declare {}; name one, for example \"{} SOI {}\".",
                    map.province_name(target),
                    unit_words(map, first),
                    map.province_name(target)
                ),
            )
        }
    }
}
