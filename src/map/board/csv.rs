//! The project's own board format: the CSV files of `fixtures/maps/standard/`, extended so
//! that any board fits, read into a board's map data and written back.
//!
//! | file | a line | |
//! | --- | --- | --- |
//! | `provinces.csv` | `code,full name,terrain,centre,coasts[,flags]` | terrain `land`, `coast`, `sea` or `impassable`; centre empty, `neutral` or the home power's name; coasts `nc sc ec wc`; flags `convoy` (njudge's duality) and `ice` (njudge's `v`) |
//! | `borders.csv` | `a,b,who` | each pair once; who `A` (armies), `F` (fleets, coasts named), `AF`, `X` (a Loeb9 crossing) |
//! | `aliases.csv` | `alias,code` | optional; never printed |
//! | `units.csv` | `power,kind,place` | kind `A` or `F`; `stp/sc` |
//! | `owners.csv` | `province,power` | optional: the centres owned at the start, when not the home centres |
//!
//! Blank lines and lines starting with `#` are comments. Gateways, railways, Hong Kong and
//! the centre order, which few boards have, are `board.toml` tables.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::check::{Names, home_owners, province_index, unit_may_stand};
use super::toml_file::{BoardSpec, CsvFiles, power_by_letter, power_by_name};
use super::{
    Board, BoardCoast, BoardError, BoardFolder, BoardPower, BoardProvince, Builds, Centre,
    FirstPhase, Gateway, Geography, HongKong, MAX_PROVINCES, Place, PowerIndex, ProvinceIndex,
    Railway, StartingUnit,
};
use crate::map::load::records;
use crate::map::{Terrain, UnitKindData};

