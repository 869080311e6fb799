//! Reads DATC-style case files (jDip/godip format plus the extensions of
//! `fixtures/README.md`) into [`Case`] values. Every error names the file's line.

use crate::map::{Location, Map, Power, ProvinceId, Terrain};
use crate::rules::{Order, Owner, Phase, PhaseKind, PowerOrder, Season, Unit, UnitKind, UnitSpec};

/// A case file that cannot be read: the line and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct CaseError {
    pub line: usize,
    pub reason: String,
}

fn err<T>(line: usize, reason: impl Into<String>) -> Result<T, CaseError> {
    Err(CaseError {
        line,
        reason: reason.into(),
    })
}

/// One expected order result: `SUCCESS: England: A lon - nth`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpectedResult {
    pub line: usize,
    pub success: bool,
    pub order: PowerOrder,
    pub text: String,
}

/// One expected list of retreat options: `England: A bur -> par gas`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpectedOptions {
    pub line: usize,
    pub unit: Unit,
    pub options: Vec<Location>,
}

/// One test case.
#[derive(Debug, Clone, Default)]
pub struct Case {
    pub name: String,
    pub line: usize,
    /// `VARIANT <name>` of the case, or the file's `VARIANT_ALL`.
    pub variant: String,
    pub settings: Vec<(String, String)>,
    pub phase: Option<Phase>,
    pub owners: Option<Vec<(Power, ProvinceId)>>,
    pub prestate: Vec<Unit>,
    pub dislodged: Vec<Unit>,
    pub prestate_results: Option<Vec<ExpectedResult>>,
    pub orders: Vec<(usize, PowerOrder)>,
    pub poststate: Option<Vec<Unit>>,
    pub poststate_same: bool,
    pub post_dislodged: Option<Vec<Unit>>,
    pub post_results: Option<Vec<ExpectedResult>>,
    pub post_options: Option<Vec<ExpectedOptions>>,
    pub post_owners: Option<Vec<(Power, ProvinceId)>>,
    pub post_phase: Option<Phase>,
    /// Variant sections (PRESTATE_VARIANT, COMMANDS, REPLIES, POSTSTATE_VARIANT, BULLETIN,
    /// NOT_PUBLIC): kept as lines for the variant that reads them.
    pub variant_sections: Vec<(String, Vec<(usize, String)>)>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Block {
    None,
    Owners,
    Prestate,
    Dislodged,
    PreResults,
    Orders,
    Poststate,
    PostDislodged,
    PostResults,
    PostOptions,
    PostOwners,
    Variant,
}

/// Strips a `#` comment and surrounding blanks.
fn clean(line: &str) -> &str {
    line.split('#').next().unwrap_or("").trim()
}

/// Reads `Spring 1901, Movement`, `Fall 1901, Adjustment` (= Winter), `Retreats`, or
/// njudge's `S1901M`.
pub fn parse_phase(text: &str) -> Option<Phase> {
    if let Some(p) = Phase::parse(text) {
        return Some(p);
    }
    let t = text.replace(',', " ").to_ascii_lowercase();
    let words: Vec<&str> = t.split_whitespace().collect();
    let [season, year, kind] = words.as_slice() else {
        return None;
    };
    let year: u16 = year.parse().ok()?;
    let kind = match *kind {
        "movement" | "move" | "moves" => PhaseKind::Movement,
        "retreat" | "retreats" => PhaseKind::Retreat,
        "adjustment" | "adjustments" | "build" | "builds" => PhaseKind::Adjustment,
        _ => return None,
    };
    let season = match (*season, kind) {
        (_, PhaseKind::Adjustment) => Season::Winter,
        ("spring", _) => Season::Spring,
        ("fall" | "autumn", _) => Season::Fall,
        _ => return None,
    };
    Some(Phase::new(year, season, kind))
}

/// `Power: rest`.
fn split_power(line: usize, text: &str) -> Result<(Power, &str), CaseError> {
    let Some((p, rest)) = text.split_once(':') else {
        return err(line, format!("expected \"Power: ...\", found {text:?}"));
    };
    match Power::from_name(p) {
        Some(power) => Ok((power, rest.trim())),
        None => err(line, format!("no power called {:?}", p.trim())),
    }
}

/// Splits an order into words: blanks around `-` and `->` are optional (`A lon-nth`), and
/// `stp(sc)` stays one word.
fn words(text: &str) -> Vec<String> {
    let spaced = text.replace("->", " - ").replace('-', " - ");
    spaced.split_whitespace().map(str::to_string).collect()
}

struct Words<'a> {
    map: &'a Map,
    line: usize,
    w: Vec<String>,
    at: usize,
}

