//! Survive (`docs/rules/survive.md`): every even-year Winter the powers vote one of their
//! own out of the game, by secret ballot to the master (SRV-1 to SRV-3). Outcasts' units
//! hold and are disbanded when dislodged, outcasts never build and lose units in the order
//! of SRV-4b; a power owning no centre when a Winter opens is out (SRV-4c); a tie among all
//! who remain goes to a jury of outcasts (SRV-5); the last power left wins (SRV-6).
//!
//! The parts: [`state`] (outcasts, ballots, the jury, the count), [`commands`] (ballots,
//! jury votes and their errors), [`rules`] (the adjudication hooks), and here the
//! [`Variant`] hooks around them.

mod commands;
mod facts;
mod grammar;
mod rules;
mod state;

use crate::command::{Grammar, PlayerCommand};
use crate::map::{Map, Power};
use crate::rules::{
    CalendarPoint, OrderResult, OwnPhase, Phase, PhaseKind, PhaseOutcome, Position, Season, Step,
    Then, VariantRefusal,
};
use crate::variant::{
    Applied, CaseFacts, CommandContext, Early, Ending, GameEnd, GameView, Line, OrderStatus,
    Reader, Readiness, RuleSet, Secret, Taken, list_powers, surviving_powers,
};

use facts::SurviveFacts;

pub use grammar::{Ballot, SurviveCommand, SurviveGrammar};
pub use state::SurviveState;

use rules::{OUT, SurviveRules};
use state::{Cause, Outcome, Win, is_vote_winter};

/// The Survive rules.
#[derive(Clone, Copy, Debug, Default)]
pub struct Survive;

/// SRV-5b.3: the jury phase after a Winter whose vote tied among every playing power
/// (`W1910J`), one movement deadline long, followed by what follows the Winter.
pub const JURY: OwnPhase = OwnPhase {
    name: "Jury",
    letter: 'J',
    letter_first: false,
    season: Season::Winter,
    before: false,
    length: (1, 1),
    then: Then::AfterWinter,
};

/// `A, B and C` with commas only (`survive.md` §4's playing powers line).
fn commas(powers: &[Power]) -> String {
    powers
        .iter()
        .map(|p| p.name())
        .collect::<Vec<_>>()
        .join(", ")
}

impl RuleSet for Survive {
    type State = SurviveState;
    type Command = SurviveCommand;

