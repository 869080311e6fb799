//! Surrender's commands (§3): offers, withdrawals, acceptances and declines applied on
//! receipt (SUR-1), and the exchange orders kept with the phase's orders (SUR-8), each
//! refused with the spec's code and sentence in the table's order.

use super::grammar::SurrenderCommand;
use crate::map::{Map, Power, ProvinceId, Terrain};
use crate::rules::{self, PhaseKind, UnitKind, VariantRefusal};
use crate::variant::{Applied, CommandContext, Line, Sender, Slot, Taken};

use super::state::{Obstacle, SurrenderState};

fn refuse<T>(code: &'static str, sentence: String) -> Result<T, VariantRefusal> {
    Err(VariantRefusal::new(code, sentence))
}

/// The reply to an offer that cannot stand (§3).
fn obstacle_refusal(c: Power, p: Power, o: Obstacle) -> VariantRefusal {
    let (code, sentence) = match o {
        Obstacle::Itself => ("SUR-E7", format!("{c} cannot surrender to itself.")),
        Obstacle::OwnClient => (
            "SUR-E7",
            format!("{c} cannot surrender to {p}: {p} is one of its own client states."),
        ),
        Obstacle::IsClient(p2) => (
            "SUR-E1",
            format!(
                "{c} may not surrender: it is a client state of {p2}, and only an independent power may surrender."
            ),
        ),
        Obstacle::Pending(p2) => (
            "SUR-E5",
            format!("{c} already has a surrender offer pending to {p2}; withdraw it first."),
        ),
        Obstacle::TooBig(n) => (
            "SUR-E2",
            format!(
                "{c} may not surrender: it counts {n} supply centres; surrender needs 2 or fewer."
            ),
        ),
        Obstacle::NoHomeCentre => (
            "SUR-E3",
            format!("{c} may not surrender to {p}: {p} owns none of {c}'s home supply centres."),
        ),
        Obstacle::TooSmall { m, n } => (
            "SUR-E4",
            format!(
                "{c} may not surrender to {p}: {p} counts {m} supply centres and needs at least {}.",
                n + 1
            ),
        ),
    };
    VariantRefusal::new(code, sentence)
}

fn power_of(sender: Sender) -> Result<Power, VariantRefusal> {
    match sender {
        Sender::Power(p) => Ok(p),
        Sender::Master => refuse(
            "NOT-A-POWER",
            "surrender commands are a power's; sign on as the power (or BECOME it)".into(),
        ),
    }
}

fn no_offer(c: Power, p: Power) -> VariantRefusal {
    VariantRefusal::new(
        "SUR-E6",
        format!("there is no pending surrender offer from {c} to {p}."),
    )
}

/// H1: whether and how a command is taken now.
pub fn take(
    cx: &CommandContext<'_>,
    state: &SurrenderState,
    command: &SurrenderCommand,
) -> Result<Taken, VariantRefusal> {
    let map = cx.game.map;
    let position = cx.game.position;
    match command {
        SurrenderCommand::OfferSurrender { to } => {
            let c = power_of(cx.sender)?;
            match state.obstacle(map, position, c, *to, true) {
                Some(o) => Err(obstacle_refusal(c, *to, o)),
                None => Ok(Taken::Immediate),
            }
        }
        SurrenderCommand::WithdrawSurrender => {
            let c = power_of(cx.sender)?;
            if state.offers.contains_key(&c) {
                Ok(Taken::Immediate)
            } else {
                refuse("SUR-E8", format!("{c} has no pending surrender offer."))
            }
        }
        SurrenderCommand::AcceptSurrender { from }
        | SurrenderCommand::DeclineSurrender { from } => {
            let p = power_of(cx.sender)?;
            if state.offers.get(from) == Some(&p) {
                Ok(Taken::Immediate)
            } else {
                Err(no_offer(*from, p))
            }
        }
        SurrenderCommand::HoldExchange {
            unit,
            power: c,
            kind,
            coast,
        } => {
            let p = power_of(cx.sender)?;
            if position.phase.kind != PhaseKind::Movement {
                return refuse(
                    "SUR-E10",
                    "a hold exchange can only be ordered in a movement phase.".into(),
                );
            }
            rules::unit_named(map, position, unit, p)
                .map_err(|r| VariantRefusal::new(r.code(), r.to_string()))?;
            let prov = unit.province();
            if state.protector.get(c) != Some(&p) {
                return refuse("SUR-E11", format!("{c} is not a client state of {p}."));
            }
            let name = map.province_name(prov);
            if map.province(prov).home_of != Some(*c) || !map.province(prov).supply_centre {
                return refuse(
                    "SUR-E12",
                    format!("{name} is not a home supply centre of {c}."),
                );
            }
            if position.owner_of(prov) != Some(p) {
                return refuse("SUR-E13", format!("{p} does not own {name}."));
            }
            placeable(map, prov, *kind, *coast)?;
            Ok(Taken::Order {
                slot: Slot::Unit(prov),
                echo: None,
            })
        }
        SurrenderCommand::DeclineExchange { province } => {
            let c = power_of(cx.sender)?;
            in_movement(cx)?;
            if !state.protector.contains_key(&c) {
                return refuse("SUR-E15", format!("{c} is not a client state."));
            }
            if map.province(*province).home_of != Some(c) || !map.province(*province).supply_centre
            {
                return refuse(
                    "SUR-E15",
                    format!(
                        "{} is not one of {c}'s home supply centres.",
                        map.province_name(*province)
                    ),
                );
            }
            Ok(Taken::Order {
                slot: Slot::Named(format!("decline exchange {}", map.code(*province))),
                echo: None,
            })
        }
        SurrenderCommand::DeclineExchanges | SurrenderCommand::AllowExchanges => {
            let c = power_of(cx.sender)?;
            in_movement(cx)?;
            if !state.protector.contains_key(&c) {
                return refuse("SUR-E15", format!("{c} is not a client state."));
            }
            Ok(Taken::Order {
                slot: Slot::Named("exchanges".into()),
                echo: None,
            })
        }
    }
}

