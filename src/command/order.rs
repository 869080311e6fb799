//! Orders (grammar/orders.md): movement, retreat and adjustment orders in the njudge and
//! DPjudge forms players write, read into [`rules::Order`](crate::rules::Order) values. An
//! order of the game's rule set written after a unit is its grammar's to read
//! ([`Grammar::unit_order`]).
//!
//! The lines of a results listing read as the orders they show, so that a player may paste
//! them back: the power in front (`Austria: Army Budapest -> Serbia.`), the owner of a
//! supported or convoyed unit (`SUPPORT English Army Edinburgh`), the full stop and the
//! outcome after the order (`.  (*bounce*)`), `, No Order Processed`, and the adjustment
//! lines (`Builds an army in Paris.`, `Removes the fleet in the North Sea.`).

use nom::Parser;
use nom::branch::alt;

use crate::map::{Location, Map, Power, ProvinceId};
use crate::rules::{Order, UnitKind, UnitSpec};

use super::Command;
use super::grammar::Grammar;
use super::lexeme::{
    PResult, Why, blanks, cut, end_of_line, expect, fail, keyword, location, name_word, one_of,
    opt_dash,
};

/// An order as read from a line: the [`Order`] and, for an army convoy written out in full
/// (`A Lon - NTH - Nwy`), the sea areas of the route in the order written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OrderCommand {
    pub order: Order,
    /// Empty unless the route was written out; then the order is a move `via_convoy`.
    pub route: Vec<ProvinceId>,
}

impl OrderCommand {
    /// An order without a written route.
    pub fn new(order: Order) -> OrderCommand {
        OrderCommand {
            order,
            route: Vec::new(),
        }
    }

    /// The normalised echo: `A Par - Bur`, `F NTH C A Lon - Nwy`, `A Lon - NTH - Nwy`.
    pub fn render(&self, map: &Map) -> String {
        match (&self.order, self.route.is_empty()) {
            (Order::Move { unit, dest, .. }, false) => {
                let mut s = render_unit(map, unit);
                for p in &self.route {
                    s.push_str(" - ");
                    s.push_str(&map.display_code(*p));
                }
                s.push_str(" - ");
                s.push_str(&map.display_location(*dest));
                s
            }
            (o, _) => o.display(map),
        }
    }
}

/// `A Par`, or `Par` when the player gave no unit type.
pub fn render_unit(map: &Map, u: &UnitSpec) -> String {
    match u.kind {
        Some(k) => format!("{} {}", k.letter(), map.display_location(u.location)),
        None => map.display_location(u.location),
    }
}

// unit_kind = "A" | "ARMY" | "F" | "FLEET" ;
pub fn unit_kind(i: &str) -> PResult<'_, UnitKind> {
    let (rest, w) = one_of(&["army", "fleet", "a", "f"], "A or F")(i)?;
    Ok((
        rest,
        if w.starts_with('a') {
            UnitKind::Army
        } else {
            UnitKind::Fleet
        },
    ))
}

// unit = [ unit_kind [ dash ] ] location ;
pub fn unit<'a>(map: &Map, i: &'a str) -> PResult<'a, UnitSpec> {
    if let Ok((rest, k)) = unit_kind(i) {
        // No province is called `A` or `F`, so after a unit type a province must follow
        // (`Fleet – London` in the long forms may put a dash between them).
        let (rest, l) = expect("a province", |j| location(map, j))(opt_dash(rest))?;
        return Ok((rest, UnitSpec::new(Some(k), l)));
    }
    let (rest, l) = expect("a unit (A or F and a province)", |j| location(map, j))(i)?;
    Ok((rest, UnitSpec::new(None, l)))
}

