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

use dipjudge::judge::Judge;
use dipjudge::judge::audience::Viewer;

use crate::maildir_golden::{
    Mail, Secret, creation, play_in, powers, powers_at, secrets, written_by,
};
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

/// What a reader knows without any way out: the mails to it (for an outsider, what every
/// player received) and what it wrote itself.
fn known_to(
    mails: &[Mail],
    dir: &Path,
    address: Option<&str>,
    players: &BTreeSet<String>,
) -> String {
    let mut known = received(mails, address, players);
    if let Some(a) = address {
        known.push_str(&written_by(dir, a));
    }
    known
}

/// The secrets `text` (what `who` read by a way out) shows that `known` never held, as
/// failures; and how many secrets it showed.
fn unmailed(who: &str, text: &str, known: &str, secrets: &[Secret]) -> (Vec<String>, usize) {
    let mut failures = Vec::new();
    let mut seen = 0;
    for s in secrets {
        let shown = s.found(text);
        seen += usize::from(!shown.is_empty());
        let mailed = s.found(known);
        for n in shown {
            if !mailed.contains(&n) {
                failures.push(format!(
                    "{who} shows {n:?} ({}), which its mails never did",
                    s.what
                ));
            }
        }
    }
    (failures, seen)
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
            let mail = known_to(mails, &dir, address.as_deref(), &players);
            let (failed, shown) = unmailed(
                &format!("{scenario}: the pages of {who}"),
                &text,
                &mail,
                &secrets,
            );
            failures.extend(failed);
            seen += shown;
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

/// The leak scanner over every other way out (issue 37): the golden Survive, Formal,
/// International Relations and takeover games played through the binary, then each
/// reader's HISTORY (as the judge's audience rule gives it) and the outsider's export,
/// for every reader: an outsider, each observer, each power's player now (the newcomer
/// after the takeover game's takeover among them), the master. A way out may hold a secret
/// of the scanner's only if the mails to that reader held it, or the reader wrote it.
#[test]
fn every_way_out_leaks_nothing_mail_did_not_show() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/maildir-golden");
    let mut failures = Vec::new();
    let mut seen = 0;
    let mut readers_read = 0;
    for scenario in ["survive-game", "formal-game", "ir-game", "takeover-game"] {
        let dir = root.join(scenario);
        let played = play_in(&dir, "audience-leaks");
        let mails = &played.mails;
        let secrets = secrets(&dir, mails);
        let start = powers(mails);
        let now = powers_at(&start, mails, usize::MAX);
        let (master, _) = creation(&dir);
        let players: BTreeSet<String> = start.values().cloned().collect();
        let db = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join("audience-leaks")
            .join(scenario)
            .join("var/judge.db");
        let mut store = Store::open(&db).expect("database");
        let name = store
            .transaction(|tx| tx.game_names())
            .expect("games")
            .into_iter()
            .next()
            .expect("a game");
        let mut judge = Judge::new(store, crate::desk::config()).expect("judge");
        let g = judge.game(&name).expect("read").expect("the game");
        // (who, address, what it reads)
        let mut ways: Vec<(String, Option<String>, String)> = Vec::new();
        let text = |entries: Vec<dipjudge::store::HistoryEntry>| {
            entries
                .iter()
                .map(|e| format!("{}\n{}\n", e.subject, e.body))
                .collect::<String>()
                .to_lowercase()
        };
        for p in Power::ALL {
            let Some(address) = now.get(p.name()) else {
                continue;
            };
            let h = judge
                .history_for(&name, |g| Viewer::power(g, p))
                .expect("history");
            ways.push((p.name().to_string(), Some(address.clone()), text(h)));
        }
        let h = judge
            .history_for(&name, |_| Viewer::Master)
            .expect("history");
        ways.push(("master".into(), Some(master.clone()), text(h)));
        for o in g.observers() {
            let h = judge
                .history_for(&name, |_| Viewer::Observer)
                .expect("history");
            ways.push((format!("observer {o}"), Some(o.clone()), text(h)));
        }
        let mut outsider = text(judge.history(&name).expect("history"));
        outsider.push_str(
            &judge
                .export(&name)
                .expect("export")
                .unwrap_or_default()
                .to_lowercase(),
        );
        ways.push(("outsider".into(), None, outsider));
        if scenario == "takeover-game" {
            assert_ne!(
                now.get("Italy"),
                start.get("Italy"),
                "the newcomer holds Italy"
            );
        }
        for (who, address, text) in &ways {
            readers_read += 1;
            let mail = known_to(mails, &dir, address.as_deref(), &players);
            let what = format!("{scenario}: the HISTORY or export of {who}");
            let (failed, shown) = unmailed(&what, text, &mail, &secrets);
            failures.extend(failed);
            seen += shown;
        }
    }
    eprintln!(
        "audience scanner: {readers_read} readers' ways out read, {seen} secrets shown to their readers"
    );
    assert!(
        seen > 10,
        "HISTORY shows the press its readers received ({seen})"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