/// Reads a CSV board's files (`files`, as `spec` names them in `folder`).
pub(super) fn read(
    folder: &BoardFolder,
    files: &CsvFiles,
    spec: &BoardSpec,
) -> Result<Geography, BoardError> {
    let powers = &spec.powers;
    let power = |text: &str| {
        power_by_name(powers, text).or_else(|| {
            let mut c = text.chars();
            match (c.next(), c.next()) {
                (Some(l), None) => power_by_letter(powers, l),
                _ => None,
            }
        })
    };

    // provinces.csv
    let pf = files.provinces.as_str();
    let mut listed: Vec<(usize, BoardProvince)> = Vec::new();
    for (line, f) in records(folder.text(pf)?) {
        let err = |reason: String| Err(BoardError::at(pf, line, reason));
        let (code, name, terrain, centre, coasts, flags) = match f.as_slice() {
            [a, b, c, d, e] => (*a, *b, *c, *d, *e, ""),
            [a, b, c, d, e, g] => (*a, *b, *c, *d, *e, *g),
            _ => {
                return err(
                    "expected 5 or 6 fields: code,full name,terrain,centre,coasts[,flags]".into(),
                );
            }
        };
        if code.is_empty()
            || !code
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        {
            return err(format!(
                "the code {code:?} must be lowercase letters or digits"
            ));
        }
        if name.is_empty() {
            return err(format!("{code} has no name"));
        }
        let (terrain, impassable) = match terrain {
            "land" => (Terrain::Land, false),
            "coast" => (Terrain::Coast, false),
            "sea" => (Terrain::Sea, false),
            "impassable" => (Terrain::Land, true),
            t => {
                return err(format!(
                    "unknown terrain {t:?} (land, coast, sea, impassable)"
                ));
            }
        };
        let centre = match centre {
            "" => Centre::None,
            "neutral" => Centre::Neutral,
            p => match power(p) {
                Some(p) => Centre::Home(p),
                None => return err(format!("{p:?} is no power of the board")),
            },
        };
        let mut coast_list = Vec::new();
        for c in coasts.split_whitespace() {
            match BoardCoast::from_text(c) {
                Some(c) if !coast_list.contains(&c) => coast_list.push(c),
                _ => return err(format!("unknown or repeated coast {c:?}")),
            }
        }
        coast_list.sort();
        if !coast_list.is_empty() && terrain != Terrain::Coast {
            return err(format!("{code} has coasts but is not a coastal province"));
        }
        let (mut convoy_through, mut ice) = (false, false);
        for flag in flags.split_whitespace() {
            match flag {
                "convoy" if terrain != Terrain::Sea => convoy_through = true,
                "ice" if terrain == Terrain::Sea => ice = true,
                f => return err(format!("the flag {f:?} does not apply to {code}")),
            }
        }
        if listed.len() >= MAX_PROVINCES {
            return err(format!("more than {MAX_PROVINCES} provinces"));
        }
        listed.push((
            line,
            BoardProvince {
                code: code.to_string(),
                name: name.to_string(),
                terrain,
                impassable,
                centre,
                coasts: coast_list,
                aliases: Vec::new(),
                convoy_through,
                ice,
            },
        ));
    }
    listed.sort_by(|a, b| a.1.code.cmp(&b.1.code));
    let mut names = Names::default();
    for (i, (line, p)) in listed.iter().enumerate() {
        for n in [p.code.as_str(), p.name.as_str()] {
            if let Err(other) = names.insert(n, i) {
                return Err(BoardError::at(
                    pf,
                    *line,
                    format!(
                        "{n:?} already names {}",
                        listed.get(other).map_or("?", |o| o.1.name.as_str())
                    ),
                ));
            }
        }
    }
    let mut provinces: Vec<BoardProvince> = listed.into_iter().map(|(_, p)| p).collect();

    // aliases.csv
    if let Some(af) = &files.aliases {
        for (line, f) in records(folder.text(af)?) {
            let err = |reason: String| Err(BoardError::at(af, line, reason));
            let [alias, code] = f.as_slice() else {
                return err("expected 2 fields: alias,code".into());
            };
            let Some(i) = names.find(code) else {
                return err(format!("unknown province {code:?}"));
            };
            if let Err(other) = names.insert(alias, i) {
                return err(format!(
                    "{alias:?} already names {}",
                    provinces.get(other).map_or("?", |o| o.name.as_str())
                ));
            }
            if let Some(p) = provinces.get_mut(i) {
                p.aliases.push(alias.to_string());
            }
        }
    }

    let find = |text: &str| names.find(text).and_then(province_index);
    let place = |text: &str| -> Result<Place, String> {
        let (code, coast) = match text.split_once('/') {
            Some((c, k)) => (
                c,
                Some(BoardCoast::from_text(k).ok_or_else(|| format!("unknown coast {k:?}"))?),
            ),
            None => (text, None),
        };
        let province = find(code).ok_or_else(|| format!("unknown province {code:?}"))?;
        if let Some(c) = coast
            && !provinces
                .get(province.index())
                .is_some_and(|p| p.coasts.contains(&c))
        {
            return Err(format!("{code} has no {} coast", c.code()));
        }
        Ok(Place { province, coast })
    };

    // borders.csv
    let bf = files.borders.as_str();
    let mut seen: BTreeMap<(ProvinceIndex, ProvinceIndex), ()> = BTreeMap::new();
    let mut borders = super::Borders::default();
    for (line, f) in records(folder.text(bf)?) {
        let err = |reason: String| Err(BoardError::at(bf, line, reason));
        let [a, b, who] = f.as_slice() else {
            return err("expected 3 fields: a,b,who".into());
        };
        let (pa, pb) = match (place(a), place(b)) {
            (Ok(x), Ok(y)) => (x, y),
            (Err(e), _) | (_, Err(e)) => return err(e),
        };
        if pa.province == pb.province {
            return err("a province cannot border itself".into());
        }
        let (army, fleet, crossing) = match *who {
            "A" => (true, false, false),
            "F" => (false, true, false),
            "AF" => (true, true, false),
            "X" => (false, false, true),
            w => return err(format!("unknown border kind {w:?} (A, F, AF, X)")),
        };
        let get = |p: Place| provinces.get(p.province.index());
        let (Some(xa), Some(xb)) = (get(pa), get(pb)) else {
            return err("unknown province".into());
        };
        if xa.impassable || xb.impassable {
            return err("an impassable province has no border".into());
        }
        if army || crossing {
            if xa.terrain == Terrain::Sea || xb.terrain == Terrain::Sea {
                return err("an army border touches a sea".into());
            }
            if pa.coast.is_some() || pb.coast.is_some() {
                return err("an army border names a coast".into());
            }
        }
        if fleet {
            for (p, x) in [(pa, xa), (pb, xb)] {
                if x.terrain == Terrain::Land {
                    return err(format!("a fleet border touches {}, inland", x.name));
                }
                if !x.coasts.is_empty() && p.coast.is_none() {
                    return err(format!("a fleet border of {} must name its coast", x.name));
                }
            }
        }
        let (lo, hi) = if pa < pb { (pa, pb) } else { (pb, pa) };
        let key = (lo.province, hi.province);
        if fleet && !army {
            // A split-coast province borders a province once per coast.
            if borders.fleet.contains(&(lo, hi)) {
                return err("border listed twice".into());
            }
        } else if seen.insert(key, ()).is_some() {
            return err("border listed twice".into());
        }
        if army {
            borders.army.push(key);
        }
        if crossing {
            borders.crossings.push(key);
        }
        if fleet {
            borders.fleet.push((lo, hi));
        }
    }
    borders.army.sort();
    borders.army.dedup();
    borders.crossings.sort();
    borders.fleet.sort();
    for (a, b) in &borders.crossings {
        if borders.army.contains(&(*a, *b)) {
            return Err(BoardError::file(
                bf,
                "a pair of provinces is both an army border and a crossing",
            ));
        }
    }

    // units.csv
    let uf = files.units.as_str();
    let mut units: Vec<StartingUnit> = Vec::new();
    for (line, f) in records(folder.text(uf)?) {
        let err = |reason: String| Err(BoardError::at(uf, line, reason));
        let [who, kind, at] = f.as_slice() else {
            return err("expected 3 fields: power,kind,place".into());
        };
        let Some(power) = power(who) else {
            return err(format!("{who:?} is no power of the board"));
        };
        let kind = match *kind {
            "A" => UnitKindData::Army,
            "F" => UnitKindData::Fleet,
            k => return err(format!("unit kind {k:?} must be A or F")),
        };
        let at = match place(at) {
            Ok(p) => p,
            Err(e) => return err(e),
        };
        let Some(p) = provinces.get(at.province.index()) else {
            return err("unknown province".into());
        };
        if let Err(reason) = unit_may_stand(p, kind, at) {
            return err(reason);
        }
        if units.iter().any(|u| u.place.province == at.province) {
            return err(format!("a second unit in {}", p.name));
        }
        units.push(StartingUnit {
            power,
            kind,
            place: at,
        });
    }

    // owners.csv
    let owners = match &files.owners {
        None => None,
        Some(of) => {
            let mut owners: Vec<(ProvinceIndex, PowerIndex)> = Vec::new();
            for (line, f) in records(folder.text(of)?) {
                let err = |reason: String| Err(BoardError::at(of, line, reason));
                let [at, who] = f.as_slice() else {
                    return err("expected 2 fields: province,power".into());
                };
                let Some(p) = find(at) else {
                    return err(format!("unknown province {at:?}"));
                };
                let Some(w) = power(who) else {
                    return err(format!("{who:?} is no power of the board"));
                };
                if !provinces
                    .get(p.index())
                    .is_some_and(BoardProvince::is_supply_centre)
                {
                    return err(format!("{at} is no supply centre"));
                }
                if owners.iter().any(|(q, _)| *q == p) {
                    return err(format!("{at} is owned twice"));
                }
                owners.push((p, w));
            }
            Some(owners)
        }
    };

    // board.toml's gateways, railways, Hong Kong and centre order.
    let tf = super::toml_file::BOARD_TOML;
    let resolve = |list: &[String], line: usize| {
        list.iter()
            .map(|c| {
                find(c).ok_or_else(|| BoardError::at(tf, line, format!("unknown province {c:?}")))
            })
            .collect::<Result<Vec<_>, _>>()
    };
    let letters = |text: &str, line: usize| {
        text.chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| {
                power_by_letter(powers, c)
                    .ok_or_else(|| BoardError::at(tf, line, format!("{c:?} is no power's letter")))
            })
            .collect::<Result<Vec<_>, _>>()
    };
    let mut geography = Geography {
        units,
        owners,
        ..Geography::default()
    };
    for (g, line) in &spec.extras.gateways {
        let ps = resolve(
            &[
                g.controller.clone(),
                g.between[0].clone(),
                g.between[1].clone(),
            ],
            *line,
        )?;
        let [controller, a, b] = ps.as_slice() else {
            continue;
        };
        geography.gateways.push(Gateway {
            code: g.code.to_ascii_lowercase(),
            name: g.name.clone(),
            aliases: g.aliases.clone(),
            controller: *controller,
            between: (*a, *b),
        });
    }
    for (r, line) in &spec.extras.railways {
        geography.railways.push(Railway {
            code: r.code.to_ascii_lowercase(),
            name: r.name.clone(),
            aliases: r.aliases.clone(),
            powers: letters(&r.powers, *line)?,
            route: resolve(&r.route, *line)?,
        });
    }
    for (h, line) in &spec.extras.hong_kong {
        let provinces = resolve(&h.provinces, *line)?;
        for power in letters(&h.power, *line)? {
            geography.hong_kong.push(HongKong {
                power,
                provinces: provinces.clone(),
            });
        }
    }
    if let Some((order, line)) = &spec.extras.centre_order {
        geography.centre_order = resolve(order, *line)?;
    }
    // Gateway and railway names must not name a province.
    for (code, name, aliases) in geography
        .gateways
        .iter()
        .map(|g| (&g.code, &g.name, &g.aliases))
        .chain(
            geography
                .railways
                .iter()
                .map(|r| (&r.code, &r.name, &r.aliases)),
        )
    {
        for n in std::iter::once(code)
            .chain(std::iter::once(name))
            .chain(aliases)
        {
            if find(n).is_some() {
                return Err(BoardError::file(
                    tf,
                    format!("the gateway or railway name {n:?} already names a province"),
                ));
            }
        }
    }
    provinces.shrink_to_fit();
    geography.provinces = provinces;
    geography.borders = borders;
    Ok(geography)
}

