//! Variant commands (grammar/variant.md; shared/rules/*.md §3): Surrender, Survive, Formal
//! Diplomacy and International Relations. All are read in every game; whether one is
//! allowed is for the game and its variant to decide (hook H1 then H3), not the parser.
//! Shell Shock has no commands of its own.

use std::fmt;

use crate::map::{Coast, Location, Map, Power, ProvinceId};
use crate::rules::{UnitKind, UnitSpec};

use super::lexeme::{
    PResult, Why, blanks, cut, end_of_line, expect, fail, failure, keyword, number, one_of, power,
};
use super::order::{destination, move_arrow, render_unit, unit};

/// A treaty of International Relations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
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

/// A Survive ballot.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Ballot {
    /// `VOTE France 2 Germany 1`: votes per power, in the order written.
    Split(Vec<(Power, u32)>),
    /// `VOTE France` or `VOTE France ALL`.
    All(Power),
    /// `VOTE NONE`: withdraw the ballot.
    Withdraw,
}

/// One variant command, typed.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub enum VariantCommand {
    /// Surrender: `SURRENDER TO England` (immediate).
    OfferSurrender { to: Power },
    /// Surrender: `WITHDRAW SURRENDER`.
    WithdrawSurrender,
    /// Surrender: `ACCEPT SURRENDER FROM France`.
    AcceptSurrender { from: Power },
    /// Surrender: `DECLINE SURRENDER FROM France`.
    DeclineSurrender { from: Power },
    /// Surrender: `F Lon HOLD EXCHANGE England A`.
    HoldExchange {
        unit: UnitSpec,
        power: Power,
        kind: UnitKind,
        coast: Option<Coast>,
    },
    /// Surrender: `DECLINE EXCHANGE IN Lon`.
    DeclineExchange { province: ProvinceId },
    /// Surrender: `DECLINE EXCHANGES`.
    DeclineExchanges,
    /// Surrender: `ALLOW EXCHANGES`.
    AllowExchanges,
    /// Survive: a ballot.
    Vote(Ballot),
    /// Survive: `JURY France`.
    Jury { power: Power },
    /// Formal: `DWO France`.
    DeclareWar { on: Power },
    /// Formal: `SUR`, `SURRENDER`, `UNCLE!`.
    Surrender,
    /// Formal: `A Par SOI`, `A Par SOI Bur`, `SOI Bur`. At least one of the two is given.
    Soi {
        unit: Option<UnitSpec>,
        province: Option<ProvinceId>,
    },
    /// Formal: `A Mar S A Par SOI Bur`.
    SupportSoi {
        unit: UnitSpec,
        target: UnitSpec,
        province: ProvinceId,
    },
    /// Formal: `UNDO SOI IN Bur`.
    UndoSoi { province: ProvinceId },
    /// International Relations: `ENTER MDT WITH France`.
    EnterTreaty { kind: TreatyKind, with: Power },
    /// International Relations: `WITHDRAW AAT WITH France`.
    WithdrawTreaty { kind: TreatyKind, with: Power },
    /// International Relations: `ABROGATE MDT WITH France`; `None` is `ABROGATE TREATY`.
    Abrogate {
        kind: Option<TreatyKind>,
        with: Power,
    },
    /// International Relations: `PERMIT Italy A Tyr - Ven`.
    PermitMove {
        power: Power,
        unit: UnitSpec,
        dest: Location,
    },
    /// International Relations: `PERMIT Italy INTO Tyr`.
    PermitInto { power: Power, province: ProvinceId },
    /// International Relations: `TRANSFER Tyr TO Italy`.
    Transfer { province: ProvinceId, to: Power },
    /// International Relations: `CLAIM SOLO` (immediate).
    ClaimSolo,
    /// International Relations: `CLAIM COALITION WITH France, Germany` (immediate).
    ClaimCoalition { with: Vec<Power> },
}

