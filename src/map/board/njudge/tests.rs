//! Tests of the njudge map and seed reader: a small board written in njudge's format for
//! these tests (every kind of line njudge's shipped boards use), the standard board
//! written in njudge's format and read back, and each refusal with its file and line.

use std::fmt::Write;

use super::*;
use crate::map::board::{Board, shipped};

fn powers() -> Vec<BoardPower> {
    vec![
        BoardPower {
            name: "North".into(),
            letter: 'N',
            adjective: "Northern".into(),
        },
        BoardPower {
            name: "South".into(),
            letter: 'S',
            adjective: "Southern".into(),
        },
    ]
}

/// A small board in njudge's format, written for these tests (`fixtures/boards/isthmus/`).
const MAP: &str = include_str!("../../../../fixtures/boards/isthmus/map");

const SEED: &str = include_str!("../../../../fixtures/boards/isthmus/seed");

fn read(map: &str, seed: &str) -> Result<Geography, BoardError> {
    parse(("map.isthmus", map), ("seed.isthmus", seed), &powers())
}

fn id(g: &Geography, code: &str) -> ProvinceIndex {
    let i = g
        .provinces
        .iter()
        .position(|p| p.code == code)
        .unwrap_or_else(|| panic!("no {code}"));
    province_index(i).expect("index")
}

#[test]
fn a_small_board_in_njudges_format() {
    let g = read(MAP, SEED).expect("the isthmus");
    let codes: Vec<&str> = g.provinces.iter().map(|p| p.code.as_str()).collect();
    assert_eq!(
        codes,
        [
            "eas", "fro", "hig", "mid", "nor", "nse", "sou", "sse", "wes"
        ]
    );
    let p = |c: &str| g.provinces.get(id(&g, c).index()).expect("province");
    assert_eq!(p("eas").terrain, Terrain::Coast);
    assert_eq!(p("eas").coasts, [BoardCoast::North, BoardCoast::South]);
    assert_eq!(p("eas").centre, Centre::Neutral);
    assert_eq!(p("eas").aliases, ["eastm"]);
    assert!(p("fro").ice && p("fro").terrain == Terrain::Sea);
    assert!(p("hig").impassable);
    assert!(p("mid").convoy_through && p("mid").centre == Centre::Neutral);
    assert_eq!(p("nor").centre, Centre::Home(PowerIndex(0)));
    assert_eq!(p("nse").name, "North Sea");
    assert_eq!(p("wes").terrain, Terrain::Land);
    let pair = |a: &str, b: &str| {
        let (x, y) = (id(&g, a), id(&g, b));
        (x.min(y), x.max(y))
    };
    let army: Vec<_> = [
        ("eas", "mid"),
        ("eas", "nor"),
        ("eas", "sou"),
        ("mid", "nor"),
        ("mid", "sou"),
        ("mid", "wes"),
        ("nor", "wes"),
    ]
    .iter()
    .map(|(a, b)| pair(a, b))
    .collect();
    assert_eq!(g.borders.army, army);
    assert_eq!(g.borders.crossings, [pair("sou", "wes")]);
    let coast = |c: &str, k| Place {
        province: id(&g, c),
        coast: k,
    };
    assert!(
        g.borders
            .fleet
            .contains(&(coast("eas", Some(BoardCoast::North)), coast("nse", None)))
    );
    assert!(
        g.borders
            .fleet
            .contains(&(coast("eas", Some(BoardCoast::South)), coast("sse", None)))
    );
    assert_eq!(g.borders.fleet.len(), 9);
    assert_eq!(g.first_phase, Some(FirstPhase::Movement { year: 1901 }));
    assert_eq!(
        g.units,
        [
            StartingUnit {
                power: PowerIndex(0),
                kind: UnitKindData::Fleet,
                place: coast("nor", None)
            },
            StartingUnit {
                power: PowerIndex(0),
                kind: UnitKindData::Fleet,
                place: coast("eas", Some(BoardCoast::North))
            },
            StartingUnit {
                power: PowerIndex(1),
                kind: UnitKindData::Army,
                place: coast("sou", None)
            },
        ]
    );
    let mut owners = vec![
        (id(&g, "eas"), PowerIndex(0)),
        (id(&g, "nor"), PowerIndex(0)),
        (id(&g, "sou"), PowerIndex(1)),
    ];
    owners.sort();
    assert_eq!(g.owners, Some(owners));
    assert_eq!(
        g.centre_order,
        [id(&g, "nor"), id(&g, "sou"), id(&g, "mid"), id(&g, "eas")]
    );
    let [gate] = g.gateways.as_slice() else {
        panic!("a gateway")
    };
    assert_eq!(
        (gate.code.as_str(), gate.controller, gate.between),
        ("can", id(&g, "mid"), (id(&g, "nse"), id(&g, "sse")))
    );
    let [rail] = g.railways.as_slice() else {
        panic!("a railway")
    };
    assert_eq!(rail.powers, [PowerIndex(0), PowerIndex(1)]);
    assert_eq!(rail.route, [id(&g, "nor"), id(&g, "mid"), id(&g, "sou")]);
    assert_eq!(
        g.hong_kong,
        [HongKong {
            power: PowerIndex(1),
            provinces: vec![id(&g, "mid")]
        }]
    );
}

