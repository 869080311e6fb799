//! Helpers the integration tests share: mailing the judge core and reading its reply.

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
