//! Checks of the standard map: counts, names, and the borders peers have got wrong.

use super::*;

fn map() -> &'static Map {
    match Map::standard() {
        Ok(m) => m,
        Err(e) => panic!("standard map does not load: {e}"),
    }
}

fn p(code: &str) -> ProvinceId {
    map()
        .find_province(code)
        .unwrap_or_else(|| panic!("no province {code}"))
}

fn l(text: &str) -> Location {
    map()
        .find_location(text)
        .unwrap_or_else(|| panic!("no location {text}"))
}

#[test]
fn counts() {
    let m = map();
    assert_eq!(m.province_count(), 75);
    assert_eq!(m.supply_centres().count(), 34);
    let homes: usize = Power::ALL.iter().map(|w| m.home_centres(*w).count()).sum();
    assert_eq!(homes, 22);
    assert_eq!(m.home_centres(Power::Russia).count(), 4);
    assert_eq!(m.starting_units().len(), 22);
}

/// Army borders that a well-known peer adjudicator got wrong, both directions.
#[test]
fn tricky_army_borders() {
    let m = map();
    for (a, b) in [
        ("gal", "ukr"),
        ("lvn", "war"),
        ("kie", "den"),
        ("swe", "den"),
        ("ank", "con"),
        ("con", "smy"),
        ("ank", "smy"),
        ("nwy", "fin"),
        ("pie", "ven"),
        ("bul", "con"),
        ("stp", "nwy"),
        ("stp", "fin"),
        ("stp", "lvn"),
    ] {
        assert!(m.army_border(p(a), p(b)), "{a}-{b}");
        assert!(m.army_border(p(b), p(a)), "{b}-{a}");
    }
    for (a, b) in [
        ("ber", "boh"),
        ("tus", "tys"),
        ("ukr", "bud"),
        ("fin", "swe"),
    ] {
        let expect = (a, b) == ("fin", "swe");
        assert_eq!(m.army_border(p(a), p(b)), expect, "{a}-{b}");
    }
}

/// Fleet borders, coast-exact, that peers have got wrong.
#[test]
fn tricky_fleet_borders() {
    let m = map();
    for (a, b) in [
        ("bot", "stp/sc"),
        ("mao", "spa/nc"),
        ("mao", "spa/sc"),
        ("nwy", "stp/nc"),
        ("con", "bul/ec"),
        ("con", "bul/sc"),
        ("con", "smy"),
        ("ank", "con"),
        ("tus", "tys"),
        ("kie", "den"),
        ("swe", "den"),
        ("bla", "bul/ec"),
        ("aeg", "bul/sc"),
        ("lyo", "spa/sc"),
        ("gas", "spa/nc"),
        ("por", "spa/nc"),
        ("por", "spa/sc"),
        ("fin", "stp/sc"),
        ("lvn", "stp/sc"),
        ("bar", "stp/nc"),
    ] {
        assert!(m.fleet_border(l(a), l(b)), "{a}-{b}");
        assert!(m.fleet_border(l(b), l(a)), "{b}-{a}");
    }
    for (a, b) in [
        ("ank", "smy"),
        ("pie", "ven"),
        ("rom", "ven"),
        ("apu", "rom"),
        ("kie", "mun"),
        ("nwy", "fin"),
        ("bot", "stp/nc"),
        ("bar", "stp/sc"),
        ("gas", "spa/sc"),
        ("mar", "spa/nc"),
        ("bla", "bul/sc"),
        ("aeg", "bul/ec"),
    ] {
        assert!(
            !m.fleet_border(l(a), l(b)),
            "{a}-{b} must not border for fleets"
        );
    }
}

#[test]
fn names_and_aliases() {
    let m = map();
    for (text, code) in [
        ("NAT", "nao"),
        ("nrg", "nwg"),
        ("MID", "mao"),
        ("gol", "lyo"),
        ("TYN", "tys"),
        ("St. Petersburg", "stp"),
        ("Saint Petersburg", "stp"),
        ("north atlantic ocean", "nao"),
        ("Heligoland Bight", "hel"),
        ("Mid-Atlantic Ocean", "mao"),
        ("Tyrol", "tyr"),
    ] {
        assert_eq!(m.code(p(text)), code, "{text}");
    }
    assert_eq!(m.location_code(l("StP(nc)")), "stp/nc");
    assert_eq!(m.location_code(l("stp/north coast")), "stp/nc");
    assert_eq!(m.location_code(l("St Petersburg (south coast)")), "stp/sc");
    assert_eq!(m.location_code(l("bul ec")), "bul/ec");
    assert!(
        m.find_location("bul/nc").is_none(),
        "Bulgaria has no north coast"
    );
    assert!(m.find_location("par/nc").is_none());
    assert_eq!(m.display_location(l("stp/nc")), "StP/nc");
    assert_eq!(m.display_code(p("nth")), "NTH");
    assert_eq!(m.display_code(p("bur")), "Bur");
    assert_eq!(m.location_name(l("spa/sc")), "Spain (south coast)");
}

