//! Victory claims (IR-A): the thresholds, the claim window, what a filing may be refused
//! for (IR-X14–X17, in §3's order), a filing's public lines and abrogations, the lapse of a
//! coalition claim not every member filed, and the decision at the Fall check.

use std::collections::BTreeMap;

use crate::map::Power;
use crate::rules::{Phase, PhaseKind, Position, Season, VariantRefusal};
use crate::variant::{list_powers, surviving_powers};

use super::state::{Claim, IrState, Rule};

/// IR-A2: a solo claim's threshold at the Fall check of `year` (Russia needs 8 before 1910,
/// IR-AMB-14).
pub fn solo_threshold(p: Power, year: u16) -> i64 {
    if p == Power::Russia && year < 1910 {
        8
    } else {
        7
    }
}

/// IR-A2: a coalition's threshold (two members 12, three 16).
pub fn coalition_threshold(members: usize) -> i64 {
    if members >= 3 { 16 } else { 12 }
}

/// IR-A3: the Fall whose check the claim window of `phase` follows, if the phase is in one:
/// from the Fall results (its retreats) to the next Spring movement deadline.
pub fn window(phase: Phase) -> Option<u16> {
    match (phase.season, phase.kind) {
        (Season::Fall, PhaseKind::Retreat) | (Season::Winter, _) => Some(phase.year),
        (Season::Spring, PhaseKind::Movement) if phase.year > 1901 => Some(phase.year - 1),
        _ => None,
    }
}

/// `7 victory points`, `1 victory point`, `-2 victory points`.
fn vp_words(v: i64) -> String {
    if v == 1 {
        "1 victory point".into()
    } else {
        format!("{v} victory points")
    }
}

/// A power's victory points now: centres owned less active penalty points (IR-A1).
pub fn vp_now(s: &IrState, position: &Position, p: Power) -> i64 {
    i64::try_from(position.centre_count(p)).unwrap_or(0) - i64::from(s.points(p))
}

/// A power's victory points at the Fall check of `year`: as the check recorded them, or,
/// with no record of that check (a case set up after it), as they stand now.
pub fn vp_at(s: &IrState, position: &Position, year: u16, p: Power) -> i64 {
    match &s.checked {
        Some((y, vp)) if *y == year => vp.get(&p).copied().unwrap_or(0),
        _ => vp_now(s, position, p),
    }
}

fn refuse<T>(code: &'static str, sentence: String) -> Result<T, VariantRefusal> {
    Err(VariantRefusal::new(code, sentence))
}

/// The coalition claim `a` has filed and that still stands, if any.
fn coalition_filed(s: &IrState, a: Power) -> Option<&Claim> {
    s.claims
        .iter()
        .find(|c| c.coalition && c.filed.contains(&a))
}