fn in_movement(cx: &CommandContext<'_>) -> Result<(), VariantRefusal> {
    if cx.game.position.phase.kind == PhaseKind::Movement {
        Ok(())
    } else {
        refuse(
            "WRONG-PHASE",
            "exchanges are declined or allowed with the orders of a movement phase".into(),
        )
    }
}

/// SUR-E14: whether a unit of `kind` (on `coast`) can stand in `prov`.
fn placeable(
    map: &Map,
    prov: ProvinceId,
    kind: UnitKind,
    coast: Option<crate::map::Coast>,
) -> Result<(), VariantRefusal> {
    let province = map.province(prov);
    let name = map.province_name(prov);
    let cannot = |what: &str| refuse("SUR-E14", format!("a {what} cannot be placed in {name}."));
    match kind {
        UnitKind::Army if province.terrain == Terrain::Sea || coast.is_some() => cannot("army"),
        UnitKind::Army => Ok(()),
        UnitKind::Fleet if province.terrain != Terrain::Coast => cannot("fleet"),
        UnitKind::Fleet => match (province.coasts.is_empty(), coast) {
            (true, None) => Ok(()),
            (true, Some(_)) => cannot("fleet"),
            (false, Some(k)) if province.coasts.contains(&k) => Ok(()),
            (false, Some(_)) => cannot("fleet"),
            (false, None) => refuse("SUR-E14", format!("a fleet in {name} needs a coast.")),
        },
    }
}

/// H2: applies an offer, a withdrawal, an acceptance or a decline.
pub fn apply(
    cx: &CommandContext<'_>,
    state: &mut SurrenderState,
    command: &SurrenderCommand,
) -> Result<Applied, VariantRefusal> {
    let map = cx.game.map;
    let position = cx.game.position;
    let me = power_of(cx.sender)?;
    let mut lines = Vec::new();
    let mut refused = None;
    match command {
        SurrenderCommand::OfferSurrender { to } => {
            if let Some(o) = state.obstacle(map, position, me, *to, true) {
                return Err(obstacle_refusal(me, *to, o));
            }
            state.offers.insert(me, *to);
            lines.push(format!("SURRENDER: {me} offers to surrender to {to}."));
        }
        SurrenderCommand::WithdrawSurrender => {
            let Some(to) = state.offers.remove(&me) else {
                return refuse("SUR-E8", format!("{me} has no pending surrender offer."));
            };
            lines.push(format!(
                "SURRENDER: {me} withdraws its offer to surrender to {to}."
            ));
        }
        SurrenderCommand::DeclineSurrender { from } => {
            if state.offers.get(from) != Some(&me) {
                return Err(no_offer(*from, me));
            }
            state.offers.remove(from);
            lines.push(format!("SURRENDER: {me} declines the surrender of {from}."));
        }
        SurrenderCommand::AcceptSurrender { from } => {
            if state.offers.get(from) != Some(&me) {
                return Err(no_offer(*from, me));
            }
            match state.obstacle(map, position, *from, me, false) {
                Some(o) => {
                    // SUR-1.5: refused, and the offer lapses.
                    state.offers.remove(from);
                    refused = Some(obstacle_refusal(*from, me, o));
                    lines.push(format!(
                        "SURRENDER: the offer of {from} to {me} lapses: the conditions of surrender no longer hold."
                    ));
                }
                None => {
                    state.bind(position, *from, me);
                    lines.push(format!(
                        "SURRENDER: {me} accepts the surrender of {from}. {from} is now a client state of {me}."
                    ));
                    // SUR-5.4(d).
                    lines.extend(state.checkpoint(map, position));
                }
            }
        }
        _ => {
            return refuse(
                "NOT-IN-VARIANT",
                "that command is kept with the orders, not applied at once".into(),
            );
        }
    }
    Ok(Applied {
        echo: None,
        lines: lines.into_iter().map(Line::public).collect(),
        refused,
    })
}
