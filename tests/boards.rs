//! Boards as data (issue 40, phase A): the shipped boards as the repository holds them, the
//! standard board equal to the judge's standard map (the bridge to powers as data), an
//! operator's folders read from disk (njudge's own format among them) beside a broken one,
//! and the schematic picture of every shipped board, two of them as goldens.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use dipjudge::map::board::{
    Board, BoardCoast, Centre, Place, ProvinceIndex, load_all, read_folders, shipped,
    shipped_folders,
};
use dipjudge::map::{Coast, Location, Map, Power, Terrain, UnitKindData};
use dipjudge::picture::Outcome;
use dipjudge::picture::render_png;
use dipjudge::picture::schematic::{
    BoardOrder, BoardScene, SceneOrder, SceneUnit, layout, render, render_with,
};

use crate::support::compare_golden;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn board(name: &str) -> &'static Board {
    assert!(shipped().errors.is_empty(), "{:?}", shipped().errors);
    shipped()
        .get(name)
        .unwrap_or_else(|| panic!("no board {name}"))
}

/// The boards compiled into the judge are the repository's `boards/` folders, file for file.
#[test]
fn shipped_boards_are_the_repositorys() {
    let (folders, errors) = read_folders(&root().join("boards"));
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(folders, shipped_folders());
    let set = load_all(Some(&root().join("boards")));
    assert!(set.errors.is_empty(), "{:?}", set.errors);
    assert_eq!(set.boards.len(), 12);
}

fn coast_code(c: Coast) -> &'static str {
    c.code()
}

/// The standard board read from `boards/standard/` is the judge's standard map: the same
/// provinces (codes, names, ground, centres, homes, coasts, aliases), borders, units and
/// powers. Phase B builds the `Map` from the board; this is the equality it keeps.
#[test]
fn standard_board_is_the_standard_map() {
    let map = Map::standard().expect("standard map");
    let b = board("standard");
    assert_eq!(b.provinces.len(), map.province_count());
    let powers: Vec<(String, char, String)> = b
        .powers
        .iter()
        .map(|p| (p.name.clone(), p.letter, p.adjective.clone()))
        .collect();
    let expected: Vec<(String, char, String)> = Power::ALL
        .iter()
        .map(|p| (p.name().to_string(), p.initial(), p.adjective().to_string()))
        .collect();
    assert_eq!(powers, expected);
    assert_eq!(
        (b.victory, b.first_phase.code()),
        (18, "S1901M".to_string())
    );
    let id = |p: ProvinceIndex| map.province_at(p.index()).expect("same index");
    for p in b.province_indices() {
        let (ours, theirs) = (b.province(p).expect("province"), map.province(id(p)));
        assert_eq!(ours.code, theirs.code);
        assert_eq!(ours.name, theirs.name);
        assert_eq!(ours.terrain, theirs.terrain, "{}", ours.code);
        assert!(!ours.impassable && !ours.convoy_through && !ours.ice);
        assert_eq!(
            ours.is_supply_centre(),
            theirs.supply_centre,
            "{}",
            ours.code
        );
        let home = match ours.centre {
            Centre::Home(w) => b.power(w).map(|x| x.name.clone()),
            _ => None,
        };
        assert_eq!(
            home,
            theirs.home_of.map(|h| h.name().to_string()),
            "{}",
            ours.code
        );
        let coasts: BTreeSet<&str> = ours.coasts.iter().map(|c| c.code()).collect();
        let theirs_coasts: BTreeSet<&str> = theirs.coasts.iter().map(|c| coast_code(*c)).collect();
        assert_eq!(coasts, theirs_coasts, "{}", ours.code);
        for alias in &ours.aliases {
            assert_eq!(map.find_province(alias), Some(id(p)), "{alias}");
        }
        for q in b.province_indices() {
            let army = b.borders.army.contains(&(p.min(q), p.max(q)));
            assert_eq!(
                army,
                map.army_border(id(p), id(q)),
                "{}-{}",
                ours.code,
                b.place_code(Place::province(q))
            );
        }
    }
    assert!(b.borders.crossings.is_empty());
    // Fleet borders, place by place.
    let to_location = |pl: Place| Location {
        province: id(pl.province),
        coast: pl.coast.map(|c| match c {
            BoardCoast::North => Coast::North,
            BoardCoast::South => Coast::South,
            BoardCoast::East => Coast::East,
            BoardCoast::West => panic!("the standard board has no west coast"),
        }),
    };
    let mut places: BTreeSet<Place> = BTreeSet::new();
    for (x, y) in &b.borders.fleet {
        places.insert(*x);
        places.insert(*y);
    }
    let mut fleet_count = 0;
    for place in &places {
        let mut ours: Vec<String> = b
            .borders
            .fleet
            .iter()
            .filter_map(|(x, y)| {
                if x == place {
                    Some(*y)
                } else if y == place {
                    Some(*x)
                } else {
                    None
                }
            })
            .map(|q| map.location_code(to_location(q)))
            .collect();
        ours.sort();
        let mut theirs: Vec<String> = map
            .fleet_moves(to_location(*place))
            .iter()
            .map(|l| map.location_code(*l))
            .collect();
        theirs.sort();
        assert_eq!(ours, theirs, "{}", b.place_code(*place));
        fleet_count += theirs.len();
    }
    assert_eq!(fleet_count, 2 * b.borders.fleet.len());
    for location in map.locations() {
        if !map.fleet_moves(location).is_empty() {
            let place = Place {
                province: b
                    .find_province(map.code(location.province))
                    .expect("province"),
                coast: location
                    .coast
                    .map(|c| BoardCoast::from_text(c.code()).expect("coast")),
            };
            assert!(places.contains(&place), "{}", map.location_code(location));
        }
    }
    let units: Vec<(String, UnitKindData, String)> = b
        .units
        .iter()
        .map(|u| {
            (
                b.power(u.power).expect("power").name.clone(),
                u.kind,
                map.location_code(to_location(u.place)),
            )
        })
        .collect();
    let theirs: Vec<(String, UnitKindData, String)> = map
        .starting_units()
        .iter()
        .map(|(p, k, l)| (p.name().to_string(), *k, map.location_code(*l)))
        .collect();
    assert_eq!(units, theirs);
}

