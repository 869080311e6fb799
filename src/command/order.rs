//! Orders (grammar/orders.md): movement, retreat and adjustment orders in the njudge and
//! DPjudge forms players write, read into [`rules::Order`](crate::rules::Order) values. An
//! order of the game's rule set written after a unit is its grammar's to read
//! ([`Grammar::unit_order`]).

use nom::Parser;
use nom::branch::alt;

use crate::map::{Location, Map, ProvinceId};
use crate::rules::{Order, UnitKind, UnitSpec};

use super::Command;
use super::grammar::Grammar;
use super::lexeme::{
    PResult, Why, blanks, cut, end_of_line, expect, fail, location, one_of, opt_dash,
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

// order = waive | build_order | remove_order | disband_order | unit_order ;
pub(crate) fn order<'a>(
    map: &Map,
    grammar: Option<&dyn Grammar>,
    i: &'a str,
) -> PResult<'a, Command> {
    // `alt` keeps the failure that read furthest (see `PErr::or`).
    alt((
        |j| waive(map, j),
        |j| build_order(map, j),
        |j| remove_order(map, j),
        |j| disband_order(map, j),
        |j| unit_order(map, grammar, j),
    ))
    .parse(blanks(i))
}

fn order_cmd(o: Order) -> Command {
    Command::Order(OrderCommand::new(o))
}

// waive = "WAIVE" | "WAIVES" | "BUILD WAIVE" | "B WAIVE" ;
fn waive<'a>(_map: &Map, i: &'a str) -> PResult<'a, Command> {
    let i = one_of(&["build", "b"], "BUILD")(i).map_or(i, |(r, _)| r);
    let (rest, _) = one_of(&["waives", "waive"], "WAIVE")(i)?;
    let (rest, _) = end_of_line(rest)?;
    Ok((rest, order_cmd(Order::Waive)))
}

// build_order = ( "BUILD" | "B" | "+" ) unit_kind [ dash ] location ;
fn build_order<'a>(map: &Map, i: &'a str) -> PResult<'a, Command> {
    let (rest, _) = one_of(&["build", "b", "+"], "BUILD")(i)?;
    let (rest, kind) = cut(expect("a unit type (A or F)", unit_kind)(rest))?;
    let (rest, l) = cut(expect("a province", |j| location(map, j))(opt_dash(rest)))?;
    let (rest, _) = cut(end_of_line(rest))?;
    Ok((
        rest,
        order_cmd(Order::Build {
            unit: UnitSpec::new(Some(kind), l),
        }),
    ))
}

// remove_order = ( "REMOVE" | "R" | "-" ) unit ;
fn remove_order<'a>(map: &Map, i: &'a str) -> PResult<'a, Command> {
    let (rest, _) = one_of(&["removes", "remove", "r", "-"], "REMOVE")(i)?;
    let (rest, u) = unit(map, rest)?;
    let (rest, _) = end_of_line(rest)?;
    Ok((rest, order_cmd(Order::Remove { unit: u })))
}

// disband_order = ( "DISBAND" | "D" ) unit ;
fn disband_order<'a>(map: &Map, i: &'a str) -> PResult<'a, Command> {
    let (rest, _) = one_of(&["disbands", "disband", "d"], "DISBAND")(i)?;
    let (rest, u) = unit(map, rest)?;
    let (rest, _) = end_of_line(rest)?;
    Ok((rest, order_cmd(Order::Disband { unit: u })))
}

// unit_order = unit ( rule_set_unit_order | hold | support | convoy | disband | remove
//                   | build | move ) ;
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
    let (rest, _) = end_of_line(rest)?;
    Ok((rest, order_cmd(Order::Hold { unit: u })))
}

// disband = "D" | "DISBAND" | "DISBANDS" ;
fn disband_suffix<'a>(_map: &Map, u: UnitSpec, i: &'a str) -> PResult<'a, Command> {
    let (rest, _) = one_of(&["disbands", "disband", "d"], "D")(i)?;
    let (rest, _) = end_of_line(rest)?;
    Ok((rest, order_cmd(Order::Disband { unit: u })))
}

// remove = "REMOVE" | "REMOVES" ;
fn remove_suffix<'a>(_map: &Map, u: UnitSpec, i: &'a str) -> PResult<'a, Command> {
    let (rest, _) = one_of(&["removes", "remove"], "REMOVE")(i)?;
    let (rest, _) = end_of_line(rest)?;
    Ok((rest, order_cmd(Order::Remove { unit: u })))
}

// build = "BUILD" | "BUILDS" ;   (the unit type must be written)
fn build_suffix<'a>(_map: &Map, u: UnitSpec, i: &'a str) -> PResult<'a, Command> {
    let (rest, _) = one_of(&["builds", "build"], "BUILD")(i)?;
    let (rest, _) = end_of_line(rest)?;
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
    let (rest, _) = end_of_line(rest)?;
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

// support = ( "S" | "SUP" | "SUPP" | "SUPPORT" | "SUPPORTS" ) unit
//           ( move_arrow location | [ hold ] ) ;
fn support_order<'a>(map: &Map, u: UnitSpec, i: &'a str) -> PResult<'a, Command> {
    let (rest, _) = one_of(&["supports", "support", "supp", "sup", "s"], "S (support)")(i)?;
    let (rest, target) = cut(unit(map, rest))?;
    if let Ok((r, _)) = move_arrow(rest) {
        let (r, dest) = cut(expect("a province", |j| location(map, j))(r))?;
        let (r, _) = cut(end_of_line(r))?;
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
        end_of_line,
    )(rest))?;
    Ok((rest, order_cmd(Order::SupportHold { unit: u, target })))
}

// convoy = ( "C" | "CONVOY" | "CONVOYS" | "T" | "TRANSPORT" | "TRANSPORTS" ) unit
//          move_arrow location ;
fn convoy_order<'a>(map: &Map, u: UnitSpec, i: &'a str) -> PResult<'a, Command> {
    let (rest, _) = one_of(
        &["convoys", "convoy", "c", "transports", "transport", "t"],
        "C (convoy)",
    )(i)?;
    let (rest, army) = cut(unit(map, rest))?;
    let (rest, _) = cut(expect("\"-\" and the army's destination", move_arrow)(rest))?;
    let (rest, dest) = cut(expect("a province", |j| location(map, j))(rest))?;
    let (rest, _) = cut(end_of_line(rest))?;
    Ok((
        rest,
        order_cmd(Order::Convoy {
            unit: u,
            army,
            dest,
        }),
    ))
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
}