/// Whether `a` may file the claim now: a solo claim (`partners` None) or a coalition claim
/// with `partners`. The errors in §3's order: IR-X17 first, then IR-X14, the members,
/// IR-X16, IR-X15, and a claim already filed.
pub fn check(
    s: &IrState,
    position: &Position,
    a: Power,
    partners: Option<&[Power]>,
) -> Result<(), VariantRefusal> {
    if partners.is_none()
        && let Some(c) = coalition_filed(s, a)
    {
        let others: Vec<Power> = c.members.iter().copied().filter(|m| *m != a).collect();
        return if c.complete() {
            refuse(
                "IR-X17",
                format!(
                    "{a} is in a coalition claim decided in Fall {} and cannot claim a solo victory before then.",
                    c.decided_at
                ),
            )
        } else {
            refuse(
                "IR-X17",
                format!(
                    "{a} has filed a claim for a coalition victory with {} and cannot claim a solo victory while it stands.",
                    list_powers(&others)
                ),
            )
        };
    }
    let Some(year) = window(position.phase) else {
        return refuse(
            "IR-X14",
            "a victory can only be claimed between the Fall results and the next Spring deadline."
                .into(),
        );
    };
    let Some(partners) = partners else {
        let v = vp_at(s, position, year, a);
        let t = solo_threshold(a, year);
        if v < t {
            return refuse(
                "IR-X15",
                format!(
                    "{a} had {} at the end of Fall {year}; a solo claim needs {t}.",
                    vp_words(v)
                ),
            );
        }
        if let Some(c) = s.claims.iter().find(|c| !c.coalition && c.members == [a]) {
            return refuse(
                "CLAIM-FILED",
                format!(
                    "{a} has already claimed a solo victory; it is decided at the end of Fall {}.",
                    c.decided_at
                ),
            );
        }
        return Ok(());
    };
    let in_game = surviving_powers(position);
    if let Some(p) = partners.iter().find(|p| **p == a || !in_game.contains(p)) {
        return refuse("IR-X2", format!("{p} is not another power in this game."));
    }
    let members = members(a, partners);
    if members.len() > 3 {
        return refuse(
            "COALITION-SIZE",
            format!(
                "a coalition has two or three members, not {} ({}).",
                members.len(),
                list_powers(&members)
            ),
        );
    }
    for m in &members {
        for victim in members.iter().filter(|v| *v != m) {
            if let Some(p) = s.penalties.iter().find(|p| {
                p.power == *m
                    && p.victim == Some(*victim)
                    && matches!(p.rule, Rule::E1 | Rule::E1_4)
            }) {
                return refuse(
                    "IR-X16",
                    format!(
                        "{m} still carries a penalty for aggression against {victim} (until Fall {}); they cannot claim a coalition victory together.",
                        p.last_fall
                    ),
                );
            }
        }
    }
    let sum: i64 = members.iter().map(|m| vp_at(s, position, year, *m)).sum();
    let t = coalition_threshold(members.len());
    if sum < t {
        return refuse(
            "IR-X15",
            format!(
                "{} had {} together at the end of Fall {year}; this coalition needs {t}.",
                list_powers(&members),
                vp_words(sum)
            ),
        );
    }
    if let Some(c) = coalition_filed(s, a) {
        let others: Vec<Power> = c.members.iter().copied().filter(|m| *m != a).collect();
        return refuse(
            "CLAIM-FILED",
            if c.members == members {
                format!("{a} has already filed this claim.")
            } else {
                format!(
                    "{a} has filed a claim for a coalition victory with {}; it stands until it lapses or is decided.",
                    list_powers(&others)
                )
            },
        );
    }
    Ok(())
}

/// The members of a coalition claim, alphabetical.
fn members(a: Power, partners: &[Power]) -> Vec<Power> {
    let mut m: Vec<Power> = partners.to_vec();
    m.push(a);
    m.sort();
    m.dedup();
    m
}