    fn name(&self) -> &'static str {
        "Survive"
    }

    fn grammar(&self) -> &'static dyn Grammar {
        &SurviveGrammar
    }

    /// SRV-5b.3: the jury phase.
    fn phases(&self) -> &'static [OwnPhase] {
        &[JURY]
    }

    /// `survive_draws=on|off` (SRV-6.3).
    fn apply_setting(&self, s: &mut SurviveState, key: &str, value: &str) -> Result<(), String> {
        if key != "survive_draws" {
            return Err(crate::variant::no_such_setting(self.name(), key));
        }
        s.draws = crate::variant::switch(key, value)?;
        Ok(())
    }

    fn settings(&self, state: &Self::State) -> Vec<(&'static str, String)> {
        let on = state.draws;
        vec![("survive_draws", if on { "on" } else { "off" }.to_string())]
    }

    fn take_command(
        &self,
        cx: &CommandContext<'_>,
        s: &SurviveState,
        command: &SurviveCommand,
    ) -> Result<Taken, VariantRefusal> {
        commands::take(cx, s, command)
    }

    fn apply_now(
        &self,
        cx: &CommandContext<'_>,
        s: &mut SurviveState,
        command: &SurviveCommand,
    ) -> Result<Applied, VariantRefusal> {
        commands::apply(cx, s, command)
    }

    /// SRV-6.3: no draws or concessions unless `survive_draws` is on; outcasts never take
    /// part in one.
    fn allows_player_command(
        &self,
        cx: &CommandContext<'_>,
        s: &SurviveState,
        command: &PlayerCommand,
    ) -> Result<(), VariantRefusal> {
        if !matches!(
            command,
            PlayerCommand::SetDraw { .. } | PlayerCommand::SetConcede { .. }
        ) {
            return Ok(());
        }
        if !s.draws {
            return Err(VariantRefusal::new(
                "SRV-E11",
                "there are no draws in this game: the winner is the last power left (SRV-6).",
            ));
        }
        match cx.sender {
            crate::variant::Sender::Power(p) if s.is_outcast(p) => Err(VariantRefusal::new(
                "SRV-E2",
                format!("{p} is out of the game and cannot vote."),
            )),
            _ => Ok(()),
        }
    }

    fn rules(&self, _game: &GameView<'_>, s: &SurviveState) -> Box<dyn crate::rules::Rules> {
        Box::new(SurviveRules {
            outcasts: s.outcasts.keys().copied().collect(),
        })
    }

    /// H5: at the deadline of a vote Winter the vote is counted before the adjustments
    /// (SRV-1.3); at the deadline of a jury phase the jury decides (SRV-5b.3). H16: outcast
    /// units dislodged are gone at once (SRV-4a.3); when a Winter opens, a playing power
    /// with no centre is out (SRV-4c), and the last one left wins (SRV-6.1).
    fn step(
        &self,
        game: &GameView<'_>,
        s: &mut SurviveState,
        step: Step<'_>,
        position: &mut Position,
    ) -> Vec<Line> {
        match step {
            Step::Begins => {
                let phase = game.position.phase;
                if is_vote_winter(phase) {
                    count_vote(s, phase, game.resigned)
                } else if phase.kind.is(&JURY) {
                    decide_jury(s)
                } else {
                    Vec::new()
                }
            }
            Step::Resolved { .. } => {
                position
                    .dislodged
                    .retain(|d| !d.unit.owner.power().is_some_and(|p| s.is_outcast(p)));
                Vec::new()
            }
            Step::OwnershipUpdated => {
                let year = game.position.phase.year;
                let gone: Vec<Power> = s
                    .playing()
                    .into_iter()
                    .filter(|p| position.centre_count(*p) == 0)
                    .collect();
                s.cast_out(&gone, year, Cause::Force);
                if s.winner.is_none()
                    && let Some(p) = s.last_one()
                {
                    s.winner = Some(Win::Last(p));
                }
                gone.iter()
                    .map(|p| {
                        Line::public(format!(
                            "SURVIVE: {p} owns no supply centre and is out of the game."
                        ))
                    })
                    .collect()
            }
            _ => Vec::new(),
        }
    }

    /// H20: the playing powers and the outcasts in every Winter bulletin.
    fn summary(&self, _game: &GameView<'_>, s: &SurviveState, outcome: &PhaseOutcome) -> Vec<Line> {
        if outcome.after.phase.kind != PhaseKind::Adjustment {
            return Vec::new();
        }
        let out: Vec<Power> = s.outcasts.keys().copied().collect();
        let outcasts = if out.is_empty() {
            "none".to_string()
        } else {
            commas(&out)
        };
        vec![Line::public(format!(
            "SURVIVE: playing powers: {}.  Outcasts: {outcasts}.",
            commas(&s.playing())
        ))]
    }

    /// H17: the last playing power, or the jury's choice, once the Winter (or the jury
    /// phase) that decided it is published (SRV-6.1); the centre victory is off (SRV-6.2).
    fn game_result(&self, game: &GameView<'_>, s: &SurviveState) -> Option<GameEnd> {
        let win = s.winner?;
        if matches!(
            game.position.phase.kind,
            PhaseKind::Adjustment | PhaseKind::Own(&JURY)
        ) {
            return None;
        }
        let line = match win {
            Win::Last(p) => format!("SURVIVE: {p} is the last power remaining and wins the game."),
            Win::Jury(p) => format!("SURVIVE: the jury chooses {p}."),
        };
        Some(GameEnd {
            ending: Ending::Solo(win.power()),
            lines: Some(vec![Line::public(line)]),
        })
    }

    /// SRV-6.3(b): a draw is agreed by the playing powers alone.
    fn draw_powers(&self, game: &GameView<'_>, s: &SurviveState) -> Vec<Power> {
        surviving_powers(game.position)
            .into_iter()
            .filter(|p| !s.is_outcast(*p))
            .collect()
    }

    /// SRV-1.2: the even-year Winter is always held, as is the Winter after which the game
    /// ends (SRV-6.1). SRV-5b.3: the jury phase after a tied vote, held again while its tie
    /// waits for the master.
    fn calendar(&self, s: &SurviveState, at: CalendarPoint<'_>) -> Option<Phase> {
        match at {
            CalendarPoint::Start => None,
            CalendarPoint::Skipping { winter, .. } => {
                (is_vote_winter(winter) || s.winner.is_some()).then_some(winter)
            }
            CalendarPoint::After { phase, .. } => {
                let jury = s.jury.as_ref()?;
                if s.winner.is_some() {
                    return None;
                }
                match phase.kind {
                    PhaseKind::Adjustment | PhaseKind::Own(&JURY) => {
                        Some(Phase::own(jury.year, &JURY))
                    }
                    _ => None,
                }
            }
        }
    }

    /// H18: outcasts are never waited for (SRV-8.1); in a vote Winter every playing power
    /// owning a centre owes a ballot (SRV-1.2); in a jury phase every juror owes a vote, and
    /// the phase waits for the master's vote when the jury is even, and for its tie-break
    /// when a tie only the master can break is left (SRV-5b.2, SRV-5b.3(b)).
    ///
    /// SRV-1.4, SRV-3.3: what everyone else may know of a power's orders leaves its ballot
    /// (and a juror's vote) out: in a vote Winter only the adjustments count, in a jury
    /// phase nothing; outcasts owe nothing (SRV-8.1, and everyone knows who they are). A
    /// vote Winter and a jury phase run to their deadline: processed early once every
    /// ballot (or juror's vote) was in, their results would tell everyone when the last one
    /// arrived; SRV-1.2 allows the early end but does not ask for it. A jury tie waiting
    /// for the master alone still ends with the master's choice (SRV-5b.3).
    fn readiness(&self, game: &GameView<'_>, s: &SurviveState, standard: Readiness) -> Readiness {
        let phase = game.position.phase;
        let jury_phase = phase.kind.is(&JURY);
        let mut out = standard;
        let mut public = [None; 7];
        for power in Power::ALL {
            let status = standard.status(power);
            if let Some(slot) = public.get_mut(power.index()) {
                *slot = if jury_phase || s.is_outcast(power) {
                    None
                } else {
                    status
                };
            }
            let status = if s.is_outcast(power) && !jury_phase {
                None
            } else if is_vote_winter(phase) && game.position.centre_count(power) > 0 {
                if s.ballots.contains_key(&power) {
                    status
                } else {
                    Some(match status {
                        Some(OrderStatus::Received) => OrderStatus::Incomplete,
                        other => other.unwrap_or(OrderStatus::None),
                    })
                }
            } else if jury_phase {
                match &s.jury {
                    Some(jury) if jury.tied.is_none() && jury.jurors.contains(&power) => {
                        Some(if jury.votes.contains_key(&power) {
                            OrderStatus::Received
                        } else {
                            OrderStatus::None
                        })
                    }
                    _ => None,
                }
            } else {
                status
            };
            out.set(power, status);
        }
        out.public = Some(public);
        if jury_phase
            && s.jury
                .as_ref()
                .is_some_and(|j| j.master.is_none() && (j.tied.is_some() || j.master_votes()))
        {
            out.early = Early::WaitsForMaster;
        } else if is_vote_winter(phase)
            || (jury_phase && s.jury.as_ref().is_none_or(|j| j.tied.is_none()))
        {
            out.early = Early::AtDeadline;
        }
        out
    }

    /// §4: an outcast unit's line: `A Venice HOLD (out of the game)`, or `dislodged and
    /// disbanded (out of the game)`.
    fn result_line(&self, map: &Map, result: &OrderResult) -> Option<String> {
        if result.note.as_deref() != Some(OUT) {
            return None;
        }
        let unit = result.order.unit()?;
        let what = format!(
            "{} {}",
            unit.kind.map_or('?', |k| k.letter()),
            map.location_name(unit.location)
        );
        Some(if result.dislodged {
            format!("{what} dislodged and disbanded ({OUT})")
        } else {
            format!("{what} HOLD ({OUT})")
        })
    }

    /// SRV-1.4: every ballot is its voter's and the master's; the jury's votes the master's.
    fn not_public(&self, s: &SurviveState) -> Vec<Secret> {
        let mut out = Vec::new();
        for (voter, ballot) in s.ballots.iter().chain(&s.counted) {
            for (to, n) in ballot {
                out.push(Secret {
                    text: format!("{to} {n}"),
                    readers: vec![Reader::Power(*voter)],
                });
            }
        }
        if let Some(j) = &s.jury {
            for (juror, c) in &j.votes {
                out.push(Secret {
                    text: format!("JURY {c}"),
                    readers: vec![Reader::Power(*juror)],
                });
            }
        }
        out
    }

    fn case_facts(&self) -> &dyn CaseFacts<SurviveState> {
        &SurviveFacts
    }
}

