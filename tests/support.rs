//! Helpers the integration tests share: mailing the judge core and reading its reply, and
//! comparing a golden file.

use std::path::Path;

use chrono::{DateTime, Utc};
use dipjudge::judge::{Handled, Incoming, Judge};

/// Hands the judge one mail (`key` is its Message-ID) at `now`; returns the reply's body
/// (empty when the judge sent none).
pub(crate) fn send(
    judge: &mut Judge,
    key: &str,
    from: &str,
    body: &str,
    now: DateTime<Utc>,
) -> String {
    let msg = Incoming {
        key: key.to_string(),
        message_id: Some(key.to_string()),
        from: from.to_string(),
        reply_to: None,
        from_name: None,
        subject: "orders".into(),
        text: body.to_string(),
        size_capped: false,
    };
    let h = judge.handle(&msg, now).expect("handled");
    assert!(matches!(h, Handled::Applied { .. }), "{h:?}");
    judge
        .all_mail()
        .expect("mail")
        .into_iter()
        .rev()
        .find(|m| m.in_reply_to.as_deref() == Some(key))
        .map(|m| m.body)
        .unwrap_or_default()
}

/// Compares `got` with the golden file at `path` (a difference or a missing file is added to
/// `failures`, with the lines around the first difference); `UPDATE_GOLDEN=1` rewrites the
/// file instead.
pub(crate) fn compare_golden(path: &Path, got: &str, failures: &mut Vec<String>) {
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(path, got).expect("write golden");
        return;
    }
    match std::fs::read_to_string(path) {
        Err(_) => failures.push(format!(
            "{}: missing (UPDATE_GOLDEN=1 writes it)",
            path.display()
        )),
        Ok(expected) if expected != got => {
            let line = expected
                .lines()
                .zip(got.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(expected.lines().count().min(got.lines().count()));
            let show = |s: &str| {
                s.lines()
                    .skip(line.saturating_sub(3))
                    .take(8)
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            failures.push(format!(
                "{} differs from line {}:\n--- expected\n{}\n--- got\n{}\n",
                path.display(),
                line + 1,
                show(&expected),
                show(got)
            ));
        }
        Ok(_) => {}
    }
}
