//! Orders as judges print them and players write them, through `dipjudge parse` (issue 38):
//! results listings pasted back (njudge's and dipjudge's movement, retreat and adjustment
//! lines, with power names, adjectives, full stops and outcomes), players' order lines, and
//! every name and abbreviation of njudge's standard map (`fixtures/njudge/`).

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use dipjudge::map::Map;

/// What `dipjudge parse` prints for `input`, one line a result.
fn parse(input: &str) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dipjudge"))
        .arg("parse")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run dipjudge parse");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write stdin");
    let out = child.wait_with_output().expect("dipjudge parse");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// Feeds the left column, one line each, through `dipjudge parse` in one mail, and
/// compares each result with the right column.
fn reads_as(rows: &[(&str, &str)]) {
    let input: String = rows.iter().map(|(l, _)| format!("{l}\n")).collect();
    let got = parse(&input);
    let mut wrong = Vec::new();
    for (n, (line, want)) in rows.iter().enumerate() {
        let g = got.get(n).map_or("(nothing)", String::as_str);
        if g != *want {
            wrong.push(format!("{line:?}\n   want {want}\n    got {g}"));
        }
    }
    assert_eq!(got.len(), rows.len(), "{got:#?}");
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

/// njudge's printed movement, retreat and adjustment lines (its `ma_movement.c`,
/// `ma_retreat.c`, `ma_build.c` forms), as players paste them back.
#[test]
fn njudge_results_listings_read_as_the_orders_they_show() {
    reads_as(&[
        ("Austria: Army Budapest -> Serbia.", "OK A Bud - Ser"),
        (
            "Austria: Army Bulgaria SUPPORT English Army Edinburgh -> Rumania.",
            "OK A Bul S A Edi - Rum",
        ),
        ("Austria: Fleet Trieste HOLD.", "OK F Tri H"),
        (
            "France:  Army Paris -> Burgundy.  (*bounce*)",
            "OK A Par - Bur",
        ),
        ("Germany: Army Burgundy HOLD.  (*dislodged*)", "OK A Bur H"),
        (
            "Russia:  Army Warsaw SUPPORT Army Galicia.  (*cut*)",
            "OK A War S A Gal",
        ),
        (
            "Germany: Army Ruhr SUPPORT Army Munich -> Burgundy.  (*void*)",
            "OK A Ruh S A Mun - Bur",
        ),
        (
            "England: Army London -> Belgium.  (*no convoy*)",
            "OK A Lon - Bel",
        ),
        (
            "England: Fleet English Channel CONVOY Army London -> Belgium.  (*disrupted, dislodged*)",
            "OK F ENG C A Lon - Bel",
        ),
        (
            "Turkey:  Fleet Black Sea CONVOY Russian Army Sevastopol -> Armenia.",
            "OK F BLA C A Sev - Arm",
        ),
        (
            "England: Army London -> North Sea -> Norway.",
            "OK A Lon - NTH - Nwy",
        ),
        (
            "Russia:  Fleet St Petersburg (south coast) -> Gulf of Bothnia.",
            "OK F StP/sc - BOT",
        ),
        (
            "France:  Fleet Mid-Atlantic Ocean -> Spain (north coast).",
            "OK F MAO - Spa/nc",
        ),
        (
            "Russia:  Fleet Rumania SUPPORT Turkish Fleet Bulgaria (east coast) -> Black Sea.",
            "OK F Rum S F Bul/ec - BLA",
        ),
        ("Italy:   Army Venice, No Order Processed.", "OK A Ven H"),
        // Retreats: the outcome before the full stop; a unit without an order disbands.
        (
            "Austria: Army Vienna -> Bohemia (*bounce, destroyed*).",
            "OK A Vie - Boh",
        ),
        ("Germany: Army Burgundy -> Picardy.", "OK A Bur - Pic"),
        ("Germany: Army Burgundy DISBAND.", "OK A Bur D"),
        (
            "Italy: Army Rome, No Order Processed (DISBAND).",
            "OK A Rom D",
        ),
        // Adjustments: njudge writes a fleet's coast after the full stop.
        ("Austria: Builds an army in Vienna.", "OK Build A Vie"),
        (
            "Russia:  Builds a fleet in St Petersburg. (north coast)",
            "OK Build F StP/nc",
        ),
        (
            "Turkey:  Removes the fleet in Aegean Sea.",
            "OK Remove F AEG",
        ),
        ("Turkey:  Removes the army in Albania.", "OK Remove A Alb"),
    ]);
}

/// Players' own order lines: the supported unit's owner named, full stops, njudge's
/// abbreviations, a route written out inside a convoy or support, typographic dashes.
#[test]
fn players_order_lines_read_as_meant() {
    reads_as(&[
        ("F Lon S English A Yor - Edi", "OK F Lon S A Yor - Edi"),
        ("F Lon S (E) F Edi", "OK F Lon S F Edi"),
        ("F Lon S E F Edi", "OK F Lon S F Edi"),
        ("F Ion S Italian F Tys - Wes", "OK F ION S F TYS - WES"),
        ("A Gal S Russia A War - Sil", "OK A Gal S A War - Sil"),
        ("F Nth C English A Lon - Bel", "OK F NTH C A Lon - Bel"),
        ("A Par H.", "OK A Par H"),
        ("A Par - Bur.", "OK A Par - Bur"),
        ("A Bur DISBAND.", "OK A Bur D"),
        ("F Mao - Spa/nc.", "OK F MAO - Spa/nc"),
        ("F Con - Bul(ec).", "OK F Con - Bul/ec"),
        ("Build F StP/nc.", "OK Build F StP/nc"),
        ("F Nap - ionian", "OK F Nap - ION"),
        ("F Ank - black", "OK F Ank - BLA"),
        ("F Gre - aegean", "OK F Gre - AEG"),
        ("F Smy - eastmed", "OK F Smy - EAS"),
        ("F Lon - ech", "OK F Lon - ENG"),
        ("F Swe - gob", "OK F Swe - BOT"),
        ("F Kie - baltic", "OK F Kie - BAL"),
        ("A Lpl - Yor", "OK A Lvp - Yor"),
        ("A Mars - Pie", "OK A Mar - Pie"),
        ("A Trl - Vie", "OK A Tyr - Vie"),
        ("F Naf - wmed", "OK F Naf - WES"),
        ("F Nth C A Lon - Nth - Bel", "OK F NTH C A Lon - Bel"),
        ("A Yor S A Lon - Nth - Bel", "OK A Yor S A Lon - Bel"),
        ("A Lon - Nth - Bel", "OK A Lon - NTH - Bel"),
        ("A Par \u{2013} Bur", "OK A Par - Bur"),
        (
            "A Mun - Swi",
            "ERROR IMPASSABLE: line 28: \"A Mun - Swi\": Switzerland is impassable: it is no province, and no unit may stand or move there",
        ),
    ]);
}

/// Every order line of the project's own golden results bulletins (`fixtures/bulletins/`)
/// reads back as an order: a results bulletin pasted into a reply is understood. (The
/// neutral units' lines name no power a player holds.)
#[test]
fn dipjudges_own_results_bulletins_read_back() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/bulletins");
    let mut lines = Vec::new();
    for entry in std::fs::read_dir(dir).expect("bulletins") {
        let text = std::fs::read_to_string(entry.expect("entry").path()).expect("bulletin");
        lines.extend(
            text.lines()
                .filter(|l| {
                    dipjudge::map::Power::ALL
                        .iter()
                        .any(|p| l.starts_with(&format!("{}: ", p.name())))
                })
                // The ownership and unit-count tables start alike; they hold no order.
                .filter(|l| !l.contains("Supply centers") && !l.ends_with(','))
                .filter(|l| l.contains(['-', '.']) && !l.contains("  Supply"))
                .map(str::to_string),
        );
    }
    let orders: Vec<&String> = lines
        .iter()
        .filter(|l| {
            [
                "->", "HOLD", "SUPPORT", "CONVOY", "DISBAND", "No Order", "Builds", "Removes",
                "waived",
            ]
            .iter()
            .any(|w| l.contains(w))
        })
        .collect();
    assert!(orders.len() > 40, "{orders:#?}");
    let input: String = orders.iter().map(|l| format!("{l}\n")).collect();
    let got = parse(&input);
    assert_eq!(got.len(), orders.len(), "{got:#?}");
    let refused: Vec<String> = orders
        .iter()
        .zip(&got)
        .filter(|(_, g)| !g.starts_with("OK "))
        .map(|(l, g)| format!("{l}\n    {g}"))
        .collect();
    assert!(refused.is_empty(), "\n{}", refused.join("\n"));
}

