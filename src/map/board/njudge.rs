//! njudge's own map and seed files, read as njudge's `cmap` and `po_init.c` read them
//! (`docs/njudgeMapFileHOWTO.txt` in njudge), into a board's map data. Pure: it takes the
//! files' texts, and every refusal names the file and line.
//!
//! The map file has three parts, each ended by a line starting with `-`:
//!
//! 1. Areas, one a line: `Full Name, T abbr abbr…`. `T` is `w` (water), `v` (water iced
//!    over in the fall), `l` (land), `x` (a neutral supply centre), a power's letter (its
//!    home centre), `g` (a gateway) or `r` (a railway); a `w` right after a land type marks
//!    a province a convoy may pass through (njudge's duality). The first abbreviation is the
//!    province's code, the others are aliases.
//! 2. Moves, one line per area and kind: `abc-mv: …` (armies), `abc-xc: …` (fleets),
//!    `abc-nc: …` (fleets from that coast; also `sc`, `ec`, `wc`); a target may name its
//!    coast (`bul/sc`) or be a Loeb9 crossing (`naf/mx`). Every move must be listed back
//!    from its target; an area whose only move is to itself is impassable.
//! 3. Options: the centre order (`C…`), Hong Kong (`H…`), gateways (`G…`) and railways
//!    (`R…`) sections. Machiavelli's tables, half-strength moves and the other njudge
//!    rules no shipped board needs are refused with a sentence.
//!
//! The seed file: the first phase (`S1901M`), units (`E: F London`) up to a `-1` line,
//! then either another `-1` line (owners from the home centres) or an ownership record,
//! one character per area in map order (`.` for none), and a `-1` line.
//!
//! Lines a part does not read (comments) start with anything but a letter or digit, as in
//! njudge.

use std::collections::{BTreeMap, BTreeSet};

use super::check::{Names, home_owners, province_index, unit_may_stand};
use super::toml_file::power_by_letter;
use super::{
    BoardCoast, BoardError, BoardPower, BoardProvince, Borders, Centre, FirstPhase, Gateway,
    Geography, HongKong, MAX_PROVINCES, Place, PowerIndex, ProvinceIndex, Railway, StartingUnit,
};
use crate::map::names::split_coast;
use crate::map::{Terrain, UnitKindData};

/// An area of the map file, as its first part gives it.
#[derive(Debug)]
struct Area {
    name: String,
    /// The abbreviations, the first being the code (lowercased).
    abbreviations: Vec<String>,
    kind: AreaKind,
    convoy_through: bool,
    line: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AreaKind {
    Sea { ice: bool },
    Land(Centre),
    Gateway,
    Railway,
}

/// Where a move line starts: a whole area, or one coast of it (fleets).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct End {
    area: usize,
    coast: Option<BoardCoast>,
}

/// The moves of the map file, each direction apart, with the line listing it.
#[derive(Debug, Default)]
struct Moves {
    army: BTreeMap<(usize, usize), usize>,
    crossing: BTreeMap<(usize, usize), usize>,
    fleet: BTreeMap<(End, End), usize>,
    /// Areas with a move line (an area without one is refused, as njudge does).
    listed: BTreeSet<usize>,
    /// Coasts each area's lines name.
    coasts: BTreeMap<usize, BTreeSet<BoardCoast>>,
}

/// What the options part gives.
#[derive(Debug, Default)]
struct Options {
    /// Areas, each with its line.
    centre_order: Vec<(usize, usize)>,
    /// A power, its areas, the line.
    hong_kong: Vec<(PowerIndex, Vec<usize>, usize)>,
    /// Gateway area, controller, the two areas it joins; line.
    gateways: Vec<(usize, usize, (usize, usize), usize)>,
    /// Railway area, powers, route; line.
    railways: Vec<(usize, Vec<PowerIndex>, Vec<usize>, usize)>,
}

/// A file's lines with their 1-based numbers.
type Lines<'t> = std::vec::IntoIter<(usize, &'t str)>;

