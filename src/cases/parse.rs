//! Reads DATC-style case files (jDip/godip format plus the sections of
//! `docs/rules/README.md` §2.3 and `fixtures/README.md`) into [`Case`] values. Orders are
//! read by the judge's own command parser (one order grammar); a rule set's facts are kept
//! as lines for the rule set to read. Every error names the file's line.

use crate::command::{self, Command, ParseContext};
use crate::map::{Location, Map, Power, ProvinceId, Terrain};
use crate::rules::{Order, Owner, Phase, PhaseKind, PowerOrder, Season, Unit, UnitKind};
use crate::variant::Sender;

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
    pub power: Power,
    /// The order as written (sent as it is when the phase is replayed).
    pub text: String,
    /// The unit order, if it is one (a rule set's command is not).
    pub order: Option<Order>,
}

/// One expected list of retreat options: `England: A bur -> par gas`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpectedOptions {
    pub line: usize,
    pub unit: Unit,
    pub options: Vec<Location>,
}

/// An event the lines after a marker wait for (README §2.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marker {
    /// `(after the Fall 1904 results)`: every phase of that season part has been processed
    /// (for a Fall: its movement and retreats; for a Winter: its adjustments).
    AfterResults { year: u16, season: Season },
    /// `(Winter 1904 opens)`, `(jury phase W1910J opens)`, `(conference phase C1904
    /// opens)`, `(Spring 1906 opens)`: that phase is the current one.
    Opens(Phase),
}

impl Marker {
    /// When the event happens, as a point in the game's time (year, season, the place in
    /// the season): events sort as they come. The results of a season part come after
    /// every phase of it.
    pub fn at(&self) -> (u16, Season, u8) {
        match *self {
            Marker::AfterResults { year, season } => (year, season, u8::MAX),
            Marker::Opens(p) => (p.year, p.season, p.kind.place_in_season()),
        }
    }

    /// Whether the event has happened when `current` is the game's phase.
    pub fn happened(&self, current: Phase) -> bool {
        match *self {
            Marker::AfterResults { year, season } => {
                (current.year, current.season) > (year, season)
            }
            Marker::Opens(p) => current == p,
        }
    }

    /// Whether the event's time has passed without it (the phase it waits for was skipped).
    pub fn missed(&self, current: Phase) -> bool {
        match *self {
            Marker::AfterResults { .. } => false,
            Marker::Opens(p) => current > p,
        }
    }
}

/// What the judge must answer to an `ORDERS` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expect {
    /// No remark: the order is accepted.
    Accepted,
    /// `# ERROR <code>`: refused with that code.
    Refused(String),
    /// `# illegal: …` (the DATC file's remark): refused, whatever the code.
    Illegal,
}

/// One line of `COMMANDS` or `ORDERS`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScriptLine {
    Marker {
        line: usize,
        marker: Marker,
    },
    Text {
        line: usize,
        from: Sender,
        text: String,
        /// `(retreat phase)` in front: it goes into the retreat phase that follows.
        retreat: bool,
        /// A `\` at its end: the next line of the same sender is in the same message.
        continued: bool,
        expect: Expect,
    },
}

/// One expected reply line: `France: ERROR SRV-E5: a power cannot vote for itself.`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpectedReply {
    pub line: usize,
    pub to: Sender,
    /// `OK`, `ERROR` or `WARNING`.
    pub kind: String,
    /// The code (ERROR and WARNING), or what follows `OK ` (empty: any OK line).
    pub code: String,
    /// The sentence (ERROR and WARNING).
    pub sentence: String,
}