impl VariantCommand {
    /// The normalised echo, which reads back as the same command.
    pub fn render(&self, map: &Map) -> String {
        let code = |p: ProvinceId| map.display_code(p);
        match self {
            VariantCommand::OfferSurrender { to } => format!("SURRENDER TO {to}"),
            VariantCommand::WithdrawSurrender => "WITHDRAW SURRENDER".into(),
            VariantCommand::AcceptSurrender { from } => format!("ACCEPT SURRENDER FROM {from}"),
            VariantCommand::DeclineSurrender { from } => format!("DECLINE SURRENDER FROM {from}"),
            VariantCommand::HoldExchange {
                unit,
                power,
                kind,
                coast,
            } => {
                let c = coast.map(|c| format!("/{}", c.code())).unwrap_or_default();
                format!(
                    "{} HOLD EXCHANGE {power} {}{c}",
                    render_unit(map, unit),
                    kind.letter()
                )
            }
            VariantCommand::DeclineExchange { province } => {
                format!("DECLINE EXCHANGE IN {}", code(*province))
            }
            VariantCommand::DeclineExchanges => "DECLINE EXCHANGES".into(),
            VariantCommand::AllowExchanges => "ALLOW EXCHANGES".into(),
            VariantCommand::Vote(Ballot::Withdraw) => "VOTE NONE".into(),
            VariantCommand::Vote(Ballot::All(p)) => format!("VOTE {p} ALL"),
            VariantCommand::Vote(Ballot::Split(v)) => {
                let parts: Vec<String> = v.iter().map(|(p, n)| format!("{p} {n}")).collect();
                format!("VOTE {}", parts.join(", "))
            }
            VariantCommand::Jury { power } => format!("JURY {power}"),
            VariantCommand::DeclareWar { on } => format!("DWO {on}"),
            VariantCommand::Surrender => "SURRENDER".into(),
            VariantCommand::Soi { unit, province } => match (unit, province) {
                (Some(u), Some(p)) => format!("{} SOI {}", render_unit(map, u), code(*p)),
                (Some(u), None) => format!("{} SOI", render_unit(map, u)),
                (None, Some(p)) => format!("SOI {}", code(*p)),
                (None, None) => "SOI".into(),
            },
            VariantCommand::SupportSoi {
                unit,
                target,
                province,
            } => format!(
                "{} S {} SOI {}",
                render_unit(map, unit),
                render_unit(map, target),
                code(*province)
            ),
            VariantCommand::UndoSoi { province } => format!("UNDO SOI IN {}", code(*province)),
            VariantCommand::EnterTreaty { kind, with } => format!("ENTER {kind} WITH {with}"),
            VariantCommand::WithdrawTreaty { kind, with } => {
                format!("WITHDRAW {kind} WITH {with}")
            }
            VariantCommand::Abrogate { kind, with } => match kind {
                Some(k) => format!("ABROGATE {k} WITH {with}"),
                None => format!("ABROGATE TREATY WITH {with}"),
            },
            VariantCommand::PermitMove { power, unit, dest } => format!(
                "PERMIT {power} {} - {}",
                render_unit(map, unit),
                map.display_location(*dest)
            ),
            VariantCommand::PermitInto { power, province } => {
                format!("PERMIT {power} INTO {}", code(*province))
            }
            VariantCommand::Transfer { province, to } => {
                format!("TRANSFER {} TO {to}", code(*province))
            }
            VariantCommand::ClaimSolo => "CLAIM SOLO".into(),
            VariantCommand::ClaimCoalition { with } => {
                let names: Vec<&str> = with.iter().map(|p| p.name()).collect();
                format!("CLAIM COALITION WITH {}", names.join(", "))
            }
        }
    }
}

/// The first words of the variant commands that do not start with a unit.
pub(crate) const KEYWORDS: &[&str] = &[
    "surrender",
    "offer",
    "sur",
    "uncle",
    "uncle!",
    "withdraw",
    "cancel",
    "accept",
    "decline",
    "allow",
    "vote",
    "jury",
    "dwo",
    "declare",
    "soi",
    "sphere",
    "undo",
    "enter",
    "abrogate",
    "permit",
    "transfer",
    "claim",
];

