//! `board.toml`: a board's name, title, credit, victory, first phase, powers and rule
//! options, and where its map data is. Read with serde; every refusal names its line.

use serde::Deserialize;
use toml::Spanned;

use super::{
    BoardError, BoardPower, BoardRules, Builds, FirstPhase, MAX_POWERS, PowerIndex, normalise,
};

pub(super) const BOARD_TOML: &str = "board.toml";

/// Names a power may not have: njudge's non-players, and the words press lists use.
const RESERVED_NAMES: &[&str] = &[
    "master",
    "observer",
    "observers",
    "neutral",
    "autonomous",
    "unowned",
    "all",
    "everyone",
    "nobody",
];

/// The longest power name (njudge's `LPOWER`).
const LONGEST_NAME: usize = 24;

/// `board.toml`, read and checked on its own (the map data is checked against it later).
#[derive(Debug)]
pub(crate) struct BoardSpec {
    pub name: String,
    pub title: String,
    pub credit: String,
    pub victory: u16,
    pub first_phase: Option<(FirstPhase, usize)>,
    pub powers: Vec<BoardPower>,
    pub rules: BoardRules,
    pub map: MapFiles,
    /// Gateways, railways, Hong Kong and the centre order as `board.toml` gives them (for
    /// boards in the CSV format; a njudge map file carries its own).
    pub extras: Extras,
}

impl BoardSpec {
    /// The files `board.toml` names, as it names them.
    pub(crate) fn data_files(&self) -> Vec<String> {
        match &self.map {
            MapFiles::Njudge { map, seed } => vec![map.clone(), seed.clone()],
            MapFiles::Csv(c) => [
                Some(&c.provinces),
                Some(&c.borders),
                c.aliases.as_ref(),
                Some(&c.units),
                c.owners.as_ref(),
            ]
            .into_iter()
            .flatten()
            .cloned()
            .collect(),
        }
    }
}

/// Where a board's map data is.
#[derive(Debug)]
pub(crate) enum MapFiles {
    Csv(CsvFiles),
    Njudge { map: String, seed: String },
}

/// The files of a board in the CSV format.
#[derive(Debug)]
pub(crate) struct CsvFiles {
    pub provinces: String,
    pub borders: String,
    pub aliases: Option<String>,
    pub units: String,
    pub owners: Option<String>,
}

/// The parts of a board's map data that `board.toml` holds for a CSV board, with the line
/// each starts on.
#[derive(Debug, Default)]
pub(crate) struct Extras {
    pub gateways: Vec<(GatewayToml, usize)>,
    pub railways: Vec<(RailwayToml, usize)>,
    pub hong_kong: Vec<(HongKongToml, usize)>,
    pub centre_order: Option<(Vec<String>, usize)>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    name: Spanned<String>,
    title: Option<String>,
    #[serde(default)]
    credit: String,
    victory: Spanned<u16>,
    first_year: Option<Spanned<u16>>,
    first_phase: Option<Spanned<String>>,
    #[serde(default)]
    rules: RulesToml,
    map: Spanned<MapToml>,
    #[serde(default, rename = "power")]
    powers: Vec<Spanned<PowerToml>>,
    #[serde(default, rename = "gateway")]
    gateways: Vec<Spanned<GatewayToml>>,
    #[serde(default, rename = "railway")]
    railways: Vec<Spanned<RailwayToml>>,
    #[serde(default)]
    hong_kong: Vec<Spanned<HongKongToml>>,
    centre_order: Option<Spanned<Vec<String>>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesToml {
    #[serde(default)]
    builds: BuildsToml,
    #[serde(default)]
    duality: bool,
    #[serde(default)]
    hong_kong: bool,
    #[serde(default)]
    gateways: bool,
    #[serde(default)]
    railways: bool,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
enum BuildsToml {
    #[default]
    Home,
    One,
    Any,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "lowercase")]
enum Format {
    Csv,
    Njudge,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MapToml {
    format: Format,
    map: Option<String>,
    seed: Option<String>,
    provinces: Option<String>,
    borders: Option<String>,
    aliases: Option<String>,
    units: Option<String>,
    owners: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PowerToml {
    name: String,
    letter: String,
    adjective: String,
}

/// `[[gateway]]`: a canal (see [`super::Gateway`]).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct GatewayToml {
    pub code: String,
    pub name: String,
    #[serde(default)]
    pub aliases: Vec<String>,
    pub controller: String,
    pub between: [String; 2],
}

/// `[[railway]]`: a railway (see [`super::Railway`]); `powers` by letter.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RailwayToml {
    pub code: String,
    pub name: String,
    #[serde(default)]
    pub aliases: Vec<String>,
    pub powers: String,
    pub route: Vec<String>,
}

/// `[[hong_kong]]`: a power's centres it builds in but does not count.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct HongKongToml {
    pub power: String,
    pub provinces: Vec<String>,
}

