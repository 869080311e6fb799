//! The links to private web pages in mails: a token per mail to a seat (a power's player,
//! the master), at least 128 bits from the OS, kept only as its hash with the fingerprint
//! of the seat's holder and password; a token opens its seat's page while the seat has the
//! holder and password it was made for. Used only when `[web] base_url` is set.

use blake2::Digest;
use chrono::{DateTime, Utc};

use crate::game::{Game, Seat};
use crate::map::Power;
use crate::store::{Audience, NewMail, StoreError, Tx, WebToken};
use crate::variant::Reader;

/// Bytes of randomness in a token (256 bits).
const TOKEN_BYTES: usize = 32;

/// The hex of a BLAKE2s-256 digest.
fn hex_digest(parts: &[&[u8]]) -> String {
    let mut h = blake2::Blake2s256::new();
    for p in parts {
        h.update((p.len() as u64).to_le_bytes());
        h.update(p);
    }
    hex(&h.finalize())
}

/// Lowercase hex of `bytes`.
fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .flat_map(|b| [b >> 4, b & 0xf])
        .filter_map(|n| char::from_digit(u32::from(n), 16))
        .collect()
}

/// How a token is kept: its hash (a stolen database gives no working link).
pub fn token_hash(token: &str) -> String {
    hex_digest(&[b"dipjudge web token", token.as_bytes()])
}

/// Who holds a seat with which password, as one value: a new holder or a new password
/// gives another.
pub fn fingerprint(seat: &Seat) -> String {
    hex_digest(&[
        b"dipjudge seat",
        seat.address.to_ascii_lowercase().as_bytes(),
        seat.password_hash.as_bytes(),
    ])
}

/// The seat a token's `seat` column names.
pub fn seat_name(reader: Reader) -> Option<&'static str> {
    match reader {
        Reader::Power(p) => Some(p.name()),
        Reader::Master => Some("master"),
        Reader::Observers => None,
    }
}

/// The reader and seat a token opens in `g`, if the seat still has the holder and password
/// the token was made for.
pub fn reader_of(g: &Game, token: &WebToken) -> Option<Reader> {
    let (reader, seat) = if token.seat == "master" {
        (Reader::Master, g.master())
    } else {
        let power = Power::ALL.into_iter().find(|p| p.name() == token.seat)?;
        let player = g.players().iter().find(|p| p.power == power)?;
        (Reader::Power(power), &player.seat)
    };
    (fingerprint(seat) == token.fingerprint).then_some(reader)
}

/// A new token for `reader`'s seat of `g`, kept hashed; the seat's tokens of an earlier
/// holder or password are dropped. None for an outsider or an empty seat.
pub fn mint(
    tx: &Tx<'_>,
    g: &Game,
    reader: Reader,
    now: DateTime<Utc>,
) -> Result<Option<String>, StoreError> {
    let seat = match reader {
        Reader::Master => g.master(),
        Reader::Power(p) => match g.players().iter().find(|x| x.power == p) {
            Some(x) => &x.seat,
            None => return Ok(None),
        },
        Reader::Observers => return Ok(None),
    };
    let Some(name) = seat_name(reader) else {
        return Ok(None);
    };
    let mut bytes = [0u8; TOKEN_BYTES];
    // No randomness, no link: the mail goes without it.
    if getrandom::fill(&mut bytes).is_err() {
        return Ok(None);
    }
    let token = hex(&bytes);
    let print = fingerprint(seat);
    tx.drop_stale_web_tokens(g.name(), name, &print)?;
    tx.add_web_token(
        &token_hash(&token),
        &WebToken {
            game: g.name().to_string(),
            seat: name.to_string(),
            fingerprint: print,
        },
        now,
    )?;
    Ok(Some(token))
}

/// Adds to each of `mails` of game `g` addressed to a seat (its audience: a power's
/// player or the master) the link to that seat's private page under `base_url`.
pub(super) fn add_links(
    tx: &Tx<'_>,
    g: &Game,
    base_url: &str,
    mails: &mut [NewMail],
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    for m in mails {
        let reader = match m.audience {
            Audience::Reader(r @ (Reader::Power(_) | Reader::Master)) => r,
            _ => continue,
        };
        if let Some(token) = mint(tx, g, reader, now)? {
            m.body
                .push_str(&crate::bulletin::web::page_link(base_url, &token));
        }
    }
    Ok(())
}
