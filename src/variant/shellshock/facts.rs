//! Shell Shock's case-file facts (`shellshock.md` §7): morale and streaks set up and
//! checked by unit, and the armed neutrals' former owners (unit notes).

use crate::map::{Map, Power};
use crate::rules::{Owner, Position, Unit, UnitId, UnitKind};
use crate::variant::{CaseFacts, Check, Setup};

use super::ShellShockState;

/// Shell Shock's facts.
pub struct ShellShockFacts;

impl CaseFacts<ShellShockState> for ShellShockFacts {
    fn read_fact(&self, setup: &mut Setup<'_, ShellShockState>, fact: &str) -> Result<(), String> {
        let words: Vec<&str> = fact.split_whitespace().collect();
        match words.as_slice() {
            ["morale", p, t, prov, m] => {
                let id = unit_id(setup.map, setup.position, p, t, prov)?;
                let m: i32 = m.parse().map_err(|_| format!("{m:?} is not a morale"))?;
                setup.state.morale.insert(id, m);
                Ok(())
            }
            ["streak", p, t, prov, which, n] => {
                let id = unit_id(setup.map, setup.position, p, t, prov)?;
                let n: u8 = n.parse().map_err(|_| format!("{n:?} is not a streak"))?;
                let s = &mut *setup.state;
                match which.to_ascii_lowercase().as_str() {
                    "move" => {
                        s.move_streak.insert(id, n);
                        Ok(())
                    }
                    "sea" => {
                        s.sea_streak.insert(id, n);
                        Ok(())
                    }
                    _ => Err(format!("a streak is move or sea, not {which:?}")),
                }
            }
            _ => Err(format!("the ShellShock rules have no fact \"{fact}\"")),
        }
    }

    /// `Neutral: A Par (rebel of France)`.
    fn read_unit_note(
        &self,
        setup: &mut Setup<'_, ShellShockState>,
        unit: &Unit,
        note: &str,
    ) -> Result<(), String> {
        let power = note
            .strip_prefix("rebel of ")
            .and_then(|p| Power::from_name(p.trim()))
            .ok_or_else(|| format!("the ShellShock rules have no unit note \"({note})\""))?;
        let id = setup
            .position
            .units
            .iter()
            .find(|u| u.location.province == unit.location.province)
            .map(|u| u.id)
            .ok_or_else(|| "no such unit".to_string())?;
        setup.state.rebels.insert(id, power);
        Ok(())
    }

    fn check_fact(&self, check: &Check<'_, ShellShockState>, fact: &str) -> Result<(), String> {
        let s = check.after;
        let words: Vec<&str> = fact.split_whitespace().collect();
        match words.as_slice() {
            ["morale", p, t, prov, m] => {
                let id = unit_id(check.map, check.position, p, t, prov)?;
                let want: i32 = m.parse().map_err(|_| format!("{m:?} is not a morale"))?;
                let got = s.morale_of(id);
                (got == want)
                    .then_some(())
                    .ok_or_else(|| format!("its morale is {got}"))
            }
            ["streak", p, t, prov, which, n] => {
                let id = unit_id(check.map, check.position, p, t, prov)?;
                let want: u8 = n.parse().map_err(|_| format!("{n:?} is not a streak"))?;
                let got = if which.eq_ignore_ascii_case("move") {
                    s.move_streak.get(&id)
                } else {
                    s.sea_streak.get(&id)
                }
                .copied()
                .unwrap_or(0);
                (got == want)
                    .then_some(())
                    .ok_or_else(|| format!("its {which} streak is {got}"))
            }
            _ => Err(format!("the ShellShock rules have no fact \"{fact}\"")),
        }
    }
}

/// The identity of `<Power> <T> <Prov>` on a position.
fn unit_id(map: &Map, position: &Position, p: &str, t: &str, prov: &str) -> Result<UnitId, String> {
    let power = Power::from_name(p).ok_or_else(|| format!("no power called {p:?}"))?;
    let province = map
        .find_location(prov)
        .ok_or_else(|| format!("no province called {prov:?}"))?
        .province;
    let kind = match t.to_ascii_uppercase().as_str() {
        "A" => UnitKind::Army,
        "F" => UnitKind::Fleet,
        _ => return Err(format!("{t:?} is not A or F")),
    };
    position
        .units
        .iter()
        .find(|u| {
            u.location.province == province && u.owner == Owner::Power(power) && u.kind == kind
        })
        .map(|u| u.id)
        .ok_or_else(|| format!("there is no {power} {t} {prov}"))
}