/// The names of njudge's standard map, line by line: the full name and every
/// abbreviation (`fixtures/njudge/standard-names.csv`: `Full name,abbreviation alias …`).
fn njudge_names() -> Vec<(String, Vec<String>)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/njudge/standard-names.csv");
    let text = std::fs::read_to_string(path).expect("njudge names");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (name, rest) = l.split_once(',').expect("Name,abbreviations");
            let words = rest.split_whitespace();
            (name.trim().to_string(), words.map(str::to_string).collect())
        })
        .collect()
}

/// Every one of njudge's 211 standard-map names and abbreviations is read as the province
/// njudge means (its first abbreviation; njudge's `nor` is dipjudge's `nwy`), and its
/// Switzerland as the place no unit enters.
#[test]
fn every_njudge_standard_map_name_is_read() {
    let map = Map::standard().expect("map");
    let names = njudge_names();
    let mut rows: Vec<(String, String)> = Vec::new();
    for (name, abbreviations) in &names {
        let code = abbreviations.first().expect("an abbreviation").as_str();
        let want = match code {
            "swi" => None,
            "nor" => Some("nwy"),
            c => Some(c),
        };
        for written in std::iter::once(name).chain(abbreviations) {
            let echo = match want {
                Some(c) => {
                    let p = map.find_province(c).expect("a canonical code");
                    format!("OK A Mun - {}", map.display_code(p))
                }
                None => "ERROR IMPASSABLE".to_string(),
            };
            rows.push((format!("A Mun - {written}"), echo));
        }
    }
    assert_eq!(
        rows.len(),
        211,
        "njudge's standard map has 211 names and abbreviations"
    );
    let input: String = rows.iter().map(|(l, _)| format!("{l}\n")).collect();
    let got = parse(&input);
    assert_eq!(got.len(), rows.len(), "{got:#?}");
    let wrong: Vec<String> = rows
        .iter()
        .zip(&got)
        .filter(|((_, want), g)| !g.starts_with(want.as_str()))
        .map(|((line, want), g)| format!("{line:?}: want {want}, got {g}"))
        .collect();
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}
