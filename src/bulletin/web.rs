//! The web view's words in mails: the line that links a seat's private page.

/// The line added to a mail to a seat when the web view's `base_url` is set.
pub fn page_link(base_url: &str, token: &str) -> String {
    format!(
        "\nYour page of this game (keep the link to yourself): {}/view/{token}\n",
        base_url.trim_end_matches('/')
    )
}
