//! International Relations' case-file facts (`international-relations.md` §7): treaties,
//! lapses, wars, imminent wars, penalties, stages, claims and conferences set up, and
//! checked after the run (a case assumes the first shot fired unless it says otherwise).

use crate::map::Power;
use crate::rules::{Phase, Season};
use crate::variant::{CaseFacts, Check, Setup, negated_facts};

use super::ALLIANCE;
use super::grammar::TreatyKind;
use super::state::{Claim, Imminent, IrState, Lapsing, Penalty, Rule, Treaty, pair};

/// International Relations' facts.
pub struct IrFacts;

impl CaseFacts<IrState> for IrFacts {
    /// §7: "Unless a case says `first_shot unfired`, the first shot has already been fired."
    fn case_state(&self) -> IrState {
        IrState {
            first_shot_fired: true,
            ..IrState::default()
        }
    }

    fn read_fact(&self, setup: &mut Setup<'_, IrState>, fact: &str) -> Result<(), String> {
        let words: Vec<&str> = fact.split_whitespace().collect();
        read_one(setup.state, setup.position.phase, &words)
            .map_err(|e| format!("{e} (in \"{fact}\")"))
    }

    fn check_fact(&self, check: &Check<'_, IrState>, fact: &str) -> Result<(), String> {
        let (s, before) = (check.after, check.before);
        let listed: Vec<Penalty> = check
            .block
            .iter()
            .filter(|(_, f)| negated_facts(f).is_none())
            .filter_map(|(_, f)| {
                let w: Vec<&str> = f.split_whitespace().collect();
                penalty_fact(&w).ok()
            })
            .collect();
        if let Some(negated) = negated_facts(fact) {
            for f in negated {
                if holds(s, before, &listed, f)? {
                    return Err(format!("\"{f}\" holds"));
                }
            }
            return Ok(());
        }
        if holds(s, before, &listed, fact)? {
            Ok(())
        } else {
            Err(format!("it does not hold: {s:?}"))
        }
    }
}

fn power(w: &str) -> Result<Power, String> {
    Power::from_name(w).ok_or_else(|| format!("no power called {w:?}"))
}

fn number<T: std::str::FromStr>(w: &str) -> Result<T, String> {
    w.parse().map_err(|_| format!("{w:?} is not a number"))
}

fn treaty_kind(w: &str) -> Result<TreatyKind, String> {
    match w.to_ascii_uppercase().as_str() {
        "MDT" => Ok(TreatyKind::Mdt),
        "AAT" | "ATT" => Ok(TreatyKind::Aat),
        _ => Err(format!("{w:?} is not MDT or AAT")),
    }
}

/// `S1903` → 1903.
fn spring_year(w: &str) -> Result<u16, String> {
    let y = w
        .strip_prefix('S')
        .or_else(|| w.strip_prefix('s'))
        .ok_or_else(|| format!("{w:?} is not a Spring (S1903)"))?;
    number(y)
}

/// `penalty Italy 2 until 1908 IR-E1 [victim Austria]`.
fn penalty_fact(w: &[&str]) -> Result<Penalty, String> {
    match w {
        ["penalty", a, n, "until", y, rule, rest @ ..] => Ok(Penalty {
            power: power(a)?,
            points: number(n)?,
            last_fall: number(y)?,
            rule: Rule::from_code(rule).ok_or_else(|| format!("no penalty rule {rule:?}"))?,
            victim: match rest {
                [] => None,
                ["victim", b] => Some(power(b)?),
                _ => return Err("a penalty ends with \"victim <power>\" or nothing".into()),
            },
        }),
        _ => Err("not a penalty".into()),
    }
}

/// The members of `claim coalition A B [C] decided Y`, and Y.
fn claim_fact(w: &[&str]) -> Result<(bool, Vec<Power>, Option<u16>), String> {
    let (coalition, rest) = match w {
        ["claim", "solo", rest @ ..] => (false, rest),
        ["claim", "coalition", rest @ ..] => (true, rest),
        _ => return Err("not a claim".into()),
    };
    let (names, decided) = match rest.iter().position(|x| *x == "decided") {
        Some(i) => (
            rest.get(..i).unwrap_or(&[]),
            Some(number(rest.get(i + 1).copied().unwrap_or(""))?),
        ),
        None => (rest, None),
    };
    let mut members = names
        .iter()
        .map(|n| power(n))
        .collect::<Result<Vec<_>, _>>()?;
    members.sort();
    Ok((coalition, members, decided))
}

