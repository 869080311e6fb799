use super::*;

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/fixtures/mail/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap()
}

fn parse(name: &str) -> Envelope {
    Envelope::parse(&fixture(name)).unwrap()
}

#[test]
fn html_only_becomes_text() {
    let env = parse("html-only.eml");
    assert_eq!(env.from, "anna.berg@example.test");
    assert_eq!(env.from_name.as_deref(), Some("Anna Berg"));
    assert_eq!(env.subject, "Orders for England");
    assert_eq!(
        env.message_id.as_deref(),
        Some("CAHtml0001@mail.example.test")
    );
    assert_eq!(
        env.text,
        "SIGNON EGAME1 & friends\nF LON -> NTH\nA LVP -> YOR\nF EDI -> NWG\nCafé é ☺\n"
    );
    assert!(!env.size_capped);
}

#[test]
fn quoted_printable_latin1_is_decoded() {
    let env = parse("qp-latin1.eml");
    assert_eq!(env.from, "juergen@example.test");
    assert_eq!(env.from_name.as_deref(), Some("Jürgen Müller"));
    assert_eq!(env.subject, "Befehle für Deutschland");
    assert!(env.text.starts_with("A BER -> KIE\nF KIE -> DEN\n"));
    assert!(env.text.contains("Grüße aus München"));
    assert!(env.text.contains("fortgesetzt wird."));
    assert!(!env.text.contains('\r'));
}

#[test]
fn base64_utf8_is_decoded() {
    let env = parse("base64-utf8.eml");
    assert_eq!(env.subject, "Ordres — France");
    assert_eq!(
        env.text,
        "Ordres pour la France — été 1901\nA PAR -> BUR\nF BRE -> MAO\n"
    );
    assert_eq!(env.date, Some(1_741_262_400));
}

#[test]
fn text_attachment_is_appended_and_binary_ignored() {
    let env = parse("multipart-text-attachment.eml");
    assert_eq!(
        env.text,
        "My orders are in the attachment.\n\nA VEN H\nA ROM -> APU\nF NAP -> ION\n"
    );
}

#[test]
fn no_message_id_gets_a_stable_fallback_key() {
    let env = parse("no-message-id.eml");
    assert_eq!(env.message_id, None);
    let key = env.dedupe_key();
    assert!(key.starts_with("fallback:"), "{key}");
    assert_eq!(key, parse("no-message-id.eml").dedupe_key());
    // CRLF on the wire gives the same key as LF on disk.
    let crlf = String::from_utf8(fixture("no-message-id.eml"))
        .unwrap()
        .replace('\n', "\r\n");
    assert_eq!(Envelope::parse(crlf.as_bytes()).unwrap().dedupe_key(), key);
    // The trace fields a server adds on the way do not change it.
    let delivered = format!(
        "Return-Path: <x@example.test>\nReceived: from a by b; Mon, 5 Jan 2026 12:00:00 +0000\nDelivered-To: judge@example.test\n{}",
        String::from_utf8(fixture("no-message-id.eml")).unwrap()
    );
    assert_eq!(
        Envelope::parse(delivered.as_bytes()).unwrap().dedupe_key(),
        key
    );
    // A different body gives a different key.
    let other = String::from_utf8(fixture("no-message-id.eml"))
        .unwrap()
        .replace("A MOS -> UKR", "A MOS -> SEV");
    assert_ne!(Envelope::parse(other.as_bytes()).unwrap().dedupe_key(), key);
    // With a Message-ID the key names it, the sender and the content.
    let key = parse("base64-utf8.eml").dedupe_key();
    assert!(
        key.starts_with("<b64-utf8-1@example.test> from elodie@example.test #"),
        "{key}"
    );
}

