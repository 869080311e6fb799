//! Rendering what the judge mails: the public results bulletin of each phase, the private
//! reply to an order mail, and (later) press, each for one [`Audience`].
//!
//! Pure: no SQL, no mail, no clock. Everything arrives as values (the map, the positions,
//! the adjudicator's outcome, a deadline already formatted by the caller), so the same
//! inputs give the same bytes. The bulletin never decides a rule: it prints what
//! [`crate::rules::adjudicate`] decided, in njudge's words and layout, which players and
//! the mapping tools that read njudge bulletins already know.

pub mod audience;
pub mod reply;
pub mod results;
pub mod settings;

pub use audience::Audience;
pub use reply::{
    LineVerdict, ReplyLine, mask_password, parse_report, parsed_line, render_reply,
    render_reply_lines, render_verdict,
};
pub use results::{Extras, Parts, ResultsHeader, phase_words, render_results, results_subject};

#[cfg(test)]
mod tests;
