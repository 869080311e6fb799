//! Golden tests of the results bulletin: positions and orders set up here (with the
//! case-file notation), adjudicated by `rules::adjudicate`, rendered, and compared byte for
//! byte with `fixtures/bulletins/NAME.txt`.
//!
//! A missing golden file fails. `UPDATE_GOLDEN=1 cargo test --lib bulletin` rewrites them;
//! read the diff as a player would before committing it.

use std::path::PathBuf;

use crate::bulletin::{Extras, Parts, ResultsHeader, render_results, results_subject};
use crate::cases::{parse_cases, parse_power_order};
use crate::map::{Location, Map, Power};
use crate::rules::{
    self, Owner, PhaseKind, PhaseOutcome, Position, PowerOrder, Standard, Unit, UnitKind,
};
use crate::variant::{Line, Reader};

fn map() -> &'static Map {
    Map::standard().expect("standard map")
}

/// A standard bulletin for everyone.
fn plain() -> Extras<'static> {
    Extras {
        variant: &crate::variant::Standard,
        parts: Parts::default(),
        reader: Reader::Observers,
    }
}

fn header(deadline: Option<&str>) -> ResultsHeader {
    use chrono::TimeZone;
    ResultsHeader {
        judge: "USDP".into(),
        game: "demo".into(),
        variant: "Standard".into(),
        // The one deadline the tests use, as players read it.
        next_deadline: deadline.map(|d| {
            assert_eq!(d, "Mon Nov 23 2026 20:00 UTC");
            chrono::Utc
                .with_ymd_and_hms(2026, 11, 23, 20, 0, 0)
                .unwrap()
        }),
        zone: chrono_tz::UTC,
    }
}

/// A position from case-file blocks (`PRESTATE_SETPHASE`, `PRESTATE_SUPPLYCENTER_OWNERS`,
/// `PRESTATE`).
fn position(text: &str) -> Position {
    let map = map();
    let cases = parse_cases(map, &format!("CASE setup\n{text}\nEND\n")).expect("case text");
    let case = cases.into_iter().next().expect("one case");
    let mut pos = Position::empty(map, case.phase.expect("a phase"));
    match &case.owners {
        Some(list) => {
            for (power, p) in list {
                pos.owners[p.index()] = Some(*power);
            }
        }
        None => pos.set_home_ownership(map),
    }
    pos.units = case.prestate;
    pos.sort_units();
    pos
}

/// Orders in case-file notation, one `Power: order` per line.
fn orders(kind: PhaseKind, text: &str) -> Vec<PowerOrder> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| parse_power_order(map(), l, kind).expect("an order"))
        .collect()
}

fn adjudicate(before: &Position, text: &str) -> PhaseOutcome {
    rules::adjudicate(map(), &Standard, before, &orders(before.phase.kind, text))
}

/// Compares with the golden file, or rewrites it under `UPDATE_GOLDEN=1`.
fn golden(name: &str, got: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/bulletins")
        .join(format!("{name}.txt"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, got).expect("write golden file");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "missing golden file {} (UPDATE_GOLDEN=1 writes it); got:\n```\n{got}```",
            path.display()
        )
    });
    assert!(
        expected == got,
        "bulletin {name} differs from {}\nexpected:\n```\n{expected}```\ngot:\n```\n{got}```",
        path.display()
    );
}

/// Every bulletin: lines end with `\n`, none has trailing blanks or tabs, and the same
/// input renders the same bytes.
fn check_shape(before: &Position, out: &PhaseOutcome, text: &str) {
    assert!(text.ends_with('\n'));
    for line in text.lines() {
        assert_eq!(line, line.trim_end(), "trailing blanks in {line:?}");
        assert!(!line.contains('\t'));
    }
    let again = render_results(
        map(),
        &header(Some("Mon Nov 23 2026 20:00 UTC")),
        before,
        out,
        &plain(),
    );
    let once = render_results(
        map(),
        &header(Some("Mon Nov 23 2026 20:00 UTC")),
        before,
        out,
        &plain(),
    );
    assert_eq!(again, once);
}