impl Words<'_> {
    fn peek(&self) -> Option<&str> {
        self.w.get(self.at).map(String::as_str)
    }

    fn next(&mut self) -> Option<String> {
        let w = self.w.get(self.at).cloned();
        self.at += 1;
        w
    }

    fn is(&self, options: &[&str]) -> bool {
        self.peek()
            .is_some_and(|w| options.iter().any(|o| w.eq_ignore_ascii_case(o)))
    }

    fn location(&mut self) -> Result<Location, CaseError> {
        let Some(w) = self.next() else {
            return err(self.line, "expected a province, found the end of the line");
        };
        self.map
            .find_location(&w)
            .ok_or(())
            .or_else(|_| err(self.line, format!("no province or coast called {w:?}")))
    }

    fn unit_spec(&mut self) -> Result<UnitSpec, CaseError> {
        let kind = if self.is(&["a", "army"]) {
            self.at += 1;
            Some(UnitKind::Army)
        } else if self.is(&["f", "fleet"]) {
            self.at += 1;
            Some(UnitKind::Fleet)
        } else {
            None
        };
        Ok(UnitSpec::new(kind, self.location()?))
    }

    fn expect(&mut self, options: &[&str], what: &str) -> Result<(), CaseError> {
        if self.is(options) {
            self.at += 1;
            Ok(())
        } else {
            err(
                self.line,
                format!(
                    "expected {what}, found {:?}",
                    self.peek().unwrap_or("the end of the line")
                ),
            )
        }
    }

    fn done(&self) -> Result<(), CaseError> {
        match self.peek() {
            None => Ok(()),
            Some(w) => err(
                self.line,
                format!("unexpected {w:?} at the end of the order"),
            ),
        }
    }
}

/// Parses one order in case-file notation (a move in a retreat phase is a retreat).
pub fn parse_order(
    map: &Map,
    line: usize,
    text: &str,
    phase: PhaseKind,
) -> Result<Order, CaseError> {
    let mut w = Words {
        map,
        line,
        w: words(text),
        at: 0,
    };
    if w.is(&["waive"]) {
        w.at += 1;
        w.done()?;
        return Ok(Order::Waive);
    }
    if w.is(&["build", "b"]) {
        w.at += 1;
        let unit = w.unit_spec()?;
        w.done()?;
        return Ok(Order::Build { unit });
    }
    if w.is(&["remove", "r"]) || (w.is(&["disband"]) && phase == PhaseKind::Adjustment) {
        w.at += 1;
        let unit = w.unit_spec()?;
        w.done()?;
        return Ok(Order::Remove { unit });
    }
    let unit = w.unit_spec()?;
    let order = if w.peek().is_none() || w.is(&["h", "hold", "holds"]) {
        w.at += 1;
        Order::Hold { unit }
    } else if w.is(&["-"]) {
        w.at += 1;
        let dest = w.location()?;
        let via_convoy = if w.is(&["via"]) {
            w.at += 1;
            w.expect(&["convoy"], "\"convoy\" after \"via\"")?;
            true
        } else {
            false
        };
        match phase {
            PhaseKind::Retreat => Order::Retreat { unit, dest },
            _ => Order::Move {
                unit,
                dest,
                via_convoy,
            },
        }
    } else if w.is(&["s", "support", "supports"]) {
        w.at += 1;
        let target = w.unit_spec()?;
        if w.is(&["-"]) {
            w.at += 1;
            let dest = w.location()?;
            Order::SupportMove { unit, target, dest }
        } else {
            if w.is(&["h", "hold"]) {
                w.at += 1;
            }
            Order::SupportHold { unit, target }
        }
    } else if w.is(&["c", "convoy", "convoys"]) {
        w.at += 1;
        let army = w.unit_spec()?;
        w.expect(&["-"], "\"-\" and the destination of the convoy")?;
        let dest = w.location()?;
        Order::Convoy { unit, army, dest }
    } else if w.is(&["d", "disband"]) {
        w.at += 1;
        match phase {
            PhaseKind::Adjustment => Order::Remove { unit },
            _ => Order::Disband { unit },
        }
    } else {
        return err(
            line,
            format!(
                "expected H, -, S, C or D after the unit, found {:?}",
                w.peek().unwrap_or("")
            ),
        );
    };
    w.done()?;
    Ok(order)
}

