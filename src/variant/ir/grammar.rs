//! International Relations' commands as players write them (`international-relations.md`
//! §3): treaties proposed, withdrawn and abrogated, permissions, transfers and victory
//! claims. A treaty with something that is not another power is IR-X2.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::command::parts::{
    PResult, Why, blanks, cut, destination, end_of_line, expect, failure, keyword, move_arrow,
    one_of, power, render_unit, unit,
};
use crate::command::{Coded, Grammar, OwnCommand, RuleCommand};
use crate::map::{Location, Map, Power, ProvinceId};
use crate::rules::UnitSpec;

/// A treaty of International Relations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TreatyKind {
    /// Mutual defence treaty.
    Mdt,
    /// Alliance and assistance treaty (`ATT` accepted on input).
    Aat,
}

impl fmt::Display for TreatyKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TreatyKind::Mdt => "MDT",
            TreatyKind::Aat => "AAT",
        })
    }
}

/// One International Relations command.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum IrCommand {
    /// `ENTER MDT WITH France`.
    EnterTreaty { kind: TreatyKind, with: Power },
    /// `WITHDRAW AAT WITH France`.
    WithdrawTreaty { kind: TreatyKind, with: Power },
    /// `ABROGATE MDT WITH France`; `None` is `ABROGATE TREATY`.
    Abrogate {
        kind: Option<TreatyKind>,
        with: Power,
    },
    /// `PERMIT Italy A Tyr - Ven`.
    PermitMove {
        power: Power,
        unit: UnitSpec,
        dest: Location,
    },
    /// `PERMIT Italy INTO Tyr`.
    PermitInto { power: Power, province: ProvinceId },
    /// `TRANSFER Tyr TO Italy`.
    Transfer { province: ProvinceId, to: Power },
    /// `CLAIM SOLO` (immediate).
    ClaimSolo,
    /// `CLAIM COALITION WITH France, Germany` (immediate).
    ClaimCoalition { with: Vec<Power> },
}

impl OwnCommand for IrCommand {
    fn render(&self, map: &Map) -> String {
        let code = |p: ProvinceId| map.display_code(p);
        match self {
            IrCommand::EnterTreaty { kind, with } => format!("ENTER {kind} WITH {with}"),
            IrCommand::WithdrawTreaty { kind, with } => format!("WITHDRAW {kind} WITH {with}"),
            IrCommand::Abrogate { kind, with } => match kind {
                Some(k) => format!("ABROGATE {k} WITH {with}"),
                None => format!("ABROGATE TREATY WITH {with}"),
            },
            IrCommand::PermitMove { power, unit, dest } => format!(
                "PERMIT {power} {} - {}",
                render_unit(map, unit),
                map.display_location(*dest)
            ),
            IrCommand::PermitInto { power, province } => {
                format!("PERMIT {power} INTO {}", code(*province))
            }
            IrCommand::Transfer { province, to } => {
                format!("TRANSFER {} TO {to}", code(*province))
            }
            IrCommand::ClaimSolo => "CLAIM SOLO".into(),
            IrCommand::ClaimCoalition { with } => {
                let names: Vec<&str> = with.iter().map(|p| p.name()).collect();
                format!("CLAIM COALITION WITH {}", names.join(", "))
            }
        }
    }
}

/// International Relations' grammar.
pub struct IrGrammar;

impl Grammar for IrGrammar {
    fn keywords(&self) -> &[&'static str] {
        &[
            "withdraw", "cancel", "enter", "abrogate", "permit", "transfer", "claim",
        ]
    }

    // ir_command = enter | withdraw | abrogate | permit | transfer | claim ;
    // transfer = "TRANSFER" province "TO" power ;
    fn command<'a>(&self, map: &Map, line: &'a str) -> PResult<'a, RuleCommand> {
        let start = blanks(line);
        let first = start.split(' ').next().unwrap_or("").to_ascii_lowercase();
        let (rest, cmd) = match first.as_str() {
            "withdraw" | "cancel" => withdraw(start)?,
            "enter" => enter(start)?,
            "abrogate" => abrogate(start)?,
            "permit" => permit(map, start)?,
            "transfer" => {
                let (r, _) = keyword("transfer")(start)?;
                let (r, l) = cut(destination(map, r))?;
                let (r, _) = cut(expect("TO and a power", keyword("to"))(r))?;
                let (r, p) = cut(expect("a power", power)(r))?;
                (
                    r,
                    IrCommand::Transfer {
                        province: l.province,
                        to: p,
                    },
                )
            }
            _ => claim(start)?,
        };
        let (rest, _) = cut(end_of_line(rest))?;
        Ok((rest, RuleCommand::new(cmd)))
    }

    fn help(&self) -> &'static str {
        include_str!("help.txt")
    }
}

// treaty = "MDT" | "AAT" | "ATT" ;
fn treaty_kind(i: &str) -> PResult<'_, TreatyKind> {
    let (r, w) = one_of(&["mdt", "aat", "att"], "MDT or AAT")(i)?;
    Ok((
        r,
        if w == "mdt" {
            TreatyKind::Mdt
        } else {
            TreatyKind::Aat
        },
    ))
}

