//! The one renderer of what people read: the results bulletin of each phase, press as its
//! readers receive it, the reply to a mail, notices, listings, each for its reader.
//!
//! | module | owns |
//! | --- | --- |
//! | [`results`] | the results bulletin of a phase, for one [`Reader`] |
//! | [`press`] | the envelope of press (subject, `Message from ... to ...:`) and its quoted text |
//! | [`reply`] | the reply to a mail: one `OK`/`ERROR`/`WARNING` line per line received |
//! | [`answers`] | the judge's words in a reply: subjects, echoes with a remark, notes, the confirmation request |
//! | [`notices`] | the mails the judge writes of its own accord: start, end, reminder, late, abandonment, suspension, ... |
//! | [`listing`] | HELP, LIST, LIST FULL, SUMMARY, HISTORY's entries, standing orders, the game dump |
//! | [`people`] | players as people: what REGISTER recorded, WHOIS, the reliability record, the I AM ALSO confirmation |
//! | [`pictures`] | the titles of pictures and the names of attached files |
//! | [`dates`] | a time as players read it, in the game's zone |
//! | [`web`] | the line that links a seat's private web page in its mails |
//! | [`audience`] | who reads ([`Reader`]), who sends ([`Sender`]), who a mail is for ([`Audience`]) |
//!
//! Pure: no SQL, no mail, no clock. Everything arrives as values (the map, the game, the
//! positions, the adjudicator's outcome, the time), so the same inputs give the same bytes.
//! The bulletin never decides a rule or who may read what: it writes what the judge, the
//! game and the rule set decided ([`crate::rules::adjudicate`], the press policy, H19, H20),
//! in njudge's words and layout where njudge has them, which players and the mapping tools
//! that read njudge bulletins already know. The judge writes no sentence of its own: a test
//! (`tests/renderer.rs`) fails on one.
//!
//! Not here: the sentences of typed refusals and errors, which each layer gives its own
//! refusals as `Display` with a stable code (STYLE §6.4: the command parser's, the rules',
//! the press policy's, the rule sets', the judge's `Refusal`), and the lines a rule set
//! writes (H20); this module lays them out.

pub mod answers;
pub mod audience;
pub mod dates;
pub mod listing;
pub mod notices;
pub mod people;
pub mod pictures;
pub mod press;
pub mod proof;
pub mod reply;
pub mod results;
pub mod seats;
pub mod settings;
pub mod web;

pub use audience::{Audience, MailKind, Reader, Sender};
pub use notices::Notice;
pub use reply::{
    LineVerdict, ReplyLine, mask_password, parse_report, parsed_line, render_reply,
    render_reply_lines, render_verdict,
};
pub use results::{Extras, Parts, ResultsHeader, phase_words, render_results, results_subject};

#[cfg(test)]
mod tests;