/// `A lon`, `F stp/sc`: a unit on the board. Checks that it can stand there.
fn parse_unit(map: &Map, line: usize, power: Owner, text: &str) -> Result<Unit, CaseError> {
    let mut w = Words {
        map,
        line,
        w: words(text),
        at: 0,
    };
    let spec = w.unit_spec()?;
    w.done()?;
    let Some(kind) = spec.kind else {
        return err(line, "a unit needs its kind: A or F");
    };
    let p = map.province(spec.province());
    let name = map.location_name(spec.location);
    match kind {
        UnitKind::Army if p.terrain == Terrain::Sea => {
            return err(line, format!("an army cannot stand in {name}"));
        }
        UnitKind::Fleet if p.terrain == Terrain::Land => {
            return err(line, format!("a fleet cannot stand in {name}"));
        }
        UnitKind::Fleet if !p.coasts.is_empty() && spec.location.coast.is_none() => {
            return err(line, format!("a fleet in {name} must name its coast"));
        }
        _ => {}
    }
    let location = match kind {
        // An army has no coast.
        UnitKind::Army => Location::province(spec.province()),
        UnitKind::Fleet => spec.location,
    };
    Ok(Unit::new(power, kind, location))
}

fn parse_owners(map: &Map, line: usize, text: &str) -> Result<Vec<(Power, ProvinceId)>, CaseError> {
    let (power, rest) = split_power(line, text)?;
    let mut out = Vec::new();
    for w in rest.split(|c: char| c.is_whitespace() || c == ',') {
        if w.is_empty() || w.eq_ignore_ascii_case("sc") {
            continue;
        }
        let Some(p) = map.find_province(w) else {
            return err(line, format!("no province called {w:?}"));
        };
        if !map.province(p).supply_centre {
            return err(
                line,
                format!("{} is not a supply centre", map.province(p).name),
            );
        }
        out.push((power, p));
    }
    Ok(out)
}

fn parse_result(
    map: &Map,
    line: usize,
    text: &str,
    phase: PhaseKind,
) -> Result<ExpectedResult, CaseError> {
    let (verdict, rest) = text
        .split_once(':')
        .ok_or(())
        .or_else(|_| err(line, "expected SUCCESS: or FAILURE:"))?;
    let success = match verdict.trim().to_ascii_uppercase().as_str() {
        "SUCCESS" => true,
        "FAILURE" => false,
        v => return err(line, format!("expected SUCCESS or FAILURE, found {v:?}")),
    };
    let (power, order_text) = split_power(line, rest.trim())?;
    let order = parse_order(map, line, order_text, phase)?;
    Ok(ExpectedResult {
        line,
        success,
        order: PowerOrder::new(power, order),
        text: text.trim().to_string(),
    })
}

