//! Tests of boards: every shipped board against the facts its variant's rules state, the
//! CSV format written and read back, and each refusal of `board.toml` and the CSV files
//! with its file and line.

use super::*;

fn board(name: &str) -> &'static Board {
    let set = shipped();
    assert!(
        set.errors.is_empty(),
        "shipped boards refused: {:?}",
        set.errors
    );
    set.get(name)
        .unwrap_or_else(|| panic!("no shipped board {name}"))
}

/// A board's name, centres, victory, first phase, builds and units per power.
type Facts = (
    &'static str,
    usize,
    u16,
    &'static str,
    Builds,
    &'static [usize],
);

/// The facts each shipped board's variant states in its rules (njudge's `info.*` files,
/// read by hand): centres, victory, first phase, where powers build, and the starting units
/// per power in the board's `[[power]]` order.
#[test]
fn shipped_boards_match_their_rules() {
    #[rustfmt::skip]
    let facts: &[Facts] = &[
        ("standard", 34, 18, "S1901M", Builds::Home, &[3, 3, 3, 3, 3, 4, 3]),
        ("1898", 34, 18, "S1899M", Builds::Home, &[1, 1, 1, 1, 1, 1, 1]),
        ("chaos", 34, 18, "F1900B", Builds::Any, &[0; 34]),
        ("fleet_rome", 34, 18, "S1901M", Builds::Home, &[3, 3, 3, 3, 3, 4, 3]),
        ("pure", 7, 4, "S1901M", Builds::Home, &[1, 1, 1, 1, 1, 1, 1]),
        // Burgundy, England, France: France's fifth army is a mercenary without a centre.
        ("hundred", 17, 9, "S1425M", Builds::Any, &[4, 5, 5]),
        ("ancient_med", 34, 18, "S0001M", Builds::Home, &[3, 3, 3, 3, 3]),
        // Austria, China, England, France, Germany, India, Italy, Japan, Russia, Turkey.
        ("youngstown", 72, 37, "S1901M", Builds::Home, &[4, 3, 4, 4, 4, 3, 4, 3, 6, 4]),
        // Britain, Egypt, France, Germany, Italy, Poland, Russia, Spain, Turkey, Ukraine.
        ("modern", 64, 33, "S1995M", Builds::Home, &[4, 3, 4, 4, 4, 3, 5, 3, 4, 4]),
        // Britain, China, France, Holland, Japan, Russia, Turkey.
        ("colonial", 58, 30, "S1870M", Builds::Home, &[6, 5, 3, 3, 4, 5, 3]),
        // Austria, England, France, Germany, Italy, Norway, Russia, Spain, Turkey.
        ("loeb9", 38, 20, "S1901M", Builds::Home, &[3, 3, 3, 3, 3, 3, 4, 3, 3]),
        ("classical", 35, 18, "S1050M", Builds::OneHome, &[3, 3, 3, 3, 3]),
    ];
    assert_eq!(
        shipped().boards.len(),
        facts.len(),
        "a shipped board without facts here"
    );
    for (name, centres, victory, phase, builds, units) in facts {
        let b = board(name);
        assert_eq!(b.supply_centres().count(), *centres, "{name}: centres");
        assert_eq!(b.victory, *victory, "{name}: victory");
        assert_eq!(b.first_phase.code(), *phase, "{name}: first phase");
        assert_eq!(b.rules.builds, *builds, "{name}: builds");
        let per_power: Vec<usize> = b
            .power_indices()
            .map(|w| b.units.iter().filter(|u| u.power == w).count())
            .collect();
        assert_eq!(per_power, *units, "{name}: units per power");
    }
}

/// What every board must be, checked on every shipped board: distinct letters, home
/// centres that are centres, symmetric borders, units where they may stand, owners of
/// centres only.
#[test]
fn shipped_boards_are_sound() {
    for b in &shipped().boards {
        let name = &b.name;
        let mut letters: Vec<char> = b.powers.iter().map(|p| p.letter).collect();
        letters.sort();
        letters.dedup();
        assert_eq!(letters.len(), b.powers.len(), "{name}: letters");
        for w in b.power_indices() {
            assert!(
                b.home_centres(w).next().is_some(),
                "{name}: a power without home"
            );
            for h in b.home_centres(w) {
                assert!(b.province(h).is_some_and(BoardProvince::is_supply_centre));
            }
        }
        for p in b.province_indices() {
            for q in b.neighbours(p) {
                assert!(b.neighbours(q).contains(&p), "{name}: one-way {p:?}-{q:?}");
            }
        }
        for (a, c) in &b.borders.army {
            assert!(a < c);
            for x in [a, c] {
                assert_ne!(b.province(*x).map(|p| p.terrain), Some(Terrain::Sea));
            }
        }
        for u in &b.units {
            let p = b.province(u.place.province).expect("unit's province");
            assert!(
                check::unit_may_stand(p, u.kind, u.place).is_ok(),
                "{name}: {u:?}"
            );
        }
        for (p, _) in &b.owners {
            assert!(b.province(*p).is_some_and(BoardProvince::is_supply_centre));
        }
        // Every shipped board asks for more than half its centres.
        assert!(b.victory as usize * 2 > b.supply_centres().count());
    }
}

