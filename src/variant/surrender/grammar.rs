//! Surrender's commands as players write them (`surrender.md` §3): offers, withdrawals,
//! acceptances and declines of surrender, and the exchange orders of SUR-8 (one written
//! after a unit: `F Lon HOLD EXCHANGE England A`).

use serde::{Deserialize, Serialize};

use crate::command::parts::{
    PResult, Why, blanks, cut, destination, end_of_line, expect, fail, failure, keyword, name_word,
    one_of, opt_dash, power, render_unit, unit_kind,
};
use crate::command::{Grammar, OwnCommand, RuleCommand};
use crate::map::{Coast, Map, Power, ProvinceId};
use crate::rules::{UnitKind, UnitSpec};

/// One Surrender command.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SurrenderCommand {
    /// `SURRENDER TO England` (immediate).
    OfferSurrender { to: Power },
    /// `WITHDRAW SURRENDER`.
    WithdrawSurrender,
    /// `ACCEPT SURRENDER FROM France`.
    AcceptSurrender { from: Power },
    /// `DECLINE SURRENDER FROM France`.
    DeclineSurrender { from: Power },
    /// `F Lon HOLD EXCHANGE England A`.
    HoldExchange {
        unit: UnitSpec,
        power: Power,
        kind: UnitKind,
        coast: Option<Coast>,
    },
    /// `DECLINE EXCHANGE IN Lon`.
    DeclineExchange { province: ProvinceId },
    /// `DECLINE EXCHANGES`.
    DeclineExchanges,
    /// `ALLOW EXCHANGES`.
    AllowExchanges,
}

impl OwnCommand for SurrenderCommand {
    fn render(&self, map: &Map) -> String {
        match self {
            SurrenderCommand::OfferSurrender { to } => format!("SURRENDER TO {to}"),
            SurrenderCommand::WithdrawSurrender => "WITHDRAW SURRENDER".into(),
            SurrenderCommand::AcceptSurrender { from } => format!("ACCEPT SURRENDER FROM {from}"),
            SurrenderCommand::DeclineSurrender { from } => {
                format!("DECLINE SURRENDER FROM {from}")
            }
            SurrenderCommand::HoldExchange {
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
            SurrenderCommand::DeclineExchange { province } => {
                format!("DECLINE EXCHANGE IN {}", map.display_code(*province))
            }
            SurrenderCommand::DeclineExchanges => "DECLINE EXCHANGES".into(),
            SurrenderCommand::AllowExchanges => "ALLOW EXCHANGES".into(),
        }
    }
}

/// Surrender's grammar.
pub struct SurrenderGrammar;

impl Grammar for SurrenderGrammar {
    fn keywords(&self) -> &[&'static str] {
        &[
            "surrender",
            "offer",
            "sur",
            "withdraw",
            "cancel",
            "accept",
            "decline",
            "allow",
        ]
    }

    // surrender_command = offer | withdraw | accept | decline | allow ;
    fn command<'a>(&self, map: &Map, line: &'a str) -> PResult<'a, RuleCommand> {
        let start = blanks(line);
        let first = start.split(' ').next().unwrap_or("").to_ascii_lowercase();
        let (rest, cmd) = match first.as_str() {
            "withdraw" | "cancel" => withdraw(start)?,
            "accept" | "decline" => accept_or_decline(map, start)?,
            "allow" => {
                let (r, _) = cut(keyword("allow exchanges")(start))?;
                (r, SurrenderCommand::AllowExchanges)
            }
            _ => offer(start)?,
        };
        let (rest, _) = cut(end_of_line(rest))?;
        Ok((rest, RuleCommand::new(cmd)))
    }

    // hold_exchange = [ dash ] ( "HOLD EXCHANGE" | "HOLD EXCH" | "H EXCHANGE" | "H EXCH" | "HX" )
    //                 [ "=" ] [ dash ] power [ dash ] unit_kind [ coast ] ;
    // (`Fleet – London – Hold Exchange = England - Army`; the dashes are separators)
    fn unit_order<'a>(&self, _map: &Map, u: UnitSpec, i: &'a str) -> PResult<'a, RuleCommand> {
        let (rest, _) = one_of(
            &["hold exchange", "hold exch", "h exchange", "h exch", "hx"],
            "HOLD EXCHANGE",
        )(opt_dash(i))?;
        let rest = blanks(rest);
        let rest = rest.strip_prefix('=').unwrap_or(rest);
        let (rest, p) = cut(expect("a power", power)(opt_dash(rest)))?;
        let (rest, kind) = cut(expect("a unit type (A or F)", unit_kind)(opt_dash(rest)))?;
        // A coast for the new fleet: `F/sc`, `F (sc)`.
        let (rest, coast) = match blanks(rest).strip_prefix('/') {
            Some(after) => {
                let (r, w) = cut(expect("a coast", name_word)(after))?;
                match Coast::from_text(w) {
                    Some(c) => (r, Some(c)),
                    None => return failure(after, Why::BadCoast(w.to_string())),
                }
            }
            None => match blanks(rest).strip_prefix('(') {
                Some(after) => {
                    let close = after.find(')').unwrap_or(after.len());
                    let inner = after.get(..close).unwrap_or("");
                    match Coast::from_text(inner) {
                        Some(c) => (after.get(close + 1..).unwrap_or(""), Some(c)),
                        None => return failure(after, Why::BadCoast(inner.to_string())),
                    }
                }
                None => (rest, None),
            },
        };
        let (rest, _) = cut(end_of_line(rest))?;
        Ok((
            rest,
            RuleCommand::new(SurrenderCommand::HoldExchange {
                unit: u,
                power: p,
                kind,
                coast,
            }),
        ))
    }

    fn help(&self) -> &'static str {
        include_str!("help.txt")
    }
}

