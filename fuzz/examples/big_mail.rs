//! Times the mail target's check on mails far over libFuzzer's input size, up to the
//! daemon's text cap (256 KiB): `cargo run --release --example big_mail [LINE]` (in `fuzz/`)
//! repeats LINE (default `A Par H`) after a signed-on SIGNON, at 16 to 256 KiB, and prints
//! the time and the reply's size (the games are set up before, untimed). The fuzzer cannot reach these sizes at its speed; this
//! is how the README's figures for them were measured.

use std::time::Instant;

fn main() {
    let line = std::env::args()
        .nth(1)
        .map(|s| format!("{s}\n"))
        .unwrap_or_else(|| "A Par H\n".to_string());
    // The games are set up by the first check: not timed.
    let _ = dipjudge_fuzz::mail::check(b"From: a@example.test\r\n\r\nHELP\r\n");
    for kib in [16, 32, 64, 128, 256] {
        let mut body = String::from("SIGNON Edemo pw1\n");
        while body.len() + line.len() <= kib * 1024 {
            body.push_str(&line);
        }
        let raw = format!(
            "From: p1@example.test\r\nSubject: big\r\nMessage-ID: <big-{kib}@example.test>\r\n\r\n{body}"
        );
        let t = Instant::now();
        let outcome = dipjudge_fuzz::mail::check(raw.as_bytes());
        let what = match &outcome {
            dipjudge_fuzz::mail::Outcome::Answered { queued, reply } => {
                format!("{queued} mail queued, reply {} bytes", reply.len())
            }
            other => format!("{other:?}"),
        };
        println!("{kib:>3} KiB: {:>10.1?}  {what}", t.elapsed());
    }
}