/// Reads one `PRESTATE_VARIANT` fact (§7).
fn read_one(s: &mut IrState, phase: Phase, w: &[&str]) -> Result<(), String> {
    match w {
        ["treaty", kind, a, b, "from", from] => {
            let (a, b) = pair(power(a)?, power(b)?);
            s.remove_treaty(a, b);
            s.treaties.push(Treaty {
                a,
                b,
                kind: treaty_kind(kind)?,
                from: spring_year(from)?,
                lapsing: None,
            });
            Ok(())
        }
        ["lapsing", a, b, "by", by] => {
            let by = power(by)?;
            // The lapsing Spring is this one, or the next.
            let spring = if phase.season == Season::Spring && !phase.kind.is(&ALLIANCE) {
                phase.year
            } else {
                phase.year + 1
            };
            let (a, b) = (power(a)?, power(b)?);
            let t = s
                .treaties
                .iter_mut()
                .find(|t| t.binds(a) && t.binds(b))
                .ok_or("no treaty of that pair")?;
            t.lapsing = Some(Lapsing {
                by: vec![by],
                spring,
            });
            Ok(())
        }
        ["war", a, b] => {
            s.wars.insert(pair(power(a)?, power(b)?));
            Ok(())
        }
        ["imminent", z, x] => {
            let (z, x) = (power(z)?, power(x)?);
            let via = s
                .treaties
                .iter()
                .filter(|t| t.binds(z) && t.kind == TreatyKind::Mdt)
                .map(|t| t.other(z))
                .filter(|b| s.at_war(x, *b))
                .min()
                .ok_or("no MDT partner of the holder is at war with the target")?;
            s.imminent.insert(Imminent {
                holder: z,
                target: x,
                via,
            });
            Ok(())
        }
        ["penalty", ..] => {
            s.penalties.push(penalty_fact(w)?);
            Ok(())
        }
        ["stage", a, n] => {
            s.stage.insert(power(a)?, number(n)?);
            Ok(())
        }
        ["first_shot", "fired"] => {
            s.first_shot_fired = true;
            Ok(())
        }
        ["first_shot", "unfired"] => {
            s.first_shot_fired = false;
            Ok(())
        }
        ["claim", ..] => {
            let (coalition, members, decided) = claim_fact(w)?;
            s.claims.push(Claim {
                filed: members.clone(),
                members,
                coalition,
                decided_at: decided.ok_or("a claim says when it is decided")?,
            });
            Ok(())
        }
        ["conference", y] => {
            s.conference = Some(number(y)?);
            Ok(())
        }
        _ => Err("the InternationalRelations rules have no such fact".into()),
    }
}

/// Whether one fact of §7 holds (`listed`: the block's own penalty facts).
fn holds(s: &IrState, before: &IrState, listed: &[Penalty], fact: &str) -> Result<bool, String> {
    let w: Vec<&str> = fact.split_whitespace().collect();
    let new = || s.penalties.iter().filter(|p| !before.penalties.contains(p));
    Ok(match w.as_slice() {
        ["treaty", kind, a, b, "from", from] => s.treaty(power(a)?, power(b)?).is_some_and(|t| {
            treaty_kind(kind).is_ok_and(|k| k == t.kind)
                && spring_year(from).is_ok_and(|y| y == t.from)
        }),
        ["treaty", a, b] => s.treaty(power(a)?, power(b)?).is_some(),
        ["lapsing", a, b, "by", by] => {
            let by = power(by)?;
            s.treaty(power(a)?, power(b)?)
                .and_then(|t| t.lapsing.as_ref())
                .is_some_and(|l| l.by.contains(&by))
        }
        ["war", "involving", a] => {
            let a = power(a)?;
            s.wars.iter().any(|(x, y)| *x == a || *y == a)
        }
        ["war", a, b] => s.at_war(power(a)?, power(b)?),
        ["wars"] => !s.wars.is_empty(),
        ["imminent", z, x] => !s.imminent_via(power(z)?, power(x)?).is_empty(),
        ["penalty", ..] => s.penalties.contains(&penalty_fact(&w)?),
        ["penalties"] => !s.penalties.is_empty(),
        ["new", "penalties"] => new().next().is_some(),
        ["other", "new", "penalties"] => new().any(|p| !listed.contains(p)),
        ["stage", a, n] => s.stage(power(a)?) == number::<u8>(n)?,
        ["first_shot", "fired"] => s.first_shot_fired,
        ["first_shot", "unfired"] => !s.first_shot_fired,
        ["claim", ..] => {
            let (coalition, members, decided) = claim_fact(&w)?;
            s.claims.iter().any(|c| {
                c.coalition == coalition
                    && c.members == members
                    && decided.is_none_or(|d| d == c.decided_at)
            })
        }
        ["conference", y] => s.conference == Some(number(y)?),
        _ => return Err("the InternationalRelations rules have no such fact".into()),
    })
}