/// One test case.
#[derive(Debug, Clone, Default)]
pub struct Case {
    pub name: String,
    pub line: usize,
    /// `VARIANT <name>` of the case, or the file's `VARIANT_ALL`.
    pub variant: String,
    /// `SETTING key=value`, with their lines.
    pub settings: Vec<(usize, String, String)>,
    pub phase: Option<Phase>,
    pub owners: Option<Vec<(Power, ProvinceId)>>,
    pub prestate: Vec<Unit>,
    /// Notes on units (`Neutral: A Par (rebel of France)`): line, unit, note.
    pub unit_notes: Vec<(usize, Unit, String)>,
    pub dislodged: Vec<Unit>,
    pub prestate_results: Option<Vec<ExpectedResult>>,
    pub prestate_variant: Vec<(usize, String)>,
    pub commands: Vec<ScriptLine>,
    pub orders: Vec<ScriptLine>,
    pub poststate: Option<Vec<Unit>>,
    pub poststate_same: bool,
    pub post_dislodged: Option<Vec<Unit>>,
    pub post_results: Option<Vec<ExpectedResult>>,
    pub post_options: Option<Vec<ExpectedOptions>>,
    pub post_owners: Option<Vec<(Power, ProvinceId)>>,
    pub post_phase: Option<Phase>,
    pub poststate_variant: Option<Vec<(usize, String)>>,
    pub replies: Option<Vec<ExpectedReply>>,
    pub bulletin: Option<Vec<(usize, String)>>,
    pub not_public: Option<Vec<(usize, String)>>,
}