/// njudge's standard geography (Fleet Rome's board) is the judge's own standard map, name
/// for name, but for Switzerland (impassable, which the judge leaves out).
#[test]
fn njudges_standard_geography_is_ours() {
    let ours = board("standard");
    let theirs = board("fleet_rome");
    let names = |b: &Board| -> BTreeSet<(String, String, bool, Vec<BoardCoast>)> {
        b.provinces
            .iter()
            .filter(|p| !p.impassable)
            .map(|p| {
                (
                    p.name.clone(),
                    format!("{:?}", p.terrain),
                    p.is_supply_centre(),
                    p.coasts.clone(),
                )
            })
            .collect()
    };
    assert_eq!(names(ours), names(theirs));
    // Borders as unordered pairs of names (codes differ: Norway is nwy here, nor in njudge).
    let borders = |b: &Board| -> BTreeSet<(char, BTreeSet<String>)> {
        let name = |p: Place| {
            let n = &b.province(p.province).expect("province").name;
            match p.coast {
                Some(c) => format!("{n}/{}", c.code()),
                None => n.clone(),
            }
        };
        let army = b.borders.army.iter().map(|(x, y)| {
            (
                'A',
                BTreeSet::from([name(Place::province(*x)), name(Place::province(*y))]),
            )
        });
        let fleet = b
            .borders
            .fleet
            .iter()
            .map(|(x, y)| ('F', BTreeSet::from([name(*x), name(*y)])));
        army.chain(fleet).collect()
    };
    assert_eq!(borders(ours), borders(theirs));
    let impassable: Vec<&str> = theirs
        .provinces
        .iter()
        .filter(|p| p.impassable)
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(impassable, ["Switzerland"]);
}

/// A scratch directory of board folders for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dipjudge-boards-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("folder");
    for entry in std::fs::read_dir(from).expect("read") {
        let entry = entry.expect("entry");
        std::fs::copy(entry.path(), to.join(entry.file_name())).expect("copy");
    }
}

