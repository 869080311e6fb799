//! A game's deadlines on its schedule: the deadline a new phase gets (the schedule's
//! [`deadline_after`], kept out of the absences in force), the end of grace, the delay and
//! reminder of the phase open now, and the absences themselves. Time is passed in.

use chrono::{DateTime, Duration, Utc};

use crate::rules::PhaseKind;
use crate::variant::Sender;

use super::schedule::{Absence, PhaseRule, deadline_after, grace_end, keep_out};
use super::{DeadlineSettings, Game, Status, phase_rule};

impl Game {
    /// The game's time zone (UTC when the stored name is not one).
    pub fn time_zone(&self) -> chrono_tz::Tz {
        self.settings.time_zone.parse().unwrap_or(chrono_tz::UTC)
    }

    /// The schedule a phase of `kind` keeps in this game.
    pub fn rule(&self, kind: PhaseKind) -> PhaseRule {
        phase_rule(&self.settings.deadlines, &self.settings.schedule, kind)
    }

    /// The absences that keep deadlines away: the master's, and those of players still in
    /// the game (an absence is the seat's, whoever holds it now).
    pub fn absences_in_force(&self) -> Vec<&Absence> {
        self.absences
            .iter()
            .filter(|a| match a.who {
                Sender::Master => true,
                Sender::Power(p) => self.player(p).is_some_and(|pl| pl.is_playing()),
            })
            .collect()
    }

    /// Moves the deadline of the phase open now back towards the schedule's, when an
    /// absence had moved it and no longer does (`SET NOABSENCE`): the schedule's deadline,
    /// out of the absences still in force, if that is earlier and more than an hour from
    /// `now`. Returns the new deadline.
    pub fn deadline_back(&mut self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        let plain = self.scheduled?;
        let current = self.deadline?;
        let back = self.out_of_absences(plain);
        if back >= current || back <= now + Duration::hours(1) {
            return None;
        }
        self.deadline = Some(back);
        self.scheduled = (back != plain).then_some(plain);
        self.grace_until = None;
        self.reminded = false;
        Some(back)
    }

    /// The deadline a phase of `kind` opening at `now` gets: on the schedule, out of every
    /// absence in force.
    pub fn scheduled_deadline(&self, kind: PhaseKind, now: DateTime<Utc>) -> DateTime<Utc> {
        deadline_after(
            &self.rule(kind),
            &self.time_zone(),
            now,
            &self.absences_in_force(),
        )
    }

    /// `deadline` moved out of the absences in force, onto the current phase's schedule.
    pub fn out_of_absences(&self, deadline: DateTime<Utc>) -> DateTime<Utc> {
        keep_out(
            &self.rule(self.position.phase.kind),
            &self.time_zone(),
            deadline,
            &self.absences_in_force(),
        )
    }

    /// Opens the clock of the phase now on the board, at `now`: its deadline on the
    /// schedule, the schedule's grace, and `MIN` (the phase is not processed sooner);
    /// absences that are over are forgotten. Returns the deadline.
    pub fn open_clock(&mut self, now: DateTime<Utc>) -> DateTime<Utc> {
        self.absences.retain(|a| a.to > now);
        let kind = self.position.phase.kind;
        let rule = self.rule(kind);
        let plain = deadline_after(&rule, &self.time_zone(), now, &[]);
        let d = self.scheduled_deadline(kind, now);
        self.deadline = Some(d);
        self.scheduled = (plain != d).then_some(plain);
        self.grace_until = None;
        self.not_before = (rule.min > 0).then(|| now + Duration::minutes(rule.min));
        d
    }

    /// When the grace period of the phase open now ends (None without a deadline).
    pub fn grace_end(&self) -> Option<DateTime<Utc>> {
        let deadline = self.deadline?;
        Some(self.grace_until.unwrap_or_else(|| {
            grace_end(
                &self.rule(self.position.phase.kind),
                &self.time_zone(),
                deadline,
            )
        }))
    }

    /// The judge's deadline settings as they hold for the phase open now: its schedule's
    /// delay (what [`super::due_event`] and [`Game::next_event`] read).
    pub fn timing(&self) -> DeadlineSettings {
        let rule = self.rule(self.position.phase.kind);
        DeadlineSettings {
            delay_minutes: rule.delay,
            ..self.settings.deadlines.clone()
        }
    }

    /// Whether processing must wait for `not_before` at `now` (`SET START`, `MIN`).
    pub fn held_until(&self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.not_before.filter(|t| now < *t)
    }

    /// Whether a forming game is full and may start at `now` (its start time, if the master
    /// set one, has come).
    pub fn may_start(&self, now: DateTime<Utc>) -> bool {
        self.status == Status::Forming
            && self.joiners.len() == self.players_wanted()
            && self.not_before.is_none_or(|t| now >= t)
    }
}