/// A board written in the CSV format: each file's name and text, `board.toml` included.
/// `source` is a comment put at the top of every file (where the data came from). Reading
/// the files back gives the same board.
pub fn write_csv(board: &Board, source: &str) -> Vec<(String, String)> {
    let power_name = |p: PowerIndex| {
        board
            .power(p)
            .map_or("?".to_string(), |w| w.name.to_ascii_lowercase())
    };
    let code = |p: ProvinceIndex| {
        board
            .province(p)
            .map_or("?", |x| x.code.as_str())
            .to_string()
    };
    let head = |what: &str| format!("# {}: {what}\n# {source}\n", board.title);

    let mut provinces = head("provinces. code,full name,terrain,centre,coasts[,flags]");
    let mut aliases = head("input aliases, alias,code. Never printed.");
    for p in &board.provinces {
        let terrain = match (p.impassable, p.terrain) {
            (true, _) => "impassable",
            (false, Terrain::Land) => "land",
            (false, Terrain::Coast) => "coast",
            (false, Terrain::Sea) => "sea",
        };
        let centre = match p.centre {
            Centre::None => String::new(),
            Centre::Neutral => "neutral".into(),
            Centre::Home(w) => power_name(w),
        };
        let coasts: Vec<&str> = p.coasts.iter().map(|c| c.code()).collect();
        let mut flags = Vec::new();
        if p.convoy_through {
            flags.push("convoy");
        }
        if p.ice {
            flags.push("ice");
        }
        let _ = write!(
            provinces,
            "{},{},{terrain},{centre},{}",
            p.code,
            p.name,
            coasts.join(" ")
        );
        if !flags.is_empty() {
            let _ = write!(provinces, ",{}", flags.join(" "));
        }
        provinces.push('\n');
        for a in &p.aliases {
            let _ = writeln!(aliases, "{a},{}", p.code);
        }
    }

    let mut borders = head(
        "borders, one line per pair. who: A armies, F fleets (coasts named), AF both, X a Loeb9 crossing",
    );
    let mut lines: Vec<(Place, Place, &str)> = Vec::new();
    for (a, b) in &board.borders.army {
        let both = board
            .borders
            .fleet
            .contains(&(Place::province(*a), Place::province(*b)));
        lines.push((
            Place::province(*a),
            Place::province(*b),
            if both { "AF" } else { "A" },
        ));
    }
    for (a, b) in &board.borders.fleet {
        if a.coast.is_none()
            && b.coast.is_none()
            && board.borders.army.contains(&(a.province, b.province))
        {
            continue;
        }
        lines.push((*a, *b, "F"));
    }
    for (a, b) in &board.borders.crossings {
        lines.push((Place::province(*a), Place::province(*b), "X"));
    }
    lines.sort();
    for (a, b, who) in lines {
        let _ = writeln!(
            borders,
            "{},{},{who}",
            board.place_code(a),
            board.place_code(b)
        );
    }

    let mut units = head("starting units, power,kind,place");
    for u in &board.units {
        let kind = match u.kind {
            UnitKindData::Army => "A",
            UnitKindData::Fleet => "F",
        };
        let _ = writeln!(
            units,
            "{},{kind},{}",
            power_name(u.power),
            board.place_code(u.place)
        );
    }

    let mut out = vec![
        ("provinces.csv".to_string(), provinces),
        ("borders.csv".to_string(), borders),
        ("aliases.csv".to_string(), aliases),
        ("units.csv".to_string(), units),
    ];
    let owners_differ = board.owners != home_owners(&board.provinces);
    if owners_differ {
        let mut owners = head("centres owned at the start, province,power");
        for (p, w) in &board.owners {
            let _ = writeln!(owners, "{},{}", code(*p), power_name(*w));
        }
        out.push(("owners.csv".to_string(), owners));
    }
    out.push((
        "board.toml".to_string(),
        board_toml(board, owners_differ, &code, source),
    ));
    out
}