fn render(before: &Position, out: &PhaseOutcome) -> String {
    let text = render_results(
        map(),
        &header(Some("Mon Nov 23 2026 20:00 UTC")),
        before,
        out,
        &plain(),
    );
    check_shape(before, out, &text);
    text
}

/// Spring 1901 from the standard opening: bounces (Galicia, Black Sea, Venice), a cut
/// support (Venice), a void support (Munich), a support against the supporter's own unit
/// (not counted; the supported unit is foreign, named with its adjective), a refused order
/// (not printed: its unit shows no order).
#[test]
fn s1901m_standard_opening() {
    let before = Position::standard_start(map());
    let out = adjudicate(
        &before,
        "Austria: A vie - gal
         Austria: A bud - ser
         Austria: F tri - ven
         England: F lon - nth
         England: F edi - lvp
         England: A lvp - yor
         France: A par - bur
         France: A mar S A par - bur
         France: F bre - mao
         Germany: A mun S A ber
         Germany: A ber - kie
         Germany: F kie - den
         Italy: A ven S F nap - apu
         Italy: A rom S F tri - ven
         Italy: F nap - apu
         Russia: A war - gal
         Russia: A mos - ukr
         Russia: F sev - bla
         Russia: F stp/sc - bot
         Turkey: F ank - bla
         Turkey: A con - bul
         Turkey: A smy - arm",
    );
    golden("s1901m_standard_opening", &render(&before, &out));
}

/// The Spring 1902 position of the movement and retreat goldens.
fn s1902m() -> Position {
    let mut pos = position(
        "PRESTATE_SETPHASE Spring 1902, Movement
         PRESTATE
         Austria: A bud
         Austria: A vie
         Austria: A boh
         England: A yor
         England: F nth
         England: A lon
         England: F eng
         France: F bre
         France: F mao
         France: A par
         France: A mar
         Germany: A bur
         Germany: A sil
         Germany: A mun
         Germany: A ruh
         Russia: A gal
         Russia: A war
         Russia: A ukr
         Russia: F sev
         Russia: F rum
         Russia: F stp/sc
         Turkey: F bla
         Turkey: F ank
         Turkey: A smy",
    );
    // A neutral unit (variants place them): it takes no orders and always holds.
    let swe = map().find_province("swe").expect("swe");
    pos.units.push(Unit::new(
        Owner::Neutral,
        UnitKind::Army,
        Location::province(swe),
    ));
    pos.sort_units();
    pos
}

fn s1902m_outcome(before: &Position) -> PhaseOutcome {
    adjudicate(
        before,
        "Austria: A bud - gal
         Austria: A vie S A bud - gal
         Austria: A boh S A bud - gal
         England: A yor - nwy via convoy
         England: F nth C A yor - nwy
         England: A lon - bel via convoy
         England: F eng C A lon - bel
         France: F bre - eng
         France: F mao S F bre - eng
         France: A par - bur
         France: A mar S A par - bur
         Germany: A bur H
         Germany: A sil - war
         Germany: A mun - lon
         Germany: A ruh S A mun - bur
         Russia: A gal H
         Russia: A war S A gal
         Russia: A ukr S A gal
         Russia: F sev - bla
         Russia: F rum S F sev - bla
         Russia: F stp/sc - bot
         Turkey: F bla H
         Turkey: F ank - con
         Turkey: A smy S F ank - con",
    )
}

/// A convoy that arrives, a convoy disrupted by the dislodgement of its fleet (the army:
/// no convoy), supports cut and void, foreign units named with their adjective, a fleet on
/// a split coast, dislodged units with retreat options (one onto a coast) and one with
/// none, a neutral unit.
#[test]
fn s1902m_convoys_and_dislodgements() {
    let before = s1902m();
    let out = s1902m_outcome(&before);
    assert_eq!(out.after.dislodged.len(), 4);
    golden("s1902m_convoys_and_dislodgements", &render(&before, &out));
}

/// The retreat phase after it: a retreat onto a coast, two retreats to one province (both
/// disbanded), and a unit with no retreat, disbanded.
#[test]
fn s1902r_retreats() {
    let movement = s1902m_outcome(&s1902m());
    let before = movement.next;
    assert_eq!(before.phase.kind, PhaseKind::Retreat);
    let out = adjudicate(
        &before,
        "England: F eng - pic
         Germany: A bur - pic
         Turkey: F bla - bul/ec
         Turkey: F ank - con",
    );
    golden("s1902r_retreats", &render(&before, &out));
}

