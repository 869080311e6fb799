//! What a phase changes in International Relations (H16): after a movement turn, the
//! aggression scan, penalties, wars and treaty effects and the Fall's treaties (IR-B, IR-C,
//! IR-E); after a Winter, the abrogation notices (IR-D1); the lapse after the lapsing Spring
//! (IR-D3); the Fall check (IR-E6, IR-A1, IR-E0); and the units confined in an ally's
//! territory (IR-G2). Each returns its bulletin lines in §4's order.

use std::collections::{BTreeMap, BTreeSet};

use super::grammar::{IrCommand, TreatyKind};
use crate::map::{Map, Power, ProvinceId};
use crate::rules::{self, Owner, Phase, PhaseKind, Position, PowerOrder, Season, UnitId};
use crate::variant::{Sender, VariantOrder};

use super::board::{Board, Permit};
use super::state::{IrState, Lapsing, Penalty, Rule, Treaty, count, pair};

/// A penalty incurred in this phase, with the text of its line.
struct Incurred {
    penalty: Penalty,
    text: String,
    /// It fires the first shot (IR-E4: not IR-E3, not Turkey's Bulgaria in 1901).
    shot: bool,
}

/// The year a phase's penalties count from, and whether it counts as a Winter (IR-E0).
fn counting(phase: Phase) -> (u16, bool) {
    match phase.kind {
        PhaseKind::Own(own) if own.before => (phase.year.max(1901), false),
        PhaseKind::Adjustment | PhaseKind::Own(_) => (phase.year, true),
        PhaseKind::Movement | PhaseKind::Retreat => (phase.year, phase.season == Season::Winter),
    }
}

/// IR-E4's table: the first shot's points and years in a phase.
fn first_shot_row(phase: Phase) -> Option<(u32, u16)> {
    let (year, _) = counting(phase);
    let alliance = phase.kind.is(&super::ALLIANCE);
    let spring = phase.season == Season::Spring && !alliance;
    match year {
        1901 if spring || alliance => Some((2, 10)),
        1901 => Some((2, 9)),
        1902 if spring => Some((2, 8)),
        1902 => Some((2, 7)),
        1903 => Some((2, 6)),
        1904 => Some((2, 5)),
        1905 => Some((1, 5)),
        1906 => Some((1, 3)),
        _ => None,
    }
}

/// A new penalty of `points` for `years` (IR-E0), increased by the power's stage of
/// expansionism (IR-E6).
fn incur(
    s: &IrState,
    phase: Phase,
    power: Power,
    rule: Rule,
    (points, years): (u32, u16),
    victim: Option<Power>,
    text: String,
) -> Incurred {
    let bonus = u16::from(s.stage(power));
    let (year, winter) = counting(phase);
    let years = years + bonus;
    // A first shot in a Winter takes the Fall row and ends with it (IR-E4).
    let last_fall = if winter && rule != Rule::E4 {
        year + years
    } else {
        year + years - 1
    };
    Incurred {
        penalty: Penalty {
            power,
            points: points + u32::from(bonus),
            last_fall,
            rule,
            victim,
        },
        text,
        shot: rule != Rule::E3,
    }
}

/// Adds the phase's penalties, with the first shot if this phase fires it (IR-E4), and
/// returns their `PENALTY:` lines by power, then rule (§4 step 1).
fn settle(s: &mut IrState, phase: Phase, mut new: Vec<Incurred>) -> Vec<String> {
    if !s.first_shot_fired && new.iter().any(|i| i.shot) {
        s.first_shot_fired = true;
        if let Some(row) = first_shot_row(phase) {
            let shooters: BTreeSet<Power> = new
                .iter()
                .filter(|i| i.shot)
                .map(|i| i.penalty.power)
                .collect();
            for p in shooters {
                new.push(incur(s, phase, p, Rule::E4, row, None, "first shot".into()));
            }
        }
    }
    new.sort_by_key(|i| (i.penalty.power, i.penalty.rule));
    let mut lines = Vec::new();
    for i in new {
        let p = &i.penalty;
        lines.push(format!(
            "PENALTY: {} {} until Fall {} ({}: {}).",
            p.power,
            count(p.points, "point"),
            p.last_fall,
            p.rule.code(),
            i.text
        ));
        s.penalties.push(i.penalty);
    }
    lines
}