/// The 1-based line of a byte offset.
pub(crate) fn line_of(text: &str, offset: usize) -> usize {
    text.get(..offset).map_or(1, |before| {
        before.bytes().filter(|b| *b == b'\n').count() + 1
    })
}

/// Reads `board.toml`.
pub(crate) fn parse(text: &str) -> Result<BoardSpec, BoardError> {
    let raw: Raw = toml::from_str(text).map_err(|e| {
        let line = e.span().map_or(1, |s| line_of(text, s.start));
        BoardError::at(BOARD_TOML, line, e.message().trim().to_string())
    })?;
    let err =
        |offset: usize, reason: String| BoardError::at(BOARD_TOML, line_of(text, offset), reason);

    let name_at = raw.name.span().start;
    let name = raw.name.into_inner();
    if name.is_empty()
        || name.len() > 32
        || !name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
    {
        return Err(err(
            name_at,
            format!("the board's name {name:?} must be 1 to 32 lowercase letters, digits or '_'"),
        ));
    }

    let first_phase = match (&raw.first_year, &raw.first_phase) {
        (None, None) => None,
        (Some(y), None) => Some((
            FirstPhase::Movement { year: *y.get_ref() },
            line_of(text, y.span().start),
        )),
        (None, Some(p)) => {
            let phase = FirstPhase::from_code(p.get_ref()).ok_or_else(|| {
                err(
                    p.span().start,
                    format!(
                        "first_phase {:?} is not a spring movement phase (S1901M) or the \
                         adjustments after a fall (F1900B)",
                        p.get_ref()
                    ),
                )
            })?;
            Some((phase, line_of(text, p.span().start)))
        }
        (Some(y), Some(p)) => {
            return Err(err(
                y.span().start.max(p.span().start),
                "give first_year or first_phase, not both".into(),
            ));
        }
    };

    let powers = powers(text, &raw.powers)?;

    let victory = *raw.victory.get_ref();
    if victory == 0 {
        return Err(err(
            raw.victory.span().start,
            "victory must be at least one centre".into(),
        ));
    }

    let rules = BoardRules {
        builds: match raw.rules.builds {
            BuildsToml::Home => Builds::Home,
            BuildsToml::One => Builds::OneHome,
            BuildsToml::Any => Builds::Any,
        },
        duality: raw.rules.duality,
        hong_kong: raw.rules.hong_kong,
        gateways: raw.rules.gateways,
        railways: raw.rules.railways,
    };

    let map_at = raw.map.span().start;
    let m = raw.map.into_inner();
    let map = match m.format {
        Format::Njudge => {
            if m.provinces.is_some()
                || m.borders.is_some()
                || m.aliases.is_some()
                || m.units.is_some()
                || m.owners.is_some()
            {
                return Err(err(
                    map_at,
                    "a board in njudge's format names its map and seed files, not CSV files".into(),
                ));
            }
            MapFiles::Njudge {
                map: m.map.unwrap_or_else(|| "map".into()),
                seed: m.seed.unwrap_or_else(|| "seed".into()),
            }
        }
        Format::Csv => {
            if m.map.is_some() || m.seed.is_some() {
                return Err(err(
                    map_at,
                    "a board in the CSV format names CSV files, not njudge's map and seed".into(),
                ));
            }
            MapFiles::Csv(CsvFiles {
                provinces: m.provinces.unwrap_or_else(|| "provinces.csv".into()),
                borders: m.borders.unwrap_or_else(|| "borders.csv".into()),
                aliases: m.aliases,
                units: m.units.unwrap_or_else(|| "units.csv".into()),
                owners: m.owners,
            })
        }
    };

    let at = |s: &std::ops::Range<usize>| line_of(text, s.start);
    let extras = Extras {
        gateways: raw
            .gateways
            .into_iter()
            .map(|g| {
                let line = at(&g.span());
                (g.into_inner(), line)
            })
            .collect(),
        railways: raw
            .railways
            .into_iter()
            .map(|r| {
                let line = at(&r.span());
                (r.into_inner(), line)
            })
            .collect(),
        hong_kong: raw
            .hong_kong
            .into_iter()
            .map(|h| {
                let line = at(&h.span());
                (h.into_inner(), line)
            })
            .collect(),
        centre_order: raw.centre_order.map(|c| {
            let line = at(&c.span());
            (c.into_inner(), line)
        }),
    };
    if matches!(map, MapFiles::Njudge { .. })
        && (!extras.gateways.is_empty()
            || !extras.railways.is_empty()
            || !extras.hong_kong.is_empty()
            || extras.centre_order.is_some())
    {
        return Err(err(
            map_at,
            "a board in njudge's format takes its gateways, railways, Hong Kong and centre \
             order from its map file, not from board.toml"
                .into(),
        ));
    }

    Ok(BoardSpec {
        title: raw.title.unwrap_or_else(|| name.clone()),
        name,
        credit: raw.credit.trim().to_string(),
        victory,
        first_phase,
        powers,
        rules,
        map,
        extras,
    })
}

