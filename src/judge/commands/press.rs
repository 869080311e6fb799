//! Press: routed as the game and its rule set allow (H19), held for the results when
//! postal, kept with its readers for `HISTORY`.

use crate::bulletin::{self, answers};
use crate::command;
use crate::game::{self, Author, Reader};
use crate::store::Audience;
use crate::variant::Sender;

use super::super::refusal::Refusal;
use super::super::session::{Done, Session, Verdict};
use super::super::{history, mailing};

impl Session<'_, '_> {
    /// Press: refused (the inner error), or sent; a store error (the outer) rolls the mail
    /// back.
    pub(in crate::judge) fn press(&mut self, p: &command::Press) -> Verdict {
        let author = match (self.who, self.observer) {
            (Some(sender), _) => Author::Seat(sender),
            (None, true) => Author::Observer,
            (None, false) => return Err(Refusal::NotSignedOnForPress.into()),
        };
        let judge = self.config.name.clone();
        let map = self.map;
        let from = self.msg.reply_address().to_string();
        let (g, variant) = self.game_and_variant()?;
        let now_phase = g.position().phase;
        // A duplex player's other powers: press named to them is refused, and nothing the
        // player sends comes back to them through them.
        let own: Vec<crate::map::Power> = match author {
            Author::Seat(Sender::Power(me)) => g.held_with(me).into_iter().skip(1).collect(),
            _ => Vec::new(),
        };
        if let command::PressTo::Only(named) = &p.header.to {
            let mine: Vec<crate::map::Power> = own
                .iter()
                .copied()
                .filter(|q| named.contains(&command::Recipient::Power(*q)))
                .collect();
            if !mine.is_empty() {
                return Err(Refusal::OwnPowers(mine).into());
            }
        }
        let routed = match author {
            Author::Seat(sender) => game::press_route(g, map, variant, sender, &p.header),
            Author::Observer => game::observer_press_route(g, &p.header),
        };
        let mut route = routed?;
        route
            .readers
            .retain(|r| !matches!(r, game::Reader::Power(q) if own.contains(q)));
        let name = g.name().to_string();
        let press = bulletin::press::press_mail(
            &judge, &name, now_phase, author, &route, &p.header, &p.body,
        );
        // Press whose every line was a command (ballots read from press to the master,
        // H19) has nothing left to send.
        if p.body.iter().all(|l| l.trim().is_empty()) {
            return Done::ok(answers::press_empty(&p.render()));
        }
        let readers = route.readers.clone();
        if p.header.postal {
            g.hold_postal(readers, press.subject, press.body);
            return Done::ok(answers::press_held(&p.render()));
        }
        let mut mails = mailing::mails_for(g, &readers, &press.subject, &press.body, None);
        // An observer is one of the observers: it gets no copy of its own press, but of a
        // grey broadcast (as a power does).
        if author == Author::Observer && !route.author_reads {
            mails.retain(|m| {
                m.audience != Audience::Reader(Reader::Observers)
                    || !m.recipient.eq_ignore_ascii_case(&from)
            });
        }
        // Every press is kept with its readers: HISTORY shows each reader what it received.
        let kept = history::press_readers(&readers, author, route.public);
        self.tx.add_press_history(
            &name,
            self.now,
            &now_phase.to_string(),
            &press.subject,
            &press.body,
            &kept,
            route.signed,
        )?;
        self.mails.extend(mails);
        Done::ok(p.render())
    }
}