// withdraw = ( "WITHDRAW" | "CANCEL" ) treaty "WITH" power ;
fn withdraw(i: &str) -> PResult<'_, IrCommand> {
    let (r, _) = one_of(&["withdraw", "cancel"], "WITHDRAW")(i)?;
    let (r, kind) = cut(expect("MDT or AAT", treaty_kind)(r))?;
    let (r, _) = cut(expect("WITH and a power", keyword("with"))(r))?;
    let (r, p) = cut(expect("a power", power)(r))?;
    Ok((r, IrCommand::WithdrawTreaty { kind, with: p }))
}

// enter = "ENTER" treaty "WITH" power ;   (IR-X2 when what follows is not a power)
fn enter(i: &str) -> PResult<'_, IrCommand> {
    let (r, _) = keyword("enter")(i)?;
    let (r, kind) = cut(expect("MDT or AAT", treaty_kind)(r))?;
    let (r, _) = cut(expect("WITH and a power", keyword("with"))(r))?;
    let at = blanks(r);
    match power(r) {
        Ok((r, p)) => Ok((r, IrCommand::EnterTreaty { kind, with: p })),
        Err(_) => {
            let shown = at.trim();
            let text = if shown.is_empty() { "(nothing)" } else { shown };
            failure(
                at,
                Why::Coded(Coded {
                    code: "IR-X2",
                    sentence: format!("{text} is not another power in this game."),
                    stated: false,
                }),
            )
        }
    }
}

// abrogate = "ABROGATE" ( treaty | "TREATY" ) "WITH" power ;
fn abrogate(i: &str) -> PResult<'_, IrCommand> {
    let (r, _) = keyword("abrogate")(i)?;
    let (r, kind) = match keyword("treaty")(r) {
        Ok((r, _)) => (r, None),
        Err(_) => {
            let (r, k) = cut(expect("MDT, AAT or TREATY", treaty_kind)(r))?;
            (r, Some(k))
        }
    };
    let (r, _) = cut(expect("WITH and a power", keyword("with"))(r))?;
    let (r, p) = cut(expect("a power", power)(r))?;
    Ok((r, IrCommand::Abrogate { kind, with: p }))
}

// permit = "PERMIT" power ( unit move_arrow location | [ "INTO" ] province ) ;
fn permit<'a>(map: &Map, i: &'a str) -> PResult<'a, IrCommand> {
    let (r, _) = keyword("permit")(i)?;
    let (r, p) = cut(expect("a power", power)(r))?;
    if let Ok((r2, _)) = keyword("into")(r) {
        let (r2, l) = cut(destination(map, r2))?;
        return Ok((
            r2,
            IrCommand::PermitInto {
                power: p,
                province: l.province,
            },
        ));
    }
    let (r, u) = cut(unit(map, r))?;
    match move_arrow(r) {
        Ok((r, _)) => {
            let (r, dest) = cut(destination(map, r))?;
            Ok((
                r,
                IrCommand::PermitMove {
                    power: p,
                    unit: u,
                    dest,
                },
            ))
        }
        Err(_) if u.kind.is_none() => Ok((
            r,
            IrCommand::PermitInto {
                power: p,
                province: u.location.province,
            },
        )),
        Err(_) => failure(
            blanks(r),
            Why::Expected("\"-\" and the province the unit may enter"),
        ),
    }
}

// claim = "CLAIM SOLO" | "CLAIM COALITION WITH" power { [ "," | "AND" ] power } ;
fn claim(i: &str) -> PResult<'_, IrCommand> {
    let (r, _) = keyword("claim")(i)?;
    if let Ok((r, _)) = keyword("solo")(r) {
        return Ok((r, IrCommand::ClaimSolo));
    }
    let (r, _) = cut(expect("SOLO or COALITION", keyword("coalition"))(r))?;
    let (r, _) = cut(expect("WITH and a power", keyword("with"))(r))?;
    let (mut r, first) = cut(expect("a power", power)(r))?;
    let mut with = vec![first];
    loop {
        let after = blanks(r);
        let after = after
            .strip_prefix(',')
            .or_else(|| keyword("and")(after).ok().map(|(a, _)| a))
            .unwrap_or(after);
        match power(after) {
            Ok((a, p)) => {
                if !with.contains(&p) {
                    with.push(p);
                }
                r = a;
            }
            Err(_) => break,
        }
    }
    Ok((r, IrCommand::ClaimCoalition { with }))
}

#[cfg(test)]
mod tests {
    use super::*;

    grammar_cases! { IrGrammar;
        ir_enter: "enter att with italy" => Some("ENTER AAT WITH Italy"),
        ir_withdraw: "withdraw mdt with italy" => Some("WITHDRAW MDT WITH Italy"),
        ir_abrogate: "abrogate treaty with italy" => Some("ABROGATE TREATY WITH Italy"),
        ir_permit: "permit italy a tyr - ven" => Some("PERMIT Italy A Tyr - Ven"),
        ir_permit_into: "permit italy into tyrolia" => Some("PERMIT Italy INTO Tyr"),
        ir_permit_bare: "permit italy tyr" => Some("PERMIT Italy INTO Tyr"),
        ir_transfer: "transfer tri to italy" => Some("TRANSFER Tri TO Italy"),
        ir_claim: "claim solo" => Some("CLAIM SOLO"),
        ir_coalition: "claim coalition with france, germany and italy" => Some("CLAIM COALITION WITH France, Germany, Italy"),
        bad_permit: "permit italy a tyr" => None,
    }
}