fn numbered(text: &str) -> Lines<'_> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .collect::<Vec<_>>()
        .into_iter()
}

/// Whether a line is data in the areas and moves parts (njudge reads lines starting with a
/// letter or digit; the rest are comments).
fn is_data(line: &str) -> bool {
    line.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric())
}

/// Reads njudge's map file `(name, text)` and seed file `(name, text)` for a board whose
/// powers are `powers` (their letters are the ones the files use).
pub(crate) fn parse(
    map: (&str, &str),
    seed: (&str, &str),
    powers: &[BoardPower],
) -> Result<Geography, BoardError> {
    let (map_file, map_text) = map;
    let mut lines = numbered(map_text);
    let mut names = Names::default();
    let areas = areas(map_file, &mut lines, &mut names, powers)?;
    let moves = moves(map_file, &mut lines, &names, &areas)?;
    let options = options(map_file, &mut lines, &names, &areas, powers)?;
    let (provinces, index) = provinces(map_file, &areas, &moves)?;
    let borders = borders(map_file, &areas, &moves, &index, &provinces)?;
    let to_index = |a: usize| index.get(&a).copied();
    let (first_phase, units, owners) =
        seed_file(seed, &names, &areas, &provinces, &to_index, powers)?;
    let mut geography = Geography {
        provinces,
        borders,
        units,
        owners,
        first_phase: Some(first_phase),
        ..Geography::default()
    };
    let province_of = |a: usize, line: usize| {
        to_index(a).ok_or_else(|| {
            BoardError::at(
                map_file,
                line,
                format!("{} is no province", area_name(&areas, a)),
            )
        })
    };
    for (a, line) in options.centre_order {
        let p = province_of(a, line)?;
        geography.centre_order.push(p);
    }
    for (power, list, line) in options.hong_kong {
        let provinces = list
            .into_iter()
            .map(|a| province_of(a, line))
            .collect::<Result<Vec<_>, _>>()?;
        geography.hong_kong.push(HongKong { power, provinces });
    }
    let gateway_areas: Vec<usize> = options.gateways.iter().map(|g| g.0).collect();
    let railway_areas: Vec<usize> = options.railways.iter().map(|r| r.0).collect();
    for (i, area) in areas.iter().enumerate() {
        let listed = match area.kind {
            AreaKind::Gateway => gateway_areas.contains(&i),
            AreaKind::Railway => railway_areas.contains(&i),
            _ => true,
        };
        if !listed {
            return Err(BoardError::at(
                map_file,
                area.line,
                format!(
                    "{} is a gateway or railway, but no Gateway or Railway section describes it",
                    area.name
                ),
            ));
        }
    }
    for (g, controller, (a, b), line) in options.gateways {
        let Some(area) = areas.get(g) else { continue };
        let (code, aliases) = code_and_aliases(area);
        geography.gateways.push(Gateway {
            code,
            name: area.name.clone(),
            aliases,
            controller: province_of(controller, line)?,
            between: (province_of(a, line)?, province_of(b, line)?),
        });
    }
    for (r, powers, route, line) in options.railways {
        let Some(area) = areas.get(r) else { continue };
        let (code, aliases) = code_and_aliases(area);
        geography.railways.push(Railway {
            code,
            name: area.name.clone(),
            aliases,
            powers,
            route: route
                .into_iter()
                .map(|a| province_of(a, line))
                .collect::<Result<Vec<_>, _>>()?,
        });
    }
    Ok(geography)
}

fn area_name(areas: &[Area], a: usize) -> &str {
    areas.get(a).map_or("?", |x| x.name.as_str())
}

fn code_and_aliases(area: &Area) -> (String, Vec<String>) {
    let mut it = area.abbreviations.iter();
    let code = it
        .next()
        .map(|c| c.to_ascii_lowercase())
        .unwrap_or_default();
    (code, it.cloned().collect())
}

