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

#[test]
fn bad_data_is_an_error_not_a_panic() {
    let err = load::load("xx,Nowhere,swamp,,\n", "", "", "").unwrap_err();
    assert!(err.to_string().contains("provinces.csv line 1"), "{err}");
}