/// A seed without an ownership record leaves the home centres to their powers, and a
/// record shorter than the map leaves the areas it does not reach to theirs.
#[test]
fn owners_from_the_map() {
    let g = read(MAP, "S1901M\nN: F nor\n-1 Null ownership record.\n-1\n").expect("no record");
    assert_eq!(g.owners, None);
    let g = read(MAP, "F1900B\n-1\n.\n-1\n").expect("short record");
    assert_eq!(g.owners, Some(vec![(id(&g, "sou"), PowerIndex(1))]));
    assert_eq!(g.first_phase, Some(FirstPhase::Adjustment { year: 1900 }));
    assert!(g.units.is_empty());
}

/// Broken files (map, seed) and the file, line and words of their refusal.
type Case = ((String, String), &'static str, Option<usize>, &'static str);

/// Each refusal names its file and line.
#[test]
fn refusals_name_file_and_line() {
    let m = |from: &str, to: &str| {
        assert!(MAP.contains(from), "{from}");
        (MAP.replacen(from, to, 1), SEED.to_string())
    };
    let s = |from: &str, to: &str| {
        assert!(SEED.contains(from), "{from}");
        (MAP.to_string(), SEED.replacen(from, to, 1))
    };
    #[rustfmt::skip]
    let cases: Vec<Case> = vec![
        (m("Westmark,       l", "Westmark        l"), "map.isthmus", Some(5), "no comma"),
        (m("Westmark,       l", "Westmark,       q"), "map.isthmus", Some(5), "unknown area type"),
        (m("Westmark,       l", "Westmark,       h"), "map.isthmus", Some(5), "high seas"),
        (m("Westmark,       l", "Westmark,       T"), "map.isthmus", Some(5), "no power of the board has that letter"),
        (m("Westmark,       l", "Westmark,       l3f"), "map.isthmus", Some(5), "Machiavelli"),
        (m("Westmark,       l wes", "Westmark,       l"), "map.isthmus", Some(5), "no abbreviation"),
        (m("Eastmark,       x eas eastm", "Eastmark,       x eas north"), "map.isthmus", Some(6), "already names Northland (line 2)"),
        (m("nor-mv: mid wes eas", "nor-mv: mid eas"), "map.isthmus", Some(22), "wes-mv lists Northland but nor-mv does not list Westmark"),
        (m("fro-xc: nor nse", "fro-xc: nse"), "map.isthmus", Some(17), "a fleet may move from nor to fro but fro-xc does not list nor"),
        (m("nse-xc: nor mid eas/nc", "nse-xc: nor mid eas"), "map.isthmus", Some(26), "Eastmark has coasts"),
        (m("eas-nc: nse", "eas-nc: nse/nc"), "map.isthmus", Some(8), "North Sea is water, but a move names a coast"),
        (m("mid-mv: nor sou wes eas", "mid-mv: nor sou wes eas/nc"), "map.isthmus", Some(20), "army move names a coast"),
        (m("mid-mv: nor sou wes eas", "mid-mv: nor sou wes xyz"), "map.isthmus", Some(20), "unknown area \"xyz\""),
        (m("mid-mv: nor", "mid-mv: nor/hx"), "map.isthmus", Some(20), "half-strength"),
        (m("mid-mv: nor", "mid-xx: nor"), "map.isthmus", Some(20), "unknown move kind"),
        (m("mid-mv: nor", "midmv: nor"), "map.isthmus", Some(20), "at the start of a move line"),
        (m("nor-xc: nse fro", "nor-xc: nse fro/mx"), "map.isthmus", Some(17), "only armies"),
        (m("wes-mv: nor mid sou/mx", "wes-mv: nor mid sou/mx nse"), "map.isthmus", Some(8), "North Sea is water, but an army move leads into it"),
        (m("hig-mv: hig\n", ""), "map.isthmus", Some(7), "Highland has no move line"),
        (m("can: mid nse sse", "can: mid nse"), "map.isthmus", Some(36), "controller and the two areas"),
        (m("can: mid nse sse", "nor: mid nse sse"), "map.isthmus", Some(36), "no gateway"),
        (m("rai:NS nor mid sou", "rai:NX nor mid sou"), "map.isthmus", Some(39), "'X' is no power's letter"),
        (m("Gateway\ncan: mid nse sse\n#end of gateways\n", ""), "map.isthmus", Some(11), "no Gateway or Railway section describes it"),
        (m("HongKong setting", "Famine table"), "map.isthmus", Some(41), "famine table"),
        (m("HongKong setting", "Extra units"), "map.isthmus", Some(41), "extra units"),
        (m("HongKong setting", "Zebras"), "map.isthmus", Some(41), "does not know"),
        (("Northland, N nor\n".into(), SEED.into()), "map.isthmus", None, "ends before the '-1' line that ends its areas"),
        (("Northland, N nor\n-1\nnor-mv: nor\n".into(), SEED.into()), "map.isthmus", None, "ends before the '-1' line that ends its moves"),
        (s("S1901M", "S1901X"), "seed.isthmus", Some(1), "first phase"),
        (s("S: A sou", "X: A sou"), "seed.isthmus", Some(4), "'X' is no power's letter"),
        (s("S: A sou", "S: A sse"), "seed.isthmus", Some(4), "army cannot stand in South Sea"),
        (s("S: A sou", "S: F wes"), "seed.isthmus", Some(4), "inland"),
        (s("S: A sou", "S: F Eastmark"), "seed.isthmus", Some(4), "one of its coasts"),
        (s("S: A sou", "S: A nor"), "seed.isthmus", Some(4), "second unit"),
        (s("S: A sou", "Sr A sou"), "seed.isthmus", Some(4), "retreating"),
        (s("S: A sou", "S: G sou"), "seed.isthmus", Some(4), "armies (A) or fleets (F)"),
        (s("S: A sou", "S: A Atlantis"), "seed.isthmus", Some(4), "unknown province"),
        (s("N: F Eastmark (nc)", "N: F Eastmark (wc)"), "seed.isthmus", Some(3), "no wc coast"),
        (s("NS..N", "NS.N"), "seed.isthmus", Some(6), "gives Westmark to North, but it is no supply centre"),
        (s("NS..N", "NS..Q"), "seed.isthmus", Some(6), "'Q', is no power's letter"),
        (s("NS..N", "NS..N.........."), "seed.isthmus", Some(6), "ownership record has 15 characters"),
        (s("NS..N", "O:NS..N"), "seed.isthmus", Some(6), "Machiavelli"),
        (s("NS..N\n-1\n", "NS..N\n"), "seed.isthmus", None, "after its ownership record"),
    ];
    for ((map, seed), file, line, words) in cases {
        let e = read(&map, &seed).expect_err(words);
        assert_eq!((e.file.as_str(), e.line), (file, line), "{words}: {e}");
        assert!(e.reason.contains(words), "{words}: {e}");
    }
}