/// The first part: `Full Name, T abbr abbr…`.
fn areas(
    file: &str,
    lines: &mut Lines<'_>,
    names: &mut Names,
    powers: &[BoardPower],
) -> Result<Vec<Area>, BoardError> {
    let mut areas: Vec<Area> = Vec::new();
    for (line, text) in lines.by_ref() {
        if text.starts_with('-') {
            return Ok(areas);
        }
        if !is_data(text) {
            continue;
        }
        let err = |reason: String| Err(BoardError::at(file, line, reason));
        let Some((name, rest)) = text.split_once(',') else {
            return err("expected 'Full Name, type abbreviation …': there is no comma".into());
        };
        let name = name.trim();
        let rest = rest.trim_start();
        let mut chars = rest.chars();
        let Some(kind) = chars.next() else {
            return err(format!("{name} has no area type and no abbreviation"));
        };
        let after = chars.as_str();
        let (second, after) = match after.chars().next() {
            Some(c) if !c.is_whitespace() => (Some(c), after.get(c.len_utf8()..).unwrap_or("")),
            _ => (None, after),
        };
        if after.chars().next().is_some_and(|c| !c.is_whitespace())
            || second.is_some_and(|c| c.is_ascii_digit())
        {
            return err(format!(
                "{name}: Machiavelli's city data after the area type is not supported"
            ));
        }
        let kind = match kind {
            'w' => AreaKind::Sea { ice: false },
            'v' => AreaKind::Sea { ice: true },
            'l' => AreaKind::Land(Centre::None),
            'x' => AreaKind::Land(Centre::Neutral),
            'g' => AreaKind::Gateway,
            'r' => AreaKind::Railway,
            'h' => {
                return err(format!(
                    "{name}: njudge's high seas (type 'h', no bounces) are not supported"
                ));
            }
            c if c.is_ascii_uppercase() || c.is_ascii_digit() => match power_by_letter(powers, c) {
                Some(p) => AreaKind::Land(Centre::Home(p)),
                None => {
                    return err(format!(
                        "{name} is a home centre of {c}, but no power of the board has that letter ({})",
                        powers.iter().map(|p| p.letter).collect::<String>()
                    ));
                }
            },
            c => return err(format!("{name}: unknown area type {c:?}")),
        };
        let convoy_through = match second {
            None => false,
            Some('w') if matches!(kind, AreaKind::Land(_)) => true,
            Some(c) => {
                return err(format!(
                    "{name}: the type {c:?} after the area type is not supported here"
                ));
            }
        };
        let abbreviations: Vec<String> = after.split_whitespace().map(str::to_string).collect();
        if abbreviations.is_empty() {
            return err(format!("{name} has no abbreviation"));
        }
        if name.is_empty() {
            return err("an area without a name".into());
        }
        if areas.len() >= MAX_PROVINCES {
            return err(format!("more than {MAX_PROVINCES} areas"));
        }
        let me = areas.len();
        for n in std::iter::once(name).chain(abbreviations.iter().map(String::as_str)) {
            if let Err(other) = names.insert(n, me) {
                let other = areas.get(other);
                return err(format!(
                    "{n:?} already names {} (line {})",
                    other.map_or("?", |o| o.name.as_str()),
                    other.map_or(0, |o| o.line)
                ));
            }
        }
        areas.push(Area {
            name: name.to_string(),
            abbreviations,
            kind,
            convoy_through,
            line,
        });
    }
    Err(BoardError::file(
        file,
        "the map file ends before the '-1' line that ends its areas",
    ))
}

