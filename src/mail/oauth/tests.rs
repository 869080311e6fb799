//! The OAuth client against the test authorisation server: renewal before expiry and on a
//! refusal, rotating refresh tokens shared through the file, refusals and outages told
//! apart, the file private.

use std::time::Duration;

use super::test_server::TokenServer;
use super::*;

fn dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "dipjudge-oauth-{tag}-{}-{}",
        std::process::id(),
        Utc::now().timestamp_micros()
    ));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn source(server: &TokenServer, refresh: &str, file: &Path) -> TokenSource {
    TokenSource::new(
        OAuth2Config {
            token_url: server.token_url(),
            client_id: "judge-client".into(),
            client_secret: Some("client-secret".into()),
            refresh_token: refresh.into(),
            scope: None,
            timeout: Duration::from_secs(10),
        },
        file.to_path_buf(),
    )
}

fn server(lifetime: Duration) -> TokenServer {
    let s = TokenServer::start("127.0.0.1:0", lifetime).unwrap();
    s.add_client("judge-client", Some("client-secret"));
    s
}

#[test]
fn a_token_is_kept_renewed_before_it_expires_and_renewed_when_refused() {
    let s = server(Duration::from_secs(4));
    let refresh = s.grant("judge-client", "judge@example.test");
    let d = dir("renew");
    let file = d.join("judge.db.oauth");
    let src = source(&s, &refresh, &file);
    let first = src.access_token().unwrap();
    assert_eq!(src.access_token().unwrap(), first, "kept while fresh");
    assert_eq!(s.renewals(), 1);
    // A quarter of its life (one second) before it expires, it is renewed.
    std::thread::sleep(Duration::from_millis(3200));
    let second = src.access_token().unwrap();
    assert_ne!(second, first);
    assert_eq!(s.renewals(), 2);
    // Refused by a mail server (revoked early): renewed at once.
    s.revoke(&second);
    let third = src.renew(&second).unwrap();
    assert_ne!(third, second);
    assert_eq!(s.renewals(), 3);
    // Another source of the same credential (the SMTP side, another process) finds the
    // fresh token in the file instead of asking again, and does not renew it because
    // someone else's token was refused.
    let other = source(&s, &refresh, &file);
    assert_eq!(other.access_token().unwrap(), third);
    assert_eq!(other.renew(&second).unwrap(), third);
    assert_eq!(s.renewals(), 3);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "the token file is the judge's alone");
    }
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains(&third), "{text}");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_rotated_refresh_token_is_kept_and_used_by_every_process() {
    let s = server(Duration::from_secs(60));
    s.set_rotation(true);
    let refresh = s.grant("judge-client", "judge@example.test");
    let d = dir("rotate");
    let file = d.join("judge.db.oauth");
    let a = source(&s, &refresh, &file);
    let t1 = a.access_token().unwrap();
    // The configured refresh token no longer works at the server; the file's does.
    s.revoke(&t1);
    let t2 = a.renew(&t1).unwrap();
    let b = source(&s, &refresh, &file);
    s.revoke(&t2);
    let t3 = b.renew(&t2).unwrap();
    assert_eq!(s.renewals(), 3);
    assert!(![t1.as_str(), t2.as_str()].contains(&t3.as_str()));
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn refusals_outages_and_bad_endpoints_are_told_apart() {
    let s = server(Duration::from_secs(60));
    let d = dir("errors");
    let file = d.join("judge.db.oauth");
    // A refresh token the server never gave (or withdrew): refused, for the operator.
    let err = source(&s, "rt-unknown", &file).access_token().unwrap_err();
    assert!(
        matches!(&err, OAuthError::Refused { error, .. } if error == "invalid_grant"),
        "{err}"
    );
    assert!(!err.is_temporary());
    assert!(err.to_string().contains("invalid_grant"), "{err}");
    // The endpoint is down: try again later.
    let refresh = s.grant("judge-client", "judge@example.test");
    s.set_failing(Some(503));
    let err = source(&s, &refresh, &file).access_token().unwrap_err();
    assert!(err.is_temporary(), "{err}");
    s.set_failing(None);
    assert!(source(&s, &refresh, &file).access_token().is_ok());
    // Nothing listens.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let gone = TokenSource::new(
        OAuth2Config {
            token_url: format!("http://127.0.0.1:{port}/token"),
            client_id: "judge-client".into(),
            client_secret: None,
            refresh_token: refresh.clone(),
            scope: None,
            timeout: Duration::from_secs(5),
        },
        d.join("other.oauth"),
    );
    assert!(matches!(
        gone.access_token(),
        Err(OAuthError::Unreachable { .. })
    ));
    // The refresh token never travels in clear off the machine.
    for url in [
        "http://oauth.example.org/token",
        "ftp://127.0.0.1/token",
        "http://judge.invalid/token",
    ] {
        let c = OAuth2Config {
            token_url: url.into(),
            client_id: "c".into(),
            client_secret: None,
            refresh_token: "r".into(),
            scope: None,
            timeout: Duration::from_secs(5),
        };
        assert!(
            matches!(check_token_url(&c.token_url), Err(OAuthError::Config(_))),
            "{url}"
        );
        assert!(
            matches!(
                TokenSource::new(c, file.clone()).access_token(),
                Err(OAuthError::Config(_))
            ),
            "{url}"
        );
    }
    // Secrets stay out of debug output.
    let shown = format!("{:?}", source(&s, &refresh, &file));
    assert!(
        !shown.contains(&refresh) && !shown.contains("client-secret"),
        "{shown}"
    );
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn the_xoauth2_response_is_the_documented_one() {
    assert_eq!(
        xoauth2_response(
            "someuser@example.com",
            "ya29.vF9dft4qmTc2Nvb3RlckBhdHRhdmlzdGEuY29tCg"
        ),
        "user=someuser@example.com\x01auth=Bearer ya29.vF9dft4qmTc2Nvb3RlckBhdHRhdmlzdGEuY29tCg\x01\x01"
    );
}
