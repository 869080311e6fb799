//! Survive's case-file facts (`survive.md` §7): outcasts, ballots and resigned players set
//! up, and checked after the run.

use crate::map::Power;
use crate::variant::{CaseFacts, Check, Setup, negated_facts};

use super::state::{self, Cause, SurviveState};

/// Survive's facts.
pub struct SurviveFacts;

impl CaseFacts<SurviveState> for SurviveFacts {
    fn read_fact(&self, setup: &mut Setup<'_, SurviveState>, fact: &str) -> Result<(), String> {
        let words: Vec<&str> = fact.split_whitespace().collect();
        let power = |w: &str| Power::from_name(w).ok_or_else(|| format!("no power called {w:?}"));
        match words.as_slice() {
            ["resigned", p] => {
                setup.resigned.push(power(p)?);
                Ok(())
            }
            ["outcast", p, cause, phase] => {
                let p = power(p)?;
                let cause = Cause::read(cause).ok_or_else(|| format!("no cause {cause:?}"))?;
                let year = read_winter(phase)?;
                setup.state.cast_out(&[p], year, cause);
                Ok(())
            }
            ["ballot", voter, rest @ ..] => {
                let voter = power(voter)?;
                let ballot = read_ballot(rest)?;
                setup.state.ballots.insert(voter, ballot);
                Ok(())
            }
            _ => Err(format!("the Survive rules have no fact \"{fact}\"")),
        }
    }

    fn check_fact(&self, check: &Check<'_, SurviveState>, fact: &str) -> Result<(), String> {
        let s = check.after;
        if let Some(negated) = negated_facts(fact) {
            for f in negated {
                if holds(s, f)? {
                    return Err(format!("\"{f}\" holds"));
                }
            }
            return Ok(());
        }
        if holds(s, fact)? {
            Ok(())
        } else {
            Err(format!(
                "it does not hold: outcasts {:?}, ballots {:?}, counted {:?}",
                s.outcasts, s.ballots, s.counted
            ))
        }
    }
}

/// `W1902` → 1902.
fn read_winter(text: &str) -> Result<u16, String> {
    text.strip_prefix(['W', 'w'])
        .map(|y| y.trim_end_matches(['A', 'a', 'J', 'j']))
        .and_then(|y| y.parse().ok())
        .ok_or_else(|| format!("{text:?} is not a Winter such as W1902"))
}

/// `Germany 3 England 2` → the ballot.
fn read_ballot(words: &[&str]) -> Result<state::Ballot, String> {
    let mut ballot = state::Ballot::new();
    for pair in words.chunks(2) {
        match pair {
            [p, n] => {
                let p = Power::from_name(p.trim_end_matches(','))
                    .ok_or_else(|| format!("no power called {p:?}"))?;
                let n: u32 = n
                    .trim_end_matches(',')
                    .parse()
                    .map_err(|_| format!("{n:?} is not a number of votes"))?;
                ballot.insert(p, n);
            }
            _ => return Err("a ballot is pairs of a power and a number".into()),
        }
    }
    Ok(ballot)
}

/// Whether one fact of §7 holds (a `ballot` fact: the ballot recorded when the vote was
/// counted, or still open).
fn holds(s: &SurviveState, fact: &str) -> Result<bool, String> {
    let words: Vec<&str> = fact.split_whitespace().collect();
    let power = |w: &str| Power::from_name(w).ok_or_else(|| format!("no power called {w:?}"));
    match words.as_slice() {
        ["outcast", p, cause, phase] => {
            let want = (read_winter(phase)?, Cause::read(cause));
            Ok(s.outcasts
                .get(&power(p)?)
                .is_some_and(|o| (o.year, Some(o.cause)) == want))
        }
        ["outcast", p] => Ok(s.is_outcast(power(p)?)),
        ["ballot", voter] => {
            let v = power(voter)?;
            Ok(s.ballots.contains_key(&v) || s.counted.contains_key(&v))
        }
        ["ballot", voter, rest @ ..] => {
            let v = power(voter)?;
            let want = read_ballot(rest)?;
            Ok(s.ballots.get(&v) == Some(&want) || s.counted.get(&v) == Some(&want))
        }
        _ => Err(format!("the Survive rules have no fact \"{fact}\"")),
    }
}