/// The second part: `abc-mv: …`, `abc-xc: …`, `abc-nc: …`.
fn moves(
    file: &str,
    lines: &mut Lines<'_>,
    names: &Names,
    areas: &[Area],
) -> Result<Moves, BoardError> {
    let mut moves = Moves::default();
    for (line, text) in lines.by_ref() {
        if text.starts_with('-') {
            return Ok(moves);
        }
        if !is_data(text) {
            continue;
        }
        let err = |reason: String| Err(BoardError::at(file, line, reason));
        let mut words = text.splitn(2, char::is_whitespace);
        let head = words.next().unwrap_or("").trim_end_matches(':');
        let rest = words.next().unwrap_or("");
        let Some((from, kind)) = head.rsplit_once('-') else {
            return err(format!(
                "expected 'abc-mv:' or 'abc-xc:' at the start of a move line, found {head:?}"
            ));
        };
        let Some(from) = names.find(from) else {
            return err(format!("unknown area {from:?}"));
        };
        let from_kind = areas.get(from).map(|a| a.kind);
        if matches!(from_kind, Some(AreaKind::Gateway | AreaKind::Railway)) {
            // njudge gives gateways and railways no moves of their own.
            continue;
        }
        let fleet_from = match kind.to_ascii_lowercase().as_str() {
            "mv" => None,
            "xc" => Some(None),
            "cc" => {
                return err("Machiavelli's controlled conduits ('-cc') are not supported".into());
            }
            k => match BoardCoast::from_text(k).filter(|_| k.len() == 2) {
                Some(c) => Some(Some(c)),
                None => {
                    return err(format!(
                        "unknown move kind {kind:?} (mv, xc, nc, sc, ec, wc)"
                    ));
                }
            },
        };
        moves.listed.insert(from);
        if let Some(Some(c)) = fleet_from {
            moves.coasts.entry(from).or_default().insert(c);
        }
        for word in rest.split(|c: char| c.is_whitespace() || c == ',') {
            if word.is_empty() {
                continue;
            }
            let (to_text, modifier) = match word.split_once('/') {
                Some((t, m)) => (t, Some(m.to_ascii_lowercase())),
                None => (word, None),
            };
            let Some(to) = names.find(to_text) else {
                return err(format!("unknown area {to_text:?}"));
            };
            if matches!(
                areas.get(to).map(|a| a.kind),
                Some(AreaKind::Gateway | AreaKind::Railway)
            ) {
                return err(format!(
                    "{} is a gateway or railway: no move leads into it",
                    area_name(areas, to)
                ));
            }
            let (coast, crossing) = match modifier.as_deref() {
                None | Some("xc") => (None, false),
                Some("mx") => (None, true),
                Some("hx" | "lx") => {
                    return err(format!(
                        "{word}: njudge's half-strength moves (1900's '/hx', '/lx') are not supported"
                    ));
                }
                Some("cc") => {
                    return err(format!(
                        "{word}: Machiavelli's controlled conduits are not supported"
                    ));
                }
                Some(m) => match BoardCoast::from_text(m).filter(|_| m.len() == 2) {
                    Some(c) => (Some(c), false),
                    None => return err(format!("{word}: unknown coast or modifier {m:?}")),
                },
            };
            match fleet_from {
                None => {
                    if coast.is_some() {
                        return err(format!("{word}: an army move names a coast"));
                    }
                    if from == to {
                        continue;
                    }
                    let set = if crossing {
                        &mut moves.crossing
                    } else {
                        &mut moves.army
                    };
                    set.entry((from, to)).or_insert(line);
                }
                Some(from_coast) => {
                    if crossing {
                        return err(format!("{word}: only armies make Loeb9 crossings ('/mx')"));
                    }
                    if let Some(c) = coast {
                        moves.coasts.entry(to).or_default().insert(c);
                    }
                    if from == to {
                        continue;
                    }
                    let key = (
                        End {
                            area: from,
                            coast: from_coast,
                        },
                        End { area: to, coast },
                    );
                    moves.fleet.entry(key).or_insert(line);
                }
            }
        }
    }
    Err(BoardError::file(
        file,
        "the map file ends before the '-1' line that ends its moves",
    ))
}