// offer = ( "SURRENDER" | "OFFER SURRENDER" ) "TO" power | "SUR" [ "TO" ] power ;
// (a bare `SURRENDER` or `SUR` is not Surrender's)
fn offer(i: &str) -> PResult<'_, SurrenderCommand> {
    if let Ok((r, _)) = keyword("offer surrender")(i) {
        let (r, _) = cut(expect("TO and a power", keyword("to"))(r))?;
        let (r, p) = cut(expect("a power", power)(r))?;
        return Ok((r, SurrenderCommand::OfferSurrender { to: p }));
    }
    let (r, w) = one_of(&["surrender", "sur"], "SURRENDER")(i)?;
    if end_of_line(r).is_ok() {
        return fail(blanks(r), Why::Expected("TO and a power"));
    }
    let r = if w == "surrender" {
        cut(expect("TO and a power", keyword("to"))(r))?.0
    } else {
        keyword("to")(r).map_or(r, |(r, _)| r)
    };
    let (r, p) = cut(expect("a power", power)(r))?;
    Ok((r, SurrenderCommand::OfferSurrender { to: p }))
}

// withdraw = ( "WITHDRAW" | "CANCEL" ) "SURRENDER" ;
fn withdraw(i: &str) -> PResult<'_, SurrenderCommand> {
    let (r, _) = one_of(&["withdraw", "cancel"], "WITHDRAW")(i)?;
    let (r, _) = expect("SURRENDER", keyword("surrender"))(r)?;
    Ok((r, SurrenderCommand::WithdrawSurrender))
}

// accept = "ACCEPT" ( "SURRENDER" [ "OF" | "FROM" ] | "SUR" ) power ;
// decline = "DECLINE" ( "SURRENDER" [ "OF" | "FROM" ] | "SUR" ) power
//         | "DECLINE EXCHANGE" [ "IN" ] province | "DECLINE EXCHANGES" ;
fn accept_or_decline<'a>(map: &Map, i: &'a str) -> PResult<'a, SurrenderCommand> {
    let (r, verb) = one_of(&["accept", "decline"], "ACCEPT or DECLINE")(i)?;
    if verb == "decline" {
        if let Ok((r, _)) = keyword("exchanges")(r) {
            return Ok((r, SurrenderCommand::DeclineExchanges));
        }
        if let Ok((r, _)) = keyword("exchange")(r) {
            let r = keyword("in")(r).map_or(r, |(r, _)| r);
            let (r, l) = cut(destination(map, r))?;
            return Ok((
                r,
                SurrenderCommand::DeclineExchange {
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
            SurrenderCommand::AcceptSurrender { from: p }
        } else {
            SurrenderCommand::DeclineSurrender { from: p }
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    grammar_cases! { SurrenderGrammar;
        sur_offer: "surrender to england" => Some("SURRENDER TO England"),
        sur_offer_short: "SUR ENG" => Some("SURRENDER TO England"),
        sur_offer_long: "Offer Surrender To English" => Some("SURRENDER TO England"),
        sur_bare_is_not_an_offer: "surrender" => None,
        sur_withdraw: "cancel surrender" => Some("WITHDRAW SURRENDER"),
        sur_accept: "accept surrender of france" => Some("ACCEPT SURRENDER FROM France"),
        sur_decline: "decline sur FRA" => Some("DECLINE SURRENDER FROM France"),
        sur_decline_ex: "decline exchange in london" => Some("DECLINE EXCHANGE IN Lon"),
        sur_decline_exs: "DECLINE EXCHANGES" => Some("DECLINE EXCHANGES"),
        sur_allow: "allow exchanges" => Some("ALLOW EXCHANGES"),
    }
}