/// The `[[power]]` tables, checked: 2 to 34 powers; names one word, unreserved and
/// distinct (from each other's adjectives too); letters one of `A`–`Z` or `0`–`9` but `M`
/// and `O`, distinct.
fn powers(text: &str, raw: &[Spanned<PowerToml>]) -> Result<Vec<BoardPower>, BoardError> {
    if raw.len() < 2 || raw.len() > MAX_POWERS {
        return Err(BoardError::file(
            BOARD_TOML,
            format!(
                "a board has 2 to {MAX_POWERS} powers ([[power]] tables), this one {}",
                raw.len()
            ),
        ));
    }
    let mut out: Vec<BoardPower> = Vec::with_capacity(raw.len());
    for spanned in raw {
        let line = line_of(text, spanned.span().start);
        let fail = |reason: String| Err(BoardError::at(BOARD_TOML, line, reason));
        let p = spanned.get_ref();
        let name = p.name.trim();
        let adjective = p.adjective.trim();
        if name.is_empty()
            || name.chars().count() > LONGEST_NAME
            || !name
                .chars()
                .all(|c| c.is_alphanumeric() || c == '-' || c == '\'')
            || !name.chars().any(char::is_alphabetic)
        {
            return fail(format!(
                "the power name {name:?} must be one word of at most {LONGEST_NAME} letters, \
                 digits, '-' or '''"
            ));
        }
        if adjective.is_empty()
            || adjective.chars().count() > 2 * LONGEST_NAME
            || adjective.chars().any(char::is_control)
        {
            return fail(format!(
                "the adjective {adjective:?} of {name} must be some text on one line"
            ));
        }
        if RESERVED_NAMES.contains(&normalise(name).as_str()) {
            return fail(format!("{name} is a reserved word, not a power's name"));
        }
        let mut letters = p.letter.trim().chars();
        let letter = match (letters.next(), letters.next()) {
            (Some(c), None) if c.is_ascii_alphanumeric() => c.to_ascii_uppercase(),
            _ => {
                return fail(format!(
                    "the letter {:?} of {name} must be one letter or digit",
                    p.letter
                ));
            }
        };
        if letter == 'M' || letter == 'O' {
            return fail(format!(
                "{name} cannot have the letter {letter}: M is the master's and O the observers'"
            ));
        }
        for other in &out {
            if other.letter == letter {
                return fail(format!(
                    "{name} and {} have the same letter {letter}",
                    other.name
                ));
            }
            for (a, b) in [
                (name, other.name.as_str()),
                (name, other.adjective.as_str()),
                (adjective, other.name.as_str()),
                (adjective, other.adjective.as_str()),
            ] {
                if normalise(a) == normalise(b) {
                    return fail(format!(
                        "{name} ({adjective}) and {} ({}) would be read alike",
                        other.name, other.adjective
                    ));
                }
            }
        }
        out.push(BoardPower {
            name: name.to_string(),
            letter,
            adjective: adjective.to_string(),
        });
    }
    Ok(out)
}

/// A power of `powers` by letter, case-insensitively.
pub(crate) fn power_by_letter(powers: &[BoardPower], letter: char) -> Option<PowerIndex> {
    let l = letter.to_ascii_uppercase();
    powers
        .iter()
        .position(|p| p.letter == l)
        .and_then(|i| u8::try_from(i).ok())
        .map(PowerIndex)
}

/// A power of `powers` by name or adjective, case-insensitively.
pub(crate) fn power_by_name(powers: &[BoardPower], text: &str) -> Option<PowerIndex> {
    let key = normalise(text);
    powers
        .iter()
        .position(|p| normalise(&p.name) == key || normalise(&p.adjective) == key)
        .and_then(|i| u8::try_from(i).ok())
        .map(PowerIndex)
}