/// A board written as njudge writes its files (the inverse of this reader, for tests).
fn to_njudge(board: &Board) -> (String, String) {
    let mut map = String::from("# written by a test\n");
    for p in &board.provinces {
        let kind = match (p.terrain, p.centre) {
            (Terrain::Sea, _) if p.ice => 'v',
            (Terrain::Sea, _) => 'w',
            (_, Centre::None) => 'l',
            (_, Centre::Neutral) => 'x',
            (_, Centre::Home(w)) => board.power(w).map_or('?', |x| x.letter),
        };
        let duality = if p.convoy_through { "w" } else { "" };
        // njudge's abbreviations are single words.
        let aliases: Vec<&str> = p
            .aliases
            .iter()
            .map(String::as_str)
            .filter(|a| !a.contains(' '))
            .collect();
        let _ = writeln!(
            map,
            "{}, {kind}{duality} {} {}",
            p.name,
            p.code,
            aliases.join(" ")
        );
    }
    map.push_str("-1\n");
    for id in board.province_indices() {
        let p = board.province(id).expect("province");
        let code = &p.code;
        if p.impassable {
            let _ = writeln!(map, "{code}-mv: {code}");
            continue;
        }
        let other = |a: ProvinceIndex, b: ProvinceIndex| {
            if a == id {
                Some(b)
            } else if b == id {
                Some(a)
            } else {
                None
            }
        };
        let mut army: Vec<String> = board
            .borders
            .army
            .iter()
            .filter_map(|(a, b)| other(*a, *b))
            .map(|q| board.place_code(Place::province(q)))
            .collect();
        army.extend(
            board
                .borders
                .crossings
                .iter()
                .filter_map(|(a, b)| other(*a, *b))
                .map(|q| format!("{}/mx", board.place_code(Place::province(q)))),
        );
        if !army.is_empty() {
            let _ = writeln!(map, "{code}-mv: {}", army.join(" "));
        }
        let starts: Vec<Option<BoardCoast>> = if p.coasts.is_empty() {
            vec![None]
        } else {
            p.coasts.iter().copied().map(Some).collect()
        };
        for start in starts {
            let here = Place {
                province: id,
                coast: start,
            };
            let fleet: Vec<String> = board
                .borders
                .fleet
                .iter()
                .filter_map(|(a, b)| {
                    if *a == here {
                        Some(*b)
                    } else if *b == here {
                        Some(*a)
                    } else {
                        None
                    }
                })
                .map(|q| board.place_code(q))
                .collect();
            if !fleet.is_empty() {
                let kind = start.map_or("xc", BoardCoast::code);
                let _ = writeln!(map, "{code}-{kind}: {}", fleet.join(" "));
            }
        }
    }
    map.push_str("-1\n-1\n");
    let mut seed = format!("{}\n", board.first_phase.code());
    for u in &board.units {
        let kind = if u.kind == UnitKindData::Army {
            'A'
        } else {
            'F'
        };
        let letter = board.power(u.power).map_or('?', |x| x.letter);
        let _ = writeln!(seed, "{letter}: {kind} {}", board.place_code(u.place));
    }
    seed.push_str("-1\n-1\n");
    (map, seed)
}