/// The `ENTER` proposals of the phase: proposer → (partner, kind).
fn proposals(orders: &[VariantOrder]) -> BTreeMap<(Power, Power), TreatyKind> {
    orders
        .iter()
        .filter_map(|v| match (v.command.get::<IrCommand>(), v.from) {
            (Some(IrCommand::EnterTreaty { kind, with }), Sender::Power(a)) => {
                Some(((a, *with), *kind))
            }
            _ => None,
        })
        .collect()
}

/// IR-C4: the first third power (alphabetically) that has a treaty with one of the pair and
/// is at war with the other: (Z, X, Y) for `{Z} has a treaty with {X} and is at war with
/// {Y}`.
pub fn conundrum(s: &IrState, a: Power, b: Power) -> Option<(Power, Power, Power)> {
    Power::ALL
        .into_iter()
        .filter(|z| *z != a && *z != b)
        .find_map(|z| {
            if s.treaty(z, a).is_some() && s.at_war(z, b) {
                Some((z, a, b))
            } else if s.treaty(z, b).is_some() && s.at_war(z, a) {
                Some((z, b, a))
            } else {
                None
            }
        })
}

/// Signs a treaty both powers proposed (IR-C1, IR-H2, IR-I3), in force from the Spring of
/// `from`, with each party's IR-E3 penalty for an AAT (IR-C7); or the line saying why the
/// pair cannot sign (IR-C3(a), IR-C4), checked against the relations as they stand now.
fn sign(
    s: &mut IrState,
    phase: Phase,
    x: Power,
    y: Power,
    kind: TreatyKind,
    from: u16,
    new: &mut Vec<Incurred>,
) -> Result<(), String> {
    if s.at_war(x, y) && !s.peace_treaties {
        return Err(format!("TREATY: {x} and {y} cannot sign: they are at war."));
    }
    if let Some((z, p, q)) = conundrum(s, x, y) {
        return Err(format!(
            "TREATY: {x} and {y} cannot sign: {z} has a treaty with {p} and is at war with {q}."
        ));
    }
    s.treaties.push(Treaty {
        a: x,
        b: y,
        kind,
        from,
        lapsing: None,
    });
    if kind == TreatyKind::Aat {
        for (p, q) in [(x, y), (y, x)] {
            new.push(incur(
                s,
                phase,
                p,
                Rule::E3,
                (1, 5),
                None,
                format!("entered an AAT with {q}"),
            ));
        }
    }
    Ok(())
}

/// The treaties of an alliance phase (IR-H2: in force from Spring 1901) or of a
/// conference phase (IR-I3: from the next Spring): only the pairs that proposed the same
/// kind sign, and only they are announced; then the IR-E3 penalties. After a conference,
/// if every pair on its contact list is bound again, all treaties are void and every
/// power is neutral (IR-I4; the voided alliances cost nothing).
pub fn conference_treaties(
    s: &mut IrState,
    phase: Phase,
    variant_orders: &[VariantOrder],
) -> Vec<String> {
    let from = if phase.kind.is(&super::ALLIANCE) {
        phase.year
    } else {
        phase.year + 1
    };
    let props = proposals(variant_orders);
    let mut new = Vec::new();
    let mut signed: Vec<String> = Vec::new();
    for (&(a, b), &kind) in &props {
        if a < b && props.get(&(b, a)) == Some(&kind) && s.treaty(a, b).is_none() {
            // A pair that may not sign is not announced either: proposals are private.
            if sign(s, phase, a, b, kind, from, &mut new).is_ok() {
                signed.push(format!("{a}-{b} {kind}"));
            }
        }
    }
    let contacts = s.contacts.take();
    s.conference = None;
    if let Some(contacts) = contacts
        && !contacts.is_empty()
        && contacts.iter().all(|(a, b)| s.treaty(*a, *b).is_some())
    {
        s.end_treaties_but_coalitions();
        s.wars.clear();
        s.imminent.clear();
        return vec![
            "CONFERENCE: every pair in contact is again bound by a treaty; all treaties are void and all powers are neutral.".into(),
        ];
    }
    let list = if signed.is_empty() {
        "none".to_string()
    } else {
        signed.join(", ")
    };
    let mut lines = vec![format!(
        "CONFERENCE: treaties in force from Spring {from}: {list}"
    )];
    lines.extend(settle(s, phase, new));
    lines
}

