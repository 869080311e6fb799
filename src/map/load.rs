//! Reads the map's CSV data and checks it: counts, symmetric borders, reachable coasts.

use super::names::NameTable;
use super::{Coast, Location, Map, Power, Province, ProvinceId, Terrain, UnitKindData};

/// Why the map data could not be loaded. Each names the file and line.
#[derive(Debug, thiserror::Error)]
pub enum MapError {
    #[error("{file} line {line}: {reason}")]
    Line {
        file: &'static str,
        line: usize,
        reason: String,
    },
    #[error("map check failed: {0}")]
    Check(String),
}

fn line_err(file: &'static str, line: usize, reason: impl Into<String>) -> MapError {
    MapError::Line {
        file,
        line,
        reason: reason.into(),
    }
}

/// Data lines of a CSV text: (1-based line number, fields), comments and blanks skipped.
pub(super) fn records(text: &str) -> impl Iterator<Item = (usize, Vec<&str>)> {
    text.lines().enumerate().filter_map(|(i, l)| {
        let l = l.trim();
        if l.is_empty() || l.starts_with('#') {
            None
        } else {
            Some((i + 1, l.split(',').map(str::trim).collect()))
        }
    })
}

fn power_from_lower(text: &str) -> Option<Power> {
    Power::from_name(text)
}

pub(super) fn load(
    provinces_csv: &str,
    borders_csv: &str,
    aliases_csv: &str,
    impassable_csv: &str,
    units_csv: &str,
) -> Result<Map, MapError> {
    const PF: &str = "provinces.csv";
    const BF: &str = "borders.csv";
    const AF: &str = "aliases.csv";
    const IF: &str = "impassable.csv";
    const UF: &str = "units.csv";

    let mut provinces = Vec::new();
    for (line, f) in records(provinces_csv) {
        let [code, name, terrain, centre, coasts] = f.as_slice() else {
            return Err(line_err(PF, line, "expected 5 fields"));
        };
        let terrain = match *terrain {
            "land" => Terrain::Land,
            "coast" => Terrain::Coast,
            "sea" => Terrain::Sea,
            t => return Err(line_err(PF, line, format!("unknown terrain {t:?}"))),
        };
        let (supply_centre, home_of) = match *centre {
            "" => (false, None),
            "neutral" => (true, None),
            p => match power_from_lower(p) {
                Some(p) => (true, Some(p)),
                None => return Err(line_err(PF, line, format!("unknown power {p:?}"))),
            },
        };
        let coasts = coasts
            .split_whitespace()
            .map(|c| Coast::from_text(c).ok_or_else(|| line_err(PF, line, "unknown coast")))
            .collect::<Result<Vec<_>, _>>()?;
        provinces.push(Province {
            code: code.to_string(),
            name: name.to_string(),
            terrain,
            supply_centre,
            home_of,
            coasts,
        });
    }
    if provinces.len() > 128 {
        return Err(MapError::Check("more than 128 provinces".into()));
    }
    provinces.sort_by(|a, b| a.code.cmp(&b.code));
    for w in provinces.windows(2) {
        if let [a, b] = w
            && a.code == b.code
        {
            return Err(MapError::Check(format!("province {} listed twice", a.code)));
        }
    }

    let find_code = |code: &str| -> Option<ProvinceId> {
        provinces
            .binary_search_by(|p| p.code.as_str().cmp(code))
            .ok()
            .map(|i| ProvinceId(i as u8))
    };
    let parse_loc = |text: &str| -> Option<Location> {
        let (code, coast) = match text.split_once('/') {
            Some((c, k)) => (c, Some(Coast::from_text(k)?)),
            None => (text, None),
        };
        let province = find_code(code)?;
        if let Some(c) = coast
            && !provinces
                .get(province.index())
                .is_some_and(|p| p.coasts.contains(&c))
        {
            return None;
        }
        Some(Location { province, coast })
    };

    let n = provinces.len();
    let mut army_borders = vec![0u128; n];
    let mut any_borders = vec![0u128; n];
    let mut fleet: Vec<(Location, Vec<Location>)> = Vec::new();
    let terrain_of = |p: ProvinceId| provinces.get(p.index()).map(|p| p.terrain);
    for (line, f) in records(borders_csv) {
        let [a, b, who] = f.as_slice() else {
            return Err(line_err(BF, line, "expected 3 fields"));
        };
        let la = parse_loc(a).ok_or_else(|| line_err(BF, line, format!("unknown place {a:?}")))?;
        let lb = parse_loc(b).ok_or_else(|| line_err(BF, line, format!("unknown place {b:?}")))?;
        if la.province == lb.province {
            return Err(line_err(BF, line, "a province cannot border itself"));
        }
        let (army, fl) = match *who {
            "A" => (true, false),
            "F" => (false, true),
            "AF" => (true, true),
            w => return Err(line_err(BF, line, format!("unknown border kind {w:?}"))),
        };
        let (ta, tb) = (terrain_of(la.province), terrain_of(lb.province));
        if army {
            if ta == Some(Terrain::Sea) || tb == Some(Terrain::Sea) {
                return Err(line_err(BF, line, "an army border touches a sea area"));
            }
            if la.coast.is_some() || lb.coast.is_some() {
                return Err(line_err(BF, line, "an army border names a coast"));
            }
            for (x, y) in [(la.province, lb.province), (lb.province, la.province)] {
                if let Some(bits) = army_borders.get_mut(x.index()) {
                    *bits |= 1u128 << y.index();
                }
            }
        }
        if fl {
            for (x, t) in [(la, ta), (lb, tb)] {
                if t == Some(Terrain::Land) {
                    return Err(line_err(
                        BF,
                        line,
                        "a fleet border touches an inland province",
                    ));
                }
                let split = provinces
                    .get(x.province.index())
                    .is_some_and(|p| !p.coasts.is_empty());
                if split && x.coast.is_none() {
                    return Err(line_err(
                        BF,
                        line,
                        "a fleet border of a split-coast province must name the coast",
                    ));
                }
            }
            for (x, y) in [(la, lb), (lb, la)] {
                match fleet.iter_mut().find(|(l, _)| *l == x) {
                    Some((_, v)) => {
                        if v.contains(&y) {
                            return Err(line_err(BF, line, "border listed twice"));
                        }
                        v.push(y)
                    }
                    None => fleet.push((x, vec![y])),
                }
            }
        }
        for (x, y) in [(la.province, lb.province), (lb.province, la.province)] {
            if let Some(bits) = any_borders.get_mut(x.index()) {
                *bits |= 1u128 << y.index();
            }
        }
    }
    fleet.sort_by_key(|(l, _)| *l);
    for (_, v) in &mut fleet {
        v.sort();
    }

    let mut names = NameTable::default();
    for (i, p) in provinces.iter().enumerate() {
        names.insert(&p.code, ProvinceId(i as u8));
        names.insert(&p.name, ProvinceId(i as u8));
    }
    for (line, f) in records(aliases_csv) {
        let [alias, code] = f.as_slice() else {
            return Err(line_err(AF, line, "expected 2 fields"));
        };
        let id = find_code(code).ok_or_else(|| line_err(AF, line, "unknown province"))?;
        names.insert(alias, id);
    }
    for (line, f) in records(impassable_csv) {
        let Some((name, aliases)) = f.split_first() else {
            return Err(line_err(IF, line, "expected a name"));
        };
        if name.is_empty() {
            return Err(line_err(IF, line, "expected a name"));
        }
        for n in std::iter::once(name).chain(aliases) {
            names.insert_impassable(n, name);
        }
    }
    names
        .finish()
        .map_err(|name| MapError::Check(format!("the name {name:?} is given to two places")))?;

    let mut start = Vec::new();
    for (line, f) in records(units_csv) {
        let [power, kind, loc] = f.as_slice() else {
            return Err(line_err(UF, line, "expected 3 fields"));
        };
        let power = power_from_lower(power).ok_or_else(|| line_err(UF, line, "unknown power"))?;
        let kind = match *kind {
            "A" => UnitKindData::Army,
            "F" => UnitKindData::Fleet,
            _ => return Err(line_err(UF, line, "unit kind must be A or F")),
        };
        let loc = parse_loc(loc).ok_or_else(|| line_err(UF, line, "unknown place"))?;
        start.push((power, kind, loc));
    }

    let sea_mask: u128 = provinces
        .iter()
        .enumerate()
        .filter(|(_, p)| p.terrain == Terrain::Sea)
        .fold(0, |acc, (i, _)| acc | 1u128 << i);
    let sea_borders = any_borders.iter().map(|b| b & sea_mask).collect();
    let home_countries = Map::home_countries_of(&names);
    let home_centres = Map::home_centres_of(&provinces);
    let map = Map {
        provinces,
        army_borders,
        fleet_borders: fleet,
        any_borders,
        sea_borders,
        names,
        start,
        home_countries,
        home_centres,
    };
    check(&map)?;
    Ok(map)
}

