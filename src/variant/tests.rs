//! The registry, the state and the lines: what every rule set relies on.

use super::*;

#[test]
fn every_spec_name_and_its_aliases_find_their_rule_set() {
    let r = Registry::default();
    assert!(matches!(r.by_name("Standard"), Lookup::Found(v) if v.name() == "Standard"));
    assert!(matches!(r.by_name("standard"), Lookup::Found(_)));
    for name in ["Surrender", "surrender", "SURRENDER"] {
        assert!(matches!(r.by_name(name), Lookup::Found(v) if v.name() == "Surrender"));
    }
    for name in ["survive", "SURVIVE DIPLOMACY"] {
        assert!(matches!(r.by_name(name), Lookup::Found(v) if v.name() == "Survive"));
    }
    for name in ["ShellShock", "shell-shock", "Shell Shock"] {
        assert!(matches!(r.by_name(name), Lookup::Found(v) if v.name() == "ShellShock"));
    }
    for name in ["formal", "Formal Diplomacy"] {
        assert!(matches!(r.by_name(name), Lookup::Found(v) if v.name() == "Formal"));
    }
    for name in ["InternationalRelations", "international-relations", "IR"] {
        assert!(
            matches!(r.by_name(name), Lookup::Found(v) if v.name() == "InternationalRelations"),
            "{name}"
        );
    }
    // A name the registry knows without a rule set behind it.
    let r = r.with(Entry {
        name: "Unfinished",
        aliases: &[],
        variant: None,
    });
    assert!(matches!(r.by_name("unfinished"), Lookup::NotImplemented(n) if n == "Unfinished"));
    for unknown in ["", "chaos", "shell", "-"] {
        assert!(matches!(r.by_name(unknown), Lookup::Unknown), "{unknown:?}");
    }
}

#[test]
fn names_are_unique_and_each_entry_is_its_variants_name() {
    let names = Registry::default().names();
    let mut keys: Vec<String> = names.iter().map(|n| n.to_lowercase()).collect();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), names.len());
    for e in ALL {
        if let Some(v) = e.variant {
            assert_eq!(v.name(), e.name);
        }
    }
}

#[test]
fn a_registry_takes_a_test_rule_set() {
    struct Toy;
    impl RuleSet for Toy {
        type State = ();
        type Command = crate::command::NoCommand;

        fn name(&self) -> &'static str {
            "Toy"
        }
    }
    static TOY: Toy = Toy;
    let r = Registry::default().with(Entry {
        name: "Toy",
        aliases: &["plaything"],
        variant: Some(&TOY),
    });
    assert!(matches!(r.by_name("plaything"), Lookup::Found(v) if v.name() == "Toy"));
    assert!(matches!(
        Registry::default().by_name("toy"),
        Lookup::Unknown
    ));
}

#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
struct Counter {
    n: u32,
    names: Vec<String>,
}

/// A state is decoded once, read and changed as its type by the hooks, and stored as
/// JSON; an empty one is the type's default; one that does not read as the type is an
/// error, never a default written back.
#[test]
fn state_reads_its_type_and_an_empty_state_is_the_default() {
    let mut s = VariantState::default();
    assert!(s.is_empty());
    assert_eq!(s.check::<Counter>(), Ok(()));
    s.with_mut(|c: &mut Counter| {
        c.n += 2;
        c.names.push("Austria".into());
    });
    assert!(!s.is_empty());
    assert_eq!(s.get::<Counter>().map(|c| c.n), Some(2));
    // It is stored as JSON, and read back as stored until its rule set decodes it.
    let json = serde_json::to_string(&s).expect("json");
    assert_eq!(json, r#"{"n":2,"names":["Austria"]}"#);
    let mut back: VariantState = serde_json::from_str(&json).expect("reads");
    assert_eq!(back.get::<Counter>(), None);
    assert_eq!(back.decode::<Counter>(), Ok(()));
    assert_eq!(back.get::<Counter>().map(|c| c.n), Some(2));
    assert_eq!(back, s);
    // A state of another shape does not read, and a change to it is not stored.
    let mut other: VariantState = serde_json::from_str(r#"{"n":"two"}"#).expect("json");
    assert!(other.check::<Counter>().is_err());
    assert!(other.decode::<Counter>().is_err());
    other.with_mut(|c: &mut Counter| c.n = 7);
    assert_eq!(
        serde_json::to_string(&other).expect("json"),
        r#"{"n":"two"}"#,
        "never a default written back"
    );
}

#[test]
fn a_state_dumps_a_field_a_line_and_a_list_an_element_a_line() {
    let mut s = VariantState::default();
    assert!(s.dump_lines().is_empty());
    s.set(&Counter {
        n: 3,
        names: vec!["Austria".into(), "Italy".into()],
    });
    assert_eq!(
        s.dump_lines(),
        ["n 3", r#"names "Austria""#, r#"names "Italy""#]
    );
    s.set(&Counter::default());
    assert_eq!(s.dump_lines(), ["n 0", "names []"]);
}

#[test]
fn a_line_reaches_its_reader_and_the_master() {
    let public = Line::public("X");
    let french = Line::to(Reader::Power(Power::France), "Y");
    let master = Line::to(Reader::Master, "Z");
    assert!(public.is_for(Reader::Power(Power::Italy)) && public.is_for(Reader::Observers));
    assert!(french.is_for(Reader::Power(Power::France)));
    assert!(!french.is_for(Reader::Power(Power::Italy)) && !french.is_for(Reader::Observers));
    assert!(french.is_for(Reader::Master) && master.is_for(Reader::Master));
    assert!(!master.is_for(Reader::Power(Power::France)));
}

#[test]
fn power_lists_read_as_players_write_them() {
    assert_eq!(list_powers(&[]), "");
    assert_eq!(list_powers(&[Power::Italy]), "Italy");
    assert_eq!(
        list_powers(&[Power::Italy, Power::England]),
        "England and Italy"
    );
    assert_eq!(
        list_powers(&[Power::Turkey, Power::Austria, Power::France, Power::Austria]),
        "Austria, France and Turkey"
    );
}

/// The picture's relation lines run between powers' representative provinces: the first
/// home centre (in map order) the power still owns, else its first home centre.
#[test]
fn a_relation_is_drawn_between_home_centres_still_owned() {
    use crate::picture::{Mark, RelationStyle};
    let map = Map::standard().unwrap();
    let prov = |c: &str| map.find_province(c).unwrap();
    let mut p = Position::standard_start(map);
    let first = |power: Power| map.home_centres(power).next().unwrap();
    assert_eq!(first(Power::Austria), prov("bud"));
    assert_eq!(
        representative_province(map, &p, Power::Austria),
        Some(prov("bud"))
    );
    // Budapest lost: Trieste; every home centre lost: Budapest again.
    p.owners[prov("bud").index()] = Some(Power::Russia);
    assert_eq!(
        representative_province(map, &p, Power::Austria),
        Some(prov("tri"))
    );
    for c in ["tri", "vie"] {
        p.owners[prov(c).index()] = None;
    }
    assert_eq!(
        representative_province(map, &p, Power::Austria),
        Some(prov("bud"))
    );
    assert_eq!(
        relation_mark(
            map,
            &p,
            (Power::Austria, Power::Russia),
            "Austria-Russia war",
            RelationStyle::War
        ),
        Some(Mark::Relation {
            from: prov("bud"),
            to: first(Power::Russia),
            text: "Austria-Russia war".into(),
            style: RelationStyle::War,
        })
    );
}