// move_arrow = "->" | "=>" | "-" | "–" | "—" | "→" | "MOVES TO" | "MOVE TO" | "MOVES" | "MOVE"
//            | "M" | "TO" | "ATTACKS" | "ATTACK" | "RETREATS TO" | "RETREAT TO" | "RETREATS"
//            | "RETREAT" | "R" ;
pub fn move_arrow(i: &str) -> PResult<'_, ()> {
    let start = blanks(i);
    for sym in ["->", "=>", "-", "\u{2013}", "\u{2014}", "\u{2192}"] {
        if let Some(r) = start.strip_prefix(sym) {
            return Ok((r, ()));
        }
    }
    const WORDS: &[&str] = &[
        "moves to",
        "move to",
        "moves",
        "move",
        "m",
        "to",
        "attacks",
        "attack",
        "retreats to",
        "retreat to",
        "retreats",
        "retreat",
        "r",
    ];
    let (rest, _) = one_of(WORDS, "\"-\" and a province")(start)?;
    Ok((rest, ()))
}

// via_convoy = ( "VIA" | "BY" ) ( "CONVOY" | "C" ) ;
fn via_convoy(i: &str) -> PResult<'_, ()> {
    let (rest, _) = one_of(&["via", "by"], "VIA CONVOY")(i)?;
    let (rest, _) = one_of(&["convoy", "c"], "CONVOY")(rest)?;
    Ok((rest, ()))
}

// hold = "H" | "HOLD" | "HOLDS" | "STAND" | "STANDS" ;
fn hold(i: &str) -> PResult<'_, ()> {
    one_of(&["holds", "hold", "h", "stands", "stand"], "H")(i).map(|(r, _)| (r, ()))
}

// order_line = [ power_prefix ] order ;
// order = waive | listed_build | build_order | remove_order | disband_order | listed_removal
//       | unit_order ;
pub(crate) fn order<'a>(
    map: &Map,
    grammar: Option<&dyn Grammar>,
    i: &'a str,
) -> PResult<'a, Command> {
    let i = power_prefix(i).map_or(i, |(rest, _)| rest);
    // `alt` keeps the failure that read furthest (see `PErr::or`).
    alt((
        |j| waive(map, j),
        |j| listed_build(map, j),
        |j| build_order(map, j),
        |j| remove_order(map, j),
        |j| disband_order(map, j),
        |j| listed_removal(map, j),
        |j| unit_order(map, grammar, j),
    ))
    .parse(blanks(i))
}

// power_prefix = power ":" ;   (a results listing's `Austria: Army Budapest -> Serbia.`)
//
// The power is read and dropped: the order is the signed-on power's as any other, so an
// order for another power's unit is refused by the unit check (FOREIGN-UNIT), and a duplex
// player's line is the power of the unit it orders.
fn power_prefix(i: &str) -> Option<(&str, Power)> {
    let (rest, word) = name_word(i).ok()?;
    let rest = blanks(rest).strip_prefix(':')?;
    Some((rest, Power::from_name(word)?))
}

// end_of_order = [ "." ] [ outcome ] [ "." ] end_of_line ;
// outcome = "(*" { any } "*)" ;   (a results listing's `(*bounce*)`, `(*cut*)`, …)
//
// A full stop may end an order (`A Par H.`), and the outcome a results listing prints after
// it (`.  (*bounce*)`, njudge's retreats `(*bounce, destroyed*).`) is read and dropped: the
// line is the order it shows.
fn end_of_order(i: &str) -> PResult<'_, ()> {
    fn full_stop(j: &str) -> &str {
        let j = blanks(j);
        j.strip_prefix('.').unwrap_or(j)
    }
    let mut rest = full_stop(i);
    if let Some(inner) = blanks(rest).strip_prefix("(*")
        && let Some(close) = inner.find("*)")
    {
        rest = full_stop(inner.get(close + 2..).unwrap_or(""));
    }
    end_of_line(rest)
}

fn order_cmd(o: Order) -> Command {
    Command::Order(OrderCommand::new(o))
}

// waive = [ "BUILD" | "B" ] ( "WAIVE" | "WAIVES" | "WAIVED" ) ;   (`Build waived` as results
//         print it)
fn waive<'a>(_map: &Map, i: &'a str) -> PResult<'a, Command> {
    let i = one_of(&["build", "b"], "BUILD")(i).map_or(i, |(r, _)| r);
    let (rest, _) = one_of(&["waives", "waived", "waive"], "WAIVE")(i)?;
    let (rest, _) = end_of_order(rest)?;
    Ok((rest, order_cmd(Order::Waive)))
}