/// The third part, read as njudge's `cmap` reads it: a line's first character says what
/// follows; each section's closing line is read with it.
fn options(
    file: &str,
    lines: &mut Lines<'_>,
    names: &Names,
    areas: &[Area],
    powers: &[BoardPower],
) -> Result<Options, BoardError> {
    let mut options = Options::default();
    let find = |word: &str, line: usize| {
        names
            .find(word)
            .ok_or_else(|| BoardError::at(file, line, format!("unknown area {word:?}")))
    };
    let letters = |text: &str, line: usize| -> Result<Vec<PowerIndex>, BoardError> {
        text.chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| {
                power_by_letter(powers, c).ok_or_else(|| {
                    BoardError::at(file, line, format!("{c:?} is no power's letter"))
                })
            })
            .collect()
    };
    while let Some((line, text)) = lines.next() {
        let first = text.chars().next();
        match first {
            Some('-') => return Ok(options),
            None | Some('#' | ' ' | '\t' | '\r') => {}
            Some('C') => {
                // Lines starting with a blank list centres; the first other line ends it.
                for (line, text) in lines.by_ref() {
                    if !text.starts_with(char::is_whitespace) {
                        break;
                    }
                    for word in text.split(|c: char| c.is_whitespace() || c == ',') {
                        if !word.is_empty() {
                            options.centre_order.push((find(word, line)?, line));
                        }
                    }
                }
            }
            Some(c @ ('H' | 'G' | 'R')) => {
                // Entries start in the first column; a blank or '#' line ends the section.
                for (line, text) in lines.by_ref() {
                    if text.is_empty()
                        || text.starts_with(char::is_whitespace)
                        || text.starts_with('#')
                    {
                        break;
                    }
                    let err = |reason: String| Err(BoardError::at(file, line, reason));
                    let Some((head, rest)) = text.split_once(':') else {
                        return err(format!("expected 'name: …' in the {} section", section(c)));
                    };
                    let mut words = rest.split_whitespace();
                    match c {
                        'H' => {
                            let provinces = words
                                .map(|w| find(w, line))
                                .collect::<Result<Vec<_>, _>>()?;
                            for power in letters(head, line)? {
                                options.hong_kong.push((power, provinces.clone(), line));
                            }
                        }
                        'G' => {
                            let gateway = find(head.trim(), line)?;
                            if areas.get(gateway).map(|a| a.kind) != Some(AreaKind::Gateway) {
                                return err(format!("{} is no gateway (type 'g')", head.trim()));
                            }
                            let list = words
                                .map(|w| find(w, line))
                                .collect::<Result<Vec<_>, _>>()?;
                            let [controller, a, b] = list.as_slice() else {
                                return err(
                                    "a gateway names its controller and the two areas it joins"
                                        .into(),
                                );
                            };
                            options
                                .gateways
                                .push((gateway, *controller, (*a, *b), line));
                        }
                        _ => {
                            let railway = find(head.trim(), line)?;
                            if areas.get(railway).map(|a| a.kind) != Some(AreaKind::Railway) {
                                return err(format!("{} is no railway (type 'r')", head.trim()));
                            }
                            let who = letters(words.next().unwrap_or(""), line)?;
                            let route = words
                                .map(|w| find(w, line))
                                .collect::<Result<Vec<_>, _>>()?;
                            if who.is_empty() || route.len() < 2 {
                                return err("a railway names its powers' letters and at least two provinces".into());
                            }
                            options.railways.push((railway, who, route, line));
                        }
                    }
                }
            }
            Some(c @ ('O' | 'F' | 'P' | 'S' | 'V' | 'L')) => {
                return Err(BoardError::at(
                    file,
                    line,
                    format!(
                        "Machiavelli's {} is not supported: this judge plays Diplomacy",
                        section(c)
                    ),
                ));
            }
            Some('E') => {
                return Err(BoardError::at(
                    file,
                    line,
                    "njudge's extra units (1900's 'Extra' section) are not supported",
                ));
            }
            Some(_) => {
                return Err(BoardError::at(
                    file,
                    line,
                    format!("an option line njudge does not know: {:?}", text.trim()),
                ));
            }
        }
    }
    Ok(options)
}

fn section(c: char) -> &'static str {
    match c {
        'H' => "Hong Kong section",
        'G' => "Gateway section",
        'R' => "Railway section",
        'O' => "province order",
        'F' => "famine table",
        'P' => "plague table",
        'S' => "storm table",
        'V' => "variable income table",
        _ => "unit limits table",
    }
}

