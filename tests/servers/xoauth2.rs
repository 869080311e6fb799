//! XOAUTH2 against the real servers (issue 39): Dovecot's oauth2 passdb asks the token
//! endpoint this test process runs (`mail::oauth::test_server`, on the port
//! `scripts/mail-servers.sh` wrote into Dovecot's configuration) whether a token is active;
//! Postfix takes its SASL from that Dovecot, so SMTP checks tokens the same way. Access
//! tokens live eight seconds here, so renewals happen within a test: after a token
//! expired, and when a server refuses one (revoked early, or another mailbox's). The
//! endpoint is shared by the tests of one process, so each counts its own user's renewals.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use chrono::Utc;

use dipjudge::daemon::{Config, Daemon};
use dipjudge::mail::inbound::imap::{ImapConfig, ImapInbox};
use dipjudge::mail::oauth::test_server::TokenServer;
use dipjudge::mail::oauth::{OAuth2Config, TokenSource};
use dipjudge::mail::outbound::smtp::{SmtpConfig, SmtpOutbox, Xoauth2Login};
use dipjudge::mail::{Envelope, InboundError, Inbox, Outbox, Security, SendError};

use super::{address, ca, deliver, fetch_n, imap, judge_mail};
use dipjudge::mail::render;

/// How long the test server's access tokens live.
const LIFETIME: Duration = Duration::from_secs(8);
const CLIENT: &str = "dipjudge-test-client";
const SECRET: &str = "dipjudge-test-client-secret";

/// The token endpoint Dovecot asks (one per test process, on the configured port).
fn token_server() -> &'static TokenServer {
    static SERVER: OnceLock<TokenServer> = OnceLock::new();
    SERVER.get_or_init(|| {
        let s = TokenServer::start(&format!("127.0.0.1:{}", crate::oauth_port()), LIFETIME)
            .expect("the test token endpoint listens where Dovecot asks");
        s.add_client(CLIENT, Some(SECRET));
        s
    })
}

fn scratch_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "dipjudge-xoauth2-{tag}-{}-{}",
        std::process::id(),
        Utc::now().timestamp_micros()
    ));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A token source for `refresh`, keeping its tokens in `dir`.
fn tokens(refresh: &str, dir: &std::path::Path) -> Arc<TokenSource> {
    Arc::new(TokenSource::new(
        OAuth2Config {
            token_url: token_server().token_url(),
            client_id: CLIENT.into(),
            client_secret: Some(SECRET.into()),
            refresh_token: refresh.into(),
            scope: None,
            timeout: Duration::from_secs(10),
        },
        dir.join("judge.db.oauth"),
    ))
}

fn oauth_smtp(user: &str, tokens: &Arc<TokenSource>) -> SmtpOutbox {
    let mut c = SmtpConfig::new("localhost", crate::smtp_port());
    c.security = Security::StartTls;
    c.root_certificate = Some(ca());
    c.xoauth2 = Some(Xoauth2Login {
        user: user.into(),
        tokens: Arc::clone(tokens),
    });
    c.timeout = Duration::from_secs(20);
    SmtpOutbox::new(c)
}

fn oauth_imap(user: &str, tokens: &Arc<TokenSource>) -> ImapInbox {
    let mut c = ImapConfig::new("localhost", crate::imaps_port(), user, "not the password");
    c.security = Security::Tls;
    c.root_certificate = Some(ca());
    c.xoauth2 = Some(Arc::clone(tokens));
    c.poll_interval = Duration::from_millis(200);
    c.backoff_min = Duration::from_millis(100);
    c.backoff_max = Duration::from_millis(200);
    c.timeout = Duration::from_secs(20);
    c.idle = crate::imap_idle();
    ImapInbox::new(c, None)
}

/// Sends bulletin `n` to `to` through `outbox`.
fn send(outbox: &mut SmtpOutbox, to: &str, n: u32) -> Vec<Result<(), SendError>> {
    let rendered = render(&judge_mail(to, n), std::time::SystemTime::now()).unwrap();
    outbox.send_batch(&[rendered])
}

/// `file` is readable and writable by its owner only (mode 600).
fn assert_private(file: &std::path::Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "{}", file.display());
    }
}

fn subject(got: &[dipjudge::mail::RawMessage]) -> String {
    assert_eq!(got.len(), 1);
    Envelope::parse(&got[0].bytes).unwrap().subject
}

