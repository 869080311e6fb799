//! The master's processing and rollback: `PROCESS`, `PROCESS NOW`, `PREVIEW`,
//! `TERMINATE`, `DECLARE`, `ROLLBACK` and `UNSTART`. The `Game` transition checks the
//! refusals (`may_process`, `roll_back`, `unstart`, …); `judge::process` adjudicates and
//! writes the results.

use crate::bulletin::answers;
use crate::bulletin::{notices, settings as text};
use crate::command::{Declaration, Turn};
use crate::game::{self, ObserverLevel, Reader};
use crate::rules::Phase;
use crate::store::{Audience, MailKind, NewMail};

use super::super::refusal::Refusal;
use super::super::session::Session;
use super::super::{mailing, process};
use super::{More, signed_on};

impl Session<'_, '_> {
    /// `PROCESS [phase]`: the phase open (the one named, if one is) is adjudicated at
    /// once, if every order is in.
    pub(in crate::judge) fn process(&mut self, phase: Option<Phase>) -> More {
        let (map, config, tx, now) = (self.map, self.config, self.tx, self.now);
        let variant = self.variant.ok_or(Refusal::NotSignedOn)?;
        let g = signed_on(&mut self.game)?;
        g.may_process(map, variant, phase, now)?;
        let mails = process::process_game(map, config, tx, g, now)?;
        self.mails.extend(mails);
        Ok(Vec::new())
    }

    /// `PROCESS!`: the phase open is adjudicated at once, missing orders or not.
    pub(in crate::judge) fn process_now(&mut self) -> More {
        let (map, config, tx, now) = (self.map, self.config, self.tx, self.now);
        let g = signed_on(&mut self.game)?;
        g.may_process_now()?;
        let mails = process::process_game(map, config, tx, g, now)?;
        self.mails.extend(mails);
        Ok(Vec::new())
    }

    /// `PREVIEW`: the results processing would give now, to the master alone.
    pub(in crate::judge) fn preview(&mut self) -> More {
        let (map, config) = (self.map, self.config);
        let g = signed_on(&mut self.game)?;
        g.may_process_now()?;
        let mut more = vec![answers::PREVIEW_HEADING.to_string()];
        more.extend(
            process::preview(map, config, g)?
                .lines()
                .map(str::to_string),
        );
        Ok(more)
    }

    /// `TERMINATE`: the game ends, nobody winning.
    pub(in crate::judge) fn terminate(&mut self) -> More {
        let (config, tx, now) = (self.config, self.tx, self.now);
        let g = signed_on(&mut self.game)?;
        let mails = process::finish(config, tx, g, game::Ending::Terminated, now)?;
        self.mails.extend(mails);
        Ok(Vec::new())
    }

    /// `DECLARE`: the master ends the game as a draw or a win of the powers declared.
    pub(in crate::judge) fn declare(&mut self, d: &Declaration) -> More {
        let (map, config, tx, now) = (self.map, self.config, self.tx, self.now);
        let variant = self.variant.ok_or(Refusal::NotSignedOn)?;
        let g = signed_on(&mut self.game)?;
        let (ending, declared) = g.declared_ending(map, variant, d)?;
        let mails = process::finish_declared(config, tx, g, ending, Some(&declared), now)?;
        self.mails.extend(mails);
        Ok(Vec::new())
    }

    /// `ROLLBACK [turn|phase]`: the game goes back to a saved turn (the one before, by
    /// default); the later snapshots are dropped; everyone is told.
    pub(in crate::judge) fn roll_back(&mut self, turn: Option<&Turn>) -> More {
        let (config, tx, now) = (self.config, self.tx, self.now);
        let g = signed_on(&mut self.game)?;
        let name = g.name().to_string();
        let snapshot = match turn {
            None => tx.load_snapshot(&name, Some(g.turn().saturating_sub(1)), None)?,
            Some(Turn::Number(n)) => tx.load_snapshot(&name, Some(*n), None)?,
            Some(Turn::Phase(p)) => tx.load_snapshot(&name, None, Some(&p.to_string()))?,
        };
        let old = snapshot.ok_or(Refusal::NoSnapshot)?;
        let turn = g.roll_back(old, now);
        tx.drop_snapshots_after(&name, turn)?;
        let n = notices::rolled_back(&config.name, g);
        self.mails
            .extend(mailing::everyone(g, &n.subject, &n.body, None));
        Ok(Vec::new())
    }

    /// `UNSTART`: a game whose first phase is not processed goes back to forming. The
    /// press held for the results goes first, to the players as they were; the master,
    /// the observers (if they watch) and each joiner are told.
    pub(in crate::judge) fn unstart(&mut self) -> More {
        let (map, config, tx) = (self.map, self.config, self.tx);
        let g = signed_on(&mut self.game)?;
        g.may_unstart()?;
        let start = tx.load_snapshot(g.name(), Some(0), None)?;
        let postal: Vec<NewMail> = g
            .postal()
            .iter()
            .flat_map(|(readers, subject, body)| {
                mailing::mails_for(g, readers, subject, body, None)
            })
            .collect();
        g.unstart(map, start.map(|s| s.variant_state().clone()))?;
        self.mails.extend(postal);
        let subject = text::unstart_subject(&config.name, g.name());
        let body = text::unstart_text(g.name());
        let mut readers: Vec<Reader> = vec![Reader::Master];
        if g.settings().press.watch != ObserverLevel::None {
            readers.push(Reader::Observers);
        }
        self.mails
            .extend(mailing::mails_for(g, &readers, &subject, &body, None));
        for j in g.joiners() {
            self.mails.push(NewMail {
                game: Some(g.name().to_string()),
                // The joiners are outside the game until it starts again.
                audience: Audience::Reader(Reader::Observers),
                recipient: j.seat.address.clone(),
                subject: subject.clone(),
                body: body.clone(),
                kind: MailKind::Generated,
                in_reply_to: None,
                pictures: Vec::new(),
            });
        }
        Ok(Vec::new())
    }
}