/// The provinces (every area but gateways and railways), sorted by code, and each area's
/// province index.
fn provinces(
    file: &str,
    areas: &[Area],
    moves: &Moves,
) -> Result<(Vec<BoardProvince>, BTreeMap<usize, ProvinceIndex>), BoardError> {
    let mut out: Vec<(usize, BoardProvince)> = Vec::new();
    let fleet_areas: BTreeSet<usize> = moves
        .fleet
        .keys()
        .flat_map(|(a, b)| [a.area, b.area])
        .collect();
    let army_areas: BTreeSet<usize> = moves
        .army
        .keys()
        .chain(moves.crossing.keys())
        .flat_map(|(a, b)| [*a, *b])
        .collect();
    for (i, area) in areas.iter().enumerate() {
        let err = |reason: String| Err(BoardError::at(file, area.line, reason));
        let (code, aliases) = code_and_aliases(area);
        let coasts: Vec<BoardCoast> = moves
            .coasts
            .get(&i)
            .map(|c| c.iter().copied().collect())
            .unwrap_or_default();
        let (terrain, impassable, centre, ice) = match area.kind {
            AreaKind::Gateway | AreaKind::Railway => continue,
            AreaKind::Sea { ice } => {
                if army_areas.contains(&i) {
                    return err(format!(
                        "{} is water, but an army move leads into it",
                        area.name
                    ));
                }
                if !coasts.is_empty() {
                    return err(format!(
                        "{} is water, but a move names a coast of it",
                        area.name
                    ));
                }
                if !fleet_areas.contains(&i) {
                    return err(format!("no fleet move leads into {}", area.name));
                }
                (Terrain::Sea, false, Centre::None, ice)
            }
            AreaKind::Land(centre) => {
                if !moves.listed.contains(&i) {
                    return err(format!("{} has no move line", area.name));
                }
                if fleet_areas.contains(&i) {
                    (Terrain::Coast, false, centre, false)
                } else if army_areas.contains(&i) {
                    (Terrain::Land, false, centre, false)
                } else {
                    (Terrain::Land, true, centre, false)
                }
            }
        };
        if impassable && centre != Centre::None {
            return err(format!("{} is impassable but a supply centre", area.name));
        }
        out.push((
            i,
            BoardProvince {
                code,
                name: area.name.clone(),
                terrain,
                impassable,
                centre,
                coasts,
                aliases,
                convoy_through: area.convoy_through,
                ice,
            },
        ));
    }
    out.sort_by(|a, b| a.1.code.cmp(&b.1.code));
    let mut index = BTreeMap::new();
    let mut provinces = Vec::with_capacity(out.len());
    for (i, (area, p)) in out.into_iter().enumerate() {
        if let Some(id) = province_index(i) {
            index.insert(area, id);
        }
        provinces.push(p);
    }
    Ok((provinces, index))
}

