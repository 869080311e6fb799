//! Surrender (`docs/rules/surrender.md`): a defeated power surrenders to a stronger one
//! and plays on as its client. Offers and acceptances are immediate (SUR-1); a client may
//! not attack, cut or help dislodge its protectorate (SUR-3, H8–H10); centres are counted
//! with the clients' (SUR-2, SUR-9); a protectorate may exchange its unit on a client's home
//! centre for a client unit (SUR-8); clients regain independence at the checkpoints of
//! SUR-5.4.
//!
//! The parts: [`state`] (the relations, counts, conditions, checkpoints), [`rules`] (the
//! adjudication hooks), [`commands`] (the commands and their errors), and here the
//! [`RuleSet`] hooks: the exchange step, the summary, victory and the case facts.

mod commands;
mod facts;
mod grammar;
mod rules;
mod state;

use crate::command::Grammar;
use crate::map::{Location, Power};
use crate::picture::{Mark, RelationStyle};
use crate::rules::{
    Owner, PhaseKind, PhaseOutcome, Position, Step, Unit, UnitKind, VariantRefusal,
};
use crate::variant::{
    Applied, CaseFacts, CommandContext, Ending, GameEnd, GameView, Line, RuleSet, Sender, Taken,
    relation_mark,
};

use facts::SurrenderFacts;

pub use grammar::{SurrenderCommand, SurrenderGrammar};
pub use state::SurrenderState;

use rules::SurrenderRules;

/// The Surrender rules.
#[derive(Clone, Copy, Debug, Default)]
pub struct Surrender;

impl RuleSet for Surrender {
    type State = SurrenderState;
    type Command = SurrenderCommand;

    fn name(&self) -> &'static str {
        "Surrender"
    }

    fn grammar(&self) -> &'static dyn Grammar {
        &SurrenderGrammar
    }

    fn take_command(
        &self,
        cx: &CommandContext<'_>,
        s: &SurrenderState,
        command: &SurrenderCommand,
    ) -> Result<Taken, VariantRefusal> {
        commands::take(cx, s, command)
    }

    fn apply_now(
        &self,
        cx: &CommandContext<'_>,
        s: &mut SurrenderState,
        command: &SurrenderCommand,
    ) -> Result<Applied, VariantRefusal> {
        commands::apply(cx, s, command)
    }

    fn rules(&self, game: &GameView<'_>, s: &SurrenderState) -> Box<dyn crate::rules::Rules> {
        let exchanges = exchange_orders(game)
            .into_iter()
            .filter(|x| s.protector.get(&x.client) == Some(&x.protectorate))
            .map(|x| {
                (
                    x.at,
                    format!("exchange for {} {}", x.client, x.kind.letter()),
                )
            })
            .collect();
        Box::new(SurrenderRules {
            protector: s.protector.clone(),
            exchanges,
        })
    }

    /// H5: the standing `DECLINE EXCHANGES` / `ALLOW EXCHANGES` of the phase's orders take
    /// effect before the exchanges are carried out (SUR-8.6). H16 in the step order of §4:
    /// (1) the exchanges of a movement phase and (2) their checkpoint SUR-5.4(b); (3) the
    /// Fall ownership update's checkpoint SUR-5.4(a) and the victory check; (4) after the
    /// Winter adjustments, SUR-5.4(c).
    fn step(
        &self,
        game: &GameView<'_>,
        s: &mut SurrenderState,
        step: Step<'_>,
        position: &mut Position,
    ) -> Vec<Line> {
        let map = game.map;
        let lines = match step {
            Step::Begins => {
                for (from, command) in game.commands::<SurrenderCommand>() {
                    let Sender::Power(c) = from else { continue };
                    match command {
                        SurrenderCommand::DeclineExchanges => {
                            s.standing_decline.insert(c);
                        }
                        SurrenderCommand::AllowExchanges => {
                            s.standing_decline.remove(&c);
                        }
                        _ => {}
                    }
                }
                Vec::new()
            }
            Step::Resolved { .. } if game.position.phase.kind == PhaseKind::Movement => {
                let (mut lines, carried_out) = exchange(game, s, position);
                if carried_out > 0 {
                    lines.extend(s.checkpoint(map, position));
                }
                lines
            }
            Step::OwnershipUpdated => {
                let lines = s.checkpoint(map, position);
                s.winner = s.victor(position, game.centres_to_win);
                lines
            }
            Step::FallEnds => s.checkpoint(map, position),
            _ => {
                s.note_presence(position);
                Vec::new()
            }
        };
        lines.into_iter().map(Line::public).collect()
    }

    /// H20: `RELATIONS:` and `CENTRES:` in every Fall bulletin with the ownership update and
    /// every Winter bulletin (SUR-2.2).
    fn summary(
        &self,
        _game: &GameView<'_>,
        s: &SurrenderState,
        outcome: &PhaseOutcome,
    ) -> Vec<Line> {
        let winter = outcome.after.phase.kind == PhaseKind::Adjustment;
        if !(outcome.ownership_updated || winter) {
            return Vec::new();
        }
        // The board the next phase starts from: after the Fall ownership update.
        let position = &outcome.next;
        let mut lines = Vec::new();
        for p in Power::ALL {
            let clients = s.clients_of(p);
            if !clients.is_empty() {
                let names: Vec<&str> = clients.iter().map(|c| c.name()).collect();
                lines.push(Line::public(format!(
                    "RELATIONS: {p} protects {}.",
                    names.join(", ")
                )));
            }
        }
        for p in Power::ALL {
            lines.push(Line::public(format!(
                "CENTRES: {p} owns {}, counts {}.",
                position.centre_count(p),
                s.count(position, p)
            )));
        }
        lines
    }

    /// H20: each client relation a line from the client to its protectorate, in the words
    /// of `RELATIONS:`, and each pending offer (public when made, §4) a legend line. The
    /// standing declines of exchanges are the master's (§4) and never drawn.
    fn picture_marks(&self, game: &GameView<'_>, s: &SurrenderState) -> Vec<Mark> {
        let mut relations: Vec<(Power, Power)> =
            s.protector.iter().map(|(c, p)| (*p, *c)).collect();
        relations.sort();
        let mut marks: Vec<Mark> = relations
            .into_iter()
            .filter_map(|(p, c)| {
                relation_mark(
                    game.map,
                    game.position,
                    (c, p),
                    format!("{p} protects {c}"),
                    RelationStyle::Client,
                )
            })
            .collect();
        marks.extend(
            s.offers
                .iter()
                .map(|(c, p)| Mark::Legend(format!("{c} offers to surrender to {p}"))),
        );
        marks
    }

    /// H17: an independent power counting enough centres at the end of a Fall (SUR-9.1).
    fn game_result(&self, game: &GameView<'_>, s: &SurrenderState) -> Option<GameEnd> {
        let p = s.winner?;
        let n = s.count(game.position, p);
        Some(GameEnd {
            ending: Ending::Solo(p),
            lines: Some(vec![Line::public(format!(
                "VICTORY: {p} counts {n} supply centres and wins the game."
            ))]),
        })
    }

    fn case_facts(&self) -> &dyn CaseFacts<SurrenderState> {
        &SurrenderFacts
    }
}