impl Case {
    /// Whether the case checks anything beyond the standard position and results (so that
    /// the runner may go on through the season until it holds).
    pub fn has_variant_checks(&self) -> bool {
        self.bulletin.is_some() || self.poststate_variant.is_some()
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Block {
    None,
    Owners,
    Prestate,
    Dislodged,
    PreResults,
    PreVariant,
    Commands,
    Orders,
    Poststate,
    PostDislodged,
    PostResults,
    PostOptions,
    PostOwners,
    PostVariant,
    Replies,
    Bulletin,
    NotPublic,
}

/// The keywords that stand alone on their line and open a block.
const BLOCKS: &[(&str, Block)] = &[
    ("PRESTATE_SUPPLYCENTER_OWNERS", Block::Owners),
    ("PRESTATE", Block::Prestate),
    ("PRESTATE_DISLODGED", Block::Dislodged),
    ("PRESTATE_RESULTS", Block::PreResults),
    ("PRESTATE_VARIANT", Block::PreVariant),
    ("COMMANDS", Block::Commands),
    ("ORDERS", Block::Orders),
    ("POSTSTATE", Block::Poststate),
    ("POSTSTATE_DISLODGED", Block::PostDislodged),
    ("POSTSTATE_RESULTS", Block::PostResults),
    ("POSTSTATE_RETREAT_OPTIONS", Block::PostOptions),
    ("POSTSTATE_SUPPLYCENTER_OWNERS", Block::PostOwners),
    ("POSTSTATE_VARIANT", Block::PostVariant),
    ("REPLIES", Block::Replies),
    ("BULLETIN", Block::Bulletin),
    ("NOT_PUBLIC", Block::NotPublic),
];

/// The keywords that carry their argument on their own line.
const SINGLE_LINE: &[&str] = &[
    "VARIANT_ALL",
    "CASE",
    "END",
    "VARIANT",
    "SETTING",
    "PRESTATE_SETPHASE",
    "POSTSTATE_SETPHASE",
    "POSTSTATE_SAME",
];

/// Splits a line at its `#` comment: (text before it, trimmed; the comment, trimmed).
fn split_comment(line: &str) -> (&str, Option<&str>) {
    match line.split_once('#') {
        Some((text, comment)) => (text.trim(), Some(comment.trim())),
        None => (line.trim(), None),
    }
}

/// Reads `Spring 1901, Movement`, `Fall 1901, Adjustment` (= Winter), `Retreats` (also
/// `Move`, `Builds`), a rule set's phase by its name (`Alliance 1901`, `Winter 1910,
/// Jury`), or a short code (`S1901M`, `A1901`, `W1910J`).
pub fn parse_phase(text: &str) -> Option<Phase> {
    let t = text.replace(',', " ").to_ascii_lowercase();
    let words: Vec<&str> = t
        .split_whitespace()
        .map(|w| match w {
            "move" | "moves" => "movement",
            "build" | "builds" => "adjustment",
            w => w,
        })
        .collect();
    Phase::parse_words(&words.join(" "))
}

/// `Spring 1906`, `Fall 1904`, `Winter 1903`: a season of a year.
fn season_year(text: &str) -> Option<(Season, u16)> {
    let mut words = text.split_whitespace();
    let season = match words.next()?.to_ascii_lowercase().as_str() {
        "spring" => Season::Spring,
        "fall" | "autumn" => Season::Fall,
        "winter" => Season::Winter,
        _ => return None,
    };
    let year = words.next()?.parse().ok()?;
    words.next().is_none().then_some((season, year))
}

/// Reads a marker line (its parentheses taken off); None: a comment.
fn parse_marker(inner: &str) -> Option<Marker> {
    // Anything after a `;` or `,` is a comment.
    let head = inner.split([';', ',']).next().unwrap_or("").trim();
    let lower = head.to_ascii_lowercase();
    if let Some(rest) = lower.strip_prefix("after the ")
        && let Some(sy) = rest.strip_suffix(" results")
    {
        let (season, year) = season_year(sy)?;
        return Some(Marker::AfterResults { year, season });
    }
    let opened = lower.strip_suffix(" opens")?;
    // `(jury phase W1910J opens)`: a rule set's phase by its short code.
    if let Some((_, code)) = opened.split_once(" phase ") {
        return Phase::parse(code).map(Marker::Opens);
    }
    let (season, year) = season_year(opened)?;
    let phase = match season {
        Season::Winter => Phase::new(year, Season::Winter, PhaseKind::Adjustment),
        s => Phase::new(year, s, PhaseKind::Movement),
    };
    Some(Marker::Opens(phase))
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

/// `Power: rest` or `Master: rest`.
fn split_sender(line: usize, text: &str) -> Result<(Sender, &str), CaseError> {
    if let Some((who, rest)) = text.split_once(':')
        && who.trim().eq_ignore_ascii_case("master")
    {
        return Ok((Sender::Master, rest.trim()));
    }
    split_power(line, text).map(|(p, rest)| (Sender::Power(p), rest))
}

/// Reads an order with the judge's command parser, in the phase it is given in.
fn parse_order(
    map: &Map,
    line: usize,
    text: &str,
    phase: Option<PhaseKind>,
) -> Result<Command, CaseError> {
    static ANY: std::sync::OnceLock<crate::variant::Grammars> = std::sync::OnceLock::new();
    // Every rule set's commands: a case's lines are read as the judge reads a mail whose
    // game it does not know yet; the runner's judge answers them in the case's game.
    let grammar = ANY.get_or_init(|| crate::variant::Registry::default().any_grammar());
    let cx = ParseContext {
        phase,
        grammar: Some(grammar),
    };
    let norm = command::normalise_line(text);
    command::parse_command(&norm, map, &cx).or_else(|e| err(line, format!("{text:?}: {e}")))
}

/// The unit order of a command, if it is one.
fn unit_order(c: &Command) -> Option<Order> {
    match c {
        Command::Order(oc) => Some(oc.order),
        _ => None,
    }
}

/// `A lon`, `F stp/sc`: a unit on the board, with an optional note in parentheses.
/// Checks that it can stand there.
fn parse_unit(
    map: &Map,
    line: usize,
    owner: Owner,
    text: &str,
) -> Result<(Unit, Option<String>), CaseError> {
    let (text, note) = match text.split_once('(') {
        Some((unit, rest)) if rest.trim_end().ends_with(')') => (
            unit.trim(),
            Some(rest.trim_end().trim_end_matches(')').trim().to_string()),
        ),
        _ => (text.trim(), None),
    };
    let mut words = text.split_whitespace();
    let kind = match words.next().map(str::to_ascii_lowercase).as_deref() {
        Some("a" | "army") => UnitKind::Army,
        Some("f" | "fleet") => UnitKind::Fleet,
        _ => return err(line, format!("a unit needs its kind, A or F: {text:?}")),
    };
    let place: String = words.collect::<Vec<_>>().join(" ");
    let Some(location) = map.find_location(&place) else {
        return err(line, format!("no province or coast called {place:?}"));
    };
    let p = map.province(location.province);
    let name = map.location_name(location);
    match kind {
        UnitKind::Army if p.terrain == Terrain::Sea => {
            return err(line, format!("an army cannot stand in {name}"));
        }
        UnitKind::Fleet if p.terrain == Terrain::Land => {
            return err(line, format!("a fleet cannot stand in {name}"));
        }
        UnitKind::Fleet if !p.coasts.is_empty() && location.coast.is_none() => {
            return err(line, format!("a fleet in {name} must name its coast"));
        }
        _ => {}
    }
    let location = match kind {
        // An army has no coast.
        UnitKind::Army => Location::province(location.province),
        UnitKind::Fleet => location,
    };
    Ok((Unit::new(owner, kind, location), note))
}

/// `Austria: A Vie, A Tri` or `Neutral: A Par (rebel of France)`: units with their notes.
fn parse_units(
    map: &Map,
    line: usize,
    text: &str,
) -> Result<Vec<(Unit, Option<String>)>, CaseError> {
    let Some((who, rest)) = text.split_once(':') else {
        return err(line, format!("expected \"Power: A lon\", found {text:?}"));
    };
    let owner = if who.trim().eq_ignore_ascii_case("neutral") {
        Owner::Neutral
    } else {
        match Power::from_name(who) {
            Some(p) => Owner::Power(p),
            None => return err(line, format!("no power called {:?}", who.trim())),
        }
    };
    rest.split(',')
        .map(str::trim)
        .filter(|u| !u.is_empty())
        .map(|u| parse_unit(map, line, owner, u))
        .collect()
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
    let command = parse_order(map, line, order_text, Some(phase))?;
    Ok(ExpectedResult {
        line,
        success,
        power,
        text: order_text.to_string(),
        order: unit_order(&command),
    })
}

fn parse_options(map: &Map, line: usize, text: &str) -> Result<ExpectedOptions, CaseError> {
    let (power, rest) = split_power(line, text)?;
    let (unit_text, options) = match rest.split_once("->") {
        Some((u, o)) => (u, o),
        None => return err(line, "expected \"Power: A bur -> par gas\""),
    };
    let (unit, _) = parse_unit(map, line, Owner::Power(power), unit_text)?;
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

/// `France: ERROR SRV-E5: a power cannot vote for itself.`, `France: OK`, `Master: …`.
fn parse_reply(line: usize, text: &str) -> Result<ExpectedReply, CaseError> {
    let (to, rest) = split_sender(line, text)?;
    let (kind, rest) = rest.split_once(' ').unwrap_or((rest, ""));
    let kind = kind.to_ascii_uppercase();
    let (code, sentence) = match kind.as_str() {
        "OK" => (rest.trim().to_string(), String::new()),
        "ERROR" | "WARNING" => match rest.split_once(": ") {
            Some((code, sentence)) => (code.trim().to_string(), sentence.trim().to_string()),
            None => return err(line, format!("expected \"{kind} CODE: sentence\"")),
        },
        _ => {
            return err(
                line,
                format!("a reply is OK, ERROR or WARNING, not {kind:?}"),
            );
        }
    };
    Ok(ExpectedReply {
        line,
        to,
        kind,
        code,
        sentence,
    })
}

/// Reads a line of `COMMANDS` or `ORDERS`.
fn parse_script_line(
    map: &Map,
    line: usize,
    raw: &str,
    orders: bool,
    start: Option<PhaseKind>,
    after_marker: bool,
) -> Result<Option<ScriptLine>, CaseError> {
    let (text, comment) = split_comment(raw);
    if text.is_empty() {
        return Ok(None);
    }
    let mut text = text;
    let mut retreat = false;
    if let Some(inner) = text.strip_prefix('(') {
        let Some((inner, rest)) = inner.split_once(')') else {
            return err(line, format!("no closing parenthesis in {text:?}"));
        };
        if inner.trim().eq_ignore_ascii_case("retreat phase") {
            retreat = true;
            text = rest.trim();
        } else if rest.trim().is_empty() {
            return Ok(parse_marker(inner).map(|marker| ScriptLine::Marker { line, marker }));
        } else {
            return err(line, format!("unknown marker ({inner}) in front of a line"));
        }
    }
    let (from, body) = split_sender(line, text)?;
    let (body, continued) = match body.strip_suffix('\\') {
        Some(b) => (b.trim_end(), true),
        None => (body, false),
    };
    let expect = match comment {
        Some(c) if c.to_ascii_uppercase().starts_with("ERROR") => {
            let code = c.get(5..).unwrap_or("").trim();
            if code.is_empty() {
                return err(line, "expected \"# ERROR <code>\"");
            }
            Expect::Refused(code.to_string())
        }
        Some(c) if c.to_ascii_lowercase().starts_with("illegal") => Expect::Illegal,
        _ => Expect::Accepted,
    };
    if orders && expect == Expect::Accepted {
        // An order the judge must take has to be readable: read it now, so that a typo in
        // a case file is the file's error, not a case that fails.
        let phase = if retreat {
            Some(PhaseKind::Retreat)
        } else if after_marker {
            None
        } else {
            start
        };
        parse_order(map, line, body, phase)?;
    }
    Ok(Some(ScriptLine::Text {
        line,
        from,
        text: body.to_string(),
        retreat,
        continued,
        expect,
    }))
}

/// Reads every case of a file.
pub fn parse_cases(map: &Map, text: &str) -> Result<Vec<Case>, CaseError> {
    let mut cases = Vec::new();
    let mut variant_all = "Standard".to_string();
    let mut case: Option<Case> = None;
    let mut block = Block::None;
    let mut after_marker = false;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let raw = raw.trim_start_matches('\u{feff}');
        let (t, _) = split_comment(raw);
        if t.is_empty() {
            continue;
        }
        let (keyword, arg) = match t.split_once(char::is_whitespace) {
            Some((k, a)) => (k, a.trim()),
            None => (t, ""),
        };
        let opens = BLOCKS.iter().find(|(k, _)| *k == keyword).map(|(_, b)| *b);
        let single = SINGLE_LINE.contains(&keyword);
        let looks_like_keyword = keyword.len() > 2
            && keyword.chars().all(|c| c.is_ascii_uppercase() || c == '_')
            && block == Block::None;
        if opens.is_some() || single || looks_like_keyword {
            if let Some(b) = opens {
                if !arg.is_empty() {
                    return err(line, format!("{keyword} takes no argument on its line"));
                }
                let Some(c) = case.as_mut() else {
                    return err(
                        line,
                        format!("{keyword} outside a case (CASE must come first)"),
                    );
                };
                block = b;
                after_marker = false;
                match b {
                    Block::Owners => c.owners = Some(Vec::new()),
                    Block::PreResults => c.prestate_results = Some(Vec::new()),
                    Block::Poststate => c.poststate = Some(Vec::new()),
                    Block::PostDislodged => c.post_dislodged = Some(Vec::new()),
                    Block::PostResults => c.post_results = Some(Vec::new()),
                    Block::PostOptions => c.post_options = Some(Vec::new()),
                    Block::PostOwners => c.post_owners = Some(Vec::new()),
                    Block::PostVariant => c.poststate_variant = Some(Vec::new()),
                    Block::Replies => c.replies = Some(Vec::new()),
                    Block::Bulletin => c.bulletin = Some(Vec::new()),
                    Block::NotPublic => c.not_public = Some(Vec::new()),
                    _ => {}
                }
                continue;
            }
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
                _ => {}
            }
            let Some(c) = case.as_mut() else {
                return err(
                    line,
                    format!("{keyword} outside a case (CASE must come first)"),
                );
            };
            block = Block::None;
            match keyword {
                "END" => {
                    if let Some(c) = case.take() {
                        if c.phase.is_none() {
                            return err(
                                c.line,
                                format!("case {} has no PRESTATE_SETPHASE", c.name),
                            );
                        }
                        cases.push(c);
                    }
                }
                "VARIANT" => c.variant = arg.to_string(),
                "SETTING" => {
                    let Some((k, v)) = arg.split_once('=') else {
                        return err(line, "expected SETTING key=value");
                    };
                    c.settings
                        .push((line, k.trim().to_string(), v.trim().to_string()));
                }
                "PRESTATE_SETPHASE" | "POSTSTATE_SETPHASE" => {
                    let phase = parse_phase(arg)
                        .ok_or(())
                        .or_else(|_| err(line, format!("cannot read the phase {arg:?}")))?;
                    if keyword == "PRESTATE_SETPHASE" {
                        c.phase = Some(phase);
                    } else {
                        c.post_phase = Some(phase);
                    }
                }
                "POSTSTATE_SAME" => c.poststate_same = true,
                k => return err(line, format!("unknown keyword {k}")),
            }
            continue;
        }
        let Some(c) = case.as_mut() else {
            return err(line, format!("{t:?} outside a case"));
        };
        let start_kind = c.phase.map(|p| p.kind);
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
                for (unit, note) in parse_units(map, line, t)? {
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
                    if let Some(note) = note
                        && matches!(block, Block::Prestate | Block::Dislodged)
                    {
                        c.unit_notes.push((line, unit, note));
                    }
                }
            }
            Block::PreResults => {
                let r = parse_result(map, line, t, PhaseKind::Movement)?;
                c.prestate_results.get_or_insert_with(Vec::new).push(r);
            }
            Block::PostResults => {
                let r = parse_result(map, line, t, start_kind.unwrap_or(PhaseKind::Movement))?;
                c.post_results.get_or_insert_with(Vec::new).push(r);
            }
            Block::PostOptions => {
                let o = parse_options(map, line, t)?;
                c.post_options.get_or_insert_with(Vec::new).push(o);
            }
            Block::PreVariant => c.prestate_variant.push((line, t.to_string())),
            Block::PostVariant => c
                .poststate_variant
                .get_or_insert_with(Vec::new)
                .push((line, t.to_string())),
            Block::Commands | Block::Orders => {
                let orders = block == Block::Orders;
                if let Some(l) =
                    parse_script_line(map, line, raw, orders, start_kind, after_marker)?
                {
                    if matches!(l, ScriptLine::Marker { .. }) {
                        after_marker = true;
                    }
                    if orders {
                        c.orders.push(l);
                    } else {
                        c.commands.push(l);
                    }
                }
            }
            Block::Replies => {
                let r = parse_reply(line, t)?;
                c.replies.get_or_insert_with(Vec::new).push(r);
            }
            Block::Bulletin => c
                .bulletin
                .get_or_insert_with(Vec::new)
                .push((line, t.to_string())),
            Block::NotPublic => c
                .not_public
                .get_or_insert_with(Vec::new)
                .push((line, t.to_string())),
        }
    }
    if let Some(c) = case {
        return err(c.line, format!("case {} has no END", c.name));
    }
    Ok(cases)
}