/// Details of the boards njudge's data describe in its own way: coasts, crossings, ice,
/// duality, a gateway, a railway, Hong Kong, a start with fewer centres than units.
#[test]
fn shipped_board_details() {
    let b = board("youngstown");
    let stp = b.find_province("St Petersburg").expect("stp");
    assert_eq!(
        b.province(stp).map(|p| p.coasts.clone()),
        Some(vec![BoardCoast::North, BoardCoast::South])
    );
    let hundred = board("hundred");
    let num = hundred.find_province("num").expect("Northumbria");
    assert_eq!(
        hundred.province(num).map(|p| p.coasts.clone()),
        Some(vec![BoardCoast::East, BoardCoast::West])
    );
    let loeb9 = board("loeb9");
    let p = |b: &Board, c: &str| b.find_province(c).unwrap_or_else(|| panic!("{c}"));
    let (cor, naf) = (p(loeb9, "cor"), p(loeb9, "naf"));
    assert!(
        loeb9
            .borders
            .crossings
            .contains(&(cor.min(naf), cor.max(naf)))
    );
    assert!(!loeb9.borders.army.contains(&(cor.min(naf), cor.max(naf))));
    assert!(
        loeb9
            .province(p(loeb9, "arc"))
            .is_some_and(|x| x.ice && x.terrain == Terrain::Sea)
    );
    let med = board("ancient_med");
    assert!(med.rules.duality);
    assert!(
        med.province(p(med, "bal"))
            .is_some_and(|x| x.convoy_through)
    );
    let colonial = board("colonial");
    let [g] = colonial.gateways.as_slice() else {
        panic!("one gateway")
    };
    assert_eq!((g.code.as_str(), g.controller), ("sc", p(colonial, "egy")));
    let [r] = colonial.railways.as_slice() else {
        panic!("one railway")
    };
    assert_eq!(r.route.len(), 6);
    assert_eq!(
        r.powers,
        vec![colonial.power_by_letter('R').expect("Russia")]
    );
    let [h] = colonial.hong_kong.as_slice() else {
        panic!("one Hong Kong")
    };
    assert_eq!(h.provinces, vec![p(colonial, "hk")]);
    assert!(!colonial.rules.gateways && !colonial.rules.railways && !colonial.rules.hong_kong);
    let b1898 = board("1898");
    assert_eq!(b1898.owners.len(), 7);
    assert_eq!(b1898.owner(p(b1898, "edi")), b1898.power_by_letter('E'));
    assert_eq!(b1898.owner(p(b1898, "lon")), None);
    let chaos = board("chaos");
    assert_eq!(chaos.owners.len(), 34);
    assert_eq!(
        chaos
            .power_by_letter('9')
            .and_then(|w| chaos.home_centres(w).next()),
        Some(p(chaos, "war"))
    );
    let rome = board("fleet_rome");
    let italy = rome.power_by_name("Italian").expect("Italy");
    assert!(rome.units.iter().any(|u| u.power == italy
        && u.kind == UnitKindData::Fleet
        && u.place.province == p(rome, "rom")));
}

/// Every shipped board written in the CSV format and read back is the same board.
#[test]
fn csv_written_reads_back() {
    for b in &shipped().boards {
        let files = write_csv(b, "a test");
        let folder = BoardFolder {
            name: b.name.clone(),
            files: files.into_iter().collect(),
        };
        let again = load_board(&folder).unwrap_or_else(|e| panic!("{}: {e}", b.name));
        assert_eq!(&again, b, "{}", b.name);
    }
}

fn folder(toml: &str, files: &[(&str, &str)]) -> BoardFolder {
    let mut f = BoardFolder {
        name: "tiny".into(),
        files: files
            .iter()
            .map(|(n, t)| (n.to_string(), t.to_string()))
            .collect(),
    };
    f.files.insert("board.toml".into(), toml.into());
    f
}

