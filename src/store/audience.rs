//! Who a stored row is for, and the words the store keeps it under: the outbox's audience
//! and kind (typed in the schema since version 7: `audience` is one of five words, `power`
//! names the power of a power's mail, `kind` is one of two), and the readers of an entry of
//! a game's history.
//!
//! Who reads is [`Reader`], the one type every layer uses; a mail's [`Audience`] is a reader
//! or the sender of the mail it answers (and the copy of that answer to a seat's address).

use std::fmt;

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};

use crate::map::Power;
use crate::variant::{Reader, Sender};

/// Who a mail in the outbox is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Audience {
    /// A reader who follows a game: one of its powers' players, its master, one of its
    /// observers.
    Reader(Reader),
    /// Whoever sent the mail it answers (its reply address).
    Reply,
    /// A seat's registered address, when a mail signed on as that seat from another
    /// address: a copy of the reply.
    SignonCopy,
}

impl Audience {
    /// A power's player.
    pub fn power(p: Power) -> Audience {
        Audience::Reader(Reader::Power(p))
    }

    /// The game's master.
    pub const MASTER: Audience = Audience::Reader(Reader::Master);

    /// The `audience` and `power` columns.
    pub(super) fn columns(self) -> (&'static str, Option<&'static str>) {
        match self {
            Audience::Reader(Reader::Power(p)) => ("power", Some(p.name())),
            Audience::Reader(Reader::Master) => ("master", None),
            Audience::Reader(Reader::Observers) => ("observer", None),
            Audience::Reply => ("reply", None),
            Audience::SignonCopy => ("signon-copy", None),
        }
    }

    /// Reads the `audience` and `power` columns (the schema admits no other values).
    pub(super) fn from_columns(word: &str, power: Option<&str>) -> Option<Audience> {
        Some(match (word, power) {
            ("power", Some(name)) => Audience::power(power_named(name)?),
            ("master", None) => Audience::MASTER,
            ("observer", None) => Audience::Reader(Reader::Observers),
            ("reply", None) => Audience::Reply,
            ("signon-copy", None) => Audience::SignonCopy,
            _ => return None,
        })
    }
}

/// The audience as the outbox wrote it before version 7, one word (the golden tests print
/// it): the power's name, `master`, `observer`, `reply` or `signon-copy`.
impl fmt::Display for Audience {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.columns() {
            (_, Some(power)) => f.write_str(power),
            (word, None) => f.write_str(word),
        }
    }
}

/// What kind of mail an outbox row is: an answer to a mail (the daemon's rate limiter counts
/// these, and they are marked `Auto-Submitted: auto-replied`) or one the judge wrote of its
/// own accord (a bulletin, a notice).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MailKind {
    Replied,
    Generated,
}

impl MailKind {
    fn word(self) -> &'static str {
        match self {
            MailKind::Replied => "replied",
            MailKind::Generated => "generated",
        }
    }
}

impl fmt::Display for MailKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

impl ToSql for MailKind {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.word()))
    }
}

impl FromSql for MailKind {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        match value.as_str()? {
            "replied" => Ok(MailKind::Replied),
            "generated" => Ok(MailKind::Generated),
            other => Err(FromSqlError::Other(
                format!("unknown mail kind {other:?}").into(),
            )),
        }
    }
}

/// A power by the exact name the store writes.
fn power_named(name: &str) -> Option<Power> {
    Power::ALL.into_iter().find(|p| p.name() == name)
}

/// The word a reader of press is kept under in a game's history: the power's name,
/// `master`, `observers`.
pub(super) fn history_word(r: Reader) -> &'static str {
    match r {
        Reader::Power(p) => p.name(),
        Reader::Master => "master",
        Reader::Observers => "observers",
    }
}

/// The word that marks an entry anyone outside the game reads too (a broadcast).
pub(super) const PUBLIC: &str = "outsiders";
/// The word that marks a copy of a bulletin (not press).
pub(super) const BULLETIN: &str = "bulletin";

/// The `readers` column of an entry made for `readers`: their words, then [`PUBLIC`] and
/// [`BULLETIN`] when they hold (`England,master,observers,outsiders`). A judge that does
/// not know the two marks reads them as no reader.
pub(super) fn history_column(readers: &[Reader], public: bool, bulletin: bool) -> String {
    let mut words: Vec<&str> = readers.iter().map(|r| history_word(*r)).collect();
    if public {
        words.push(PUBLIC);
    }
    if bulletin {
        words.push(BULLETIN);
    }
    words.join(",")
}

/// Whether a kept `readers` column carries `mark`.
pub(super) fn history_marked(column: &str, mark: &str) -> bool {
    column.split(',').any(|w| w == mark)
}

/// The readers of a history entry as kept (`England,master,observers`); a word the store
/// never writes, or a mark, names no reader.
pub(super) fn history_readers(column: &str) -> Vec<Reader> {
    column
        .split(',')
        .filter_map(|w| match w {
            "master" => Some(Reader::Master),
            "observers" => Some(Reader::Observers),
            name => power_named(name).map(Reader::Power),
        })
        .collect()
}

/// The word a seat is kept under (the wrong passwords sent for it): the power's name, or
/// `master`.
pub(super) fn seat_word(seat: Sender) -> &'static str {
    match seat {
        Sender::Power(p) => p.name(),
        Sender::Master => "master",
    }
}

/// A seat by the word it is kept under.
pub(super) fn seat_named(word: &str) -> Option<Sender> {
    match word {
        "master" => Some(Sender::Master),
        name => power_named(name).map(Sender::Power),
    }
}