/// The Fall 1902 position of the ownership and adjustment goldens.
fn f1902m() -> Position {
    position(
        "PRESTATE_SETPHASE Fall 1902, Movement
         PRESTATE_SUPPLYCENTER_OWNERS
         Austria: bud tri vie ser
         Italy: nap rom ven
         Russia: mos sev stp war
         Turkey: ank con smy bul rum
         PRESTATE
         Austria: A bud
         Austria: F tri
         Austria: A vie
         Austria: A ser
         Italy: F ion
         Italy: A ven
         Italy: A rom
         Russia: A ukr
         Russia: F sev
         Russia: A mos
         Russia: F bot
         Turkey: F bla
         Turkey: A arm
         Turkey: F aeg
         Turkey: A syr
         Turkey: A alb",
    )
}

fn f1902m_outcome(before: &Position) -> PhaseOutcome {
    adjudicate(
        before,
        "Austria: A ser - bul
         Austria: A vie - gal
         Austria: A bud H
         Austria: F tri H
         Italy: F ion - tun
         Italy: A ven H
         Russia: A ukr - rum
         Russia: F sev S A ukr - rum
         Russia: F bot - swe
         Russia: A mos H
         Turkey: F bla - rum
         Turkey: A arm H
         Turkey: F aeg H
         Turkey: A syr H
         Turkey: A alb H",
    )
}

/// A Fall that changes ownership (Rumania from Turkey to Russia, Bulgaria from Turkey to
/// Austria, Sweden and Tunis from nobody): the ownership and count tables, then Winter.
#[test]
fn f1902m_ownership_to_winter() {
    let before = f1902m();
    let out = f1902m_outcome(&before);
    assert_eq!(out.next.phase.kind, PhaseKind::Adjustment);
    golden("f1902m_ownership_to_winter", &render(&before, &out));
}

/// The Winter after it: an army built, a fleet built on a coast, a waived build, a build
/// left unused (waived by the judge), a removal, a civil-disorder removal; a refused build
/// is not printed.
#[test]
fn w1902a_adjustments() {
    let before = f1902m_outcome(&f1902m()).next;
    let out = adjudicate(
        &before,
        "Austria: Build A vie
         Austria: Build A bud
         Russia: Build F stp/nc
         Russia: Waive
         Turkey: Remove F aeg",
    );
    golden("w1902a_adjustments", &render(&before, &out));
}

/// Without a deadline the two deadline lines are left out.
#[test]
fn no_deadline_no_deadline_lines() {
    let before = Position::standard_start(map());
    let out = adjudicate(&before, "");
    let text = render_results(map(), &header(None), &before, &out, &plain());
    assert!(!text.contains("Deadline"));
    assert!(!text.contains("deadline"));
    assert!(text.ends_with("The next phase of 'demo' will be Movement for Fall of 1901.\n"));
}

#[test]
fn subject_of_each_phase() {
    let p = |s: &str| rules::Phase::parse(s).expect("phase");
    assert_eq!(
        results_subject("USDP", "demo", p("F1901R")),
        "USDP:demo - F1901R Results"
    );
    assert_eq!(
        results_subject("USDP", "demo", p("W1901A")),
        "USDP:demo - W1901A Results"
    );
}

/// In a Fall with dislodgements the ownership is updated after the retreats: the
/// movement bulletin has no ownership table, the retreat bulletin has it.
#[test]
fn f1902r_ownership_after_fall_retreats() {
    let mut before = s1902m();
    before.phase = rules::Phase::new(1902, rules::Season::Fall, PhaseKind::Movement);
    let movement = s1902m_outcome(&before);
    let text = render(&before, &movement);
    assert!(!text.contains("Ownership of supply centers:"));
    assert!(text.contains("will be Retreats for Fall of 1902."));
    let retreat = movement.next.clone();
    let out = adjudicate(
        &retreat,
        "England: F eng - wal
         Germany: A bur - pic
         Turkey: F bla - ank",
    );
    golden(
        "f1902r_ownership_after_fall_retreats",
        &render(&retreat, &out),
    );
}