const TINY_TOML: &str = r#"name = "tiny"
victory = 2

[map]
format = "csv"

[[power]]
name = "North"
letter = "N"
adjective = "Northern"

[[power]]
name = "South"
letter = "S"
adjective = "Southern"
"#;

const TINY_PROVINCES: &str = "# code,name,terrain,centre,coasts\n\
nor,Norland,coast,north,\n\
sou,Southland,coast,south,\n\
mid,Midland,land,neutral,\n\
sea,The Sea,sea,,\n";
const TINY_BORDERS: &str = "nor,sou,A\nnor,mid,A\nsou,mid,A\nnor,sea,F\nsou,sea,F\n";
const TINY_UNITS: &str = "north,F,nor\nS,A,sou\n";

fn tiny(toml: &str, provinces: &str, borders: &str, units: &str) -> Result<Board, BoardError> {
    load_board(&folder(
        toml,
        &[
            ("provinces.csv", provinces),
            ("borders.csv", borders),
            ("units.csv", units),
        ],
    ))
}

#[test]
fn a_tiny_csv_board() {
    let b = tiny(TINY_TOML, TINY_PROVINCES, TINY_BORDERS, TINY_UNITS).expect("tiny");
    assert_eq!(b.title, "tiny");
    assert_eq!(b.first_phase, FirstPhase::Movement { year: 1901 });
    assert_eq!(
        b.provinces
            .iter()
            .map(|p| p.code.as_str())
            .collect::<Vec<_>>(),
        ["mid", "nor", "sea", "sou"]
    );
    assert_eq!(
        b.powers[1],
        BoardPower {
            name: "South".into(),
            letter: 'S',
            adjective: "Southern".into()
        }
    );
    assert_eq!(b.units.len(), 2);
    assert_eq!(b.owners.len(), 2);
    assert_eq!(b.find_province("the sea"), b.find_province("SEA"));
}

/// A broken board (board.toml, provinces, borders, units) and the file, line and words of
/// its refusal.
type Case = (
    String,
    String,
    String,
    String,
    &'static str,
    Option<usize>,
    &'static str,
);

/// Each refusal names its file and line.
#[test]
fn refusals_name_file_and_line() {
    let t = TINY_TOML;
    let (p, b, u) = (TINY_PROVINCES, TINY_BORDERS, TINY_UNITS);
    let with = |from: &str, to: &str| t.replacen(from, to, 1);
    #[rustfmt::skip]
    let cases: Vec<Case> = vec![
        (with("victory = 2", "victory = \"two\""), p.into(), b.into(), u.into(), "board.toml", Some(2), "expected u16"),
        (with("victory = 2", "victory = 0"), p.into(), b.into(), u.into(), "board.toml", Some(2), "at least one centre"),
        (with("victory = 2", "victory = 9"), p.into(), b.into(), u.into(), "board.toml", None, "only 3"),
        (with("letter = \"S\"", "letter = \"N\""), p.into(), b.into(), u.into(), "board.toml", Some(12), "same letter N"),
        (with("letter = \"S\"", "letter = \"M\""), p.into(), b.into(), u.into(), "board.toml", Some(12), "master"),
        (with("letter = \"S\"", "letter = \"SS\""), p.into(), b.into(), u.into(), "board.toml", Some(12), "one letter"),
        (with("name = \"South\"", "name = \"Observer\""), p.into(), b.into(), u.into(), "board.toml", Some(12), "reserved"),
        (with("name = \"South\"", "name = \"South Land\""), p.into(), b.into(), u.into(), "board.toml", Some(12), "one word"),
        (with("adjective = \"Southern\"", "adjective = \"Northern\""), p.into(), b.into(), u.into(), "board.toml", Some(12), "read alike"),
        (with("victory = 2", "victory = 2\ncolour = \"red\""), p.into(), b.into(), u.into(), "board.toml", Some(3), "unknown field"),
        (with("victory = 2", "victory = 2\nfirst_phase = \"F1901M\""), p.into(), b.into(), u.into(), "board.toml", Some(3), "first_phase"),
        (with("name = \"tiny\"", "name = \"other\""), p.into(), b.into(), u.into(), "board.toml", None, "folder"),
        (t.into(), p.replace("mid,Midland,land", "mid,Midland,hill"), b.into(), u.into(), "provinces.csv", Some(4), "terrain"),
        (t.into(), p.replace("sou,Southland,coast,south", "sou,Southland,coast,east"), b.into(), u.into(), "provinces.csv", Some(3), "no power"),
        (t.into(), p.replace("sea,The Sea", "sea,Norland"), b.into(), u.into(), "provinces.csv", Some(5), "already names"),
        (t.into(), p.into(), b.replace("nor,sea,F", "nor,sea,A"), u.into(), "borders.csv", Some(4), "sea"),
        (t.into(), p.into(), b.replace("nor,mid,A", "nor,mid,F"), u.into(), "borders.csv", Some(2), "inland"),
        (t.into(), p.into(), b.replace("sou,mid,A", "mid,sou,A\nsou,mid,A"), u.into(), "borders.csv", Some(4), "twice"),
        (t.into(), p.into(), b.replace("nor,mid,A", "nor,xyz,A"), u.into(), "borders.csv", Some(2), "unknown province"),
        (t.into(), p.into(), b.into(), u.replace("S,A,sou", "S,A,sea"), "units.csv", Some(2), "sea"),
        (t.into(), p.into(), b.into(), u.replace("S,A,sou", "S,F,mid"), "units.csv", Some(2), "inland"),
        (t.into(), p.into(), b.into(), u.replace("S,A,sou", "S,A,nor"), "units.csv", Some(2), "second unit"),
        (t.into(), p.into(), b.into(), u.replace("S,A,sou", "W,A,sou"), "units.csv", Some(2), "no power"),
        (t.into(), p.into(), b.replace("nor,sea,F\n", ""), u.into(), "provinces.csv", None, "no fleet can reach nor"),
        (t.into(), p.replace("south,", ","), b.into(), u.into(), "provinces.csv", None, "South has no home centre"),
    ];
    for (toml, provinces, borders, units, file, line, words) in cases {
        let e = tiny(&toml, &provinces, &borders, &units).expect_err(words);
        assert_eq!((e.file.as_str(), e.line), (file, line), "{words}: {e}");
        assert!(e.reason.contains(words), "{words}: {e}");
    }
}