/// A `HOLD EXCHANGE` order of the phase.
struct ExchangeOrder {
    protectorate: Power,
    client: Power,
    at: crate::map::ProvinceId,
    kind: UnitKind,
    coast: Option<crate::map::Coast>,
}

fn exchange_orders(game: &GameView<'_>) -> Vec<ExchangeOrder> {
    game.commands::<SurrenderCommand>()
        .filter_map(|(from, command)| match (command, from) {
            (
                SurrenderCommand::HoldExchange {
                    unit,
                    power,
                    kind,
                    coast,
                },
                Sender::Power(p),
            ) => Some(ExchangeOrder {
                protectorate: p,
                client: *power,
                at: unit.province(),
                kind: *kind,
                coast: *coast,
            }),
            _ => None,
        })
        .collect()
}

/// Carries out the exchanges of a movement phase (SUR-8.3–8.6) on the position right after
/// its resolution: the lines (by the first power named, then by province code) and how many
/// were carried out.
fn exchange(
    game: &GameView<'_>,
    s: &mut SurrenderState,
    position: &mut Position,
) -> (Vec<String>, usize) {
    let map = game.map;
    let mut lines: Vec<(Power, String, String)> = Vec::new();
    let mut carried_out = 0;
    for x in exchange_orders(game) {
        let (p, c) = (x.protectorate, x.client);
        // SUR-8.2: void when the relation ended before the deadline.
        if s.protector.get(&c) != Some(&p) {
            continue;
        }
        let code = map.code(x.at).to_string();
        let name = map.province_name(x.at);
        let dislodged = position
            .dislodged
            .iter()
            .find(|d| d.unit.location.province == x.at && d.unit.owner == Owner::Power(p));
        if let Some(d) = dislodged {
            lines.push((
                p,
                code,
                format!(
                    "EXCHANGE: {p} {} {name} was dislodged; the exchange fails.",
                    d.unit.kind.letter()
                ),
            ));
            continue;
        }
        let Some(i) = position
            .units
            .iter()
            .position(|u| u.location.province == x.at && u.owner == Owner::Power(p))
        else {
            continue;
        };
        let declined = s.standing_decline.contains(&c)
            || game.commands::<SurrenderCommand>().any(|(from, command)| {
                from == Sender::Power(c)
                    && matches!(command, SurrenderCommand::DeclineExchange { province } if *province == x.at)
            });
        if declined {
            lines.push((
                c,
                code,
                format!("EXCHANGE: {c} declines the exchange in {name}."),
            ));
            continue;
        }
        let old = position.units.remove(i);
        let location = Location {
            province: x.at,
            coast: x.coast,
        };
        position.place_unit(Unit::new(Owner::Power(c), x.kind, location));
        if let Some(slot) = position.owners.get_mut(x.at.index()) {
            *slot = Some(c);
        }
        carried_out += 1;
        lines.push((
            p,
            code,
            format!(
                "EXCHANGE: {p} {} {name} is exchanged for {c} {} {name}; {c} now owns {name}.",
                old.kind.letter(),
                x.kind.letter()
            ),
        ));
    }
    position.sort_units();
    lines.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    (lines.into_iter().map(|(_, _, l)| l).collect(), carried_out)
}

#[cfg(test)]
mod tests;