/// SRV-4a, SRV-5a, SRV-5b.1 at the deadline of a vote Winter: the public result (the
/// totals go to the master alone).
fn count_vote(s: &mut SurviveState, phase: Phase, resigned: &[Power]) -> Vec<Line> {
    let (totals, outcome) = s.count();
    s.counted = std::mem::take(&mut s.ballots);
    let mut lines = Vec::new();
    if !totals.is_empty() {
        let t: Vec<String> = totals.iter().map(|(p, n)| format!("{p} {n}")).collect();
        lines.push(Line::to(
            Reader::Master,
            format!("SURVIVE: the vote (master only): {}.", t.join(", ")),
        ));
    }
    match outcome {
        Outcome::NoVotes => lines.push(Line::public(
            "SURVIVE: no votes were cast; no power leaves the game.",
        )),
        Outcome::Out(powers) => {
            let cause = if powers.len() == 1 {
                Cause::Vote
            } else {
                Cause::Tie
            };
            s.cast_out(&powers, phase.year, cause);
            let verb = if powers.len() == 1 { "has" } else { "have" };
            lines.push(Line::public(format!(
                "SURVIVE: {} {verb} been voted out of the game.",
                list_powers(&powers)
            )));
            if let Some(p) = s.last_one() {
                s.winner = Some(Win::Last(p));
            }
        }
        Outcome::Jury(candidates) => {
            lines.push(Line::public(format!(
                "SURVIVE: the vote is tied between all remaining powers ({}); the outcasts will choose the winner.",
                list_powers(&candidates)
            )));
            s.jury = Some(state::Jury {
                year: phase.year,
                candidates,
                jurors: jurors(&s.outcasts, resigned),
                ..state::Jury::default()
            });
        }
    }
    lines
}