/// One order in case-file notation, read by the judge's command parser (tests build
/// positions and orders with it).
pub fn parse_power_order(map: &Map, text: &str, phase: PhaseKind) -> Result<PowerOrder, CaseError> {
    let (power, rest) = split_power(0, text)?;
    let command = parse_order(map, 0, rest, Some(phase))?;
    match unit_order(&command) {
        Some(order) => Ok(PowerOrder::new(power, order)),
        None => err(0, format!("{rest:?} is not a unit order")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map() -> &'static Map {
        Map::standard().expect("map")
    }

    #[test]
    fn markers() {
        crate::variant::Registry::default();
        assert_eq!(
            parse_marker("after the Fall 1904 results; Winter 1904 open"),
            Some(Marker::AfterResults {
                year: 1904,
                season: Season::Fall
            })
        );
        assert_eq!(
            parse_marker("Winter 1904 opens"),
            Some(Marker::Opens(Phase::new(
                1904,
                Season::Winter,
                PhaseKind::Adjustment
            )))
        );
        assert_eq!(
            parse_marker("jury phase W1910J opens; Russia's player has resigned, so four jurors"),
            Phase::parse("W1910J").map(Marker::Opens)
        );
        assert_eq!(
            parse_marker("conference phase C1904 opens"),
            Phase::parse("C1904").map(Marker::Opens)
        );
        assert_eq!(parse_marker("every playing power has ordered"), None);
    }

    #[test]
    fn marker_events_in_time() {
        let after_fall = Marker::AfterResults {
            year: 1904,
            season: Season::Fall,
        };
        let p = |s: &str| Phase::parse(s).expect("phase");
        assert!(!after_fall.happened(p("F1904M")));
        assert!(!after_fall.happened(p("F1904R")));
        assert!(after_fall.happened(p("W1904A")));
        assert!(after_fall.happened(p("S1905M")));
        assert!(Marker::Opens(p("W1904A")).happened(p("W1904A")));
        assert!(!Marker::Opens(p("W1904A")).happened(p("S1905M")));
    }

    #[test]
    fn phases_of_every_kind() {
        crate::variant::Registry::default();
        for (text, short) in [
            ("Spring 1901, Movement", "S1901M"),
            ("Fall 1904, Retreats", "F1904R"),
            ("Fall 1901, Adjustment", "W1901A"),
            ("Winter 1902, Adjustments", "W1902A"),
            ("Alliance 1901", "A1901"),
            ("Conference 1904", "C1904"),
            ("Winter 1910, Jury", "W1910J"),
            ("W1910J", "W1910J"),
        ] {
            assert_eq!(
                parse_phase(text).map(|p| p.to_string()).as_deref(),
                Some(short),
                "{text}"
            );
        }
        assert_eq!(parse_phase("Spring 1910, Jury"), None);
    }

    #[test]
    fn several_units_neutrals_and_notes() {
        let text = "CASE X\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\nAustria: A Vie, A Tri\nNeutral: A Par (rebel of France)\nEND\n";
        let c = parse_cases(map(), text).expect("reads");
        let case = c.first().expect("one");
        assert_eq!(case.prestate.len(), 3);
        assert!(case.prestate.iter().any(|u| u.owner == Owner::Neutral));
        assert_eq!(
            case.unit_notes.first().map(|(_, _, n)| n.as_str()),
            Some("rebel of France")
        );
    }

    #[test]
    fn orders_with_expected_errors_markers_and_retreats() {
        let text = "CASE X\nVARIANT Formal\nPRESTATE_SETPHASE Spring 1903, Movement\nORDERS\nFrance: DWO Prussia   # ERROR FD-E3\nFrance: A Bur - Mun\n(every power has ordered)\n(retreat phase) France: A Bel - Pic\n(after the Spring 1903 results)\nFrance: A Par H\nEND\n";
        let c = parse_cases(map(), text).expect("reads");
        let orders = &c.first().expect("one").orders;
        assert_eq!(orders.len(), 5);
        assert!(matches!(
            orders.first(),
            Some(ScriptLine::Text { expect: Expect::Refused(code), .. }) if code == "FD-E3"
        ));
        assert!(matches!(
            orders.get(2),
            Some(ScriptLine::Text { retreat: true, .. })
        ));
        assert!(matches!(orders.get(3), Some(ScriptLine::Marker { .. })));
    }

    #[test]
    fn an_unreadable_order_is_the_files_error_unless_it_is_expected() {
        let bad =
            "CASE X\nPRESTATE_SETPHASE Spring 1901, Movement\nORDERS\nFrance: A Par - Xyz\nEND\n";
        let e = parse_cases(map(), bad).expect_err("unreadable");
        assert_eq!(e.line, 4);
        let expected = "CASE X\nPRESTATE_SETPHASE Spring 1901, Movement\nORDERS\nFrance: A Par - Xyz # ERROR UNKNOWN-PROVINCE\nEND\n";
        assert!(parse_cases(map(), expected).is_ok());
    }

    #[test]
    fn variant_blocks_keep_words_that_look_like_keywords() {
        let text = "CASE X\nPRESTATE_SETPHASE Fall 1902, Movement\nBULLETIN\nGAME END: England wins.\nWARS: none\nPOSTSTATE_VARIANT\n(no wars)\nREPLIES\nFrance: ERROR SRV-E5: a power cannot vote for itself. Ballot not recorded.\nMaster: OK\nEND\n";
        let c = parse_cases(map(), text).expect("reads");
        let case = c.first().expect("one");
        assert_eq!(case.bulletin.as_ref().map(Vec::len), Some(2));
        assert_eq!(case.poststate_variant.as_ref().map(Vec::len), Some(1));
        let replies = case.replies.as_ref().expect("replies");
        assert_eq!(replies.len(), 2);
        assert_eq!(replies.first().map(|r| r.code.as_str()), Some("SRV-E5"));
        assert_eq!(replies.get(1).map(|r| r.to), Some(Sender::Master));
    }
}