/// An operator's `boards/`: njudge's own map and seed files dropped in with a
/// `board.toml` load; a folder with a bad line, one without `board.toml`, and one that
/// would replace a shipped board are refused with their file and line; the rest load.
#[test]
fn an_operators_folders() {
    let dir = scratch("operator");
    copy_folder(
        &root().join("fixtures/boards/isthmus"),
        &dir.join("isthmus"),
    );
    copy_folder(&root().join("fixtures/boards/isthmus"), &dir.join("broken"));
    let toml = std::fs::read_to_string(dir.join("broken/board.toml")).expect("toml");
    std::fs::write(
        dir.join("broken/board.toml"),
        toml.replace("\"isthmus\"", "\"broken\""),
    )
    .expect("write");
    let seed = std::fs::read_to_string(dir.join("broken/seed")).expect("seed");
    std::fs::write(
        dir.join("broken/seed"),
        seed.replace("S: A sou", "S: A sse"),
    )
    .expect("write");
    std::fs::create_dir_all(dir.join("empty")).expect("empty");
    copy_folder(
        &root().join("fixtures/boards/isthmus"),
        &dir.join("standard"),
    );
    let toml = std::fs::read_to_string(dir.join("standard/board.toml")).expect("toml");
    std::fs::write(
        dir.join("standard/board.toml"),
        toml.replace("\"isthmus\"", "\"standard\""),
    )
    .expect("write");
    std::fs::write(dir.join("notes.txt"), "not a board").expect("write");

    let set = load_all(Some(&dir));
    let names: Vec<&str> = set.boards.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "1898",
            "ancient_med",
            "chaos",
            "classical",
            "colonial",
            "fleet_rome",
            "hundred",
            "isthmus",
            "loeb9",
            "modern",
            "pure",
            "standard",
            "youngstown"
        ]
    );
    assert_eq!(
        set.get("standard").map(|b| b.powers.len()),
        Some(7),
        "the shipped standard stays"
    );
    let isthmus = set.get("isthmus").expect("isthmus");
    assert_eq!(
        (
            isthmus.provinces.len(),
            isthmus.units.len(),
            isthmus.gateways.len()
        ),
        (9, 3, 1)
    );
    let errors = set.error_lines();
    assert_eq!(
        errors,
        [
            "broken: seed line 4: an army cannot stand in South Sea, a sea",
            "empty: board.toml: cannot be read: No such file or directory (os error 2)",
            "standard: board.toml: a board named \"standard\" is already loaded",
        ]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every shipped board draws, the same bytes every time (a layout made again gives the
/// same picture), as SVG and PNG, each province placed.
#[test]
fn every_board_draws() {
    for b in &shipped().boards {
        let scene = BoardScene::start(b, format!("{} - {}", b.title, b.first_phase.code()));
        let placed = layout(b);
        for p in b.province_indices() {
            assert!(placed.point(p).is_some(), "{}", b.name);
        }
        let svg = render_with(b, &placed, &scene);
        assert_eq!(svg, render(b, &scene), "{}", b.name);
        assert!(svg.contains(&format!("{}: {} to win", b.title, b.victory)));
        let png = render_png(&svg).unwrap_or_else(|e| panic!("{}: {e}", b.name));
        assert!(png.starts_with(b"\x89PNG"), "{}", b.name);
        assert!(png.len() < 400_000, "{}: {} bytes", b.name, png.len());
    }
}

fn at(b: &Board, code: &str) -> ProvinceIndex {
    b.find_province(code)
        .unwrap_or_else(|| panic!("{}: no {code}", b.name))
}

/// Ancient Mediterranean in the third year: every kind of order and outcome, a dislodged
/// unit with its retreats.
fn ancient_med_scene() -> (&'static Board, BoardScene) {
    let b = board("ancient_med");
    let w = |letter: char| b.power_by_letter(letter).expect("power");
    let unit = |power: char, kind: char, code: &str| SceneUnit {
        power: w(power),
        kind: if kind == 'F' {
            UnitKindData::Fleet
        } else {
            UnitKindData::Army
        },
        place: Place::province(at(b, code)),
    };
    let units = vec![
        unit('R', 'A', "sic"),
        unit('R', 'F', "pun"),
        unit('R', 'F', "tyn"),
        unit('R', 'A', "ill"),
        unit('R', 'F', "ion"),
        unit('C', 'A', "car"),
        unit('C', 'F', "tha"),
        unit('C', 'A', "cir"),
        unit('G', 'A', "epi"),
        unit('G', 'F', "spa"),
        unit('G', 'A', "mac"),
        unit('E', 'A', "mem"),
        unit('E', 'A', "the"),
        unit('E', 'F', "ale"),
        unit('P', 'A', "dam"),
        unit('P', 'F', "sid"),
        unit('P', 'A', "ant"),
    ];
    let o = |power: char, order: BoardOrder, outcome: Outcome| SceneOrder {
        power: w(power),
        order,
        outcome,
    };
    let p = |code: &str| at(b, code);
    let orders = vec![
        o(
            'R',
            BoardOrder::Move {
                from: p("sic"),
                to: p("car"),
            },
            Outcome::Bounce,
        ),
        o(
            'R',
            BoardOrder::Convoy {
                from: p("pun"),
                army: p("sic"),
                to: p("car"),
            },
            Outcome::Succeeded,
        ),
        o(
            'R',
            BoardOrder::SupportHold {
                from: p("tyn"),
                target: p("pun"),
            },
            Outcome::Succeeded,
        ),
        o('R', BoardOrder::Hold { at: p("ill") }, Outcome::Dislodged),
        o(
            'R',
            BoardOrder::Move {
                from: p("ion"),
                to: p("spa"),
            },
            Outcome::Bounce,
        ),
        o('C', BoardOrder::Hold { at: p("car") }, Outcome::Succeeded),
        o(
            'C',
            BoardOrder::SupportHold {
                from: p("tha"),
                target: p("car"),
            },
            Outcome::Succeeded,
        ),
        o(
            'C',
            BoardOrder::SupportHold {
                from: p("cir"),
                target: p("car"),
            },
            Outcome::Succeeded,
        ),
        o(
            'G',
            BoardOrder::Move {
                from: p("epi"),
                to: p("ill"),
            },
            Outcome::Succeeded,
        ),
        o(
            'G',
            BoardOrder::SupportMove {
                from: p("mac"),
                target: p("epi"),
                to: p("ill"),
            },
            Outcome::Succeeded,
        ),
        o(
            'G',
            BoardOrder::Move {
                from: p("spa"),
                to: p("ion"),
            },
            Outcome::Bounce,
        ),
        o(
            'E',
            BoardOrder::Move {
                from: p("ale"),
                to: p("cyr"),
            },
            Outcome::Succeeded,
        ),
        o(
            'E',
            BoardOrder::SupportHold {
                from: p("the"),
                target: p("mem"),
            },
            Outcome::Cut,
        ),
        o(
            'E',
            BoardOrder::Move {
                from: p("mem"),
                to: p("ion"),
            },
            Outcome::Refused,
        ),
        o(
            'P',
            BoardOrder::Move {
                from: p("sid"),
                to: p("tye"),
            },
            Outcome::Succeeded,
        ),
        o(
            'P',
            BoardOrder::Move {
                from: p("dam"),
                to: p("sid"),
            },
            Outcome::Succeeded,
        ),
        o(
            'P',
            BoardOrder::SupportMove {
                from: p("ant"),
                target: p("dam"),
                to: p("sid"),
            },
            Outcome::Succeeded,
        ),
    ];
    let mut owners = b.owners.clone();
    owners.push((p("sic"), w('R')));
    owners.push((p("cyr"), w('E')));
    owners.sort();
    let dislodged = vec![(unit('R', 'A', "ill"), vec![p("sam"), p("vin")])];
    let scene = BoardScene {
        title: "Ancient Mediterranean - Spring 3 movement".into(),
        owners,
        units,
        dislodged,
        orders,
    };
    (b, scene)
}

/// Chaos's first phase: every one of its 34 powers builds in its one centre.
fn chaos_scene() -> (&'static Board, BoardScene) {
    let b = board("chaos");
    let orders = b
        .power_indices()
        .enumerate()
        .map(|(i, w)| {
            let home = b.home_centres(w).next().expect("home");
            let p = b.province(home).expect("province");
            let fleet = i % 2 == 0 && p.terrain == Terrain::Coast;
            let place = Place {
                province: home,
                coast: if fleet {
                    p.coasts.first().copied()
                } else {
                    None
                },
            };
            SceneOrder {
                power: w,
                order: BoardOrder::Build {
                    kind: if fleet {
                        UnitKindData::Fleet
                    } else {
                        UnitKindData::Army
                    },
                    at: place,
                },
                outcome: Outcome::Succeeded,
            }
        })
        .collect();
    let mut scene = BoardScene::start(b, "Chaos - Winter 1900 adjustments");
    scene.orders = orders;
    (b, scene)
}

/// Two schematic pictures compared byte for byte with `tests/picture-golden/board-*.svg`
/// (`UPDATE_GOLDEN=1` rewrites them; their PNGs are left in `target/tmp/`).
#[test]
fn schematic_goldens() {
    let mut failures = Vec::new();
    for (name, (b, scene)) in [
        ("ancient_med", ancient_med_scene()),
        ("chaos", chaos_scene()),
    ] {
        let svg = render_with(b, &layout(b), &scene);
        let tmp = root().join("target/tmp");
        let _ = std::fs::create_dir_all(&tmp);
        if let Ok(png) = render_png(&svg) {
            let _ = std::fs::write(tmp.join(format!("board-{name}.png")), png);
        }
        compare_golden(
            &root().join(format!("tests/picture-golden/board-{name}.svg")),
            &svg,
            &mut failures,
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