// build_order = ( "BUILD" | "BUILDS" | "B" | "+" ) unit_kind [ dash ] location ;
fn build_order<'a>(map: &Map, i: &'a str) -> PResult<'a, Command> {
    let (rest, _) = one_of(&["builds", "build", "b", "+"], "BUILD")(i)?;
    let (rest, kind) = cut(expect("a unit type (A or F)", unit_kind)(rest))?;
    let (rest, l) = cut(expect("a province", |j| location(map, j))(opt_dash(rest)))?;
    let (rest, _) = cut(end_of_order(rest))?;
    Ok((
        rest,
        order_cmd(Order::Build {
            unit: UnitSpec::new(Some(kind), l),
        }),
    ))
}

// listed_build = "BUILDS" ( "AN ARMY" | "A FLEET" ) "IN" location ;
//                (results: `Builds an army in Paris.`; njudge writes a fleet's coast after
//                the full stop, `Builds a fleet in St Petersburg. (north coast)`)
fn listed_build<'a>(map: &Map, i: &'a str) -> PResult<'a, Command> {
    let (rest, _) = keyword("builds")(i)?;
    // `Builds A Par` is a build_order.
    let (rest, what) = one_of(&["an army", "a fleet"], "\"an army\" or \"a fleet\"")(rest)?;
    let (rest, _) = cut(expect("IN", keyword("in"))(rest))?;
    let (rest, l) = cut(expect("a province", |j| location(map, j))(rest))?;
    let (rest, _) = cut(end_of_order(rest))?;
    let kind = if what == "an army" {
        UnitKind::Army
    } else {
        UnitKind::Fleet
    };
    Ok((
        rest,
        order_cmd(Order::Build {
            unit: UnitSpec::new(Some(kind), l),
        }),
    ))
}

// listed_removal = "REMOVES THE" ( "ARMY" | "FLEET" | "UNIT" ) "IN" [ "THE" ] location ;
//                  (results: `Removes the fleet in the North Sea.`)
fn listed_removal<'a>(map: &Map, i: &'a str) -> PResult<'a, Command> {
    let (rest, _) = keyword("removes the")(i)?;
    let (rest, what) = cut(one_of(&["army", "fleet", "unit"], "army or fleet")(rest))?;
    let (rest, _) = cut(expect("IN", keyword("in"))(rest))?;
    let rest = keyword("the")(rest).map_or(rest, |(r, _)| r);
    let (rest, l) = cut(expect("a province", |j| location(map, j))(rest))?;
    let (rest, _) = cut(end_of_order(rest))?;
    let kind = match what {
        "army" => Some(UnitKind::Army),
        "fleet" => Some(UnitKind::Fleet),
        _ => None,
    };
    Ok((
        rest,
        order_cmd(Order::Remove {
            unit: UnitSpec::new(kind, l),
        }),
    ))
}

// remove_order = ( "REMOVE" | "R" | "-" ) unit ;
fn remove_order<'a>(map: &Map, i: &'a str) -> PResult<'a, Command> {
    let (rest, _) = one_of(&["removes", "remove", "r", "-"], "REMOVE")(i)?;
    let (rest, u) = unit(map, rest)?;
    let (rest, _) = end_of_order(rest)?;
    Ok((rest, order_cmd(Order::Remove { unit: u })))
}

// disband_order = ( "DISBAND" | "D" ) unit ;
fn disband_order<'a>(map: &Map, i: &'a str) -> PResult<'a, Command> {
    let (rest, _) = one_of(&["disbands", "disband", "d"], "DISBAND")(i)?;
    let (rest, u) = unit(map, rest)?;
    let (rest, _) = end_of_order(rest)?;
    Ok((rest, order_cmd(Order::Disband { unit: u })))
}

