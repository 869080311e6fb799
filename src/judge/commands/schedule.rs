//! Deadlines and the schedule: the master's `PAUSE`, `RESUME`, `SET DEADLINE`,
//! `SET GRACE`, `SET START`, `SET SCHEDULE`, `SET ZONE`, and a seat's `SET ABSENCE` and
//! `SET NOABSENCE`. The `Game` transition moves the deadline (grace and reminders follow
//! it); this unit picks who is told.

use crate::bulletin::settings as text;
use crate::bulletin::{answers, notices};
use crate::command::{self, ScheduleChange};
use crate::game::{Reader, ScheduleClass, Sender};

use super::super::mailing;
use super::super::refusal::Refusal;
use super::super::session::{Done, Session, Verdict};
use super::{More, signed_on};

impl Session<'_, '_> {
    /// `PAUSE`: no deadline runs; everyone is told.
    pub(in crate::judge) fn pause(&mut self) -> More {
        let config = self.config;
        let g = signed_on(&mut self.game)?;
        g.pause()?;
        let n = notices::paused(&config.name, g);
        self.mails
            .extend(mailing::everyone(g, &n.subject, &n.body, None));
        Ok(Vec::new())
    }

    /// `RESUME`: the game runs again with a new deadline; everyone is told.
    pub(in crate::judge) fn resume(&mut self) -> More {
        let (config, now) = (self.config, self.now);
        let g = signed_on(&mut self.game)?;
        let d = g.resume(now)?;
        let n = notices::resumed(&config.name, g, d);
        self.mails
            .extend(mailing::everyone(g, &n.subject, &n.body, None));
        Ok(Vec::new())
    }

    /// `SET DEADLINE date`: grace and reminders follow the new deadline; everyone is told.
    pub(in crate::judge) fn set_deadline(&mut self, date: command::Date) -> More {
        let (config, now) = (self.config, self.now);
        let g = signed_on(&mut self.game)?;
        let d = g.set_deadline(date, now)?;
        let n = notices::deadline_changed(&config.name, g, d);
        self.mails
            .extend(mailing::everyone(g, &n.subject, &n.body, None));
        Ok(Vec::new())
    }

    /// `SET GRACE date`: the end of the grace period, told to the master.
    pub(in crate::judge) fn set_grace(&mut self, date: command::Date) -> More {
        let now = self.now;
        let g = signed_on(&mut self.game)?;
        let end = g.set_grace(date, now)?;
        Ok(vec![text::grace_set(g, end)])
    }

    /// `SET START date`: a forming game starts no sooner (the master is told); a running
    /// game's next deadline waits for it (everyone is told).
    pub(in crate::judge) fn set_start(&mut self, date: command::Date) -> More {
        let (config, now) = (self.config, self.now);
        let g = signed_on(&mut self.game)?;
        let d = g.set_start(date, now)?;
        if g.is_forming() {
            return Ok(vec![text::start_set_forming(g, d)]);
        }
        let n = text::start_set_notice(&config.name, g, d);
        self.mails
            .extend(mailing::everyone(g, &n.subject, &n.body, None));
        Ok(Vec::new())
    }

    /// `SET SCHEDULE class change`: the deadlines of a class of phases.
    pub(in crate::judge) fn set_schedule(
        &mut self,
        class: ScheduleClass,
        change: &ScheduleChange,
    ) -> More {
        let g = signed_on(&mut self.game)?;
        g.set_schedule(class, change)?;
        let rule = g.class_rule(class);
        Ok(vec![text::schedule_set_line(class, &rule, &g.time_zone())])
    }

    /// `SET ZONE zone`: the time zone the game's times are written in.
    pub(in crate::judge) fn set_zone(&mut self, zone: &str) -> More {
        let g = signed_on(&mut self.game)?;
        g.set_time_zone(zone);
        Ok(vec![text::zone_set(g)])
    }

    /// Whose absence a mail sets: the power it signed on as (the master's doing when it
    /// became that power), or the master's own.
    fn absentee(&self) -> Option<(Sender, bool)> {
        match self.who {
            Some(Sender::Power(p)) => Some((Sender::Power(p), self.became)),
            Some(Sender::Master) => Some((Sender::Master, true)),
            None => None,
        }
    }

    /// `SET ABSENCE from [TO to]` (njudge `data/absence`): remembered for the seat
    /// ([`Game::set_absence`]); the master is told of each absence its players set.
    pub(in crate::judge) fn absence(
        &mut self,
        from: command::Date,
        to: Option<command::Date>,
    ) -> Verdict {
        let Some((who, by_master)) = self.absentee() else {
            return Err(Refusal::AbsenceNeedsSeat.into());
        };
        let (now, judge) = (self.now, self.config.name.clone());
        let Some(g) = self.game.as_mut() else {
            return Err(Refusal::NotSignedOn.into());
        };
        let set = g.set_absence(who, from, to, by_master, now)?;
        let tz = g.time_zone();
        let more: Vec<String> = set
            .stands
            .map(|d| text::absence_stands(g, d))
            .into_iter()
            .collect();
        let reply = text::absence_echo(&answers::set_absence(from, to), &tz, &set.absence);
        if !by_master {
            let body = text::absence_notice(g.name(), &tz, &set.absence);
            let subject = text::absence_subject(&judge, g.name());
            self.mails.extend(mailing::mails_for(
                g,
                &[Reader::Master],
                &subject,
                &body,
                None,
            ));
        }
        Done::with_more(reply, more)
    }

    /// `SET NOABSENCE [date]`: cancels the seat's absence that holds the date, or every
    /// absence of the seat ([`Game::cancel_absences`]); the deadline an absence had moved
    /// comes back to the schedule's (everyone is told).
    pub(in crate::judge) fn no_absence(&mut self, date: Option<command::Date>) -> Verdict {
        let Some((who, _)) = self.absentee() else {
            return Err(Refusal::AbsenceNeedsSeat.into());
        };
        let (now, judge) = (self.now, self.config.name.clone());
        let g = self.game_mut()?;
        let cancelled = g.cancel_absences(who, date, now)?;
        let reply = text::noabsence_echo(date, &g.time_zone(), &cancelled);
        let Some(back) = g.deadline_back(now) else {
            return Done::ok(reply);
        };
        let (line, n) = text::deadline_back(&judge, g, back);
        let mails = mailing::everyone(g, &n.subject, &n.body, None);
        self.mails.extend(mails);
        Done::with_more(reply, vec![line])
    }
}