/// Files a claim (checked by [`check`]): its public lines, at once (IR-A3), and the
/// abrogation of the filer's treaties but those with its partners (IR-A5).
pub fn file(
    s: &mut IrState,
    position: &Position,
    a: Power,
    partners: Option<&[Power]>,
) -> Vec<String> {
    let Some(year) = window(position.phase) else {
        return Vec::new();
    };
    let mut lines = Vec::new();
    let keep: Vec<Power> = match partners {
        None => {
            let t = solo_threshold(a, year + 1);
            s.claims.push(Claim {
                members: vec![a],
                coalition: false,
                filed: vec![a],
                decided_at: year + 1,
            });
            lines.push(format!(
                "CLAIM: {a} claims a solo victory; it must have {t} victory points at the end of Fall {}.",
                year + 1
            ));
            vec![a]
        }
        Some(partners) => {
            let members = members(a, partners);
            if !s.claims.iter().any(|c| c.coalition && c.members == members) {
                s.claims.push(Claim {
                    members: members.clone(),
                    coalition: true,
                    filed: Vec::new(),
                    decided_at: year + 2,
                });
            }
            let Some(claim) = s
                .claims
                .iter_mut()
                .find(|c| c.coalition && c.members == members)
            else {
                return lines;
            };
            claim.filed.push(a);
            if claim.complete() {
                lines.push(format!(
                    "CLAIM: {} claim a coalition victory; they must have {} victory points together at the end of Fall {}.",
                    list_powers(&members),
                    coalition_threshold(members.len()),
                    claim.decided_at
                ));
            } else {
                let others: Vec<Power> = members.iter().copied().filter(|m| *m != a).collect();
                lines.push(format!(
                    "CLAIM: {a} files a claim for a coalition victory with {}; every member must file it by the Spring {} deadline.",
                    list_powers(&others),
                    year + 1
                ));
            }
            // IR-A3: the filing withdraws the filer's solo claim, for good.
            let before = s.claims.len();
            s.claims
                .retain(|c| c.coalition || c.members.as_slice() != [a]);
            if s.claims.len() < before {
                lines.push(format!(
                    "CLAIM: {a} withdraws its solo claim (it files for a coalition victory)."
                ));
            }
            members
        }
    };
    let mut ended: Vec<(Power, String)> = Vec::new();
    s.treaties.retain(|t| {
        if !t.binds(a) || keep.contains(&t.other(a)) {
            return true;
        }
        let b = t.other(a);
        ended.push((
            b,
            format!(
                "TREATY: the {} between {a} and {b} is abrogated ({a} claimed a victory).",
                t.kind
            ),
        ));
        false
    });
    ended.sort();
    lines.extend(ended.into_iter().map(|(_, l)| l));
    s.prune_imminent();
    lines
}

/// IR-A3: at the Spring movement deadline, a coalition claim not every member filed
/// lapses (§4, before resolution).
pub fn lapse(s: &mut IrState) -> Vec<String> {
    let mut lines = Vec::new();
    s.claims.retain(|c| {
        if !c.coalition || c.complete() {
            return true;
        }
        lines.push(format!(
            "CLAIM: the claim of {} lapses ({} did not file it).",
            list_powers(&c.members),
            list_powers(&c.missing())
        ));
        false
    });
    lines
}

/// IR-A6, IR-A8: the claims the Fall check of `year` decides, with `vp` the check's
/// victory points. Failed claims get their line; the winners (solo before coalition, then
/// the most victory points; a tie is a joint result) are kept in the state, and the game
/// ends. Every decided claim ends.
pub fn decide(s: &mut IrState, year: u16, vp: &BTreeMap<Power, i64>) -> Vec<String> {
    let mut lines = Vec::new();
    let mut won: Vec<(Vec<Power>, i64, bool)> = Vec::new();
    let decided: Vec<Claim> = s
        .claims
        .iter()
        .filter(|c| c.decided_at == year && (!c.coalition || c.complete()))
        .cloned()
        .collect();
    s.claims
        .retain(|c| !(c.decided_at == year && (!c.coalition || c.complete())));
    for c in decided {
        let v: i64 = c
            .members
            .iter()
            .map(|m| vp.get(m).copied().unwrap_or(0))
            .sum();
        let t = match c.members.as_slice() {
            [one] if !c.coalition => solo_threshold(*one, year),
            _ => coalition_threshold(c.members.len()),
        };
        if v >= t {
            won.push((c.members, v, !c.coalition));
        } else {
            lines.push(format!(
                "CLAIM: the claim of {} fails ({}).",
                list_powers(&c.members),
                vp_words(v)
            ));
        }
    }
    let best = won.iter().map(|(_, v, solo)| (*solo, *v)).max();
    s.victory = won
        .into_iter()
        .filter(|(_, v, solo)| Some((*solo, *v)) == best)
        .map(|(m, v, _)| (m, v))
        .collect();
    s.victory.sort();
    lines
}

/// The `VICTORY:` lines of the claims that won (IR-A8).
pub fn victory_lines(s: &IrState) -> Vec<String> {
    s.victory
        .iter()
        .map(|(members, v)| match members.as_slice() {
            [one] => format!("VICTORY: {one} wins with {}.", vp_words(*v)),
            _ => format!(
                "VICTORY: {} win as a coalition with {}.",
                list_powers(members),
                vp_words(*v)
            ),
        })
        .collect()
}