// unit_order = unit ( rule_set_unit_order | hold | support | convoy | disband | remove
//                   | build | move | no_order ) ;
fn unit_order<'a>(map: &Map, grammar: Option<&dyn Grammar>, i: &'a str) -> PResult<'a, Command> {
    let (rest, u) = unit(map, i)?;
    let own = |j: &'a str| match grammar {
        Some(g) => g
            .unit_order(map, u, j)
            .map(|(r, c)| (r, Command::Variant(c))),
        None => fail(j, Why::Nom),
    };
    let after_unit = alt((
        own,
        |j| hold_order(map, u, j),
        |j| support_order(map, u, j),
        |j| convoy_order(map, u, j),
        |j| disband_suffix(map, u, j),
        |j| remove_suffix(map, u, j),
        |j| build_suffix(map, u, j),
        |j| move_order(map, u, j),
        |j| no_order(map, u, j),
    ))
    .parse(rest);
    let best = match after_unit {
        Ok(r) => return Ok(r),
        Err(nom::Err::Error(e)) => e,
        Err(other) => return Err(other),
    };
    // Nothing after the unit matched: say what may follow a unit.
    if best.at.len() < blanks(rest).len() || matches!(best.why, Why::UnknownProvince(_)) {
        Err(nom::Err::Error(best))
    } else {
        fail(
            blanks(rest),
            Why::Expected("H, -, S, C or D (hold, move, support, convoy, disband)"),
        )
    }
}

// hold_order = hold ;
fn hold_order<'a>(_map: &Map, u: UnitSpec, i: &'a str) -> PResult<'a, Command> {
    let (rest, _) = hold(i)?;
    let (rest, _) = end_of_order(rest)?;
    Ok((rest, order_cmd(Order::Hold { unit: u })))
}

// no_order = "," "NO ORDER PROCESSED" [ "(" "DISBAND" ")" ] ;
//            (results: a unit that had no order held, or in a retreat was disbanded)
fn no_order<'a>(_map: &Map, u: UnitSpec, i: &'a str) -> PResult<'a, Command> {
    let Some(rest) = blanks(i).strip_prefix(',') else {
        return fail(blanks(i), Why::Nom);
    };
    let (rest, _) = keyword("no order processed")(rest)?;
    if let Some(inner) = blanks(rest).strip_prefix('(')
        && let Ok((after, _)) = keyword("disband")(inner)
        && let Some(after) = blanks(after).strip_prefix(')')
    {
        let (after, _) = end_of_order(after)?;
        return Ok((after, order_cmd(Order::Disband { unit: u })));
    }
    let (rest, _) = end_of_order(rest)?;
    Ok((rest, order_cmd(Order::Hold { unit: u })))
}

// disband = "D" | "DISBAND" | "DISBANDS" ;
fn disband_suffix<'a>(_map: &Map, u: UnitSpec, i: &'a str) -> PResult<'a, Command> {
    let (rest, _) = one_of(&["disbands", "disband", "d"], "D")(i)?;
    let (rest, _) = end_of_order(rest)?;
    Ok((rest, order_cmd(Order::Disband { unit: u })))
}

// remove = "REMOVE" | "REMOVES" ;
fn remove_suffix<'a>(_map: &Map, u: UnitSpec, i: &'a str) -> PResult<'a, Command> {
    let (rest, _) = one_of(&["removes", "remove"], "REMOVE")(i)?;
    let (rest, _) = end_of_order(rest)?;
    Ok((rest, order_cmd(Order::Remove { unit: u })))
}

// build = "BUILD" | "BUILDS" ;   (the unit type must be written)
fn build_suffix<'a>(_map: &Map, u: UnitSpec, i: &'a str) -> PResult<'a, Command> {
    let (rest, _) = one_of(&["builds", "build"], "BUILD")(i)?;
    let (rest, _) = end_of_order(rest)?;
    if u.kind.is_none() {
        return fail(
            blanks(i),
            Why::Expected("a unit type (A or F) in front of a build"),
        );
    }
    Ok((rest, order_cmd(Order::Build { unit: u })))
}

