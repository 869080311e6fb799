//! The settings of an address: observing a game (`OBSERVE`, `SIGNON Ogame`), leaving it
//! (`UNOBSERVE`, `SIGNOFF game`), maps on or off (`SET MAP`). They take effect at once for an
//! address that proved itself; from any other address they wait for the answer to the
//! confirmation the judge mails to it (`confirm`), and `CONFIRM code` (or a reply keeping
//! the code in its subject) gives that answer.

use chrono::Duration;

use crate::bulletin::{answers, people};
use crate::game::{ObserverLevel, Sender};
use crate::store::{Audience, MailKind, NewMail, StoreError};

use super::super::confirm::{self, AddressRequest, CONFIRMATION_HOURS};
use super::super::password;
use super::super::refusal::{Refusal, SessionError};
use super::{Done, Session, Verdict};

impl Session<'_, '_> {
    /// Whether the reply address proved itself: it answered a confirmation once, or this
    /// mail signed on with the password of a seat registered at that address (the seat's
    /// owner chose the address and knows the password).
    pub(super) fn address_proven(&self) -> Result<bool, StoreError> {
        if self.signed_on_at_reply_address() {
            return Ok(true);
        }
        self.tx.is_proven(self.msg.reply_address())
    }

    /// Whether this mail signed on with the password of a seat registered at its reply
    /// address: a proof that holds for this mail alone.
    fn signed_on_at_reply_address(&self) -> bool {
        let address = self.msg.reply_address();
        let seat = match (self.who, self.game.as_ref()) {
            (Some(Sender::Power(p)), Some(g)) => g.player(p).map(|pl| pl.seat.address.as_str()),
            (Some(Sender::Master), Some(g)) => g
                .master_seats()
                .nth(self.master_seat)
                .map(|s| s.address.as_str()),
            _ => None,
        };
        seat.is_some_and(|s| s.eq_ignore_ascii_case(address))
    }

    /// A setting of the reply address: refused if it cannot be made, made now if the
    /// address proved itself, else kept for the confirmation this mail's reply asks for.
    pub(in crate::judge) fn address_request(&mut self, req: AddressRequest) -> Verdict {
        self.check_request(&req)?;
        // A profile and a link speak for a person: a From line is no proof, and neither is
        // an answer the address gave once before (a forged mail would carry its From), so
        // they need this mail's own proof: a seat's password, or the confirmation.
        let proven = match req {
            AddressRequest::Register(..) | AddressRequest::AlsoAt(_) => {
                self.speaks_for_reply_address()
            }
            _ => self.address_proven()?,
        };
        if proven {
            return self.apply_request(&req);
        }
        let echo = answers::waits_for_confirmation(&req.render());
        if !self.pending.contains(&req) {
            self.pending.push(req);
        }
        Done::ok(echo)
    }

    /// Whether a setting can be made now (the game exists, takes observers, ...).
    fn check_request(&self, req: &AddressRequest) -> Result<(), SessionError> {
        let address = self.msg.reply_address();
        let refused: Result<(), Refusal> = match req {
            AddressRequest::Observe(name) => match self.tx.load_game(name)? {
                None => Err(Refusal::NoGame(name.clone())),
                Some(g) if g.settings().press.watch == ObserverLevel::None => {
                    Err(Refusal::NoObservers(g.name().to_string()))
                }
                Some(_) => Ok(()),
            },
            AddressRequest::Unobserve(name) => match self.tx.load_game(name)? {
                None => Err(Refusal::NoGame(name.clone())),
                Some(g) if !g.observes(address) => Err(Refusal::NotObserving(g.name().to_string())),
                Some(_) => Ok(()),
            },
            AddressRequest::Map(_)
            | AddressRequest::Register(..)
            | AddressRequest::LinkTo(_)
            | AddressRequest::SeatAt { .. } => Ok(()),
            AddressRequest::AlsoAt(also) => {
                let theirs = |a: &str| self.tx.person_of(a);
                if let Some(r) = super::super::addresses::refusal(self.config, also) {
                    Err(r)
                } else if also.eq_ignore_ascii_case(address) {
                    Err(Refusal::AlsoSelf(also.clone()))
                } else if theirs(also)?.is_some() && theirs(also)? == theirs(address)? {
                    Err(Refusal::AlsoAlready(also.clone()))
                } else if self
                    .tx
                    .pending_confirmation(also)?
                    .is_some_and(|p| self.now - p.created_at < Duration::hours(CONFIRMATION_HOURS))
                {
                    Err(Refusal::AlsoWaiting(also.clone()))
                } else {
                    Ok(())
                }
            }
        };
        Ok(refused?)
    }

    /// Makes a setting of the reply address.
    fn apply_request(&mut self, req: &AddressRequest) -> Verdict {
        self.check_request(req)?;
        let address = self.msg.reply_address().to_string();
        match req {
            // Each subscription (and each OBSERVE after it) gets a new observer password,
            // said in the reply to this address alone: only its reader learns it.
            AddressRequest::Observe(name) => {
                let code = confirm::secret_code(self.tx, self.config.seed, "observers", &address)?;
                let hash = password::hash(self.config.password_cost, &code, self.salt()?);
                let mut more = Vec::new();
                let echo = self.change_game(name, |g| {
                    g.add_observer(&address);
                    g.set_observer_password(&address, hash);
                    more.push(answers::observer_password(g.name(), &code));
                    answers::observing(g.name())
                })?;
                Done::with_more(echo, more)
            }
            AddressRequest::Unobserve(name) => {
                let echo = self.change_game(name, |g| {
                    g.remove_observer(&address);
                    answers::unobserved(g.name())
                })?;
                Done::ok(echo)
            }
            AddressRequest::Map(on) => {
                self.tx.set_map_choice(&address, *on)?;
                Done::ok(req.render())
            }
            AddressRequest::Register(fields, closed) => {
                self.tx.register(&address, fields, self.now)?;
                Done::with_more("REGISTER", people::registered(fields, *closed))
            }
            AddressRequest::AlsoAt(also) => {
                self.mail_link_confirmation(also)?;
                Done::ok(people::also_mailed(also))
            }
            AddressRequest::LinkTo(owner) => {
                self.tx.link_address(owner, &address, self.now)?;
                Done::ok(people::linked(&address, owner))
            }
            AddressRequest::SeatAt { game, seat, from } => self.seat_moved(game, *seat, from),
        }
    }

