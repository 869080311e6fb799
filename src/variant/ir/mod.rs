//! International Relations rv20 (`docs/rules/international-relations.md`): powers sign
//! treaties (MDT, AAT) that decide who may attack whom (IR-B, IR-C), give notice to
//! abrogate them (IR-D), pay penalties for aggression (IR-E), act as one power with their
//! allies (IR-F) and enter an ally's territory only with its permission (IR-G); the game
//! opens with an alliance phase (IR-H), may hold International Conferences (IR-I), and is
//! won only by a victory claim decided at a Fall check (IR-A).
//!
//! The parts: [`state`] (relations, treaties, penalties, claims), [`board`] (Controlled
//! Territory and what each order is), [`commands`] (the commands and their errors),
//! [`claims`] (victory claims), [`rules`] (the adjudication hooks), [`turn`] (what each
//! phase changes, with its lines), [`facts`] (the case facts), and here the [`RuleSet`]
//! hooks.

mod board;
mod claims;
mod commands;
mod facts;
mod grammar;
mod rules;
mod state;
mod turn;

use crate::command::Grammar;
use crate::map::Power;
use crate::picture::{Mark, RelationStyle};
use crate::rules::{
    CalendarPoint, OwnPhase, Phase, PhaseKind, PhaseOutcome, Position, Season, Step, Then,
    VariantRefusal,
};
use crate::variant::{
    CaseFacts, CommandContext, Early, GameEnd, GameView, Line, Readiness, RuleSet, Sender, Taken,
    relation_mark,
};

use facts::IrFacts;

pub use grammar::{IrCommand, IrGrammar, TreatyKind};
pub use state::IrState;

use board::{Board, permits};
use rules::IrRules;
use state::Treaty;

/// The International Relations rules.
#[derive(Clone, Copy, Debug, Default)]
pub struct InternationalRelations;

/// IR-H1: the alliance phase before Spring 1901 (`A1901`), one and a half movement
/// deadlines long, followed by the Spring movement.
pub const ALLIANCE: OwnPhase = OwnPhase {
    name: "Alliance",
    letter: 'A',
    letter_first: true,
    season: Season::Spring,
    before: true,
    length: (3, 2),
    then: Then::Movement,
};

/// IR-I3: an International Conference after a Winter (`C1904`), one and a half movement
/// deadlines long, followed by the next Spring.
pub const CONFERENCE: OwnPhase = OwnPhase {
    name: "Conference",
    letter: 'C',
    letter_first: true,
    season: Season::Winter,
    before: false,
    length: (3, 2),
    then: Then::AfterWinter,
};

impl RuleSet for InternationalRelations {
    type State = IrState;
    type Command = IrCommand;

