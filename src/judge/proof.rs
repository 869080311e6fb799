//! Who a mail speaks for, proven one way (`docs/proof.md`): a seat through its password in
//! the mail; an address through a confirmation answered from it in this mail, or the
//! password of a seat proven at it; `From` and `Reply-To` never. Every check a command
//! makes about proof is one call here: a seat's move to a new address (`SET ADDRESS`, made
//! when the new address confirms), a person's record (`REGISTER`, `I AM ALSO`), the door of
//! a takeover (a private game, an ejected power, a person's second power), and the bounds
//! on what a reply carries (attachments and bytes, per reply and per address an hour).

use chrono::Duration;

use crate::bulletin::proof as text;
use crate::game::{Game, SeatRef, SeatRefusal, Sender};
use crate::map::Power;
use crate::store::{Audience, MailKind, NewMail, StoreError};

use super::confirm::{self, AddressRequest, CONFIRMATION_HOURS, SeatKey};
use super::refusal::{Refusal, SessionError};
use super::session::{Done, Session, Verdict};
use super::{addresses, limits};

/// Attachments (pictures, an `EXPORT`) one reply carries at most.
pub(super) const ATTACHMENTS_PER_REPLY: usize = 5;

/// Attachments the replies to one address carry in an hour at most.
pub(super) const ATTACHMENTS_PER_HOUR: usize = 20;

/// Bytes of text one reply carries at most.
pub(super) const REPLY_BYTES: usize = 512 * 1024;

/// Bytes of text the replies to one address carry in an hour at most (a reply past it
/// still says, in a few lines, what was done).
pub(super) const REPLY_BYTES_PER_HOUR: usize = 2 * 1024 * 1024;

/// The least a reply keeps of its text, whatever the address was sent this hour: the
/// lines that say what was done with the mail.
const REPLY_FLOOR_BYTES: usize = 4 * 1024;

impl Session<'_, '_> {
    /// The seat this mail signed on as, in its game.
    fn signed_seat(&self) -> Option<SeatKey> {
        match self.who {
            Some(Sender::Power(p)) => Some(SeatKey::Power(p)),
            Some(Sender::Master) => Some(SeatKey::Master(self.master_seat)),
            None => None,
        }
    }

    /// Whether this mail speaks for its reply address: it answered the address's
    /// confirmation, or signed on to a seat proven at the address.
    pub(in crate::judge) fn speaks_for_reply_address(&self) -> bool {
        if self.confirmed.is_some() {
            return true;
        }
        let (Some(seat), Some(g)) = (self.signed_seat(), self.game.as_ref()) else {
            return false;
        };
        let address = self.msg.reply_address();
        seat.address(g)
            .is_some_and(|a| a.eq_ignore_ascii_case(address))
            && g.seat_proven(&seat.stored(), address)
    }

    /// Once a mail is read: a seat it signed on to, registered at the address whose
    /// confirmation it answered, is proven there.
    pub(in crate::judge) fn keep_seat_proof(&mut self) {
        let address = self.msg.reply_address();
        let seat = self.signed_seat();
        if let (Some(_), Some(seat), Some(g)) = (&self.confirmed, seat, self.game.as_mut())
            && seat
                .address(g)
                .is_some_and(|a| a.eq_ignore_ascii_case(address))
        {
            g.prove_seat(&seat.stored(), address);
        }
    }

    /// `SET ADDRESS address` for the seat this mail signed on as: an address the judge
    /// takes, mailed a code; the seat moves when that address answers it (`CONFIRM`), not
    /// before. The same address in other letters is taken at once.
    pub(in crate::judge) fn move_seat(&mut self, seat: SeatRef, address: &str) -> Verdict {
        if let Some(r) = addresses::refusal(self.config, address) {
            return Err(r.into());
        }
        let key = SeatKey::of(seat);
        let (tx, config, now) = (self.tx, self.config, self.now);
        let g = self.game.as_mut().ok_or(Refusal::NotSignedOn)?;
        let current = key.address(g).ok_or(Refusal::NotSignedOn)?;
        if current.eq_ignore_ascii_case(address) {
            g.set_seat_address(seat, address)?;
            return Done::ok(crate::bulletin::answers::set_address(address));
        }
        if tx
            .pending_confirmation(address)?
            .is_some_and(|p| now - p.created_at < Duration::hours(CONFIRMATION_HOURS))
        {
            return Err(Refusal::AlsoWaiting(address.to_string()).into());
        }
        if let Some(r) = limits::unasked_mail_refusal(tx, [&address.to_string()], now)? {
            return Err(r.into());
        }
        limits::count_unasked_mail(tx, address, now)?;
        let code = confirm::new_code(tx, config.seed, address)?;
        let request = AddressRequest::SeatAt {
            game: g.name().to_string(),
            seat: key,
            from: current.clone(),
        };
        tx.set_confirmation(address, &code, &confirm::write_requests(&[request]), now)?;
        let label = text::seat_label(key_power(key));
        self.mails.push(NewMail {
            game: None,
            audience: Audience::Reply,
            recipient: address.to_string(),
            subject: text::move_subject(&config.name, &code),
            body: text::move_mail(
                g.name(),
                &label,
                &current,
                address,
                &code,
                CONFIRMATION_HOURS,
            ),
            kind: MailKind::Generated,
            in_reply_to: None,
            pictures: Vec::new(),
        });
        Done::ok(text::address_waits(address))
    }