/// Every shipped board written in njudge's format and read back gives the same provinces,
/// borders and units (the standard board's is njudge's own map in all but names).
#[test]
fn shipped_boards_through_njudges_format() {
    for board in &shipped().boards {
        let (map, seed) = to_njudge(board);
        let g = parse(("map", &map), ("seed", &seed), &board.powers)
            .unwrap_or_else(|e| panic!("{}: {e}\n{map}", board.name));
        let mut expected = board.provinces.clone();
        for p in &mut expected {
            p.aliases.retain(|a| !a.contains(' '));
        }
        assert_eq!(g.provinces, expected, "{}", board.name);
        assert_eq!(g.borders, board.borders, "{}", board.name);
        assert_eq!(g.units, board.units, "{}", board.name);
        assert_eq!(g.first_phase, Some(board.first_phase), "{}", board.name);
    }
}

/// Hostile input is normal input: every prefix of the map and of the seed, and each with
/// a line of junk put in anywhere, is read or refused, never a panic; a refusal names the
/// file that was cut.
#[test]
fn every_prefix_and_junk_line_is_read_or_refused() {
    for (i, _) in MAP.char_indices() {
        if let Err(e) = read(MAP.get(..i).unwrap_or(""), SEED) {
            assert_eq!(e.file, "map.isthmus", "{e}");
        }
    }
    for (i, _) in SEED.char_indices() {
        if let Err(e) = read(MAP, SEED.get(..i).unwrap_or("")) {
            assert_eq!(e.file, "seed.isthmus", "{e}");
        }
    }
    let junk = [
        "Ω, ß ∂ ⟨x⟩\n",
        "-\n",
        ",\n",
        "a-:\n",
        "x\n",
        "N:\n",
        "N: A\n",
        "\u{0}\n",
    ];
    for text in [MAP, SEED] {
        let cuts: Vec<usize> = text.match_indices('\n').map(|(i, _)| i + 1).collect();
        for cut in cuts {
            for j in junk {
                let (head, tail) = text.split_at(cut);
                let changed = format!("{head}{j}{tail}");
                let _ = if text == MAP {
                    read(&changed, SEED)
                } else {
                    read(MAP, &changed)
                };
            }
        }
    }
}