// variant_command = surrender_cmd | withdraw_cmd | accept_cmd | decline_cmd | allow_cmd
//                 | vote | jury | dwo | soi_cmd | undo_soi | enter | abrogate | permit
//                 | transfer | claim ;
pub(crate) fn variant_command<'a>(map: &Map, i: &'a str) -> PResult<'a, VariantCommand> {
    let start = blanks(i);
    let first = start.split(' ').next().unwrap_or("").to_ascii_lowercase();
    let (rest, cmd) = match first.as_str() {
        "surrender" | "offer" | "sur" | "uncle" | "uncle!" => surrender_cmd(start)?,
        "withdraw" | "cancel" => withdraw_cmd(start)?,
        "accept" | "decline" => accept_or_decline(map, start)?,
        "allow" => {
            let (r, _) = cut(keyword("allow exchanges")(start))?;
            (r, VariantCommand::AllowExchanges)
        }
        "jury" => {
            let (r, _) = keyword("jury")(start)?;
            let (r, p) = cut(expect("a power", power)(r))?;
            (r, VariantCommand::Jury { power: p })
        }
        "dwo" | "declare" => dwo(start)?,
        "soi" | "sphere" => {
            let (r, _) = one_of(&["soi", "sphere of influence"], "SOI")(start)?;
            let (r, l) = cut(destination(map, r))?;
            (
                r,
                VariantCommand::Soi {
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
                VariantCommand::UndoSoi {
                    province: l.province,
                },
            )
        }
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
                VariantCommand::Transfer {
                    province: l.province,
                    to: p,
                },
            )
        }
        "claim" => claim(start)?,
        _ => return fail(start, Why::Expected("a variant command")),
    };
    let (rest, _) = cut(end_of_line(rest))?;
    Ok((rest, cmd))
}

// surrender_cmd = ( "SURRENDER" | "OFFER SURRENDER" ) "TO" power | "SUR" power
//               | "SURRENDER" | "SUR" | "UNCLE!" | "UNCLE" ;
fn surrender_cmd(i: &str) -> PResult<'_, VariantCommand> {
    if let Ok((r, _)) = one_of(&["uncle!", "uncle"], "UNCLE")(i) {
        return Ok((r, VariantCommand::Surrender));
    }
    if let Ok((r, _)) = keyword("offer surrender")(i) {
        let (r, _) = cut(expect("TO and a power", keyword("to"))(r))?;
        let (r, p) = cut(expect("a power", power)(r))?;
        return Ok((r, VariantCommand::OfferSurrender { to: p }));
    }
    let (r, w) = one_of(&["surrender", "sur"], "SURRENDER")(i)?;
    if end_of_line(r).is_ok() {
        return Ok((r, VariantCommand::Surrender));
    }
    let r = if w == "surrender" {
        cut(expect("TO and a power", keyword("to"))(r))?.0
    } else {
        keyword("to")(r).map_or(r, |(r, _)| r)
    };
    let (r, p) = cut(expect("a power", power)(r))?;
    Ok((r, VariantCommand::OfferSurrender { to: p }))
}

// withdraw_cmd = ( "WITHDRAW" | "CANCEL" ) "SURRENDER" | "WITHDRAW" treaty "WITH" power ;
fn withdraw_cmd(i: &str) -> PResult<'_, VariantCommand> {
    let (r, _) = one_of(&["withdraw", "cancel"], "WITHDRAW")(i)?;
    if let Ok((r, _)) = keyword("surrender")(r) {
        return Ok((r, VariantCommand::WithdrawSurrender));
    }
    let (r, kind) = cut(expect("SURRENDER, MDT or AAT", treaty_kind)(r))?;
    let (r, _) = cut(expect("WITH and a power", keyword("with"))(r))?;
    let (r, p) = cut(expect("a power", power)(r))?;
    Ok((r, VariantCommand::WithdrawTreaty { kind, with: p }))
}

// accept_cmd = "ACCEPT" ( "SURRENDER" [ "OF" | "FROM" ] | "SUR" ) power ;
// decline_cmd = "DECLINE" ( "SURRENDER" [ "OF" | "FROM" ] | "SUR" ) power
//             | "DECLINE EXCHANGE" [ "IN" ] province | "DECLINE EXCHANGES" ;
fn accept_or_decline<'a>(map: &Map, i: &'a str) -> PResult<'a, VariantCommand> {
    let (r, verb) = one_of(&["accept", "decline"], "ACCEPT or DECLINE")(i)?;
    if verb == "decline" {
        if let Ok((r, _)) = keyword("exchanges")(r) {
            return Ok((r, VariantCommand::DeclineExchanges));
        }
        if let Ok((r, _)) = keyword("exchange")(r) {
            let r = keyword("in")(r).map_or(r, |(r, _)| r);
            let (r, l) = cut(destination(map, r))?;
            return Ok((
                r,
                VariantCommand::DeclineExchange {
                    province: l.province,
                },
            ));
        }
    }
    let (r, _) = cut(expect(
        "SURRENDER",
        one_of(&["surrender", "sur"], "SURRENDER"),
    )(r))?;
    let r = one_of(&["of", "from"], "FROM")(r).map_or(r, |(r, _)| r);
    let (r, p) = cut(expect("a power", power)(r))?;
    Ok((
        r,
        if verb == "accept" {
            VariantCommand::AcceptSurrender { from: p }
        } else {
            VariantCommand::DeclineSurrender { from: p }
        },
    ))
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