/// Issue 25: two mails from one sender without Message-ID or Date, with other subjects
/// and other orders, are two mails; the same mail is one.
#[test]
fn mails_without_message_id_are_keyed_by_their_whole_content() {
    let mail = |subject: &str, body: &str| {
        Envelope::parse(
            format!("From: italy@example.test\r\nSubject: {subject}\r\n\r\n{body}\r\n").as_bytes(),
        )
        .unwrap()
        .dedupe_key()
    };
    let a = mail("spring", "SIGNON Igame pw\r\nA Ven - Tyr");
    let b = mail("fall", "SIGNON Igame pw\r\nA Tyr - Mun");
    assert_ne!(a, b);
    assert_ne!(a, mail("spring, again", "SIGNON Igame pw\r\nA Ven - Tyr"));
    assert_eq!(a, mail("spring", "SIGNON Igame pw\r\nA Ven - Tyr"));
}

/// A reused Message-ID with other content is another mail; from another sender too.
#[test]
fn the_key_names_sender_message_id_and_content() {
    let mail = |from: &str, body: &str| {
        Envelope::parse(
            format!("From: {from}\r\nMessage-ID: <same@x>\r\nSubject: orders\r\n\r\n{body}\r\n")
                .as_bytes(),
        )
        .unwrap()
        .dedupe_key()
    };
    let italy = mail("italy@example.test", "A Ven - Tyr");
    assert_eq!(italy, mail("Italy@Example.test", "A Ven - Tyr"));
    assert_ne!(italy, mail("italy@example.test", "A Ven - Pie"));
    assert_ne!(italy, mail("spy@example.test", "A Ven - Tyr"));
}

#[test]
fn the_stable_hash_is_blake2s_of_length_prefixed_parts() {
    use blake2::Digest;
    // One part: BLAKE2s of its length (8 bytes, little-endian) and its bytes.
    let mut h = blake2::Blake2s256::new();
    h.update(3u64.to_le_bytes());
    h.update(b"abc");
    let want = h.finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&want[..8]);
    assert_eq!(stable_hash(&[b"abc"]), u64::from_be_bytes(first));
    // Parts are kept apart.
    assert_ne!(stable_hash(&[b"ab", b"c"]), stable_hash(&[b"a", b"bc"]));
    assert_eq!(stable_hash(&[b"ab", b"c"]), stable_hash(&[b"ab", b"c"]));
}

#[test]
fn bounce_keeps_loop_headers() {
    let env = parse("bounce.eml");
    assert_eq!(env.from, "mailer-daemon@mail.example.test");
    assert_eq!(env.loop_headers.return_path.as_deref(), Some(""));
    assert_eq!(env.loop_headers.content_type, "multipart/report");
    assert_eq!(
        env.loop_headers.auto_submitted.as_deref(),
        Some("auto-replied")
    );
    assert!(env.text.contains("user unknown"));
}

#[test]
fn auto_reply_keeps_loop_headers() {
    let env = parse("auto-reply.eml");
    assert_eq!(env.loop_headers.precedence.as_deref(), Some("bulk"));
    assert_eq!(env.loop_headers.x_autoreply.as_deref(), Some("yes"));
}

#[test]
fn crlf_and_lone_cr_become_lf() {
    let env =
        Envelope::parse(b"From: a@example.test\r\n\r\nA PAR H\r\nA MAR H\rF BRE H\r\n").unwrap();
    assert_eq!(env.text, "A PAR H\nA MAR H\nF BRE H\n");
}

#[test]
fn text_is_capped_at_the_end_of_a_line() {
    let body = format!("{}\r\n{}\r\n", "é".repeat(3), "é".repeat(100));
    let raw =
        format!("From: a@example.test\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}");
    let limits = ParseLimits {
        max_text_bytes: 11,
        ..ParseLimits::default()
    };
    let env = Envelope::parse_with(raw.as_bytes(), limits).unwrap();
    assert!(env.size_capped);
    assert_eq!(env.text, "ééé\n");
    assert_eq!(env.first_unread_line(), Some(2));
    let small = Envelope::parse(raw.as_bytes()).unwrap();
    assert!(!small.size_capped);
    assert_eq!(small.first_unread_line(), None);
    // A first line longer than the cap: nothing is read.
    let limits = ParseLimits {
        max_text_bytes: 5,
        ..ParseLimits::default()
    };
    let env = Envelope::parse_with(raw.as_bytes(), limits).unwrap();
    assert_eq!((env.text.as_str(), env.first_unread_line()), ("", Some(1)));
}