fn parse_options(map: &Map, line: usize, text: &str) -> Result<ExpectedOptions, CaseError> {
    let (power, rest) = split_power(line, text)?;
    let (unit_text, options) = match rest.split_once("->") {
        Some((u, o)) => (u, o),
        None => return err(line, "expected \"Power: A bur -> par gas\""),
    };
    let unit = parse_unit(map, line, Owner::Power(power), unit_text)?;
    let mut opts = Vec::new();
    for w in options.split_whitespace() {
        match map.find_location(w) {
            Some(l) => opts.push(l),
            None => return err(line, format!("no province or coast called {w:?}")),
        }
    }
    Ok(ExpectedOptions {
        line,
        unit,
        options: opts,
    })
}

/// Reads every case of a file.
pub fn parse_cases(map: &Map, text: &str) -> Result<Vec<Case>, CaseError> {
    let mut cases = Vec::new();
    let mut variant_all = "Standard".to_string();
    let mut case: Option<Case> = None;
    let mut block = Block::None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let raw = raw.trim_start_matches('\u{feff}');
        let t = clean(raw);
        if t.is_empty() {
            continue;
        }
        let (keyword, arg) = match t.split_once(char::is_whitespace) {
            Some((k, a)) => (k, a.trim()),
            None => (t, ""),
        };
        let is_keyword =
            keyword.chars().all(|c| c.is_ascii_uppercase() || c == '_') && keyword.len() > 2;
        if is_keyword {
            let need_case = |case: &mut Option<Case>| -> Result<(), CaseError> {
                if case.is_none() {
                    return err(
                        line,
                        format!("{keyword} outside a case (CASE must come first)"),
                    );
                }
                Ok(())
            };
            match keyword {
                "VARIANT_ALL" => {
                    variant_all = arg.to_string();
                    continue;
                }
                "CASE" => {
                    if case.is_some() {
                        return err(line, "CASE before the END of the previous case");
                    }
                    let name = arg.split_whitespace().next().unwrap_or("").to_string();
                    if name.is_empty() {
                        return err(line, "CASE needs a name");
                    }
                    case = Some(Case {
                        name,
                        line,
                        variant: variant_all.clone(),
                        ..Case::default()
                    });
                    block = Block::None;
                    continue;
                }
                "END" => {
                    need_case(&mut case)?;
                    if let Some(c) = case.take() {
                        if c.phase.is_none() {
                            return err(
                                c.line,
                                format!("case {} has no PRESTATE_SETPHASE", c.name),
                            );
                        }
                        cases.push(c);
                    }
                    block = Block::None;
                    continue;
                }
                _ => {}
            }
            need_case(&mut case)?;
            let Some(c) = case.as_mut() else { continue };
            block =
                match keyword {
                    "VARIANT" => {
                        c.variant = arg.to_string();
                        Block::Variant
                    }
                    "SETTING" => {
                        let Some((k, v)) = arg.split_once('=') else {
                            return err(line, "expected SETTING key=value");
                        };
                        c.settings
                            .push((k.trim().to_string(), v.trim().to_string()));
                        continue;
                    }
                    "PRESTATE_SETPHASE" => {
                        c.phase =
                            Some(parse_phase(arg).ok_or(()).or_else(|_| {
                                err(line, format!("cannot read the phase {arg:?}"))
                            })?);
                        Block::None
                    }
                    "POSTSTATE_SETPHASE" => {
                        c.post_phase =
                            Some(parse_phase(arg).ok_or(()).or_else(|_| {
                                err(line, format!("cannot read the phase {arg:?}"))
                            })?);
                        Block::None
                    }
                    "PRESTATE_SUPPLYCENTER_OWNERS" => {
                        c.owners = Some(Vec::new());
                        Block::Owners
                    }
                    "PRESTATE" => Block::Prestate,
                    "PRESTATE_DISLODGED" => Block::Dislodged,
                    "PRESTATE_RESULTS" => {
                        c.prestate_results = Some(Vec::new());
                        Block::PreResults
                    }
                    "ORDERS" => Block::Orders,
                    "POSTSTATE" => {
                        c.poststate = Some(Vec::new());
                        Block::Poststate
                    }
                    "POSTSTATE_SAME" => {
                        c.poststate_same = true;
                        Block::None
                    }
                    "POSTSTATE_DISLODGED" => {
                        c.post_dislodged = Some(Vec::new());
                        Block::PostDislodged
                    }
                    "POSTSTATE_RESULTS" => {
                        c.post_results = Some(Vec::new());
                        Block::PostResults
                    }
                    "POSTSTATE_RETREAT_OPTIONS" => {
                        c.post_options = Some(Vec::new());
                        Block::PostOptions
                    }
                    "POSTSTATE_SUPPLYCENTER_OWNERS" => {
                        c.post_owners = Some(Vec::new());
                        Block::PostOwners
                    }
                    "PRESTATE_VARIANT" | "COMMANDS" | "REPLIES" | "POSTSTATE_VARIANT"
                    | "BULLETIN" | "NOT_PUBLIC" => {
                        c.variant_sections.push((keyword.to_string(), Vec::new()));
                        Block::Variant
                    }
                    k => return err(line, format!("unknown keyword {k}")),
                };
            if !arg.is_empty()
                && !matches!(
                    keyword,
                    "VARIANT" | "PRESTATE_SETPHASE" | "POSTSTATE_SETPHASE"
                )
            {
                return err(line, format!("{keyword} takes no argument on its line"));
            }
            continue;
        }
        let Some(c) = case.as_mut() else {
            return err(line, format!("{t:?} outside a case"));
        };
        let phase_kind = c.phase.map(|p| p.kind).unwrap_or(PhaseKind::Movement);
        match block {
            Block::None => return err(line, format!("{t:?} is not in any block")),
            Block::Owners => {
                let owners = parse_owners(map, line, t)?;
                c.owners.get_or_insert_with(Vec::new).extend(owners);
            }
            Block::PostOwners => {
                let owners = parse_owners(map, line, t)?;
                c.post_owners.get_or_insert_with(Vec::new).extend(owners);
            }
            Block::Prestate | Block::Dislodged | Block::Poststate | Block::PostDislodged => {
                let (power, rest) = split_power(line, t)?;
                let unit = parse_unit(map, line, Owner::Power(power), rest)?;
                let list = match block {
                    Block::Prestate => &mut c.prestate,
                    Block::Dislodged => &mut c.dislodged,
                    Block::Poststate => c.poststate.get_or_insert_with(Vec::new),
                    _ => c.post_dislodged.get_or_insert_with(Vec::new),
                };
                if matches!(block, Block::Prestate | Block::Poststate)
                    && list
                        .iter()
                        .any(|u| u.location.province == unit.location.province)
                {
                    return err(
                        line,
                        format!("two units in {}", map.province(unit.location.province).name),
                    );
                }
                list.push(unit);
            }
            Block::PreResults => {
                let r = parse_result(map, line, t, PhaseKind::Movement)?;
                c.prestate_results.get_or_insert_with(Vec::new).push(r);
            }
            Block::PostResults => {
                let r = parse_result(map, line, t, phase_kind)?;
                c.post_results.get_or_insert_with(Vec::new).push(r);
            }
            Block::PostOptions => {
                let o = parse_options(map, line, t)?;
                c.post_options.get_or_insert_with(Vec::new).push(o);
            }
            Block::Orders => {
                let (power, rest) = split_power(line, t)?;
                let order = parse_order(map, line, rest, phase_kind)?;
                c.orders.push((line, PowerOrder::new(power, order)));
            }
            Block::Variant => {
                if let Some((_, lines)) = c.variant_sections.last_mut() {
                    lines.push((line, t.to_string()));
                } else {
                    // Lines right after `VARIANT name` (settings written without SETTING).
                    c.variant_sections
                        .push(("VARIANT".into(), vec![(line, t.to_string())]));
                }
            }
        }
    }
    if let Some(c) = case {
        return err(c.line, format!("case {} has no END", c.name));
    }
    Ok(cases)
}