/// Every move listed back from its target, made borders kept once per pair.
fn borders(
    file: &str,
    areas: &[Area],
    moves: &Moves,
    index: &BTreeMap<usize, ProvinceIndex>,
    provinces: &[BoardProvince],
) -> Result<Borders, BoardError> {
    let name = |a: usize| area_name(areas, a);
    let code = |e: End| {
        let c = areas
            .get(e.area)
            .and_then(|a| a.abbreviations.first())
            .map_or("?".to_string(), |c| c.to_ascii_lowercase());
        match e.coast {
            Some(k) => format!("{c}/{}", k.code()),
            None => c,
        }
    };
    let id = |a: usize| index.get(&a).copied();
    let mut borders = Borders::default();
    for (list, out, what) in [
        (&moves.army, &mut borders.army, "mv"),
        (&moves.crossing, &mut borders.crossings, "mv (/mx)"),
    ] {
        for (&(a, b), &line) in list {
            if !list.contains_key(&(b, a)) {
                return Err(BoardError::at(
                    file,
                    line,
                    format!(
                        "{}-{what} lists {} but {}-{what} does not list {}",
                        code(End {
                            area: a,
                            coast: None
                        }),
                        name(b),
                        code(End {
                            area: b,
                            coast: None
                        }),
                        name(a)
                    ),
                ));
            }
            if let (Some(x), Some(y)) = (id(a), id(b))
                && x < y
            {
                out.push((x, y));
            }
        }
    }
    let has_coasts = |a: usize| {
        id(a)
            .and_then(|p| provinces.get(p.index()))
            .is_some_and(|p| !p.coasts.is_empty())
    };
    // Coasts first: a move without the coast its end needs is the clearer mistake.
    for (&(from, to), &line) in &moves.fleet {
        for end in [from, to] {
            if end.coast.is_none() && has_coasts(end.area) {
                return Err(BoardError::at(
                    file,
                    line,
                    format!(
                        "{} has coasts: a fleet move to or from it must name one ({}-xc lists {})",
                        name(end.area),
                        code(from),
                        code(to)
                    ),
                ));
            }
        }
    }
    for (&(from, to), &line) in &moves.fleet {
        if !moves.fleet.contains_key(&(to, from)) {
            let back = match to.coast {
                Some(c) => format!(
                    "{}-{}",
                    code(End {
                        area: to.area,
                        coast: None
                    }),
                    c.code()
                ),
                None => format!("{}-xc", code(to)),
            };
            return Err(BoardError::at(
                file,
                line,
                format!(
                    "a fleet may move from {} to {} but {back} does not list {}",
                    code(from),
                    code(to),
                    code(from)
                ),
            ));
        }
        if let (Some(x), Some(y)) = (id(from.area), id(to.area)) {
            let (a, b) = (
                Place {
                    province: x,
                    coast: from.coast,
                },
                Place {
                    province: y,
                    coast: to.coast,
                },
            );
            if a < b {
                borders.fleet.push((a, b));
            }
        }
    }
    borders.army.sort();
    borders.crossings.sort();
    borders.fleet.sort();
    Ok(borders)
}

/// The seed file: the first phase, the units, the owners (when it has a record).
#[allow(clippy::type_complexity)]
fn seed_file(
    seed: (&str, &str),
    names: &Names,
    areas: &[Area],
    provinces: &[BoardProvince],
    to_index: &dyn Fn(usize) -> Option<ProvinceIndex>,
    powers: &[BoardPower],
) -> Result<
    (
        FirstPhase,
        Vec<StartingUnit>,
        Option<Vec<(ProvinceIndex, PowerIndex)>>,
    ),
    BoardError,