    /// The new address answered a `SET ADDRESS`: the seat moves to it, if it is still
    /// registered where it was asked from (else the answer is refused), and is proven
    /// there.
    pub(in crate::judge) fn seat_moved(
        &mut self,
        game: &str,
        seat: SeatKey,
        from: &str,
    ) -> Verdict {
        let address = self.msg.reply_address().to_string();
        let mut outcome: Result<bool, Refusal> = Err(Refusal::NoGame(game.to_string()));
        let name = self.change_game(game, |g| {
            outcome = match seat.address(g) {
                Some(a) if a.eq_ignore_ascii_case(from) => g
                    .set_seat_address(seat.seat_ref(), &address)
                    .map_err(Refusal::from),
                _ => Err(Refusal::SeatMovedMeanwhile(g.name().to_string())),
            };
            if outcome.is_ok() {
                g.prove_seat(&seat.stored(), &address);
            }
            g.name().to_string()
        })?;
        outcome?;
        let own = self
            .game
            .as_ref()
            .filter(|g| g.name().eq_ignore_ascii_case(&name))
            .cloned();
        let moved = match own {
            Some(g) => Some(g),
            None => self.tx.load_game(&name)?,
        };
        if let Some(g) = moved {
            let (sender, audience) = match seat {
                SeatKey::Power(p) => (Sender::Power(p), Audience::power(p)),
                SeatKey::Master(_) => (Sender::Master, Audience::MASTER),
            };
            let n = crate::bulletin::notices::address_set(&self.config.name, &g, sender, &address);
            self.mails.push(NewMail {
                game: Some(name.clone()),
                audience,
                recipient: from.to_string(),
                subject: n.subject,
                body: n.body,
                kind: MailKind::Generated,
                in_reply_to: None,
                pictures: Vec::new(),
            });
        }
        Done::ok(text::seat_moved(
            &name,
            &text::seat_label(key_power(seat)),
            &address,
        ))
    }

    /// The door of a takeover of `power` in `g` by this mail: refused when the taker's
    /// person (addresses linked by `I AM ALSO`, each confirmed) already plays a power of
    /// `g`; Ok(true) when it waits for the master's approval: the game asks for it (`SET
    /// APPROVAL`), is private (a stranger does not walk into a join-password game through
    /// an abandoned seat), or its master ejected someone from `power` (who must not take it
    /// back from another address).
    pub(in crate::judge) fn takeover_waits(
        &self,
        g: &Game,
        power: Power,
    ) -> Result<bool, SessionError> {
        if let Some(person) = self.tx.person_of(self.msg.reply_address())? {
            for pl in g.players().iter().filter(|pl| pl.is_playing()) {
                if self.tx.person_of(&pl.seat.address)? == Some(person) {
                    return Err(Refusal::from(SeatRefusal::AlreadyPlays {
                        power: pl.power,
                        game: g.name().to_string(),
                    })
                    .into());
                }
            }
        }
        Ok(g.settings().approval || g.is_private() || g.ejected_from(power))
    }

    /// Room in this reply for one more attachment (a picture, an `EXPORT`): refused past
    /// [`ATTACHMENTS_PER_REPLY`], or once the reply address was sent
    /// [`ATTACHMENTS_PER_HOUR`] in the last hour.
    pub(in crate::judge) fn attachment_room(&self) -> Result<(), SessionError> {
        let here = self.reply_pictures.len();
        if here >= ATTACHMENTS_PER_REPLY {
            return Err(Refusal::ReplyFull(ATTACHMENTS_PER_REPLY).into());
        }
        let address = self.msg.reply_address();
        let (sent, _) = self
            .tx
            .replies_to_since(address, self.now - Duration::hours(1))?;
        if sent + here >= ATTACHMENTS_PER_HOUR {
            return Err(Refusal::AttachmentsPerHour {
                address: address.to_string(),
                per_hour: ATTACHMENTS_PER_HOUR,
            }
            .into());
        }
        Ok(())
    }

    /// The reply's text within its bounds: [`REPLY_BYTES`], and what is left of the reply
    /// address's [`REPLY_BYTES_PER_HOUR`] (at least [`REPLY_FLOOR_BYTES`]); the lines past
    /// the bound are cut, and one line says so.
    pub(in crate::judge) fn bounded_reply(&self, body: String) -> Result<String, StoreError> {
        if body.len() <= REPLY_FLOOR_BYTES {
            return Ok(body);
        }
        let (_, sent) = self
            .tx
            .replies_to_since(self.msg.reply_address(), self.now - Duration::hours(1))?;
        let cap = REPLY_BYTES
            .min(REPLY_BYTES_PER_HOUR.saturating_sub(sent))
            .max(REPLY_FLOOR_BYTES);
        Ok(text::cap_reply(
            body,
            cap,
            REPLY_BYTES,
            REPLY_BYTES_PER_HOUR,
        ))
    }
}

fn key_power(key: SeatKey) -> Option<Power> {
    match key {
        SeatKey::Power(p) => Some(p),
        SeatKey::Master(_) => None,
    }
}
