//! The leak scanner over the web view (issue 30): the golden Survive, Formal and
//! International Relations games are played through the binary as `maildir_golden` plays
//! them, then every page of each (the list, the game, each phase, the whole record) is read
//! over HTTP by every reader: an outsider (whom an observer reads as: an address proves
//! nothing on the web), each power's player and the master through their tokens. A page
//! may hold a secret of the scanner's (private press, a ballot, a treaty line) only if the
//! mails to that reader held it; an outsider only if every player's bulletins held it.
//! The pictures (inline SVG) are left out of the text compared: they are the judge's own
//! drawings of public facts (H20: a phase's picture shows what every reader may read; the
//! chart's legend, `Austria 4`, is each power's centres), which a reader gets by mail with
//! maps on, and whose legend would otherwise read as a Survive ballot (`VOTE Austria 4`).

use std::collections::BTreeSet;
use std::path::Path;

use chrono::Utc;
use dipjudge::judge::weblinks;
use dipjudge::map::Power;
use dipjudge::store::{Store, StoreError};
use dipjudge::variant::Reader;

use crate::maildir_golden::{Mail, creation, play_in, powers, secrets};
use crate::web::{get, server};

/// HTML text back to the text it shows (what maud escapes).
fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// `html` without its inline pictures.
fn without_svg(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(i) = rest.find("<svg") {
        out.push_str(&rest[..i]);
        rest = match rest[i..].find("</svg>") {
            Some(j) => &rest[i + j + "</svg>".len()..],
            None => "",
        };
    }
    out.push_str(rest);
    out
}

/// Every page under `base` (`/game/NAME` or `/view/TOKEN`), with the list, as one text.
fn pages(server: &dipjudge::web::WebServer, base: &str) -> (String, usize) {
    let mut text = String::new();
    let first = get(server, base);
    assert_eq!(first.status, 200, "{base}");
    let marker = format!("href=\"{base}/phase/");
    let mut phases: Vec<String> = first
        .body
        .split(&marker)
        .skip(1)
        .filter_map(|rest| rest.split('"').next().map(str::to_string))
        .collect();
    phases.dedup();
    let mut count = 2;
    text.push_str(&first.body);
    let record = get(server, &format!("{base}/record"));
    assert_eq!(record.status, 200);
    text.push_str(&record.body);
    for p in &phases {
        let page = get(server, &format!("{base}/phase/{p}"));
        assert_eq!(page.status, 200, "{base}/phase/{p}");
        text.push_str(&page.body);
        count += 1;
    }
    text.push_str(&get(server, "/").body);
    (unescape(&without_svg(&text)).to_lowercase(), count)
}

/// The mails `reader` received, as one lowercase text: to its address, or, for an
/// outsider, the bulletins every player received.
fn received(mails: &[Mail], address: Option<&str>, players: &BTreeSet<String>) -> String {
    let mut out = String::new();
    match address {
        Some(a) => {
            for m in mails.iter().filter(|m| m.to.eq_ignore_ascii_case(a)) {
                out.push_str(&m.body.to_lowercase());
            }
        }
        None => {
            for m in mails.iter().filter(|m| !m.reply) {
                let to_all = players.iter().all(|p| {
                    mails
                        .iter()
                        .any(|x| &x.to == p && x.subject == m.subject && x.body == m.body)
                });
                if to_all {
                    out.push_str(&m.body.to_lowercase());
                }
            }
        }
    }
    out
}

#[test]
fn web_pages_leak_nothing_mail_did_not_show() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/maildir-golden");
    let mut failures = Vec::new();
    let mut checked = 0;
    // Secrets some page showed its rightful reader: the scanner reads what it should.
    let mut seen = 0;
    for scenario in ["survive-game", "formal-game", "ir-game"] {
        let dir = root.join(scenario);
        let played = play_in(&dir, "web-leaks");
        let mails = &played.mails;
        let secrets = secrets(&dir, mails);
        assert!(
            !secrets.is_empty(),
            "{scenario}: the scanner has secrets to look for"
        );
        let seats = powers(mails);
        let (master, _) = creation(&dir);
        let players: BTreeSet<String> = seats.values().cloned().collect();
        let db = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join("web-leaks")
            .join(scenario)
            .join("var/judge.db");
        // A token for each seat, as a mail's link would carry.
        let mut store = Store::open(&db).expect("database");
        let (game, tokens) = store
            .transaction(|tx| {
                let name = tx.game_names()?.into_iter().next().expect("a game");
                let g = tx.load_game(&name)?.expect("the game");
                let mut tokens = Vec::new();
                for p in Power::ALL {
                    if let Some(addr) = seats.get(p.name())
                        && let Some(t) = weblinks::mint(tx, &g, Reader::Power(p), Utc::now())?
                    {
                        tokens.push((p.name().to_string(), Some(addr.clone()), t));
                    }
                }
                let t = weblinks::mint(tx, &g, Reader::Master, Utc::now())?.expect("master");
                tokens.push(("master".into(), Some(master.clone()), t));
                Ok::<_, StoreError>((g.name().to_string(), tokens))
            })
            .expect("tokens");
        drop(store);
        assert_eq!(tokens.len(), 8, "{scenario}: seven players and the master");
        let server = server(&db);
        let mut readers: Vec<(String, Option<String>, String)> = tokens
            .into_iter()
            .map(|(who, addr, t)| (who, addr, format!("/view/{t}")))
            .collect();
        readers.push(("outsider".into(), None, format!("/game/{game}")));
        for (who, address, base) in &readers {
            let (text, count) = pages(&server, base);
            checked += count;
            let mail = received(mails, address.as_deref(), &players);
            for s in &secrets {
                let shown = s.found(&text);
                let mailed = s.found(&mail);
                seen += usize::from(!shown.is_empty());
                for n in shown {
                    if !mailed.contains(&n) {
                        failures.push(format!(
                            "{scenario}: the pages of {who} show {n:?} ({}), which its mails never did",
                            s.what
                        ));
                    }
                }
            }
        }
        server.stop();
    }
    eprintln!("leak scanner: {checked} pages read, {seen} secrets shown to their readers");
    assert!(
        seen > 10,
        "the pages show the press their readers received ({seen})"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
