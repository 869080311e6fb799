//! The words of the proof model (`judge::proof`): a seat's move to a new address, asked
//! and confirmed, and the line that ends a reply cut at its bound.

use crate::map::Power;

/// A seat, named in a sentence: `England's seat`, `the master's seat`.
pub fn seat_label(power: Option<Power>) -> String {
    match power {
        Some(p) => format!("{}'s seat", p.name()),
        None => "the master's seat".to_string(),
    }
}

/// The echo of `SET ADDRESS` to a new address: nothing moves until it answers.
pub fn address_waits(address: &str) -> String {
    format!(
        "SET ADDRESS {address} (a confirmation was mailed to {address}; the seat moves when it is answered from there, within a day)"
    )
}

/// A seat's move, as a confirmation lists it.
pub fn move_command(game: &str) -> String {
    format!("SET ADDRESS (a seat of {game})")
}

/// The subject of the confirmation mailed to a seat's new address.
pub fn move_subject(judge: &str, code: &str) -> String {
    format!("{judge} confirmation {code}")
}

/// The confirmation mailed to a seat's new address: what was asked, and how to answer.
pub fn move_mail(
    game: &str,
    seat: &str,
    from: &str,
    address: &str,
    code: &str,
    hours: i64,
) -> String {
    format!(
        "The judge was asked that the mail of {seat} in game {game}, sent to {from} until\n\
         now, come to {address} (SET ADDRESS {address}).\n\
         \n\
         {}do nothing: the seat stays where it is without your answer.\n",
        super::people::confirm_instructions(address, code, hours)
    )
}

/// The echo when the new address confirmed: the seat's mail comes to it.
pub fn seat_moved(game: &str, seat: &str, address: &str) -> String {
    format!("SET ADDRESS {address}: the mail of {seat} in game {game} now comes to {address}")
}

/// `body` cut to `cap` bytes at a line's end, with one line saying how much was left out
/// and the bounds: `per_reply` bytes a reply, `per_hour` bytes of replies an address an
/// hour.
pub fn cap_reply(body: String, cap: usize, per_reply: usize, per_hour: usize) -> String {
    if body.len() <= cap {
        return body;
    }
    let (mut kept, cut) = super::answers::keep_lines(&body, cap);
    kept.push_str(&format!(
        "... {cut} more lines of this reply were not sent: a reply carries at most {} KiB of text, and the replies to one address at most {} KiB an hour.\n",
        per_reply / 1024,
        per_hour / 1024
    ));
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reply_is_cut_at_a_line_and_says_so() {
        let body = "a line of ten\n".repeat(100);
        let cut = cap_reply(body.clone(), 140, 2048, 4096);
        assert!(cut.starts_with(&"a line of ten\n".repeat(10)), "{cut}");
        assert!(cut.contains("... 90 more lines"), "{cut}");
        assert!(cut.contains("at most 2 KiB of text"), "{cut}");
        assert_eq!(cap_reply(body.clone(), body.len(), 2048, 4096), body);
    }
}