// dwo = ( "DWO" | "DECLARE WAR ON" ) power ;
fn dwo(i: &str) -> PResult<'_, VariantCommand> {
    let (r, _) = one_of(&["dwo", "declare war on"], "DWO")(i)?;
    let at = blanks(r);
    match power(r) {
        Ok((r, p)) => Ok((r, VariantCommand::DeclareWar { on: p })),
        Err(_) => {
            let shown = at.trim();
            failure(
                at,
                Why::NotAPower(if shown.is_empty() {
                    "(nothing)".into()
                } else {
                    shown.to_string()
                }),
            )
        }
    }
}

// enter = "ENTER" treaty "WITH" power ;
fn enter(i: &str) -> PResult<'_, VariantCommand> {
    let (r, _) = keyword("enter")(i)?;
    let (r, kind) = cut(expect("MDT or AAT", treaty_kind)(r))?;
    let (r, _) = cut(expect("WITH and a power", keyword("with"))(r))?;
    let at = blanks(r);
    match power(r) {
        Ok((r, p)) => Ok((r, VariantCommand::EnterTreaty { kind, with: p })),
        Err(_) => {
            let shown = at.trim();
            failure(
                at,
                Why::NotAnotherPower(if shown.is_empty() {
                    "(nothing)".into()
                } else {
                    shown.to_string()
                }),
            )
        }
    }
}

// abrogate = "ABROGATE" ( treaty | "TREATY" ) "WITH" power ;
fn abrogate(i: &str) -> PResult<'_, VariantCommand> {
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
    Ok((r, VariantCommand::Abrogate { kind, with: p }))
}