    fn name(&self) -> &'static str {
        "InternationalRelations"
    }

    /// `peace_treaties=on|off` (IR-C3).
    fn apply_setting(&self, s: &mut IrState, key: &str, value: &str) -> Result<(), String> {
        if key != "peace_treaties" {
            return Err(crate::variant::no_such_setting(self.name(), key));
        }
        let on = crate::variant::switch(key, value)?;
        s.peace_treaties = on;
        Ok(())
    }

    fn settings(&self, state: &Self::State) -> Vec<(&'static str, String)> {
        let on = state.peace_treaties;
        vec![("peace_treaties", if on { "on" } else { "off" }.to_string())]
    }

    /// IR-H1, IR-I3: the alliance and conference phases.
    fn phases(&self) -> &'static [OwnPhase] {
        &[ALLIANCE, CONFERENCE]
    }

    fn grammar(&self) -> &'static dyn Grammar {
        &IrGrammar
    }

    fn take_command(
        &self,
        cx: &CommandContext<'_>,
        s: &IrState,
        command: &IrCommand,
    ) -> Result<Taken, VariantRefusal> {
        commands::take(cx, s, command)
    }

    /// IR-A3: a claim is filed at once; its lines are public at once.
    fn apply_now(
        &self,
        cx: &CommandContext<'_>,
        s: &mut IrState,
        command: &IrCommand,
    ) -> Result<crate::variant::Applied, VariantRefusal> {
        let Sender::Power(a) = cx.sender else {
            return Err(VariantRefusal::new(
                "NOT-A-POWER",
                "a victory is claimed by a power".to_string(),
            ));
        };
        let partners = match command {
            IrCommand::ClaimSolo => None,
            IrCommand::ClaimCoalition { with } => Some(with.as_slice()),
            _ => {
                return Err(VariantRefusal::new(
                    "NOT-IN-VARIANT",
                    "only a victory claim is taken at once".to_string(),
                ));
            }
        };
        let position = cx.game.position;
        claims::check(s, position, a, partners)?;
        let lines = claims::file(s, position, a, partners);
        Ok(crate::variant::Applied {
            echo: None,
            lines: lines.into_iter().map(Line::public).collect(),
            refused: None,
        })
    }

    fn rules(&self, game: &GameView<'_>, s: &IrState) -> Box<dyn crate::rules::Rules> {
        Box::new(IrRules {
            s: s.clone(),
            permits: permits(game.variant_orders),
            resolving: game.resolving,
            phase: game.position.phase,
        })
    }

    /// H5: at the Spring movement deadline, the coalition claims not every member filed
    /// lapse (IR-A3). H16: the turn's aggressions, penalties, wars, treaty effects and
    /// treaties; the Winter's notices; the lapse after the lapsing Spring; the Fall check.
    fn step(
        &self,
        game: &GameView<'_>,
        s: &mut IrState,
        step: Step<'_>,
        position: &mut Position,
    ) -> Vec<Line> {
        let map = game.map;
        let phase = game.position.phase;
        let lines = match step {
            Step::Begins if phase.season == Season::Spring && phase.kind == PhaseKind::Movement => {
                claims::lapse(s)
            }
            Step::Begins => Vec::new(),
            Step::Resolved { .. } => match phase.kind {
                PhaseKind::Movement => {
                    let ps = permits(game.variant_orders);
                    if phase.season == Season::Fall {
                        let start = s.clone();
                        let board = Board {
                            map,
                            position: game.position,
                            s: &start,
                            permits: &ps,
                        };
                        s.confined = turn::confined(&board);
                        s.transfers = transfers(game);
                    }
                    turn::movement_turn(
                        map,
                        game.position,
                        s,
                        game.orders,
                        game.variant_orders,
                        &ps,
                    )
                }
                PhaseKind::Adjustment => {
                    let mut lines = turn::winter(s, phase, game.variant_orders);
                    lines.extend(turn::conference_winter(s, map, position, phase.year));
                    lines
                }
                PhaseKind::Own(_) => turn::conference_treaties(s, phase, game.variant_orders),
                PhaseKind::Retreat => Vec::new(),
            },
            Step::SpringEnds => turn::spring_ends(s, phase.year),
            Step::OwnershipUpdated => turn::fall_check(s, position, phase.year),
            Step::FallEnds => {
                s.confined.clear();
                Vec::new()
            }
            Step::Opens(next) => {
                if next.season == Season::Spring && next.kind == PhaseKind::Movement {
                    turn::spring_opens(s, next.year);
                }
                Vec::new()
            }
        };
        lines.into_iter().map(Line::public).collect()
    }

    /// H20: `RELATIONS:` in every results bulletin.
    fn summary(&self, game: &GameView<'_>, s: &IrState, _outcome: &PhaseOutcome) -> Vec<Line> {
        vec![Line::public(relations_line(s, game.position.phase))]
    }

    /// H20: what `RELATIONS:` says (§4: public; the alliance and conference proposals are
    /// not, and are never read here): each treaty signed a line between its partners in its
    /// `RELATIONS:` words (`England-France MDT (lapsing)`), each war a line, each imminent
    /// war a legend line.
    fn picture_marks(&self, game: &GameView<'_>, s: &IrState) -> Vec<Mark> {
        let (map, position, phase) = (game.map, game.position, game.position.phase);
        let mut items: Vec<((Power, Power), u8, Mark)> = Vec::new();
        for t in &s.treaties {
            let text = treaty_text(t, phase);
            if let Some(m) = relation_mark(map, position, (t.a, t.b), text, RelationStyle::Treaty) {
                items.push(((t.a, t.b), 0, m));
            }
        }
        for (a, b) in &s.wars {
            let text = format!("{a}-{b} war");
            if let Some(m) = relation_mark(map, position, (*a, *b), text, RelationStyle::War) {
                items.push(((*a, *b), 1, m));
            }
        }
        items.sort_by_key(|x| (x.0, x.1));
        let mut marks: Vec<Mark> = items.into_iter().map(|(_, _, m)| m).collect();
        if marks.is_empty() {
            marks.push(Mark::Legend("Relations: none".to_string()));
        }
        marks.extend(
            imminent_pairs(s)
                .into_iter()
                .map(|(z, x)| Mark::Legend(format!("Imminent war: {z} may attack {x}"))),
        );
        marks
    }

    /// IR-A2, IR-A6, IR-A8: the 18-centre victory is disabled; the game ends when a claim
    /// succeeds at a Fall check (several: a joint result).
    fn game_result(&self, _game: &GameView<'_>, s: &IrState) -> Option<GameEnd> {
        let ending = match s.victory.as_slice() {
            [] => return None,
            [(members, _)] => match members.as_slice() {
                [one] => crate::variant::Ending::Solo(*one),
                _ => crate::variant::Ending::Coalition(members.clone()),
            },
            many => {
                let mut all: Vec<Power> = many.iter().flat_map(|(m, _)| m.clone()).collect();
                all.sort();
                all.dedup();
                crate::variant::Ending::Draw(all)
            }
        };
        Some(GameEnd {
            ending,
            lines: Some(
                claims::victory_lines(s)
                    .into_iter()
                    .map(Line::public)
                    .collect(),
            ),
        })
    }

    /// IR-H1: the game opens with the alliance phase before Spring 1901. IR-D1, IR-G2:
    /// every Winter is held, for abrogations and disbands by choice. IR-I3: the conference
    /// phase after the Winter whose adjustments abrogated every treaty.
    fn calendar(&self, s: &IrState, at: CalendarPoint<'_>) -> Option<Phase> {
        match at {
            CalendarPoint::Start => Some(Phase::own(1901, &ALLIANCE)),
            CalendarPoint::Skipping { winter, .. } => Some(winter),
            CalendarPoint::After { phase, .. } => (phase.kind == PhaseKind::Adjustment
                && s.conference == Some(phase.year)
                && s.contacts.is_some())
            .then(|| Phase::own(phase.year, &CONFERENCE)),
        }
    }

    /// A Winter in which a treaty could be abrogated or a unit disbanded by choice runs to
    /// its deadline: any partner may act without owing an order. An alliance or conference
    /// phase owes nothing and always runs to its deadline.
    fn readiness(&self, game: &GameView<'_>, s: &IrState, standard: Readiness) -> Readiness {
        let at_deadline = match game.position.phase.kind {
            PhaseKind::Own(_) => true,
            PhaseKind::Adjustment => {
                let open = s
                    .treaties
                    .iter()
                    .any(|t| t.lapsing.is_none() && s.coalition_of(t.a, t.b).is_none());
                open || !s.confined.is_empty()
            }
            _ => false,
        };
        Readiness {
            early: if at_deadline {
                Early::AtDeadline
            } else {
                standard.early
            },
            ..standard
        }
    }

    fn case_facts(&self) -> &dyn CaseFacts<IrState> {
        &IrFacts
    }
}