/// Fetches once `inbox` answers (it may be waiting out a back-off), up to 20 s.
fn fetch_when_ready(inbox: &mut ImapInbox, n: usize) -> Vec<dipjudge::mail::RawMessage> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        match inbox.fetch_new() {
            Ok(got) if !got.is_empty() => {
                let mut all = got;
                if all.len() < n {
                    all.extend(fetch_n(inbox, n - all.len()));
                }
                return all;
            }
            Ok(_) => {}
            Err(e) => assert!(Instant::now() < deadline, "{e}"),
        }
        assert!(Instant::now() < deadline, "nothing arrived");
        let _ = inbox.wait(Instant::now() + Duration::from_millis(300));
    }
}

/// An IMAP and SMTP round trip with XOAUTH2; another after the access token expired (the
/// SMTP side renews it before logging in); then the provider revokes that new token before
/// its time: Dovecot refuses it, the IMAP side renews and logs in again, and the SMTP side,
/// refused too, finds that renewal in the token file instead of asking for a third.
#[test]
fn xoauth2_round_trip_with_tokens_renewed_mid_run() {
    needs_servers!();
    let server = token_server();
    let user = address("oauth");
    let dir = scratch_dir("trip");
    let source = tokens(&server.grant(CLIENT, &user), &dir);
    let mut outbox = oauth_smtp(&user, &source);
    let mut inbox = oauth_imap(&user, &source);

    assert_eq!(send(&mut outbox, &user, 1), vec![Ok(())]);
    let got = fetch_when_ready(&mut inbox, 1);
    assert_eq!(subject(&got), "Bulletin 1");
    inbox.commit(&got[0].id).unwrap();
    // Postfix (through Dovecot's SASL) and Dovecot's IMAP both asked the endpoint.
    assert!(server.renewals_for(&user) >= 1);
    assert!(server.introspections_for(&user) >= 2);

    // Every token expires; the next login renews first.
    std::thread::sleep(LIFETIME + Duration::from_millis(300));
    assert!(server.live_tokens(&user).is_empty(), "the tokens are dead");
    let renewed = server.renewals_for(&user);
    assert_eq!(send(&mut outbox, &user, 2), vec![Ok(())]);
    assert_eq!(server.renewals_for(&user), renewed + 1, "SMTP renewed");

    // Revoked before its time: the IMAP side holds it in the token file as fresh, presents
    // it, is refused, renews, logs in.
    let live = server.live_tokens(&user);
    assert_eq!(live.len(), 1);
    server.revoke(&live[0]);
    inbox.disconnect();
    let got = fetch_when_ready(&mut inbox, 1);
    assert_eq!(subject(&got), "Bulletin 2");
    inbox.commit(&got[0].id).unwrap();
    assert_eq!(server.renewals_for(&user), renewed + 2, "IMAP renewed");
    // The SMTP side still holds the revoked token: Postfix refuses it, and the new one is
    // already in the file.
    assert_eq!(send(&mut outbox, &user, 3), vec![Ok(())]);
    assert_eq!(server.renewals_for(&user), renewed + 2, "no third renewal");
    let got = fetch_when_ready(&mut inbox, 1);
    assert_eq!(subject(&got), "Bulletin 3");
    inbox.commit(&got[0].id).unwrap();

    // The judge's token file holds the token in force, readable by its owner only.
    let file = dir.join("judge.db.oauth");
    let text = std::fs::read_to_string(&file).unwrap();
    let live = server.live_tokens(&user);
    assert_eq!(live.len(), 1);
    assert!(text.contains(&live[0]), "{text}");
    assert_private(&file);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A token that the endpoint calls good but that speaks for another mailbox (the operator
/// authorised the wrong account): both servers refuse it even fresh. The judge renews once
/// per login and gives up: the SMTP batch stays queued with the server's refusal, the inbox
/// reports a configuration error; no loop of renewals.
#[test]
fn a_token_for_another_mailbox_is_refused_once_renewed_and_reported() {
    needs_servers!();
    let server = token_server();
    let owner = address("oauth-owner");
    let user = address("oauth-other");
    let dir = scratch_dir("other");
    let source = tokens(&server.grant(CLIENT, &owner), &dir);
    match &send(&mut oauth_smtp(&user, &source), &user, 1)[..] {
        [Err(SendError::Temporary { reason, .. })] => {
            assert!(reason.contains("refused the XOAUTH2 login"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        server.renewals_for(&owner),
        2,
        "the first token and one renewal"
    );
    match oauth_imap(&user, &source).fetch_new() {
        Err(InboundError::Config(reason)) => {
            assert!(
                reason.contains("refused with a new access token"),
                "{reason}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        server.renewals_for(&owner),
        3,
        "one more renewal, then no more"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A refresh token the provider withdrew: nothing is sent and nothing given up (the mail
/// waits for the operator), and the inbox says what the endpoint answered.
#[test]
fn a_withdrawn_refresh_token_holds_the_mail_and_names_the_refusal() {
    needs_servers!();
    let server = token_server();
    let user = address("oauth-gone");
    let dir = scratch_dir("gone");
    let source = tokens(&server.grant(CLIENT, &user), &dir);
    server.withdraw(&user);
    let results = send(&mut oauth_smtp(&user, &source), &user, 1);
    match &results[..] {
        [Err(SendError::Temporary { reason, .. })] => {
            assert!(reason.contains("invalid_grant"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    match oauth_imap(&user, &source).fetch_new() {
        Err(InboundError::Config(reason)) => assert!(reason.contains("invalid_grant"), "{reason}"),
        other => panic!("{other:?}"),
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The judge configured with `auth = "xoauth2"` in judge.toml reads its mailbox and
/// answers by XOAUTH2: a player's mail in through Postfix, the judge's answer out, read
/// from the player's mailbox.
#[test]
fn a_judge_configured_for_xoauth2_reads_and_answers() {
    needs_servers!();
    let server = token_server();
    let judge = address("oauth-judge");
    let player = address("oauth-player");
    let dir = scratch_dir("judge");
    let refresh = server.grant(CLIENT, &judge);
    let oauth = format!(
        "auth = \"xoauth2\"\ntoken_url = \"{}\"\nclient_id = \"{CLIENT}\"\nclient_secret = \"{SECRET}\"\nrefresh_token = \"{refresh}\"\nroot_certificate = \"{}\"\n",
        server.token_url(),
        ca().display()
    );
    let text = format!(
        "[judge]\nname = \"DIP\"\naddress = \"{judge}\"\ndatabase = \"{}\"\nseed = 1901\npassword_cost = \"test\"\n\n[daemon]\npoll_interval_secs = 1\n\n[inbound]\nkind = \"imap\"\nhost = \"localhost\"\nport = {}\ntls = \"tls\"\nuser = \"{judge}\"\nidle = {}\n{oauth}\n[outbound]\nkind = \"smtp\"\nhost = \"localhost\"\nport = {}\ntls = \"starttls\"\nuser = \"{judge}\"\n{oauth}",
        dir.join("judge.db").display(),
        crate::imaps_port(),
        crate::imap_idle(),
        crate::smtp_port(),
    );
    let config = Config::parse(&text, &dir).unwrap();
    let mut daemon = Daemon::open(config, None).unwrap();
    deliver(
        &judge,
        Some(&player),
        format!(
            "From: {player}\r\nTo: {judge}\r\nSubject: help\r\nMessage-ID: <oauth-{}@example.test>\r\n\r\nHELP\r\n",
            std::process::id()
        )
        .into_bytes(),
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut sent = 0;
    while sent == 0 {
        assert!(Instant::now() < deadline, "the judge did not answer");
        let r = daemon.process_once(Utc::now()).unwrap();
        sent += r.sent;
        std::thread::sleep(Duration::from_millis(200));
    }
    drop(daemon);
    let mut mine = imap(&player);
    let got = fetch_n(&mut mine, 1);
    let env = Envelope::parse(&got[0].bytes).unwrap();
    assert!(env.from.eq_ignore_ascii_case(&judge), "{}", env.from);
    assert!(env.text.contains("HELP"), "{}", env.text);
    // Its logins were by token: renewed at the endpoint, asked about by Dovecot for the
    // IMAP login and by Postfix (through Dovecot) for the SMTP one.
    assert!(server.renewals_for(&judge) >= 1);
    assert!(server.introspections_for(&judge) >= 2);
    // The judge keeps its tokens beside its database, readable by its own user only.
    assert_private(&dir.join("judge.db.oauth"));
    std::fs::remove_dir_all(&dir).unwrap();
}