// permit = "PERMIT" power ( unit move_arrow location | [ "INTO" ] province ) ;
fn permit<'a>(map: &Map, i: &'a str) -> PResult<'a, VariantCommand> {
    let (r, _) = keyword("permit")(i)?;
    let (r, p) = cut(expect("a power", power)(r))?;
    if let Ok((r2, _)) = keyword("into")(r) {
        let (r2, l) = cut(destination(map, r2))?;
        return Ok((
            r2,
            VariantCommand::PermitInto {
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
                VariantCommand::PermitMove {
                    power: p,
                    unit: u,
                    dest,
                },
            ))
        }
        Err(_) if u.kind.is_none() => Ok((
            r,
            VariantCommand::PermitInto {
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
fn claim(i: &str) -> PResult<'_, VariantCommand> {
    let (r, _) = keyword("claim")(i)?;
    if let Ok((r, _)) = keyword("solo")(r) {
        return Ok((r, VariantCommand::ClaimSolo));
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
    Ok((r, VariantCommand::ClaimCoalition { with }))
}

// vote = "VOTE" ( "NONE" | power [ "ALL" ] | power number { [ "," ] power number } ) ;
//
// Any fault in a ballot line is SRV-E7 (the whole line quoted), not a generic error.
pub(crate) fn vote(i: &str) -> Option<VariantCommand> {
    let (r, _) = keyword("vote").parse_ok(i)?;
    if let Some((r, _)) = keyword("none").parse_ok(r)
        && end_of_line(r).is_ok()
    {
        return Some(VariantCommand::Vote(Ballot::Withdraw));
    }
    let (r, p) = power(r).ok()?;
    if end_of_line(r).is_ok() {
        return Some(VariantCommand::Vote(Ballot::All(p)));
    }
    if let Some((r, _)) = keyword("all").parse_ok(r)
        && end_of_line(r).is_ok()
    {
        return Some(VariantCommand::Vote(Ballot::All(p)));
    }
    let (mut r, n) = number(r).ok()?;
    if n == 0 {
        return None;
    }
    let mut votes = vec![(p, n)];
    loop {
        if end_of_line(r).is_ok() {
            return Some(VariantCommand::Vote(Ballot::Split(votes)));
        }
        let after = blanks(r);
        let after = after.strip_prefix(',').unwrap_or(after);
        let (a, p) = power(after).ok()?;
        let (a, n) = number(a).ok()?;
        if n == 0 {
            return None;
        }
        votes.push((p, n));
        r = a;
    }
}

/// `.ok()` for the keyword closures, keeping call sites short.
trait ParseOk<'a, T> {
    fn parse_ok(&self, i: &'a str) -> Option<(&'a str, T)>;
}

impl<'a, T, F: Fn(&'a str) -> PResult<'a, T>> ParseOk<'a, T> for F {
    fn parse_ok(&self, i: &'a str) -> Option<(&'a str, T)> {
        self(i).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map() -> &'static Map {
        Map::standard().unwrap()
    }

    macro_rules! vc {
        ($name:ident, $text:expr, $want:expr) => {
            #[test]
            fn $name() {
                let got = variant_command(map(), $text).map(|(_, c)| c.render(map()));
                assert_eq!(got.ok().as_deref(), $want);
            }
        };
    }

    vc!(
        sur_offer,
        "surrender to england",
        Some("SURRENDER TO England")
    );
    vc!(sur_offer_short, "SUR ENG", Some("SURRENDER TO England"));
    vc!(
        sur_offer_long,
        "Offer Surrender To English",
        Some("SURRENDER TO England")
    );
    vc!(formal_sur, "sur", Some("SURRENDER"));
    vc!(formal_uncle, "Uncle!", Some("SURRENDER"));
    vc!(sur_withdraw, "cancel surrender", Some("WITHDRAW SURRENDER"));
    vc!(
        sur_accept,
        "accept surrender of france",
        Some("ACCEPT SURRENDER FROM France")
    );
    vc!(
        sur_decline,
        "decline sur FRA",
        Some("DECLINE SURRENDER FROM France")
    );
    vc!(
        sur_decline_ex,
        "decline exchange in london",
        Some("DECLINE EXCHANGE IN Lon")
    );
    vc!(
        sur_decline_exs,
        "DECLINE EXCHANGES",
        Some("DECLINE EXCHANGES")
    );
    vc!(sur_allow, "allow exchanges", Some("ALLOW EXCHANGES"));
    vc!(srv_jury, "jury turkey", Some("JURY Turkey"));
    vc!(fd_dwo, "declare war on germany", Some("DWO Germany"));
    vc!(fd_soi, "sphere of influence burgundy", Some("SOI Bur"));
    vc!(fd_undo, "undo soi bur", Some("UNDO SOI IN Bur"));
    vc!(
        fd_undo_long,
        "Undo Sphere of Influence in Bur",
        Some("UNDO SOI IN Bur")
    );
    vc!(
        ir_enter,
        "enter att with italy",
        Some("ENTER AAT WITH Italy")
    );
    vc!(
        ir_withdraw,
        "withdraw mdt with italy",
        Some("WITHDRAW MDT WITH Italy")
    );
    vc!(
        ir_abrogate,
        "abrogate treaty with italy",
        Some("ABROGATE TREATY WITH Italy")
    );
    vc!(
        ir_permit,
        "permit italy a tyr - ven",
        Some("PERMIT Italy A Tyr - Ven")
    );
    vc!(
        ir_permit_into,
        "permit italy into tyrolia",
        Some("PERMIT Italy INTO Tyr")
    );
    vc!(
        ir_permit_bare,
        "permit italy tyr",
        Some("PERMIT Italy INTO Tyr")
    );
    vc!(
        ir_transfer,
        "transfer tri to italy",
        Some("TRANSFER Tri TO Italy")
    );
    vc!(ir_claim, "claim solo", Some("CLAIM SOLO"));
    vc!(
        ir_coalition,
        "claim coalition with france, germany and italy",
        Some("CLAIM COALITION WITH France, Germany, Italy")
    );
    vc!(bad_permit, "permit italy a tyr", None);

    macro_rules! ballot {
        ($name:ident, $text:expr, $want:expr) => {
            #[test]
            fn $name() {
                let got = vote($text).map(|c| c.render(map()));
                assert_eq!(got.as_deref(), $want);
            }
        };
    }

    ballot!(
        vote_split,
        "VOTE France 2, Germany 1",
        Some("VOTE France 2, Germany 1")
    );
    ballot!(vote_all, "vote fra", Some("VOTE France ALL"));
    ballot!(vote_all_word, "vote french all", Some("VOTE France ALL"));
    ballot!(vote_none, "vote none", Some("VOTE NONE"));
    ballot!(vote_bad_power, "vote frnace 2", None);
    ballot!(vote_zero, "vote france 0", None);
    ballot!(vote_dangling, "vote france 2 germany", None);
}