> {
    let (file, text) = seed;
    let mut lines = numbered(text).filter(|(_, l)| !l.trim().is_empty());
    let Some((line, first)) = lines.next() else {
        return Err(BoardError::file(file, "the seed file is empty"));
    };
    let phase_text = first.split_whitespace().next().unwrap_or("");
    let first_phase = FirstPhase::from_code(phase_text).ok_or_else(|| {
        BoardError::at(
            file,
            line,
            format!(
                "the seed starts with {phase_text:?}: it must be its first phase, a spring \
                 movement phase (S1901M) or the adjustments after a fall (F1900B)"
            ),
        )
    })?;
    let mut units: Vec<StartingUnit> = Vec::new();
    let mut ended = false;
    for (line, text) in lines.by_ref() {
        if text.starts_with('-') {
            ended = true;
            break;
        }
        let err = |reason: String| Err(BoardError::at(file, line, reason));
        let mut chars = text.chars();
        let (Some(letter), Some(status)) = (chars.next(), chars.next()) else {
            return err(format!("expected 'X: A Province', found {text:?}"));
        };
        if status != ':' {
            return err(format!(
                "expected 'X: A Province', found {text:?} (a seed's units cannot be retreating)"
            ));
        }
        let Some(power) = power_by_letter(powers, letter) else {
            return err(format!("{letter:?} is no power's letter"));
        };
        let rest = chars.as_str().trim();
        let (kind, place_text) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let kind = match kind {
            "A" => UnitKindData::Army,
            "F" => UnitKindData::Fleet,
            k => {
                return err(format!(
                    "unit kind {k:?}: a board's units are armies (A) or fleets (F)"
                ));
            }
        };
        let place_text = place_text.trim();
        let place = find_place(place_text, names, areas, provinces, to_index)
            .map_err(|reason| BoardError::at(file, line, reason))?;
        let Some(p) = provinces.get(place.province.index()) else {
            return err(format!("unknown province {place_text:?}"));
        };
        if let Err(reason) = unit_may_stand(p, kind, place) {
            return err(reason);
        }
        if units.iter().any(|u| u.place.province == place.province) {
            return err(format!("a second unit in {}", p.name));
        }
        units.push(StartingUnit { power, kind, place });
    }
    if !ended {
        return Err(BoardError::file(
            file,
            "the seed ends before the '-1' line after its units",
        ));
    }
    let Some((line, record)) = lines.next() else {
        return Ok((first_phase, units, None));
    };
    if record.starts_with('-') {
        return Ok((first_phase, units, None));
    }
    if record.chars().nth(1) == Some(':') {
        return Err(BoardError::at(
            file,
            line,
            "Machiavelli's ownership records ('O:', 'H:' …) are not supported",
        ));
    }
    let record = record.split_whitespace().next().unwrap_or("");
    if record.chars().count() > areas.len() {
        return Err(BoardError::at(
            file,
            line,
            format!(
                "the ownership record has {} characters, one more than the map's {} areas at least",
                record.chars().count(),
                areas.len()
            ),
        ));
    }
    // Areas the record does not reach keep their home owner, as in njudge.
    let mut owners: BTreeMap<ProvinceIndex, PowerIndex> =
        home_owners(provinces).into_iter().collect();
    for (area, c) in record.chars().enumerate() {
        let Some(p) = to_index(area) else { continue };
        if c == '.' {
            owners.remove(&p);
            continue;
        }
        let Some(power) = power_by_letter(powers, c) else {
            return Err(BoardError::at(
                file,
                line,
                format!(
                    "character {} of the ownership record, {c:?}, is no power's letter",
                    area + 1
                ),
            ));
        };
        if !provinces
            .get(p.index())
            .is_some_and(BoardProvince::is_supply_centre)
        {
            return Err(BoardError::at(
                file,
                line,
                format!(
                    "character {} of the ownership record gives {} to {}, but it is no supply centre",
                    area + 1,
                    area_name(areas, area),
                    powers.get(power.index()).map_or("?", |p| p.name.as_str())
                ),
            ));
        }
        owners.insert(p, power);
    }
    if !lines.any(|(_, l)| l.starts_with('-')) {
        return Err(BoardError::file(
            file,
            "the seed ends before the '-1' line after its ownership record",
        ));
    }
    Ok((first_phase, units, Some(owners.into_iter().collect())))
}

/// A seed's place: a province's name or abbreviation, with its coast as `/sc`, `(sc)` or
/// ` south coast`.
fn find_place(
    text: &str,
    names: &Names,
    areas: &[Area],
    provinces: &[BoardProvince],
    to_index: &dyn Fn(usize) -> Option<ProvinceIndex>,
) -> Result<Place, String> {
    let province = |name: &str| {
        names
            .find(name)
            .filter(|a| {
                matches!(
                    areas.get(*a).map(|x| x.kind),
                    Some(AreaKind::Sea { .. } | AreaKind::Land(_))
                )
            })
            .and_then(to_index)
    };
    if let Some(p) = province(text) {
        return Ok(Place::province(p));
    }
    let (name, coast) = split_coast(text).ok_or_else(|| format!("unknown province {text:?}"))?;
    let p = province(name).ok_or_else(|| format!("unknown province {name:?}"))?;
    let coast = BoardCoast::from_text(coast).ok_or_else(|| format!("unknown coast {coast:?}"))?;
    if !provinces
        .get(p.index())
        .is_some_and(|x| x.coasts.contains(&coast))
    {
        return Err(format!("{name} has no {} coast", coast.code()));
    }
    Ok(Place {
        province: p,
        coast: Some(coast),
    })
}

#[cfg(test)]
mod tests;