    /// Mails `also` the confirmation of an `I AM ALSO also` from the reply address (which
    /// proved itself): answered from `also`, the two addresses are one person's. A forged
    /// From cannot link anyone's address: the asking address proved itself, and the other
    /// answers for itself.
    fn mail_link_confirmation(&mut self, also: &str) -> Result<(), StoreError> {
        let owner = self.msg.reply_address().to_string();
        let code = confirm::new_code(self.tx, self.config.seed, also)?;
        self.tx.set_confirmation(
            also,
            &code,
            &confirm::write_requests(&[AddressRequest::LinkTo(owner.clone())]),
            self.now,
        )?;
        self.mails.push(NewMail {
            game: None,
            audience: Audience::Reply,
            recipient: also.to_string(),
            subject: people::link_subject(&self.config.name, &code),
            body: people::link_mail(&owner, also, &code, CONFIRMATION_HOURS),
            kind: MailKind::Generated,
            in_reply_to: None,
            pictures: Vec::new(),
        });
        Ok(())
    }

    /// Changes game `name`: the message's own game in place (it is written when the
    /// message is done), any other as stored.
    pub(in crate::judge) fn change_game(
        &mut self,
        name: &str,
        f: impl FnOnce(&mut crate::game::Game) -> String,
    ) -> Result<String, StoreError> {
        if let Some(g) = self
            .game
            .as_mut()
            .filter(|g| g.name().eq_ignore_ascii_case(name))
        {
            return Ok(f(g));
        }
        let Some(mut g) = self.tx.load_game(name)? else {
            return Ok(String::new());
        };
        let out = f(&mut g);
        self.tx.save_game(&g)?;
        Ok(out)
    }

    /// `CONFIRM code`: the reply address answers its confirmation; what waited is done.
    pub(in crate::judge) fn confirm(&mut self, code: &str) -> Verdict {
        let address = self.msg.reply_address().to_string();
        if self
            .confirmed
            .as_deref()
            .is_some_and(|c| confirm::same_code(code, c))
        {
            return Done::ok(answers::confirmed_above(code));
        }
        let Some(pending) = self.tx.pending_confirmation(&address)? else {
            return Err(Refusal::NothingToConfirm.into());
        };
        let expired = self.now - pending.created_at >= Duration::hours(CONFIRMATION_HOURS);
        if expired {
            self.tx.drop_confirmation(&address)?;
            return Err(Refusal::NothingToConfirm.into());
        }
        confirm::check_code(self.tx, &pending, &address, &self.msg.from, code)??;
        self.tx.drop_confirmation(&address)?;
        self.tx.prove_address(&address, self.now)?;
        self.confirmed = Some(pending.code.clone());
        let mut more = Vec::new();
        for req in confirm::read_requests(&pending.requests) {
            match self.apply_request(&req) {
                Ok(done) => {
                    more.push(answers::confirmed_ok(&done.echo));
                    more.extend(done.more.iter().map(|l| answers::confirmed_more(l)));
                }
                Err(SessionError::Refused(r)) => more.push(answers::confirmed_error(
                    r.code(),
                    &req.render(),
                    &r.to_string(),
                )),
                Err(SessionError::System(e)) => return Err(e.into()),
            }
        }
        Done::with_more(answers::confirmed(&pending.code), more)
    }

    /// A mail whose subject carries the code of the reply address's confirmation (a reply
    /// to it) answers it, before its lines are read.
    pub(super) fn confirm_by_subject(&mut self) -> Result<(), StoreError> {
        let address = self.msg.reply_address().to_string();
        let Some(pending) = self.tx.pending_confirmation(&address)? else {
            return Ok(());
        };
        if !confirm::in_subject(&self.msg.subject, &pending.code) {
            return Ok(());
        }
        let echo = match self.confirm(&pending.code) {
            Ok(done) => {
                let mut lines = vec![answers::ok_line(&done.echo)];
                lines.extend(done.more);
                lines
            }
            Err(SessionError::Refused(r)) => vec![answers::error_line(r.code(), &r.to_string())],
            Err(SessionError::System(e)) => return Err(e),
        };
        for l in echo {
            self.note(l);
        }
        Ok(())
    }

    /// What a reply to an address that has settings waiting ends with: the confirmation
    /// (a new code, kept with the settings); None when the address was sent one less than
    /// [`CONFIRMATION_HOURS`] ago: then it gets no reply at all.
    pub(super) fn confirmation_request(
        &mut self,
    ) -> Result<Option<(String, Vec<String>)>, StoreError> {
        let address = self.msg.reply_address().to_string();
        if let Some(p) = self.tx.pending_confirmation(&address)?
            && self.now - p.created_at < Duration::hours(CONFIRMATION_HOURS)
        {
            return Ok(None);
        }
        let code = confirm::new_code(self.tx, self.config.seed, &address)?;
        self.tx.set_confirmation(
            &address,
            &code,
            &confirm::write_requests(&self.pending),
            self.now,
        )?;
        let requests = self.pending.iter().map(AddressRequest::render).collect();
        Ok(Some((code, requests)))
    }
}