/// Issue 25: the cut line is not run as a shorter order (`A Par S F Bre - Pic` must not
/// become `A Par S F Bre`).
#[test]
fn a_line_cut_by_the_cap_is_not_read() {
    let head = "A Mar H\n".repeat(10);
    let raw = format!("From: a@example.test\r\n\r\n{head}A Par S F Bre - Pic\n");
    let limits = ParseLimits {
        max_text_bytes: head.len() + "A Par S F Bre".len(),
        ..ParseLimits::default()
    };
    let env = Envelope::parse_with(raw.as_bytes(), limits).unwrap();
    assert_eq!(env.text, head);
    assert_eq!(env.first_unread_line(), Some(11));
}

#[test]
fn raw_message_is_capped() {
    let raw = format!("From: a@example.test\r\n\r\n{}", "xxxxxxxxx\n".repeat(100));
    let limits = ParseLimits {
        max_text_bytes: 10_000,
        max_message_bytes: 105,
    };
    let env = Envelope::parse_with(raw.as_bytes(), limits).unwrap();
    assert!(env.size_capped);
    assert!(env.text.len() < 100);
    // The last line the cut reached may be cut itself: it is not read.
    assert!(env.text.lines().all(|l| l == "xxxxxxxxx"), "{:?}", env.text);
    assert!(env.text.ends_with('\n'));
}

#[test]
fn unparsable_and_fromless_mail_are_errors() {
    assert_eq!(
        Envelope::parse(b""),
        Err(EnvelopeError::Unparsable { size: 0 })
    );
    let err = Envelope::parse(b"Subject: hi\r\n\r\nbody\r\n").unwrap_err();
    assert_eq!(err, EnvelopeError::NoFrom { from: None });
    assert_eq!(
        err.to_string(),
        "the message has no usable From address (From: None)"
    );
    let err = Envelope::parse(b"From: nobody\r\n\r\nbody\r\n");
    assert!(err.is_err() || err.is_ok_and(|e| !e.from.is_empty()));
}

#[test]
fn reply_to_wins_for_replies() {
    let env =
        Envelope::parse(b"From: a@example.test\r\nReply-To: B@Example.test\r\n\r\nx\r\n").unwrap();
    assert_eq!(env.reply_address(), "b@example.test");
}

#[test]
fn html_entities_and_structure() {
    assert_eq!(html_to_text("a&lt;b &amp;&amp; c&gt;d"), "a<b && c>d\n");
    assert_eq!(html_to_text("x &unknown; y & z"), "x &unknown; y & z\n");
    assert_eq!(
        html_to_text("<script>alert(1)</script><p>one</p><p>two</p>"),
        "one\ntwo\n"
    );
    assert_eq!(
        html_to_text("<ul><li>A PAR H</li><li>F BRE H</li></ul>"),
        "A PAR H\nF BRE H\n"
    );
}

/// Outlook's HTML reply (issue 25): the orders, a name, then the quoted original under a
/// top border, which html2text turns into `From:`/`Sent:`/`To:`/`Subject:` lines.
#[test]
fn outlook_html_reply_keeps_its_reply_header_as_lines() {
    let env = parse("outlook-html-reply.eml");
    assert_eq!(
        env.text,
        "SIGNON Iroma pizza\nA Ven - Tyr\nA Rom - Apu\nF Nap - Ion\nGiulia\nFrom: DIP Judge <judge@example.test>\nSent: Monday, January 5, 2026 9:00 AM\nTo: Giulia Rossi <italy@example.test>\nSubject: DIP:roma - S1901M Reminder\nReminder: the deadline for S1901M in 'roma' is Tue Jan 06 2026 09:00 UTC.\nYour orders for Italy are none.\n"
    );
}
