//! Seats: a player's own seat (`SET PASSWORD`, `SET ADDRESS`, `SET WAIT`, `RESIGN`) and
//! the master's seat commands (`BECOME`, `EJECT`, `APPROVE`, `REJECT`, `PROMOTE`,
//! `SET INVITE`, `FORCE BEGIN`). Each calls the `Game` transition and picks who is told
//! (`judge::seats` writes the mails a seat's change sends).

use crate::bulletin::answers;
use crate::bulletin::settings as text;
use crate::command::EjectTarget;
use crate::game::{self, Abandonment, Ejected, Invitation, Reader, Seat, SeatRef, Sender};
use crate::map::Power;
use crate::store::{Audience, MailKind, NewMail};

use super::super::refusal::Refusal;
use super::super::session::{Done, Session, Verdict, salt};
use super::super::{addresses, confirm, limits, password, process, seats};
use super::{More, signed_on};

impl Session<'_, '_> {
    /// The power the mail signed on as (a seat's setting, a vote, RESIGN).
    pub(in crate::judge) fn signed_power(&self) -> Result<Power, Refusal> {
        match (self.who, self.game.as_ref()) {
            (Some(Sender::Power(p)), Some(_)) => Ok(p),
            _ => Err(Refusal::NotSignedOn),
        }
    }

    /// The seat the mail signed on as (`SET PASSWORD`, `SET ADDRESS`).
    fn seat_ref(&self) -> Result<SeatRef, Refusal> {
        match self.who {
            Some(Sender::Power(p)) => Ok(SeatRef::Power(p)),
            Some(Sender::Master) => Ok(SeatRef::Master(self.master_seat)),
            None => Err(Refusal::NotSignedOn),
        }
    }

    /// `SET PASSWORD`: the seat signed on as gets a new password.
    pub(in crate::judge) fn set_password(&mut self, pw: &str) -> Verdict {
        if !password::long_enough(pw) {
            return Err(Refusal::ShortPassword.into());
        }
        let hash = password::hash(self.config.password_cost, pw, self.salt()?);
        let seat = self.seat_ref()?;
        self.game_mut()?.set_seat_password(seat, &hash)?;
        Done::ok(answers::SET_PASSWORD)
    }

    /// `SET ADDRESS`: the seat's mail goes to another address, which is told why.
    pub(in crate::judge) fn set_address(&mut self, address: &str) -> Verdict {
        let seat = self.seat_ref()?;
        self.move_seat(seat, address)
    }

    /// `SET WAIT` / `SET NOWAIT`: whether the power's orders wait for the deadline.
    pub(in crate::judge) fn set_wait(&mut self, wait: bool) -> Verdict {
        let p = self.signed_power()?;
        self.game_mut()?.set_wait(p, wait)?;
        Ok(Done::new(answers::set_wait(wait)))
    }

    /// `RESIGN`: the player leaves; the power is abandoned and open for takeover, everyone
    /// is told (unless the game is quiet), and the rest of the mail is not signed on. In a
    /// duplex game the player resigns every power they hold (njudge).
    pub(in crate::judge) fn resign(&mut self) -> Verdict {
        let config = self.config;
        let (Some(Sender::Power(p)), Some(g)) = (self.who, self.game.as_mut()) else {
            return Err(Refusal::NotSignedOn.into());
        };
        let left = g.resign(p)?;
        let mut lines = Vec::new();
        for (q, address) in &left {
            let why = Abandonment::Resigned;
            let mails = seats::abandoned_mails(config, g, *q, why, address, false);
            self.mails.extend(mails);
            lines.push(crate::bulletin::seats::left_line(g, *q, why));
        }
        // What follows the RESIGN no longer speaks for the power (njudge: RESIGN comes last).
        self.who = None;
        self.check_end()?;
        Done::with_more("RESIGN", lines)
    }

    /// `BECOME power`: the master's mail speaks for a power from here on.
    pub(in crate::judge) fn become_power(&mut self, power: Power) -> More {
        let g = self.game_mut()?;
        if g.player(power).is_none() {
            return Err(Refusal::NoPlayer {
                power,
                game: g.name().to_string(),
            }
            .into());
        }
        self.who = Some(Sender::Power(power));
        self.became = true;
        Ok(Vec::new())
    }

    /// `EJECT who`: a player's seat is abandoned (everyone told, the game may end), or an
    /// observer's subscription ends.
    pub(in crate::judge) fn eject(&mut self, who: &EjectTarget) -> More {
        let config = self.config;
        let g = signed_on(&mut self.game)?;
        match g.eject(who)? {
            Ejected::Player { power, previous } => {
                let why = game::Abandonment::Ejected;
                self.mails.extend(seats::abandoned_mails(
                    config, g, power, why, &previous, true,
                ));
                self.check_end()?;
                Ok(vec![answers::open_for_takeover(power)])
            }
            Ejected::Observer(a) => {
                self.mails
                    .push(seats::subscription_ended_mail(config, g, &a));
                Ok(vec![crate::bulletin::seats::observer_ejected(&a, g.name())])
            }
        }
    }

