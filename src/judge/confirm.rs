//! Confirmations: what makes a setting of an address (observing a game, maps on or off) the
//! choice of whoever reads that address. A mail's From and Reply-To are no proof (anyone can
//! write any address on a mail); an answer to a code the judge mailed to the address is.
//!
//! An address proves itself once, by answering: `CONFIRM <code>` in a mail from it, or a
//! reply whose subject keeps the code. Until then its settings wait, and the address is
//! sent the one confirmation and, for [`CONFIRMATION_HOURS`], no other. A code is eight
//! characters from a 32-letter alphabet (40 bits), a keyed MAC of the address and a counter
//! under a key the judge keeps; [`WRONG_CODES`] wrong answers from the address itself (its
//! From) drop it. Wrong answers from other addresses (a mail with another From, the
//! address only in Reply-To) never drop it: they are counted apart, and after
//! [`STRANGER_WRONG_CODES`] of them only the address itself is heard, so five forged wrong
//! codes no longer cancel a confirmation its owner waits for.

use blake2::Blake2bMac;
use blake2::digest::consts::U32;
use blake2::digest::{Digest, KeyInit, Mac};
use serde::{Deserialize, Serialize};

use crate::bulletin::{answers, people};
use crate::game::{Game, SeatRef};
use crate::map::Power;
use crate::store::{StoreError, Tx};

use super::refusal::Refusal;

/// How long a confirmation waits for its answer; meanwhile the address gets no other.
pub(super) const CONFIRMATION_HOURS: i64 = 24;

/// Wrong codes an address's confirmation takes from the address itself before it is
/// dropped.
pub(super) const WRONG_CODES: u32 = 5;

pub(super) use super::bounds::STRANGER_WRONG_CODES;

/// A code's letters: no 0/O, 1/I.
const ALPHABET: &[u8; 32] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/// A setting of an address, waiting for its confirmation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(super) enum AddressRequest {
    /// `OBSERVE game` (also `SIGNON Ogame`).
    Observe(String),
    /// `UNOBSERVE game` (also `SIGNOFF game`).
    Unobserve(String),
    /// `SET MAP ON|OFF`.
    Map(bool),
    /// `REGISTER` … `END`: the profile of the address (its fields, and whether the block
    /// had its END).
    Register(Vec<(String, String)>, bool),
    /// `I AM ALSO address`: once this address is proved, a confirmation goes to `address`.
    AlsoAt(String),
    /// The answer of the second address of an `I AM ALSO`: it joins the person of the
    /// address named (the one that asked).
    LinkTo(String),
    /// `SET ADDRESS`, answered by the new address: the seat `seat` of `game`, registered
    /// at `from` when it was asked, moves to it (`proof`).
    SeatAt {
        game: String,
        seat: SeatKey,
        from: String,
    },
}

impl AddressRequest {
    /// The command as the judge writes it.
    pub(super) fn render(&self) -> String {
        match self {
            AddressRequest::Observe(g) => answers::observe_command(g),
            AddressRequest::Unobserve(g) => answers::unobserve_command(g),
            AddressRequest::Map(on) => answers::set_map_command(*on).to_string(),
            AddressRequest::Register(fields, _) => people::register_command(fields.len()),
            AddressRequest::AlsoAt(a) => people::also_command(a),
            AddressRequest::LinkTo(owner) => people::link_command(owner),
            AddressRequest::SeatAt { game, .. } => crate::bulletin::proof::move_command(game),
        }
    }
}

/// The requests as stored with a confirmation.
pub(super) fn write_requests(requests: &[AddressRequest]) -> String {
    serde_json::to_string(requests).unwrap_or_default()
}

/// The requests stored with a confirmation (none if they cannot be read).
pub(super) fn read_requests(text: &str) -> Vec<AddressRequest> {
    serde_json::from_str(text).unwrap_or_default()
}

/// The judge's key for codes (and, through one more MAC, for its Message-IDs' tags,
/// `delivery`): made once from its seed and kept (`config`'s `confirmation_key`), so codes
/// survive a restart and differ between judges.
pub(super) fn judge_key(tx: &Tx<'_>, seed: u64) -> Result<Vec<u8>, StoreError> {
    if let Some(hex) = tx.get_value("confirmation_key")?
        && let Some(bytes) = from_hex(&hex)
    {
        return Ok(bytes);
    }
    let mut h = blake2::Blake2b512::new();
    h.update(b"dipjudge confirmation key\0");
    h.update(seed.to_le_bytes());
    let bytes: Vec<u8> = h.finalize().iter().take(32).copied().collect();
    tx.set_value("confirmation_key", &to_hex(&bytes))?;
    Ok(bytes)
}

fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn from_hex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

/// A fresh code for `address`.
pub(super) fn new_code(tx: &Tx<'_>, seed: u64, address: &str) -> Result<String, StoreError> {
    secret_code(tx, seed, "confirmations", address)
}

