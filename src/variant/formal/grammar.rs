//! Formal Diplomacy's commands as players write them (`formal.md` §3): declarations of war
//! (`DWO`), surrender (`SUR`), spheres of influence (`SOI`, also written after a unit and in
//! a support) and their undoing. A declaration on something that is not a power is FD-E3.

use serde::{Deserialize, Serialize};

use crate::command::parts::{
    PResult, Why, blanks, cut, destination, end_of_line, expect, failure, keyword, location,
    one_of, power, render_unit, unit,
};
use crate::command::{Coded, Grammar, OwnCommand, RuleCommand};
use crate::map::{Map, Power, ProvinceId};
use crate::rules::UnitSpec;

/// One Formal Diplomacy command.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FormalCommand {
    /// `DWO France`.
    DeclareWar { on: Power },
    /// `SUR`, `SURRENDER`, `UNCLE!`.
    Surrender,
    /// `A Par SOI`, `A Par SOI Bur`, `SOI Bur`. At least one of the two is given.
    Soi {
        unit: Option<UnitSpec>,
        province: Option<ProvinceId>,
    },
    /// `A Mar S A Par SOI Bur`.
    SupportSoi {
        unit: UnitSpec,
        target: UnitSpec,
        province: ProvinceId,
    },
    /// `UNDO SOI IN Bur`.
    UndoSoi { province: ProvinceId },
}

impl OwnCommand for FormalCommand {
    fn render(&self, map: &Map) -> String {
        let code = |p: ProvinceId| map.display_code(p);
        match self {
            FormalCommand::DeclareWar { on } => format!("DWO {on}"),
            FormalCommand::Surrender => "SURRENDER".into(),
            FormalCommand::Soi { unit, province } => match (unit, province) {
                (Some(u), Some(p)) => format!("{} SOI {}", render_unit(map, u), code(*p)),
                (Some(u), None) => format!("{} SOI", render_unit(map, u)),
                (None, Some(p)) => format!("SOI {}", code(*p)),
                (None, None) => "SOI".into(),
            },
            FormalCommand::SupportSoi {
                unit,
                target,
                province,
            } => format!(
                "{} S {} SOI {}",
                render_unit(map, unit),
                render_unit(map, target),
                code(*province)
            ),
            FormalCommand::UndoSoi { province } => format!("UNDO SOI IN {}", code(*province)),
        }
    }

    /// §3: DWO and SUR lines are validated before the unit orders of their mail.
    fn taken_first(&self) -> bool {
        matches!(
            self,
            FormalCommand::DeclareWar { .. } | FormalCommand::Surrender
        )
    }
}

/// Formal Diplomacy's grammar.
pub struct FormalGrammar;

impl Grammar for FormalGrammar {
    fn keywords(&self) -> &[&'static str] {
        &[
            "surrender",
            "sur",
            "uncle",
            "uncle!",
            "dwo",
            "declare",
            "soi",
            "sphere",
            "undo",
        ]
    }

    // formal_command = dwo | surrender | soi_command | undo_soi ;
    // soi_command = ( "SOI" | "SPHERE OF INFLUENCE" ) province ;
    // undo_soi = ( "UNDO SOI" | "UNDO SPHERE OF INFLUENCE" ) [ "IN" ] province ;
    fn command<'a>(&self, map: &Map, line: &'a str) -> PResult<'a, RuleCommand> {
        let start = blanks(line);
        let first = start.split(' ').next().unwrap_or("").to_ascii_lowercase();
        let (rest, cmd) = match first.as_str() {
            "dwo" | "declare" => dwo(start)?,
            "soi" | "sphere" => {
                let (r, _) = one_of(&["soi", "sphere of influence"], "SOI")(start)?;
                let (r, l) = cut(destination(map, r))?;
                (
                    r,
                    FormalCommand::Soi {
                        unit: None,
                        province: Some(l.province),
                    },
                )
            }
            "undo" => {
                let (r, _) = one_of(&["undo soi", "undo sphere of influence"], "UNDO SOI")(start)?;
                let r = keyword("in")(r).map_or(r, |(r, _)| r);
                let (r, l) = cut(destination(map, r))?;
                (
                    r,
                    FormalCommand::UndoSoi {
                        province: l.province,
                    },
                )
            }
            // surrender = "SURRENDER" | "SUR" | "UNCLE!" | "UNCLE" ;
            _ => {
                let (r, _) = one_of(&["uncle!", "uncle", "surrender", "sur"], "SURRENDER")(start)?;
                let (r, _) = end_of_line(r)?;
                (r, FormalCommand::Surrender)
            }
        };
        let (rest, _) = cut(end_of_line(rest))?;
        Ok((rest, RuleCommand::new(cmd)))
    }

    // formal_unit_order = soi | support_soi ;
    // soi = "SOI" [ location ] ;   (in place, or an adjacent province)
    // support_soi = ( "S" | "SUP" | "SUPP" | "SUPPORT" | "SUPPORTS" ) unit "SOI" location ;
    fn unit_order<'a>(&self, map: &Map, u: UnitSpec, i: &'a str) -> PResult<'a, RuleCommand> {
        if let Ok((rest, _)) = one_of(&["soi", "sphere of influence"], "SOI")(i) {
            let (rest, target) = match location(map, rest) {
                Ok((r, l)) => (r, Some(l.province)),
                Err(nom::Err::Failure(e)) => return Err(nom::Err::Failure(e)),
                Err(_) => (rest, None),
            };
            let (rest, _) = cut(end_of_line(rest))?;
            return Ok((
                rest,
                RuleCommand::new(FormalCommand::Soi {
                    unit: Some(u),
                    province: target,
                }),
            ));
        }
        let (rest, _) = one_of(&["supports", "support", "supp", "sup", "s"], "S (support)")(i)?;
        let (rest, target) = unit(map, rest)?;
        let (rest, _) = keyword("soi")(rest)?;
        let (rest, dest) = cut(expect("a province", |j| location(map, j))(rest))?;
        let (rest, _) = cut(end_of_line(rest))?;
        Ok((
            rest,
            RuleCommand::new(FormalCommand::SupportSoi {
                unit: u,
                target,
                province: dest.province,
            }),
        ))
    }

    fn help(&self) -> &'static str {
        include_str!("help.txt")
    }
}

// dwo = ( "DWO" | "DECLARE WAR ON" ) power ;   (FD-E3 when what follows is not a power)
fn dwo(i: &str) -> PResult<'_, FormalCommand> {
    let (r, _) = one_of(&["dwo", "declare war on"], "DWO")(i)?;
    let at = blanks(r);
    match power(r) {
        Ok((r, p)) => Ok((r, FormalCommand::DeclareWar { on: p })),
        Err(_) => {
            let shown = at.trim();
            let text = if shown.is_empty() { "(nothing)" } else { shown };
            failure(
                at,
                Why::Coded(Coded {
                    code: "FD-E3",
                    sentence: format!("{text} is not a power still in this game."),
                    stated: false,
                }),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    grammar_cases! { FormalGrammar;
        formal_sur: "sur" => Some("SURRENDER"),
        formal_uncle: "Uncle!" => Some("SURRENDER"),
        formal_sur_to_is_not_formal: "sur eng" => None,
        fd_dwo: "declare war on germany" => Some("DWO Germany"),
        fd_soi: "sphere of influence burgundy" => Some("SOI Bur"),
        fd_undo: "undo soi bur" => Some("UNDO SOI IN Bur"),
        fd_undo_long: "Undo Sphere of Influence in Bur" => Some("UNDO SOI IN Bur"),
    }
}