/// IR-I1: the pairs of powers with units next to each other, alphabetical.
pub fn contacts(map: &Map, position: &Position) -> Vec<(Power, Power)> {
    let mut out: BTreeSet<(Power, Power)> = BTreeSet::new();
    for u in &position.units {
        let Owner::Power(a) = u.owner else { continue };
        for v in &position.units {
            let Owner::Power(b) = v.owner else { continue };
            if a != b && map.any_border(u.location.province, v.location.province) {
                out.insert(pair(a, b));
            }
        }
    }
    out.into_iter().collect()
}

/// The end of a Winter (IR-I2, IR-I3): the Winter of a scheduled conference abrogates every
/// treaty (but those of a coalition claim's members, IR-A7(a)) and publishes the contact
/// list; from Winter 1903 on, a Winter in which every pair in contact is bound by a treaty
/// none has given notice on schedules a conference for the next Winter.
pub fn conference_winter(
    s: &mut IrState,
    map: &Map,
    position: &Position,
    year: u16,
) -> Vec<String> {
    let now = contacts(map, position);
    if s.conference == Some(year) {
        s.end_treaties_but_coalitions();
        s.prune_imminent();
        let list = if now.is_empty() {
            "none".to_string()
        } else {
            now.iter()
                .map(|(a, b)| format!("{a}-{b}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        s.contacts = Some(now);
        return vec![format!(
            "CONFERENCE: all treaties are abrogated. Powers in contact: {list}"
        )];
    }
    let bound = |a: Power, b: Power| s.treaty(a, b).is_some_and(|t| t.lapsing.is_none());
    if year >= 1903
        && s.conference.is_none()
        && !now.is_empty()
        && now.iter().all(|(a, b)| bound(*a, *b))
    {
        s.conference = Some(year + 1);
        return vec![format!(
            "CONFERENCE: every pair of powers in contact is bound by a treaty; an International Conference will follow Winter {}.",
            year + 1
        )];
    }
    Vec::new()
}

/// The lines of a movement turn's aggressions and treaty effects, and of a Fall's
/// treaties (§4, after resolution, steps 1 to 4).
pub fn movement_turn(
    map: &Map,
    start: &Position,
    s: &mut IrState,
    orders: &[PowerOrder],
    variant_orders: &[VariantOrder],
    permits: &[Permit],
) -> Vec<String> {
    let phase = start.phase;
    let before = s.clone();
    let board = Board {
        map,
        position: start,
        s: &before,
        permits,
    };
    // The orders as written (intent, IR-E0), leaving out the void ones.
    let mut aggressions: BTreeSet<(Power, Power)> = BTreeSet::new();
    let mut minors: BTreeSet<(Power, ProvinceId)> = BTreeSet::new();
    for po in orders {
        if board.verdict(po).is_some() {
            continue;
        }
        for b in board.victims(po) {
            aggressions.insert((po.power, b));
        }
        if let Some(c) = board.minor_attacked(po) {
            minors.insert((po.power, c));
        }
    }

    let mut new: Vec<Incurred> = Vec::new();
    let mut wars: Vec<(Power, Power)> = Vec::new();
    let mut war_lines: Vec<((Power, Power), String)> = Vec::new();
    let mut first: Vec<(Power, Power)> = Vec::new();
    for (a, b) in aggressions {
        if before.allied(a, b, phase).is_some() || before.at_war(a, b) {
            continue;
        }
        let reason = if before.coalition_of(a, b).is_some() {
            // IR-A7(b): war, but no penalty and no treaty effect.
            format!("{a} attacked {b}")
        } else if let Some(via) = before.imminent_via(a, b).first() {
            // IR-B3: coming to the aid of an MDT partner.
            format!("{a} came to the aid of {via}")
        } else {
            new.push(incur(
                &before,
                phase,
                a,
                Rule::E1,
                (2, 8),
                Some(b),
                format!("attacked {b}"),
            ));
            first.push((a, b));
            format!("{a} attacked {b}")
        };
        wars.push((a, b));
        war_lines.push(((a, b), format!("WAR: {a} and {b} are at war ({reason}).")));
    }
    for (a, c) in minors {
        let mut i = incur(
            &before,
            phase,
            a,
            Rule::E2,
            (1, 7),
            None,
            format!("attacked {}", map.province_name(c)),
        );
        i.shot = !(a == Power::Turkey && map.code(c) == "bul" && phase.year == 1901);
        new.push(i);
    }

    // Treaty effects of the IR-E1 aggressions (IR-C5, C6, C8, C9), by third power.
    // (Z, 0 treaty / 1 war / 2 imminent war, line): for one Z in that order (§4 step 3).
    let mut effects: Vec<(Power, u8, String)> = Vec::new();
    let mut abrogated: Vec<(Power, Power)> = Vec::new();
    let mut imminent: Vec<(Power, Power, Power)> = Vec::new();
    for (a, b) in &first {
        let (a, b) = (*a, *b);
        for z in Power::ALL.into_iter().filter(|z| *z != a && *z != b) {
            // IR-A7(a): a treaty between a coalition claim's members stands; the third
            // power honours both.
            if before.coalition_of(z, a).is_some() || before.coalition_of(z, b).is_some() {
                continue;
            }
            let za = before.allied(z, a, phase).map(|t| t.kind);
            let zb = before.allied(z, b, phase).map(|t| t.kind);
            let mut shared = false;
            let mut war_with: Option<(Power, String)> = None;
            match (za, zb) {
                (Some(TreatyKind::Mdt), Some(zb)) => {
                    let reason = match zb {
                        TreatyKind::Mdt => format!("{z} came to the aid of {b}"),
                        TreatyKind::Aat => format!("AAT with {b}"),
                    };
                    effects.push((
                        z,
                        0,
                        format!("TREATY: the MDT between {z} and {a} is abrogated ({reason})."),
                    ));
                    abrogated.push((z, a));
                    war_with = Some((a, reason));
                }
                (Some(TreatyKind::Aat), Some(zb)) => {
                    let reason = format!("AAT with {a}");
                    effects.push((
                        z,
                        0,
                        format!("TREATY: the {zb} between {z} and {b} is abrogated ({reason})."),
                    ));
                    abrogated.push((z, b));
                    shared = true;
                    war_with = Some((b, reason));
                }
                (None, Some(TreatyKind::Mdt)) if !before.at_war(z, a) => {
                    imminent.push((z, a, b));
                    effects.push((
                        z,
                        2,
                        format!("IMMINENT WAR: {z} may attack {a} without penalty (MDT with {b})."),
                    ));
                }
                (None, Some(TreatyKind::Aat)) if !before.at_war(z, a) => {
                    war_with = Some((a, format!("AAT with {b}")));
                }
                (Some(TreatyKind::Aat), None) if !before.at_war(z, b) => {
                    shared = true;
                    war_with = Some((b, format!("AAT with {a}")));
                }
                _ => {}
            }
            if shared {
                new.push(incur(
                    &before,
                    phase,
                    z,
                    Rule::E1_4,
                    (2, 4),
                    Some(b),
                    format!("AAT partner {a} attacked {b}"),
                ));
            }
            if let Some((x, reason)) = war_with {
                let known = wars.iter().any(|w| pair(w.0, w.1) == pair(z, x));
                if !known {
                    wars.push((z, x));
                    effects.push((z, 1, format!("WAR: {z} and {x} are at war ({reason}).")));
                }
            }
        }
    }

    // The turn's changes apply after it (IR-B4).
    for (a, b) in &wars {
        s.wars.insert(pair(*a, *b));
    }
    for (z, x) in &abrogated {
        s.remove_treaty(*z, *x);
    }
    for (z, x, via) in imminent {
        s.imminent.insert(super::state::Imminent {
            holder: z,
            target: x,
            via,
        });
    }
    s.prune_imminent();

    // Fall: the treaties proposed this turn (IR-C1–C4), checked after the turn's changes.
    let mut treaty_lines: Vec<(Power, String)> = Vec::new();
    if phase.season == Season::Fall {
        let props = proposals(variant_orders);
        let mut seen: BTreeSet<(Power, Power)> = BTreeSet::new();
        for (&(a, b), &kind) in &props {
            let (x, y) = pair(a, b);
            if !seen.insert((x, y)) {
                continue;
            }
            let line = match (props.get(&(x, y)), props.get(&(y, x))) {
                (Some(k1), Some(k2)) if k1 != k2 => format!(
                    "TREATY: {x} and {y} proposed treaties of different kinds; there is no treaty."
                ),
                (Some(k), Some(_)) => {
                    if s.treaty(x, y).is_some() {
                        continue;
                    }
                    match sign(s, phase, x, y, *k, phase.year + 1, &mut new) {
                        Err(refused) => refused,
                        Ok(()) => format!(
                            "TREATY: {x} and {y} sign an {k}; it takes effect in Spring {}.",
                            phase.year + 1
                        ),
                    }
                }
                _ => format!(
                    "TREATY: {a} proposed an {kind} with {b}; {b} did not agree; there is no treaty."
                ),
            };
            let first_named = if line.contains(" proposed an ") { a } else { x };
            treaty_lines.push((first_named, line));
        }
    }

    let mut lines = settle(s, phase, new);
    war_lines.sort_by_key(|(k, _)| *k);
    lines.extend(war_lines.into_iter().map(|(_, l)| l));
    effects.sort_by_key(|(z, step, _)| (*z, *step));
    lines.extend(effects.into_iter().map(|(_, _, l)| l));
    treaty_lines.sort();
    lines.extend(treaty_lines.into_iter().map(|(_, l)| l));
    lines
}

/// The Winter's abrogation notices and their penalties (IR-D1, IR-E5; §4 Winter steps 1
/// and 2).
pub fn winter(s: &mut IrState, phase: Phase, variant_orders: &[VariantOrder]) -> Vec<String> {
    let mut notices: Vec<(Power, Power, String)> = Vec::new();
    let mut new = Vec::new();
    for v in variant_orders {
        let (Some(IrCommand::Abrogate { with, .. }), Sender::Power(a)) =
            (v.command.get::<IrCommand>(), v.from)
        else {
            continue;
        };
        let b = *with;
        let stage_state = s.clone();
        let Some(t) = s
            .treaties
            .iter_mut()
            .find(|t| t.binds(a) && t.binds(b) && a != b)
        else {
            continue;
        };
        let spring = phase.year + 1;
        match &mut t.lapsing {
            Some(l) if l.by.contains(&a) => continue,
            Some(l) => l.by.push(a),
            None => {
                t.lapsing = Some(Lapsing {
                    by: vec![a],
                    spring,
                })
            }
        }
        let kind = t.kind;
        notices.push((
            a,
            b,
            format!(
                "TREATY: {a} gives notice to abrogate its {kind} with {b}; it lapses after Spring {spring}."
            ),
        ));
        if kind == TreatyKind::Mdt {
            new.push(incur(
                &stage_state,
                phase,
                a,
                Rule::E5,
                (1, 3),
                None,
                format!("abrogated an MDT with {b}"),
            ));
        }
    }
    notices.sort_by_key(|(a, b, _)| (*a, *b));
    let mut lines: Vec<String> = notices.into_iter().map(|(_, _, l)| l).collect();
    lines.extend(settle(s, phase, new));
    lines
}

/// IR-D3: treaties whose lapsing Spring is over lapse; the pair is Neutral unless at war.
pub fn spring_ends(s: &mut IrState, year: u16) -> Vec<String> {
    let mut lines = Vec::new();
    let lapsed: Vec<Treaty> = s
        .treaties
        .iter()
        .filter(|t| t.lapsing.as_ref().is_some_and(|l| l.spring == year))
        .cloned()
        .collect();
    let mut named: Vec<(Power, Power, String)> = Vec::new();
    for t in lapsed {
        s.remove_treaty(t.a, t.b);
        let by = t
            .lapsing
            .as_ref()
            .and_then(|l| l.by.iter().min().copied())
            .unwrap_or(t.a);
        let other = t.other(by);
        named.push((
            by,
            other,
            format!(
                "TREATY: the {} between {by} and {other} has lapsed.",
                t.kind
            ),
        ));
    }
    named.sort_by_key(|(a, b, _)| (*a, *b));
    lines.extend(named.into_iter().map(|(_, _, l)| l));
    s.prune_imminent();
    lines
}

/// IR-C3(b): with `peace_treaties` on, a treaty coming into force replaces its pair's war.
pub fn spring_opens(s: &mut IrState, year: u16) {
    let starting: Vec<(Power, Power)> = s
        .treaties
        .iter()
        .filter(|t| t.from == year)
        .map(|t| (t.a, t.b))
        .collect();
    for (a, b) in starting {
        s.wars.remove(&pair(a, b));
    }
    s.prune_imminent();
}

/// The Fall check (§4 step 5): stages of expansionism (IR-E6), the `VP:` lines (IR-A1),
/// then the expiry of penalties whose last Fall this is (IR-E0).
pub fn fall_check(s: &mut IrState, position: &Position, year: u16) -> Vec<String> {
    let mut lines = Vec::new();
    for p in Power::ALL {
        let points = s.points(p);
        let stage = s.stage(p);
        let reached = if points >= 12 {
            2
        } else if points >= 5 {
            1
        } else {
            0
        };
        if reached > stage {
            s.stage.insert(p, reached);
            let k = u32::from(reached);
            lines.push(format!(
                "EXPANSIONISM: {p} has {} penalty points; its further penalties are increased by {} and {}.",
                points,
                count(k, "point"),
                count(k, "year")
            ));
        }
    }
    let mut checked = BTreeMap::new();
    for p in Power::ALL {
        let c = u32::try_from(position.centre_count(p)).unwrap_or(0);
        let points = s.points(p);
        let vp = i64::from(c) - i64::from(points);
        checked.insert(p, vp);
        lines.push(format!(
            "VP: {p} {} - {} = {vp}.",
            count(c, "centre"),
            count(points, "penalty point")
        ));
    }
    lines.extend(super::claims::decide(s, year, &checked));
    s.checked = Some((year, checked));
    s.penalties.retain(|x| x.last_fall > year);
    s.transfers.clear();
    lines
}

/// IR-G2: the units of the Fall that stand in an ally's territory, could move only into
/// it, and have no permission from it.
pub fn confined(board: &Board<'_>) -> Vec<UnitId> {
    let map = board.map;
    let phase = board.position.phase;
    let mut out = Vec::new();
    for u in &board.position.units {
        let Owner::Power(a) = u.owner else { continue };
        // Only an ally confines.
        let allies: Vec<Power> = Power::ALL
            .into_iter()
            .filter(|b| board.s.allied(a, *b, phase).is_some())
            .collect();
        if allies.is_empty() {
            continue;
        }
        let here = u.location.province;
        let reach: Vec<ProvinceId> = map
            .province_ids()
            .filter(|p| *p != here && rules::can_reach(map, u, *p))
            .collect();
        let confined_by = allies.into_iter().find(|b| {
            board.controls(*b, a, here)
                && reach.iter().all(|p| board.controls(*b, a, *p))
                && !board.permits.iter().any(|pm| {
                    pm.by == *b
                        && pm.to == a
                        && (pm.from == Some(here) || pm.from.is_none() && reach.contains(&pm.dest))
                })
        });
        if confined_by.is_some() {
            out.push(u.id);
        }
    }
    out
}