/// A fresh code for `address`, counted under `purpose` (`confirmations`, `invitations`,
/// `promotions`): eight letters of the code alphabet, a keyed MAC that only the judge can
/// make, so a code mailed to an address proves that its reader read that mail.
pub(super) fn secret_code(
    tx: &Tx<'_>,
    seed: u64,
    purpose: &str,
    address: &str,
) -> Result<String, StoreError> {
    let key = judge_key(tx, seed)?;
    let n = tx.next_counter(purpose)?;
    let Ok(mut mac) = <Blake2bMac<U32> as KeyInit>::new_from_slice(&key) else {
        // A 32-byte key is always taken; were it not, the counter still makes codes differ.
        return Ok(format!("{n:08}"));
    };
    mac.update(address.to_ascii_lowercase().as_bytes());
    mac.update(&[0]);
    if purpose != "confirmations" {
        mac.update(purpose.as_bytes());
        mac.update(&[0]);
    }
    mac.update(&n.to_le_bytes());
    let tag = mac.finalize().into_bytes();
    Ok(tag
        .iter()
        .take(8)
        .filter_map(|b| ALPHABET.get(usize::from(*b) % ALPHABET.len()))
        .map(|b| char::from(*b))
        .collect())
}

/// Checks `code`, sent for the confirmation `pending` of `address` by a mail from `from`:
/// the right code from anyone is Ok; a wrong one from the address itself is counted and the
/// [`WRONG_CODES`]th drops the confirmation, one from another address is counted apart and
/// never drops it, and after [`STRANGER_WRONG_CODES`] of them other addresses are not
/// heard.
pub(super) fn check_code(
    tx: &Tx<'_>,
    pending: &crate::store::PendingConfirmation,
    address: &str,
    from: &str,
    code: &str,
) -> Result<Result<(), Refusal>, StoreError> {
    let stranger = !from.trim().eq_ignore_ascii_case(address.trim());
    if stranger && pending.stranger_wrong >= STRANGER_WRONG_CODES {
        return Ok(Err(Refusal::ConfirmationLocked));
    }
    if same_code(code, &pending.code) {
        return Ok(Ok(()));
    }
    if !stranger && pending.wrong + 1 >= WRONG_CODES {
        tx.drop_confirmation(address)?;
    } else {
        tx.count_wrong_confirmation(address, stranger)?;
    }
    Ok(Err(Refusal::WrongConfirmation))
}

/// A code as written by a player, for comparing: upper case, without blanks or dashes.
fn canonical(code: &str) -> String {
    code.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

/// Whether `written` is `code`.
pub(super) fn same_code(written: &str, code: &str) -> bool {
    canonical(written) == canonical(code)
}

/// Whether a subject carries `code` (a reply to the confirmation keeps it).
pub(super) fn in_subject(subject: &str, code: &str) -> bool {
    subject
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| same_code(w, code))
}

/// A seat, as a confirmation keeps it: a power's, or a master's (0: the master, then the
/// co-masters in order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(super) enum SeatKey {
    Power(Power),
    Master(usize),
}

impl SeatKey {
    pub(super) fn of(seat: SeatRef) -> SeatKey {
        match seat {
            SeatRef::Power(p) => SeatKey::Power(p),
            SeatRef::Master(i) => SeatKey::Master(i),
        }
    }

    pub(super) fn seat_ref(self) -> SeatRef {
        match self {
            SeatKey::Power(p) => SeatRef::Power(p),
            SeatKey::Master(i) => SeatRef::Master(i),
        }
    }

    /// Its name in the store: the power's (`England`), `master`, `master 2`, ….
    pub(super) fn stored(self) -> String {
        match self {
            SeatKey::Power(p) => p.name().to_string(),
            SeatKey::Master(0) => "master".to_string(),
            SeatKey::Master(i) => format!("master {i}"),
        }
    }

    /// The seat's registered address in `g`.
    pub(super) fn address(self, g: &Game) -> Option<String> {
        match self {
            SeatKey::Power(p) => g.player(p).map(|pl| pl.seat.address.clone()),
            SeatKey::Master(i) => g.master_seats().nth(i).map(|s| s.address.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_compare_and_hide_in_subjects() {
        assert!(same_code("k7q2-mx4p", "K7Q2MX4P"));
        assert!(!same_code("K7Q2MX4", "K7Q2MX4P"));
        assert!(in_subject("Re: DIP confirmation K7Q2MX4P", "K7Q2MX4P"));
        assert!(in_subject("Re: [DIP confirmation k7q2mx4p]", "K7Q2MX4P"));
        assert!(!in_subject("Re: DIP confirmation K7Q2MX4PX", "K7Q2MX4P"));
        let requests = vec![
            AddressRequest::Observe("alpha".into()),
            AddressRequest::Map(false),
        ];
        assert_eq!(read_requests(&write_requests(&requests)), requests);
        assert!(read_requests("not json").is_empty());
        assert_eq!(from_hex(&to_hex(&[0, 255, 7])), Some(vec![0, 255, 7]));
        assert_eq!(from_hex("abc"), None);
    }
}