/// This Fall's `TRANSFER` orders of centres their giver owns (IR-G3).
fn transfers(game: &GameView<'_>) -> Vec<(crate::map::ProvinceId, Power, Power)> {
    game.variant_orders
        .iter()
        .filter_map(|v| match (v.command.get::<IrCommand>(), v.from) {
            (Some(IrCommand::Transfer { province, to }), Sender::Power(a))
                if game.position.owner_of(*province) == Some(a) =>
            {
                Some((*province, a, *to))
            }
            _ => None,
        })
        .collect()
}

/// A treaty as `RELATIONS:` writes it: `Austria-Italy AAT`, with `(from Spring 1903)`
/// while it is signed but not yet in force and `(lapsing)` under notice.
fn treaty_text(t: &Treaty, phase: Phase) -> String {
    let mut text = format!("{}-{} {}", t.a, t.b, t.kind);
    if !t.in_force(phase) {
        text.push_str(&format!(" (from Spring {})", t.from));
    }
    if t.lapsing.is_some() {
        text.push_str(" (lapsing)");
    }
    text
}

/// The imminent wars of `RELATIONS:`, holder then target, each pair once.
fn imminent_pairs(s: &IrState) -> Vec<(Power, Power)> {
    let mut imminent: Vec<(Power, Power)> =
        s.imminent.iter().map(|i| (i.holder, i.target)).collect();
    imminent.dedup();
    imminent
}

/// `RELATIONS: Austria-Italy AAT, England-Turkey war; imminent: Germany->England`. A
/// treaty signed but not yet in force says from when; one under notice says so. Written
/// into one string (a game at war on every side lists 21 wars each phase).
fn relations_line(s: &IrState, phase: Phase) -> String {
    // By the pair, a treaty before a war (the text breaks a tie, as it always did).
    let mut items: Vec<((Power, Power), u8, Option<String>)> = Vec::new();
    for t in &s.treaties {
        items.push(((t.a, t.b), 0, Some(treaty_text(t, phase))));
    }
    items.extend(s.wars.iter().map(|w| (*w, 1, None)));
    items.sort();
    let mut line = String::with_capacity(16 + 24 * items.len());
    line.push_str("RELATIONS: ");
    if items.is_empty() {
        line.push_str("none");
    }
    for (k, ((a, b), _, text)) in items.iter().enumerate() {
        if k > 0 {
            line.push_str(", ");
        }
        match text {
            Some(t) => line.push_str(t),
            None => {
                line.push_str(a.name());
                line.push('-');
                line.push_str(b.name());
                line.push_str(" war");
            }
        }
    }
    let imminent = imminent_pairs(s);
    for (k, (z, x)) in imminent.iter().enumerate() {
        line.push_str(if k == 0 { "; imminent: " } else { ", " });
        line.push_str(z.name());
        line.push_str("->");
        line.push_str(x.name());
    }
    line
}

#[cfg(test)]
mod tests;