    /// `FORCE BEGIN`: a forming game starts short; the powers nobody got are dummies.
    pub(in crate::judge) fn force_begin(&mut self) -> More {
        let (map, config, tx, now) = (self.map, self.config, self.tx, self.now);
        let g = signed_on(&mut self.game)?;
        g.may_force_begin()?;
        let mails = process::start_game(map, config, tx, g, now)?;
        self.mails.extend(mails);
        let open = g.open_powers();
        Ok(vec![crate::bulletin::seats::force_begun(g.name(), &open)])
    }

    /// `APPROVE power`: the claim waiting for the master's approval takes the power over.
    pub(in crate::judge) fn approve(&mut self, power: Power) -> More {
        let (map, config, tx, now) = (self.map, self.config, self.tx, self.now);
        let g = signed_on(&mut self.game)?;
        let claim = g.take_claim(power)?;
        let address = claim.seat.address.clone();
        match seats::take_over(map, config, tx, g, power, claim.seat, now)? {
            Some((_, mails)) => {
                self.mails.extend(mails);
                Ok(vec![crate::bulletin::seats::approved(&address, power)])
            }
            None => Err(game::SeatRefusal::NotOpen {
                power,
                game: g.name().to_string(),
            }
            .into()),
        }
    }

    /// `REJECT power`: the claim waiting for the master's approval is dropped; the
    /// claimant is told.
    pub(in crate::judge) fn reject(&mut self, power: Power) -> More {
        let config = self.config;
        let g = signed_on(&mut self.game)?;
        let claim = g.take_claim(power)?;
        self.mails
            .push(seats::rejected_mail(config, g, power, &claim.seat.address));
        Ok(vec![crate::bulletin::seats::rejected(
            &claim.seat.address,
            power,
        )])
    }

    /// `PROMOTE address`: a co-master, who gets a password by mail.
    pub(in crate::judge) fn promote(&mut self, address: &str) -> More {
        let (config, tx) = (self.config, self.tx);
        if let Some(r) = addresses::refusal(config, address) {
            return Err(r.into());
        }
        let now = self.now;
        let g = signed_on(&mut self.game)?;
        g.may_promote(address)?;
        if let Some(r) = limits::unasked_mail_refusal(tx, [&address.to_string()], now)? {
            return Err(r.into());
        }
        limits::count_unasked_mail(tx, address, now)?;
        let code = confirm::secret_code(tx, config.seed, "promotions", address)?;
        let salt = salt(config, tx)?;
        g.promote(Seat {
            address: address.to_string(),
            password_hash: password::hash(config.password_cost, &code, salt),
        })?;
        self.mails.push(NewMail {
            game: Some(g.name().to_string()),
            audience: Audience::MASTER,
            recipient: address.to_string(),
            subject: text::promoted_subject(&config.name, g.name()),
            body: text::promoted_text(g.name(), &code),
            kind: MailKind::Generated,
            in_reply_to: None,
            pictures: Vec::new(),
        });
        Ok(vec![text::promoted_line(address, g.name())])
    }

    /// `SET INVITE addresses` / `SET NOINVITE addresses`: each new invitee of a private
    /// game is mailed a code that joins it, once.
    pub(in crate::judge) fn invite(&mut self, addresses: &[String], invite: bool) -> More {
        let (config, tx, now) = (self.config, self.tx, self.now);
        let g = signed_on(&mut self.game)?;
        if !invite {
            g.uninvite(addresses)?;
            return Ok(Vec::new());
        }
        if let Some(r) = addresses
            .iter()
            .find_map(|a| self::addresses::refusal(config, a))
        {
            return Err(r.into());
        }
        let fresh: Vec<String> = g.new_invitees(addresses)?.into_iter().cloned().collect();
        if let Some(r) = limits::unasked_mail_refusal(tx, &fresh, now)? {
            return Err(r.into());
        }
        let mut invitations = Vec::new();
        for a in fresh {
            limits::count_unasked_mail(tx, &a, now)?;
            let code = confirm::secret_code(tx, config.seed, "invitations", &a)?;
            self.mails.push(NewMail {
                game: Some(g.name().to_string()),
                // Someone outside the game (not yet a player).
                audience: Audience::Reader(Reader::Observers),
                recipient: a.clone(),
                subject: text::invitation_subject(&config.name, g.name()),
                body: text::invitation_text(g.name(), &config.address, &code),
                kind: MailKind::Generated,
                in_reply_to: None,
                pictures: Vec::new(),
            });
            invitations.push(Invitation { address: a, code });
        }
        g.add_invitations(invitations);
        Ok(vec![text::invited_line(g)])
    }
}