// move = move_arrow location { move_arrow location } [ via_convoy ] ;
fn move_order<'a>(map: &Map, u: UnitSpec, i: &'a str) -> PResult<'a, Command> {
    let (mut rest, _) = move_arrow(i)?;
    let (r, first) = expect("a province", |j| location(map, j))(rest)?;
    rest = r;
    let mut path = vec![first];
    while let Ok((r, _)) = move_arrow(rest) {
        let (r, l) = expect("a province", |j| location(map, j))(r)?;
        path.push(l);
        rest = r;
    }
    let (rest, via) = match via_convoy(rest) {
        Ok((r, _)) => (r, true),
        Err(_) => (rest, false),
    };
    let (rest, _) = end_of_order(rest)?;
    let Some(dest) = path.pop() else {
        return fail(blanks(i), Why::Expected("a province"));
    };
    let route: Vec<ProvinceId> = path.iter().map(|l| l.province).collect();
    let via_convoy = via || !route.is_empty();
    Ok((
        rest,
        Command::Order(OrderCommand {
            order: Order::Move {
                unit: u,
                dest,
                via_convoy,
            },
            route,
        }),
    ))
}

// support = ( "S" | "SUP" | "SUPP" | "SUPPORT" | "SUPPORTS" ) other_unit
//           ( move_arrow route_and_destination | [ hold ] ) ;
fn support_order<'a>(map: &Map, u: UnitSpec, i: &'a str) -> PResult<'a, Command> {
    let (rest, _) = one_of(&["supports", "support", "supp", "sup", "s"], "S (support)")(i)?;
    let (rest, target) = cut(other_unit(map, rest))?;
    if let Ok((r, _)) = move_arrow(rest) {
        let (r, dest) = cut(route_and_destination(map, r))?;
        let (r, _) = cut(end_of_order(r))?;
        return Ok((
            r,
            order_cmd(Order::SupportMove {
                unit: u,
                target,
                dest,
            }),
        ));
    }
    let rest = hold(rest).map_or(rest, |(r, _)| r);
    let (rest, _) = cut(expect(
        "the end of the line, or \"-\" and the province the supported unit moves to",
        end_of_order,
    )(rest))?;
    Ok((rest, order_cmd(Order::SupportHold { unit: u, target })))
}

// convoy = ( "C" | "CONVOY" | "CONVOYS" | "T" | "TRANSPORT" | "TRANSPORTS" ) other_unit
//          move_arrow route_and_destination ;
fn convoy_order<'a>(map: &Map, u: UnitSpec, i: &'a str) -> PResult<'a, Command> {
    let (rest, _) = one_of(
        &["convoys", "convoy", "c", "transports", "transport", "t"],
        "C (convoy)",
    )(i)?;
    let (rest, army) = cut(other_unit(map, rest))?;
    let (rest, _) = cut(expect("\"-\" and the army's destination", move_arrow)(rest))?;
    let (rest, dest) = cut(route_and_destination(map, rest))?;
    let (rest, _) = cut(end_of_order(rest))?;
    Ok((
        rest,
        order_cmd(Order::Convoy {
            unit: u,
            army,
            dest,
        }),
    ))
}

// route_and_destination = { sea_area move_arrow } location ;
//
// The convoyed army's route may be written out inside a support or convoy order
// (`F NTH C A Lon - NTH - Bel`, `A Yor S A Lon - NTH - Bel`). It is read and dropped: the
// order names the army and its destination, and the convoy is found from the fleets'
// orders. Only sea areas make a route; a province on land between two arrows is not read
// (`A Mar S A Par - Bur - Mun` supports no one).
fn route_and_destination<'a>(map: &Map, i: &'a str) -> PResult<'a, Location> {
    let (mut rest, mut dest) = expect("a province", |j| location(map, j))(i)?;
    while map.is_sea(dest.province)
        && let Ok((r, _)) = move_arrow(rest)
    {
        let (r, next) = expect("a province", |j| location(map, j))(r)?;
        (rest, dest) = (r, next);
    }
    Ok((rest, dest))
}