#[test]
fn suggestions_for_typos() {
    let m = map();
    let s = m.suggest("Bru");
    assert!(s.contains(&p("bur")), "{:?}", s);
    assert_eq!(m.suggest("Bulgria").first(), Some(&p("bul")));
    assert!(m.suggest("xyzzyq").is_empty());
}

/// The bounded edit distance (it stops early on words far apart) says what the full table
/// says: the distance when it is within the limit, nothing when it is not.
#[test]
fn bounded_edit_distance_agrees_with_the_full_table() {
    /// The whole table, no bound: the reference.
    #[allow(clippy::needless_range_loop)]
    fn full(a: &str, b: &str) -> usize {
        let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
        let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
        for (i, row) in d.iter_mut().enumerate() {
            row[0] = i;
        }
        for j in 0..=b.len() {
            d[0][j] = j;
        }
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                let mut v = (d[i - 1][j] + 1)
                    .min(d[i][j - 1] + 1)
                    .min(d[i - 1][j - 1] + cost);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    v = v.min(d[i - 2][j - 2] + 1);
                }
                d[i][j] = v;
            }
        }
        d[a.len()][b.len()]
    }
    let words = [
        "",
        "a",
        "ab",
        "ba",
        "abc",
        "acb",
        "bur",
        "bru",
        "burgundy",
        "burgnudy",
        "bulgaria",
        "bulgria",
        "constantinople",
        "constantinopel",
        "signon",
        "sigon",
        "singon",
        "xyzzyq",
        "stpetersburg",
        "stpeterburg",
        "northatlanticocean",
        "northatlantc",
        "ça",
        "çà",
        "über",
        "uber",
        "aaaa",
        "bbbb",
        "abab",
        "baba",
        "process",
        "porcess",
        "preview",
        "zzzzzzzzzzzz",
        // 48 characters (the longest compared on the stack), then longer.
        "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuv",
        "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstvu",
        "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvw",
        "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz",
        "bacdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxy",
    ];
    for a in words {
        for b in words {
            let d = full(a, b);
            assert_eq!(
                names::edit_distance_within(a, b, usize::MAX),
                Some(d),
                "{a} {b}"
            );
            for limit in 0..8 {
                let want = (d <= limit).then_some(d);
                assert_eq!(
                    names::edit_distance_within(a, b, limit),
                    want,
                    "{a} {b} {limit}"
                );
            }
        }
    }
    // Random words over a few letters (so that near words are common), some outside ASCII
    // and some sharing a character class (`!`, `a` and `á` are 64 apart).
    let letters = ['a', 'b', 'c', 'd', 'e', 'r', 'á', 'ç', 'ü', '!'];
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    for _ in 0..3000 {
        let (la, lb) = (next(9), next(9));
        let a: String = (0..la).map(|_| letters[next(letters.len())]).collect();
        let b: String = (0..lb).map(|_| letters[next(letters.len())]).collect();
        let d = full(&a, &b);
        for limit in 0..6 {
            assert_eq!(
                names::edit_distance_within(&a, &b, limit),
                (d <= limit).then_some(d),
                "{a} {b} {limit}"
            );
        }
    }
}

#[test]
fn bad_data_is_an_error_not_a_panic() {
    let err = load::load("xx,Nowhere,swamp,,\n", "", "", "", "").unwrap_err();
    assert!(err.to_string().contains("provinces.csv line 1"), "{err}");
}

/// No name reads as two places: an alias given to two provinces, or to a province and to
/// a place that is none, stops the map from loading.
#[test]
fn an_ambiguous_name_is_an_error() {
    let provinces = "aaa,Alpha,land,,\nbbb,Beta,land,,\n";
    let err = load::load(provinces, "", "bbb,aaa\n", "", "").unwrap_err();
    assert!(err.to_string().contains("\"bbb\""), "{err}");
    let err = load::load(provinces, "", "", "Gamma,aaa\n", "").unwrap_err();
    assert!(err.to_string().contains("\"aaa\""), "{err}");
    // Distinct names pass the name check (this tiny board fails later ones).
    if let Err(e) = load::load(provinces, "", "al,aaa\n", "Gamma,gam\n", "") {
        assert!(!e.to_string().contains("two places"), "{e}");
    }
}

/// njudge's Switzerland is read as the place no unit enters, never as a province.
#[test]
fn switzerland_is_impassable() {
    for name in ["Switzerland", "swi", "SWITZ"] {
        assert_eq!(map().impassable(name), Some("Switzerland"), "{name}");
        assert_eq!(map().find_province(name), None, "{name}");
    }
    assert_eq!(map().impassable("Sweden"), None);
}