#[test]
fn a_missing_file_is_named() {
    let e =
        load_board(&folder(TINY_TOML, &[("provinces.csv", TINY_PROVINCES)])).expect_err("missing");
    assert_eq!(e.to_string(), "borders.csv: the file is missing");
}

/// A broken folder is refused with its file and line; the others load.
#[test]
fn one_broken_board_leaves_the_others() {
    let mut folders = shipped_folders();
    let mut broken = folder(
        TINY_TOML,
        &[
            ("provinces.csv", TINY_PROVINCES),
            ("borders.csv", "nor,sou,Q\n"),
            ("units.csv", TINY_UNITS),
        ],
    );
    broken.name = "tiny".into();
    folders.push(broken);
    let mut again = shipped_folders().remove(0);
    again
        .files
        .insert("board.toml".into(), "name = \"x\"".into());
    folders.push(again);
    let set = load_boards(&folders);
    assert_eq!(set.boards.len(), shipped().boards.len());
    let errors = set.error_lines();
    assert_eq!(
        errors,
        [
            "tiny: borders.csv line 1: unknown border kind \"Q\" (A, F, AF, X)",
            "1898: board.toml: a board named \"1898\" is already loaded",
        ]
    );
}

#[test]
fn first_phases_read_as_njudge_writes_them() {
    for (text, phase) in [
        ("S1901M", Some(FirstPhase::Movement { year: 1901 })),
        ("f1900b", Some(FirstPhase::Adjustment { year: 1900 })),
        ("S0001M", Some(FirstPhase::Movement { year: 1 })),
        ("F1901M", None),
        ("S1901R", None),
        ("S19x1M", None),
        ("SM", None),
        ("S999999M", None),
        ("", None),
    ] {
        assert_eq!(FirstPhase::from_code(text), phase, "{text}");
    }
    assert_eq!(FirstPhase::Movement { year: 1 }.code(), "S0001M");
}

/// Hostile input is normal input: every prefix of each file of a board is read or
/// refused, never a panic.
#[test]
fn every_prefix_is_read_or_refused() {
    let files = [TINY_TOML, TINY_PROVINCES, TINY_BORDERS, TINY_UNITS];
    for (k, text) in files.iter().enumerate() {
        for (i, _) in text.char_indices() {
            let mut cut = files;
            if let Some(slot) = cut.get_mut(k) {
                *slot = text.get(..i).unwrap_or("");
            }
            let [t, p, b, u] = cut;
            let _ = tiny(t, p, b, u);
        }
    }
}
