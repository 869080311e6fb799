//! Surrender's case-file facts (`surrender.md` §7): relations, offers and standing
//! declines set up, and checked after the run.

use crate::map::Power;
use crate::variant::{CaseFacts, Check, Setup, negated_facts};

use super::state::SurrenderState;

/// Surrender's facts.
pub struct SurrenderFacts;

impl CaseFacts<SurrenderState> for SurrenderFacts {
    fn read_fact(&self, setup: &mut Setup<'_, SurrenderState>, fact: &str) -> Result<(), String> {
        let words: Vec<&str> = fact.split_whitespace().collect();
        let power = |w: &str| Power::from_name(w).ok_or_else(|| format!("no power called {w:?}"));
        let s = &mut *setup.state;
        match words.as_slice() {
            ["relation", p, "protects", c] => {
                let (p, c) = (power(p)?, power(c)?);
                s.bind(setup.position, c, p);
                Ok(())
            }
            ["offer", c, p] => {
                s.offers.insert(power(c)?, power(p)?);
                Ok(())
            }
            ["declines", "exchanges", c] => {
                s.standing_decline.insert(power(c)?);
                Ok(())
            }
            _ => Err(format!("the Surrender rules have no fact \"{fact}\"")),
        }
    }

    fn check_fact(&self, check: &Check<'_, SurrenderState>, fact: &str) -> Result<(), String> {
        let s = check.after;
        if let Some(negated) = negated_facts(fact) {
            for f in negated {
                let holds = match f {
                    "relations" => !s.protector.is_empty(),
                    "offers" => !s.offers.is_empty(),
                    one => holds(s, one)?,
                };
                if holds {
                    return Err(format!("\"{f}\" holds: {}", describe(s)));
                }
            }
            return Ok(());
        }
        if holds(s, fact)? {
            Ok(())
        } else {
            Err(format!("it does not hold: {}", describe(s)))
        }
    }
}

/// Whether one fact of §7 holds.
fn holds(s: &SurrenderState, fact: &str) -> Result<bool, String> {
    let words: Vec<&str> = fact.split_whitespace().collect();
    let power = |w: &str| Power::from_name(w).ok_or_else(|| format!("no power called {w:?}"));
    match words.as_slice() {
        ["relation", p, "protects", c] => Ok(s.protector.get(&power(c)?) == Some(&power(p)?)),
        ["offer", c, p] => Ok(s.offers.get(&power(c)?) == Some(&power(p)?)),
        ["declines", "exchanges", c] => Ok(s.standing_decline.contains(&power(c)?)),
        _ => Err(format!("the Surrender rules have no fact \"{fact}\"")),
    }
}

/// The relations and offers, for a failed check.
fn describe(s: &SurrenderState) -> String {
    let rel: Vec<String> = s
        .protector
        .iter()
        .map(|(c, p)| format!("{p} protects {c}"))
        .collect();
    let off: Vec<String> = s
        .offers
        .iter()
        .map(|(c, p)| format!("{c} offers to {p}"))
        .collect();
    format!(
        "relations [{}], offers [{}]",
        rel.join("; "),
        off.join("; ")
    )
}