// other_unit = [ power_tag ] unit ;
// power_tag = power | "(" initial ")" | initial ;   (an initial only before a unit type)
//
// The owner of a supported or convoyed unit, as results print it (`SUPPORT English Army
// Edinburgh`) and players write it (`S English A Lon`, `S (E) F Lon`, `S E F Lon`), is read
// and dropped: the unit is the one in that province, whoever owns it. A word that is both a
// power and a province (`Eng`, njudge's `english`) is the power only when a unit follows it.
fn other_unit<'a>(map: &Map, i: &'a str) -> PResult<'a, UnitSpec> {
    if let Some(rest) = power_tag(i)
        && let Ok(r) = unit(map, rest)
    {
        return Ok(r);
    }
    unit(map, i)
}

/// What follows a [`other_unit`]'s power tag, when `i` starts with one.
fn power_tag(i: &str) -> Option<&str> {
    let start = blanks(i);
    if let Some(inner) = start.strip_prefix('(') {
        let mut chars = inner.chars();
        let letter = chars.next()?;
        let rest = chars.as_str().strip_prefix(')')?;
        Power::from_initial(letter)?;
        return Some(rest);
    }
    let (rest, word) = name_word(start).ok()?;
    let by_name = Power::from_name(word.trim_end_matches('.')).is_some();
    let by_initial = word.chars().count() == 1
        && word.chars().next().and_then(Power::from_initial).is_some()
        && unit_kind(rest).is_ok();
    (by_name || by_initial).then_some(rest)
}