/// The checks every map must pass before the judge uses it.
fn check(map: &Map) -> Result<(), MapError> {
    let fail = |s: String| Err(MapError::Check(s));
    let count = |t: Terrain| {
        map.province_ids()
            .filter(|p| map.province(*p).terrain == t)
            .count()
    };
    if map.province_count() != 75 {
        return fail(format!("{} provinces, expected 75", map.province_count()));
    }
    if count(Terrain::Sea) != 19 || count(Terrain::Land) != 14 {
        return fail("expected 19 sea areas and 14 inland provinces".into());
    }
    let centres = map.supply_centres().count();
    let homes = map
        .province_ids()
        .filter(|p| map.province(*p).home_of.is_some())
        .count();
    if centres != 34 || homes != 22 {
        return fail(format!(
            "{centres} supply centres and {homes} home centres, expected 34 and 22"
        ));
    }
    for id in map.province_ids() {
        let p = map.province(id);
        if map.neighbours_bits(id) == 0 {
            return fail(format!("{} has no border", p.code));
        }
        // Every place a fleet may stand must have a fleet border.
        if p.terrain != Terrain::Land {
            let places: Vec<Location> = if p.coasts.is_empty() {
                vec![Location::province(id)]
            } else {
                p.coasts
                    .iter()
                    .map(|c| Location {
                        province: id,
                        coast: Some(*c),
                    })
                    .collect()
            };
            for l in places {
                if map.fleet_moves(l).is_empty() {
                    return fail(format!(
                        "{} cannot be reached by a fleet",
                        map.location_code(l)
                    ));
                }
            }
        }
    }
    // Symmetry holds by construction; check it anyway so a future loader change cannot
    // break it silently.
    for a in map.province_ids() {
        for b in map.province_ids() {
            if map.army_border(a, b) != map.army_border(b, a) {
                return fail(format!(
                    "army border {}-{} is one-way",
                    map.code(a),
                    map.code(b)
                ));
            }
        }
    }
    for (from, tos) in &map.fleet_borders {
        for to in tos {
            if !map.fleet_border(*to, *from) {
                return fail(format!(
                    "fleet border {}-{} is one-way",
                    map.location_code(*from),
                    map.location_code(*to)
                ));
            }
        }
    }
    if map.start.len() != 22 {
        return fail(format!("{} starting units, expected 22", map.start.len()));
    }
    Ok(())
}