fn quoted(text: &str) -> String {
    format!("{text:?}")
}

fn board_toml(
    board: &Board,
    owners: bool,
    code: &dyn Fn(ProvinceIndex) -> String,
    source: &str,
) -> String {
    let mut t = format!("# {}\n# {source}\n", board.title);
    let _ = writeln!(t, "name = {}", quoted(&board.name));
    let _ = writeln!(t, "title = {}", quoted(&board.title));
    let _ = writeln!(t, "credit = {}", quoted(&board.credit));
    let _ = writeln!(t, "victory = {}", board.victory);
    match board.first_phase {
        FirstPhase::Movement { year } => {
            let _ = writeln!(t, "first_year = {year}");
        }
        phase @ FirstPhase::Adjustment { .. } => {
            let _ = writeln!(t, "first_phase = {}", quoted(&phase.code()));
        }
    }
    if !board.centre_order.is_empty() {
        let list: Vec<String> = board
            .centre_order
            .iter()
            .map(|p| quoted(&code(*p)))
            .collect();
        let _ = writeln!(t, "centre_order = [{}]", list.join(", "));
    }
    t.push_str("\n[rules]\n");
    let builds = match board.rules.builds {
        Builds::Home => "home",
        Builds::OneHome => "one",
        Builds::Any => "any",
    };
    let _ = writeln!(t, "builds = {}", quoted(builds));
    for (key, on) in [
        ("duality", board.rules.duality),
        ("hong_kong", board.rules.hong_kong),
        ("gateways", board.rules.gateways),
        ("railways", board.rules.railways),
    ] {
        if on {
            let _ = writeln!(t, "{key} = true");
        }
    }
    t.push_str("\n[map]\nformat = \"csv\"\naliases = \"aliases.csv\"\n");
    if owners {
        t.push_str("owners = \"owners.csv\"\n");
    }
    for p in &board.powers {
        power_table(&mut t, p);
    }
    let letters = |list: &[PowerIndex]| -> String {
        list.iter()
            .filter_map(|w| board.power(*w))
            .map(|w| w.letter)
            .collect()
    };
    let list = |ps: &[ProvinceIndex]| -> String {
        ps.iter()
            .map(|p| quoted(&code(*p)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    for g in &board.gateways {
        let _ = write!(
            t,
            "\n[[gateway]]\ncode = {}\nname = {}\naliases = [{}]\ncontroller = {}\nbetween = [{}]\n",
            quoted(&g.code),
            quoted(&g.name),
            g.aliases
                .iter()
                .map(|a| quoted(a))
                .collect::<Vec<_>>()
                .join(", "),
            quoted(&code(g.controller)),
            list(&[g.between.0, g.between.1])
        );
    }
    for r in &board.railways {
        let _ = write!(
            t,
            "\n[[railway]]\ncode = {}\nname = {}\naliases = [{}]\npowers = {}\nroute = [{}]\n",
            quoted(&r.code),
            quoted(&r.name),
            r.aliases
                .iter()
                .map(|a| quoted(a))
                .collect::<Vec<_>>()
                .join(", "),
            quoted(&letters(&r.powers)),
            list(&r.route)
        );
    }
    for h in &board.hong_kong {
        let _ = write!(
            t,
            "\n[[hong_kong]]\npower = {}\nprovinces = [{}]\n",
            quoted(&letters(&[h.power])),
            list(&h.provinces)
        );
    }
    t
}

fn power_table(t: &mut String, p: &BoardPower) {
    let _ = write!(
        t,
        "\n[[power]]\nname = {}\nletter = \"{}\"\nadjective = {}\n",
        quoted(&p.name),
        p.letter,
        quoted(&p.adjective)
    );
}
