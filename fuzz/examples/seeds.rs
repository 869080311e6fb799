//! Writes the seed corpora: `cargo run --release --example seeds` (in `fuzz/`) fills
//! `seeds/mail/` and `seeds/cases/` from the repository's own mails, grammar examples and
//! case files. Run it once before fuzzing; `cargo fuzz run` reads the folder after the
//! corpus (see the README).
//!
//! - mail: every `.eml` under `fixtures/mail/` and `tests/`, and mails for the fuzz
//!   target's own games (`src/mail.rs`): each seat signing on with its real password and
//!   ordering, the master's commands, each grammar example as the body of a signed-on mail,
//!   and the same in MIME dress (quoted-printable, base64, HTML, an attachment).
//! - cases: every case file under `fixtures/datc/` and `fixtures/cases/`, one file per case
//!   (with the file's `VARIANT_ALL`).

use std::fs;
use std::path::{Path, PathBuf};

fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, ext, out);
        } else if p.extension().is_some_and(|e| e == ext) {
            out.push(p);
        }
    }
}

/// A plain mail from `from` with `body`.
fn mail(n: usize, from: &str, subject: &str, body: &str) -> String {
    format!(
        "From: {from}\r\nTo: judge@example.test\r\nSubject: {subject}\r\nDate: Sun, 01 Nov 2026 11:00:00 +0000\r\nMessage-ID: <seed-{n}@example.test>\r\n\r\n{}",
        body.replace('\n', "\r\n")
    )
}

/// The same body in MIME dress: quoted-printable, base64, HTML only, and as a `text/plain`
/// attachment after a short note.
fn dressed(n: usize, from: &str, body: &str) -> Vec<String> {
    let head = |k: usize, extra: &str| {
        format!(
            "From: Player <{from}>\r\nTo: judge@example.test\r\nSubject: =?utf-8?q?orders_=C3=A9?=\r\nDate: Sun, 01 Nov 2026 11:00:00 +0000\r\nMessage-ID: <seed-{n}-{k}@example.test>\r\nMIME-Version: 1.0\r\n{extra}"
        )
    };
    let qp: String = body.replace('=', "=3D").replace('\n', "\r\n");
    let b64 = base64(body.as_bytes());
    let html = format!(
        "<html><head><style>p {{}}</style></head><body><p>{}</p></body></html>",
        body.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('\n', "<br>")
    );
    vec![
        head(
            1,
            "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n",
        ) + &qp,
        head(
            2,
            "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n",
        ) + &b64,
        head(3, "Content-Type: text/html; charset=utf-8\r\n\r\n") + &html,
        head(4, "Content-Type: multipart/mixed; boundary=\"b1\"\r\n\r\n")
            + "--b1\r\nContent-Type: text/plain\r\n\r\nOrders attached.\r\n--b1\r\nContent-Type: text/plain; name=\"o.txt\"\r\nContent-Disposition: attachment; filename=\"o.txt\"\r\nContent-Transfer-Encoding: base64\r\n\r\n"
            + &b64
            + "\r\n--b1--\r\n",
    ]
}

fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk.first().copied().unwrap_or(0),
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let v = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(A[((v >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn main() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = fuzz.join("..");
    let out = fuzz.join("seeds");
    let (mail_dir, cases_dir) = (out.join("mail"), out.join("cases"));
    for d in [&mail_dir, &cases_dir] {
        let _ = fs::remove_dir_all(d);
        fs::create_dir_all(d).expect("seed folder");
    }

    // Mail: the repository's own.
    let mut emls = Vec::new();
    files(&root.join("fixtures/mail"), "eml", &mut emls);
    files(&root.join("tests"), "eml", &mut emls);
    let mut seeds: Vec<Vec<u8>> = Vec::new();
    for p in &emls {
        seeds.push(fs::read(p).expect("readable mail"));
    }

    // Mail: the target's games, signed on with the real passwords.
    use dipjudge_fuzz::mail::{GAMES, MASTER, PLAYERS, seats};
    let seats = seats();
    let orders = [
        ("England", "F Lon - NTH\nF Edi - Nwg\nA Lvp - Yor"),
        ("France", "A Par - Bur\nA Mar S A Par - Bur\nF Bre - Mao"),
        ("Germany", "A Ber - Kie\nF Kie - Den\nA Mun - Ruh"),
        ("Italy", "A Ven - Tyr\nA Rom - Apu\nF Nap - Ion"),
        ("Austria", "A Vie - Gal\nA Bud - Ser\nF Tri - Alb"),
        (
            "Russia",
            "A Mos - Ukr\nA War - Gal\nF Sev - Bla\nF Stp/sc - Bot",
        ),
        ("Turkey", "F Ank - Bla\nA Con - Bul\nA Smy - Arm"),
    ];
    let mut examples = Vec::new();
    files(&root.join("grammar/examples"), "txt", &mut examples);
    let examples: Vec<(String, String)> = examples
        .iter()
        .map(|p| {
            let name = p
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let text = String::from_utf8_lossy(&fs::read(p).expect("example")).into_owned();
            // The examples sign on to games of their own: the seed signs on to ours.
            let body: String = text
                .lines()
                .filter(|l| !l.trim_start().to_ascii_uppercase().starts_with("SIGN"))
                .map(|l| format!("{l}\n"))
                .collect();
            (name, body)
        })
        .collect();
    for (game, power, addr, pw) in &seats {
        let initial = &power[..1];
        let signon = format!("SIGNON {initial}{game} {pw}\n");
        let own = orders
            .iter()
            .find(|(p, _)| p == power)
            .map(|(_, o)| *o)
            .unwrap_or("");
        seeds.push(mail(seeds.len(), addr, "orders", &format!("{signon}{own}\n")).into_bytes());
        seeds.push(
            mail(
                seeds.len(),
                addr,
                "press",
                &format!("{signon}PRESS TO England, France\nHello there.\nENDPRESS\nLIST\nSET WAIT\nSET DRAW\nMAP\n"),
            )
            .into_bytes(),
        );
        for d in dressed(seeds.len(), addr, &format!("{signon}{own}\n")) {
            seeds.push(d.into_bytes());
        }
        let variant_examples: &[&str] = match game.as_str() {
            "ir" => &["variant-international-relations"],
            "sur" => &["variant-surrender"],
            _ => &[
                "player",
                "press",
                "adjustments",
                "njudge-movement",
                "dpjudge-style",
            ],
        };
        // Only the first seat of each game carries the long examples (enough to reach
        // the commands; the corpus stays small).
        if seats.iter().find(|s| s.0 == *game).map(|s| &s.2) == Some(addr) {
            for (name, body) in &examples {
                if variant_examples.contains(&name.as_str()) {
                    seeds.push(
                        mail(seeds.len(), addr, name, &format!("{signon}{body}")).into_bytes(),
                    );
                }
            }
        }
    }
    for (game, _, _) in GAMES {
        let signon = format!("SIGNON M{game} {}\n", MASTER.1);
        for body in [
            "LIST\nPREVIEW\n",
            "PROCESS!\n",
            "PAUSE\nRESUME\nSET DEADLINE Sun Nov 8 2026 12:00\n",
            "SET NO PRESS\nSET GREY\nSET PARTIAL\nEJECT ita\n",
            "ROLLBACK\nPROMOTE\nBECOME France\nA Par - Bur\n",
        ] {
            seeds.push(
                mail(seeds.len(), MASTER.0, "master", &format!("{signon}{body}")).into_bytes(),
            );
        }
        for (name, body) in &examples {
            if name == "master" {
                seeds.push(
                    mail(seeds.len(), MASTER.0, name, &format!("{signon}{body}")).into_bytes(),
                );
            }
        }
    }
    // Joining the forming game, and the bare commands anybody may send.
    for (addr, pw) in PLAYERS.iter().skip(3) {
        seeds.push(
            mail(
                seeds.len(),
                addr,
                "join",
                &format!("SIGNON ?open {pw}\nSET PREFERENCE EFGIART\n"),
            )
            .into_bytes(),
        );
    }
    for (name, body) in &examples {
        if name.starts_with("player-") || name == "errors" || name == "non-ascii" {
            seeds.push(mail(seeds.len(), "newbie@example.test", name, body).into_bytes());
        }
    }
    seeds.push(mail(seeds.len(), "newbie@example.test", "help", "HELP\nVERSION\nLIST\nLIST demo\nHISTORY demo\nOBSERVE demo\nCREATE ?new pass surrender\n").into_bytes());
    for (i, s) in seeds.iter().enumerate() {
        fs::write(mail_dir.join(format!("seed-{:04}", i + 1)), s).expect("seed written");
    }
    let mail_count = seeds.len();

    // Cases: one file per case block.
    let mut case_files = Vec::new();
    files(&root.join("fixtures/datc"), "txt", &mut case_files);
    files(&root.join("fixtures/cases"), "case", &mut case_files);
    files(&root.join("fixtures/cases"), "txt", &mut case_files);
    let mut c = 0;
    for p in &case_files {
        let text = fs::read_to_string(p).expect("case file");
        let variant_all = text
            .lines()
            .find(|l| l.starts_with("VARIANT_ALL"))
            .map(|l| format!("{l}\n"))
            .unwrap_or_default();
        let mut block = String::new();
        for line in text.lines() {
            if line.starts_with("CASE ") {
                block = variant_all.clone();
            }
            block.push_str(line);
            block.push('\n');
            if line.trim() == "END" {
                c += 1;
                fs::write(cases_dir.join(format!("seed-{c:04}")), &block).expect("seed written");
                block.clear();
            }
        }
    }
    println!(
        "{mail_count} mail seeds in {}, {c} case seeds in {}",
        mail_dir.display(),
        cases_dir.display()
    );
}
