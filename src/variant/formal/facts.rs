//! Formal Diplomacy's case-file facts (`formal.md` §7): wars, spheres of influence and
//! victory points set up, and checked after the run.

use crate::map::{Map, Power};
use crate::variant::{CaseFacts, Check, Setup, negated_facts};

use super::state::{FormalState, pair};

/// Formal Diplomacy's facts.
pub struct FormalFacts;

impl CaseFacts<FormalState> for FormalFacts {
    fn read_fact(&self, setup: &mut Setup<'_, FormalState>, fact: &str) -> Result<(), String> {
        let words: Vec<&str> = fact.split_whitespace().collect();
        let power = |w: &str| Power::from_name(w).ok_or_else(|| format!("no power called {w:?}"));
        let map = setup.map;
        let s = &mut *setup.state;
        match words.as_slice() {
            ["war", a, b] => {
                s.wars.insert(pair(power(a)?, power(b)?));
                Ok(())
            }
            ["soi", prov, a] => {
                let p = map
                    .find_province(prov)
                    .ok_or_else(|| format!("no province called {prov:?}"))?;
                s.soi.insert(p, power(a)?);
                Ok(())
            }
            ["vp", a, n] => {
                let n: i32 = n.parse().map_err(|_| format!("{n:?} is not a number"))?;
                s.vp.insert(power(a)?, n);
                Ok(())
            }
            _ => Err(format!("the Formal rules have no fact \"{fact}\"")),
        }
    }

    fn check_fact(&self, check: &Check<'_, FormalState>, fact: &str) -> Result<(), String> {
        let s = check.after;
        if let Some(negated) = negated_facts(fact) {
            for f in negated {
                if holds(check.map, s, f)? {
                    return Err(format!("\"{f}\" holds"));
                }
            }
            return Ok(());
        }
        if holds(check.map, s, fact)? {
            Ok(())
        } else {
            Err(format!(
                "it does not hold: wars {:?}, spheres {:?}, points {:?}",
                s.wars, s.soi, s.vp
            ))
        }
    }
}

/// Whether one fact of §7 holds.
fn holds(map: &Map, s: &FormalState, fact: &str) -> Result<bool, String> {
    let words: Vec<&str> = fact.split_whitespace().collect();
    let power = |w: &str| Power::from_name(w).ok_or_else(|| format!("no power called {w:?}"));
    match words.as_slice() {
        ["wars"] => Ok(!s.wars.is_empty()),
        ["spheres"] => Ok(!s.soi.is_empty()),
        ["war", "involving", a] => {
            let a = power(a)?;
            Ok(s.wars.iter().any(|(x, y)| *x == a || *y == a))
        }
        ["war", a, b] => Ok(s.at_war(power(a)?, power(b)?)),
        ["soi", prov, a] => {
            let p = map
                .find_province(prov)
                .ok_or_else(|| format!("no province called {prov:?}"))?;
            Ok(s.soi.get(&p) == Some(&power(a)?))
        }
        ["vp", a, n] => {
            let n: i32 = n.parse().map_err(|_| format!("{n:?} is not a number"))?;
            Ok(s.vp.get(&power(a)?).copied().unwrap_or(0) == n)
        }
        _ => Err(format!("the Formal rules have no fact \"{fact}\"")),
    }
}