/// destination = location ;   (labelled "a province" when missing)
pub fn destination<'a>(map: &Map, i: &'a str) -> PResult<'a, Location> {
    expect("a province", |j| location(map, j))(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map() -> &'static Map {
        Map::standard().unwrap()
    }

    /// `ord!(name, text, Some(echo))` reads `text` as an order; `None` means refused.
    macro_rules! ord {
        ($name:ident, $text:expr, $want:expr) => {
            #[test]
            fn $name() {
                let got = order(map(), None, $text).map(|(_, c)| c.render(map()));
                assert_eq!(got.ok().as_deref(), $want);
            }
        };
    }

    ord!(hold, "A Par H", Some("A Par H"));
    ord!(hold_no_kind, "Par holds", Some("Par H"));
    ord!(
        move_retreat_word,
        "A Bur retreats to Gas",
        Some("A Bur - Gas")
    );
    ord!(move_attack, "A Bur attacks Mun", Some("A Bur - Mun"));
    ord!(
        move_by_convoy,
        "A Lon - Nwy by convoy",
        Some("A Lon - Nwy via convoy")
    );
    ord!(
        route_with_coasts,
        "A Lon - Nth - Nwg - StP",
        Some("A Lon - NTH - NWG - StP")
    );
    ord!(
        support_hold_word,
        "F Kie SUPPORTS F Den",
        Some("F Kie S F Den")
    );
    ord!(
        support_move_coast,
        "A Gas S F Mao - Spa/nc",
        Some("A Gas S F MAO - Spa/nc")
    );
    ord!(
        convoy_fleet_target,
        "F Nth C F Lon - Nwy",
        Some("F NTH C F Lon - Nwy")
    );
    ord!(build_dash, "Build Fleet - Kiel", Some("Build F Kie"));
    ord!(build_suffix, "F Kie build", Some("Build F Kie"));
    ord!(build_suffix_no_kind, "Kie build", None);
    ord!(remove_suffix, "F Kie remove", Some("Remove F Kie"));
    ord!(waive_word, "build waive", Some("Waive"));
    ord!(coast_on_army_ok, "A Spa/nc H", Some("A Spa/nc H"));
    ord!(two_orders_no_separator, "A Par - Bur A Mar - Spa", None);
    ord!(support_route, "A Mar S A Par - Bur - Mun", None);
    ord!(bare_coast_letter, "F Spa s H", None);
    ord!(empty, "", None);

    // A results listing's lines, as njudge and dipjudge print them.
    ord!(
        listed_move,
        "Austria: Army Budapest -> Serbia.",
        Some("A Bud - Ser")
    );
    ord!(
        listed_support_adjective,
        "Army Bulgaria SUPPORT English Army Edinburgh -> Rumania.",
        Some("A Bul S A Edi - Rum")
    );
    ord!(listed_hold, "Fleet Trieste HOLD.", Some("F Tri H"));
    ord!(
        listed_bounce,
        "France: Army Paris -> Burgundy.  (*bounce*)",
        Some("A Par - Bur")
    );
    ord!(
        listed_outcome_after_coast,
        "Russia: Fleet Sevastopol SUPPORT Turkish Fleet Ankara.  (*cut*)",
        Some("F Sev S F Ank")
    );
    ord!(
        listed_retreat_destroyed,
        "Austria: Army Vienna -> Bohemia (*bounce, destroyed*).",
        Some("A Vie - Boh")
    );
    ord!(
        listed_no_order,
        "Italy: Army Venice, No Order Processed.",
        Some("A Ven H")
    );
    ord!(
        listed_no_retreat,
        "Italy: Army Rome, No Order Processed (DISBAND).",
        Some("A Rom D")
    );
    ord!(
        listed_build_coast_after_stop,
        "Russia: Builds a fleet in St Petersburg. (north coast)",
        Some("Build F StP/nc")
    );
    ord!(
        listed_removal_sea,
        "Turkey: Removes the fleet in the Black Sea.",
        Some("Remove F BLA")
    );
    ord!(listed_waive, "England: Build waived.", Some("Waive"));
    ord!(builds_a_unit, "Builds A Par", Some("Build A Par"));
    ord!(prefix_not_a_power, "Atlantis: A Par H", None);
    ord!(outcome_unclosed, "A Par - Bur (*bounce", None);

    // Full stops and the owner of another unit, as players write them.
    ord!(stop_after_hold, "A Par H.", Some("A Par H"));
    ord!(stop_after_disband, "A Par DISBAND.", Some("A Par D"));
    ord!(stop_after_coast, "F Mao - Spa/nc.", Some("F MAO - Spa/nc"));
    ord!(two_stops, "A Par H..", None);
    ord!(
        support_adjective_short,
        "F Lon S English A Yor - Edi",
        Some("F Lon S A Yor - Edi")
    );
    ord!(
        support_initial_parens,
        "F Lon S (E) F Edi",
        Some("F Lon S F Edi")
    );
    ord!(
        support_initial_before_kind,
        "F Lon S E F Edi",
        Some("F Lon S F Edi")
    );
    ord!(
        support_power_name,
        "F Lon S England F Edi",
        Some("F Lon S F Edi")
    );
    ord!(
        support_initial_is_army,
        "F Lon S A Edi",
        Some("F Lon S A Edi")
    );
    ord!(
        convoy_adjective,
        "F Nth C French A Bel - Lon",
        Some("F NTH C A Bel - Lon")
    );
    // `Eng` is England's code and the English Channel's: a unit after it makes it a power.
    ord!(
        support_code_as_province,
        "F Wal S Eng - Bel",
        Some("F Wal S ENG - Bel")
    );
    ord!(
        support_code_as_power,
        "F Wal S ENG F Lon",
        Some("F Wal S F Lon")
    );

    // A route inside a support or convoy order: sea areas only.
    ord!(
        convoy_route,
        "F Nth C A Lon - Nth - Bel",
        Some("F NTH C A Lon - Bel")
    );
    ord!(
        support_route_by_sea,
        "A Yor S A Lon - Nth - Bel",
        Some("A Yor S A Lon - Bel")
    );
    ord!(
        convoy_long_route,
        "F Mao C A Lon -> English Channel -> Mid-Atlantic Ocean -> Portugal.",
        Some("F MAO C A Lon - Por")
    );
}