/// The adjudicator already lists results in unit listing order (owner, then province);
/// the renderer's own sort is a safeguard, not a reordering.
#[test]
fn results_arrive_in_unit_listing_order() {
    let before = s1902m();
    let out = s1902m_outcome(&before);
    let keys: Vec<_> = out
        .results
        .iter()
        .filter(|r| !matches!(r.failure, Some(rules::Failure::Illegal(_))))
        .map(|r| (r.owner, r.order.unit().map(|u| u.location.province)))
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
}

/// A rule set's lines take the parts of rules/README §2.2 around the standard results, and
/// each reader sees the public lines and its own (the master every line).
#[test]
fn variant_lines_by_part_and_reader() {
    let before = Position::standard_start(map());
    let mut out = adjudicate(&before, "France: A par - bur");
    if let Some(r) = out
        .results
        .iter_mut()
        .find(|r| r.owner == Owner::Power(Power::Germany) && r.order.unit().is_some())
    {
        r.note = Some("out of the game".into());
    }
    let immediate = [Line::public("IMMEDIATE: first")];
    let before_lines = [Line::public("BEFORE: second")];
    let after = [
        Line::public("AFTER: fourth"),
        Line::to(Reader::Power(Power::France), "AFTER: for France only"),
        Line::to(Reader::Master, "AFTER: for the master only"),
    ];
    let summary = [Line::public("SUMMARY: fifth")];
    let end = [Line::public("END: sixth")];
    let render_for = |reader| {
        let extras = Extras {
            variant: &crate::variant::Standard,
            parts: Parts {
                immediate: &immediate,
                before: &before_lines,
                after: &after,
                summary: &summary,
                end: &end,
            },
            reader,
        };
        render_results(map(), &header(None), &before, &out, &extras)
    };
    let public = render_for(Reader::Observers);
    let at = |text: &str, what: &str| {
        text.find(what)
            .unwrap_or_else(|| panic!("{what} in {text}"))
    };
    let order = [
        at(&public, "Movement results for Spring of 1901."),
        at(&public, "IMMEDIATE: first"),
        at(&public, "BEFORE: second"),
        at(&public, "France: Army Paris -> Burgundy."),
        at(&public, "AFTER: fourth"),
        at(&public, "SUMMARY: fifth"),
        at(&public, "END: sixth"),
    ];
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{public}");
    assert!(
        !public.contains("The next phase of"),
        "a game that ends announces no next phase: {public}"
    );
    assert!(
        public.contains("Germany: A Ber H (out of the game)\n"),
        "{public}"
    );
    assert!(!public.contains("only"));
    let france = render_for(Reader::Power(Power::France));
    assert!(france.contains("AFTER: for France only"));
    assert!(!france.contains("for the master only"));
    let italy = render_for(Reader::Power(Power::Italy));
    assert_eq!(italy, public);
    let master = render_for(Reader::Master);
    assert!(master.contains("AFTER: for France only") && master.contains("for the master only"));
}

#[test]
fn the_centre_table_gives_ten_years_a_block() {
    use crate::picture::{Chart, ChartLine};
    let mut columns = vec!["start".to_string()];
    columns.extend((1901..=1911).map(|y| y.to_string()));
    let chart = Chart {
        title: "t".into(),
        columns,
        lines: vec![
            ChartLine {
                power: Power::Austria,
                counts: (0..12).map(|i| 3 + i).collect(),
            },
            ChartLine {
                power: Power::Turkey,
                counts: vec![3, 4],
            },
        ],
        to_win: Some(18),
    };
    let t = super::listing::centre_table(&chart);
    assert_eq!(
        t,
        "\nSupply centres by year:\n\
         \x20        start  1901  1902  1903  1904  1905  1906  1907  1908  1909\n\
         Austria      3     4     5     6     7     8     9    10    11    12\n\
         Turkey       3     4     -     -     -     -     -     -     -     -\n\
         \n\
         \x20         1910  1911\n\
         Austria     13    14\n\
         Turkey       -     -\n"
    );
}