/// SRV-5b.3 at the deadline of the jury phase: the candidate with most votes, the master's
/// choice among the tied, or a tie the master is asked to break (privately).
fn decide_jury(s: &mut SurviveState) -> Vec<Line> {
    let Some(jury) = s.jury.as_mut() else {
        return Vec::new();
    };
    if let (Some(tied), Some(m)) = (&jury.tied, jury.master)
        && tied.contains(&m)
    {
        s.winner = Some(Win::Jury(m));
        return Vec::new();
    }
    let mut tally: std::collections::BTreeMap<Power, u32> = std::collections::BTreeMap::new();
    for c in jury.votes.values() {
        *tally.entry(*c).or_default() += 1;
    }
    if jury.master_votes()
        && let Some(m) = jury.master
    {
        *tally.entry(m).or_default() += 1;
    }
    let max = tally.values().copied().max().unwrap_or(0);
    let top: Vec<Power> = if max == 0 {
        jury.candidates.clone()
    } else {
        tally
            .iter()
            .filter(|(_, n)| **n == max)
            .map(|(p, _)| *p)
            .collect()
    };
    match top.as_slice() {
        [one] => {
            s.winner = Some(Win::Jury(*one));
            Vec::new()
        }
        _ => match jury.master.filter(|m| top.contains(m)) {
            Some(m) => {
                s.winner = Some(Win::Jury(m));
                Vec::new()
            }
            None => {
                jury.master = None;
                jury.tied = Some(top.clone());
                vec![Line::to(
                    Reader::Master,
                    format!(
                        "SURVIVE: the jury is tied between {}; send JURY <power> to choose the winner.",
                        list_powers(&top)
                    ),
                )]
            }
        },
    }
}

/// The jurors (SRV-5b.2): the outcasts whose player has not resigned.
fn jurors(
    outcasts: &std::collections::BTreeMap<Power, state::Outcast>,
    resigned: &[Power],
) -> Vec<Power> {
    outcasts
        .keys()
        .copied()
        .filter(|p| !resigned.contains(p))
        .collect()
}

#[cfg(test)]
mod tests;
