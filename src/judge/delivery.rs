//! Which mail is the judge's: the Message-ID every outgoing mail carries, made so that only
//! this judge can make one, and read back from a delivery report to find the mail it
//! answers.
//!
//! A Message-ID is `<judge>.<outbox row>.<tag>@<domain>` (`dip.42.k7q2mx4pab@example.org`):
//! the outbox row names the mail, and the tag is a keyed MAC of the row under a key the
//! judge keeps (`confirm`'s, which never leaves the database), ten letters of a
//! 32-letter alphabet (50 bits). A resend after a crash carries the same id. A delivery
//! report counts only when the Message-ID it returns is one the judge made, for a mail it
//! sent to the recipient the report names (`Judge::record_bounce`): a report anyone can
//! write, naming an address and no mail of the judge's (or a guessed one), marks nobody.
//!
//! Pure once made: the key is read from the store when [`MessageIds`] is built.

use blake2::Blake2bMac;
use blake2::digest::consts::U32;
use blake2::digest::{KeyInit, Mac};

/// The tag's letters (lower case; compared in any case).
const ALPHABET: &[u8; 32] = b"abcdefghjklmnpqrstuvwxyz23456789";

/// Letters in a tag.
const TAG_LETTERS: usize = 10;

/// How the judge names its mail: its name and domain, and the key of its tags.
#[derive(Clone)]
pub struct MessageIds {
    /// The judge's name in lower case (`dip`).
    prefix: String,
    domain: String,
    key: [u8; 32],
}

impl std::fmt::Debug for MessageIds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The key stays out of logs.
        f.debug_struct("MessageIds")
            .field("prefix", &self.prefix)
            .field("domain", &self.domain)
            .finish_non_exhaustive()
    }
}

impl MessageIds {
    /// The Message-IDs of the judge called `judge` at `domain`, tagged under a key made
    /// from `judge_key` (the judge's own secret).
    pub fn new(judge: &str, domain: &str, judge_key: &[u8]) -> MessageIds {
        let mut key = [0u8; 32];
        if let Ok(mut mac) = <Blake2bMac<U32> as KeyInit>::new_from_slice(judge_key) {
            mac.update(b"dipjudge message-id tags\0");
            key.copy_from_slice(&mac.finalize().into_bytes());
        }
        MessageIds {
            prefix: judge.to_ascii_lowercase(),
            domain: domain.to_string(),
            key,
        }
    }

    /// The tag of outbox row `id`.
    fn tag(&self, id: i64) -> String {
        let Ok(mut mac) = <Blake2bMac<U32> as KeyInit>::new_from_slice(&self.key) else {
            // A 32-byte key is always taken.
            return String::new();
        };
        mac.update(&id.to_le_bytes());
        mac.finalize()
            .into_bytes()
            .iter()
            .take(TAG_LETTERS)
            .filter_map(|b| ALPHABET.get(usize::from(*b) % ALPHABET.len()))
            .map(|b| char::from(*b))
            .collect()
    }

    /// The Message-ID of outbox mail `id` (without angle brackets): the same on every
    /// try, so receivers see a resend for what it is.
    pub fn id(&self, id: i64) -> String {
        let mut out = self.prefix.clone();
        out.push('.');
        out.push_str(&id.to_string());
        out.push('.');
        out.push_str(&self.tag(id));
        out.push('@');
        out.push_str(&self.domain);
        out
    }

    /// The outbox mail a Message-ID names, if it is one this judge made (angle brackets,
    /// blanks and letter case ignored); None for any other id, a guessed one included.
    pub fn outbox_of(&self, message_id: &str) -> Option<i64> {
        let id = message_id
            .trim()
            .trim_start_matches('<')
            .trim_end_matches('>');
        let (local, at) = id.rsplit_once('@')?;
        if !at.eq_ignore_ascii_case(&self.domain) {
            return None;
        }
        let local = local.to_ascii_lowercase();
        let rest = local.strip_prefix(&self.prefix)?.strip_prefix('.')?;
        let (number, tag) = rest.split_once('.')?;
        let n: i64 = number.parse().ok().filter(|n: &i64| *n > 0)?;
        (tag == self.tag(n)).then_some(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_read_back_only_when_the_judge_made_them() {
        let ids = MessageIds::new("DIP", "example.test", b"a key of the judge's");
        let id = ids.id(42);
        assert!(id.starts_with("dip.42."), "{id}");
        assert!(id.ends_with("@example.test"), "{id}");
        assert_eq!(ids.id(42), id, "the same on every try");
        assert_ne!(ids.id(43), ids.id(42).replace(".42.", ".43."));
        assert_eq!(ids.outbox_of(&id), Some(42));
        assert_eq!(ids.outbox_of(&format!("<{}>", id.to_uppercase())), Some(42));
        // The ids of the judge before tags, a guessed tag, another judge's, another domain.
        assert_eq!(ids.outbox_of("dip.42@example.test"), None);
        assert_eq!(ids.outbox_of("dip.42.aaaaaaaaaa@example.test"), None);
        let other = MessageIds::new("DIP", "example.test", b"another judge's key");
        assert_eq!(ids.outbox_of(&other.id(42)), None);
        assert_eq!(ids.outbox_of(&id.replace("example.test", "x.test")), None);
        assert_eq!(ids.outbox_of(&id.replace("42", "-42")), None);
        for junk in ["", "@", "dip.@example.test", "dip..@example.test", "x"] {
            assert_eq!(ids.outbox_of(junk), None, "{junk}");
        }
    }
}
