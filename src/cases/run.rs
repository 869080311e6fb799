//! Running a case through the judge, as mail: the case's game is set up in a fresh
//! in-memory database, its `COMMANDS` and `ORDERS` are mailed by the powers and the master
//! (SIGNON first, like any player), its phases are processed as the master's `PROCESS!`
//! does, and every mail the judge queued is read back and checked (README §2.3): the
//! position and results, the replies, the rule set's facts, the public bulletins (what an
//! observer of the game receives) and the strings that must not be public.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use chrono::{DateTime, TimeZone, Utc};

use crate::game::{Arrangement, Game, Player, Seat, Status};
use crate::judge::{Handled, Incoming, Judge, JudgeConfig, PasswordCost, hash_password};
use crate::map::{Location, Map, Power, ProvinceId};
use crate::rules::{
    DislodgedUnit, Order, Owner, Phase, PhaseKind, PhaseOutcome, Position, Season, Unit, UnitKind,
    UnitSpec,
};
use crate::store::{QueuedMail, Store};
use crate::variant::{Check, Lookup, Registry, Sender, Setup, Variant, VariantState};

use super::parse::{Case, CaseError, Expect, ExpectedReply, ExpectedResult, Marker, ScriptLine};

/// Why a case could not be run at all (as opposed to running and differing).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    #[error("variant \"{0}\" is not implemented yet")]
    NotImplemented(String),
    #[error("unknown variant \"{0}\"")]
    UnknownVariant(String),
    /// A line of the case the rule set cannot read (a fact, a setting, a unit note): the
    /// file's error.
    #[error(transparent)]
    Unreadable(CaseError),
    #[error("{0}")]
    Inconsistent(String),
    #[error("the judge failed: {0}")]
    Judge(String),
}

/// The outcome of one case.
#[derive(Debug)]
pub struct CaseReport {
    /// What differed, one sentence each; empty when the case passed.
    pub differences: Vec<String>,
    /// The time the judge took to process the case's phase (setup and mail excluded).
    pub elapsed: Duration,
    pub phase_kind: PhaseKind,
}

/// The name of every case's game.
const GAME: &str = "case";
const PASSWORD: &str = "case";
const MASTER: &str = "master@case.test";
const OBSERVER: &str = "observer@case.test";

fn address(p: Power) -> String {
    format!("{}@case.test", p.name().to_lowercase())
}

fn judge_error(e: impl std::fmt::Display) -> RunError {
    RunError::Judge(e.to_string())
}

/// The one password hash every seat of a case's game has (the cheapest cost: tests only).
fn password_hash() -> &'static str {
    static HASH: OnceLock<String> = OnceLock::new();
    HASH.get_or_init(|| hash_password(PasswordCost::TEST, PASSWORD, 1901))
}

/// A message of the run: who sent it, and its lines with the case-file lines they came
/// from.
struct Message<'c> {
    from: Sender,
    lines: Vec<&'c ScriptLine>,
}

/// The lines that arrive at one moment: at the start, or when a marker's event happened.
#[derive(Default)]
struct Moment<'c> {
    marker: Option<(usize, Marker)>,
    commands: Vec<&'c ScriptLine>,
    orders: Vec<&'c ScriptLine>,
    /// `(retreat phase)` lines: for the retreat phase after this moment's phase.
    retreats: Vec<&'c ScriptLine>,
}

/// Splits the `COMMANDS` and `ORDERS` lines into moments, in the order their events
/// happen.
fn moments(case: &Case) -> Vec<Moment<'_>> {
    let mut markers: Vec<(usize, Marker)> = case
        .commands
        .iter()
        .chain(&case.orders)
        .filter_map(|l| match l {
            ScriptLine::Marker { line, marker } => Some((*line, *marker)),
            ScriptLine::Text { .. } => None,
        })
        .collect();
    markers.sort_by_key(|(line, m)| (m.at(), *line));
    markers.dedup_by(|a, b| a.1 == b.1);
    let mut out: Vec<Moment<'_>> = vec![Moment::default()];
    out.extend(markers.iter().map(|m| Moment {
        marker: Some(*m),
        ..Moment::default()
    }));
    for (section, is_orders) in [(&case.commands, false), (&case.orders, true)] {
        let mut at = 0;
        for l in section {
            match l {
                ScriptLine::Marker { marker, .. } => {
                    at = out
                        .iter()
                        .position(|m| m.marker.map(|(_, x)| x) == Some(*marker))
                        .unwrap_or(0);
                }
                ScriptLine::Text { retreat, .. } => {
                    if let Some(m) = out.get_mut(at) {
                        match (retreat, is_orders) {
                            (true, _) => m.retreats.push(l),
                            (false, false) => m.commands.push(l),
                            (false, true) => m.orders.push(l),
                        }
                    }
                }
            }
        }
    }
    out
}

/// The first word of a line, lower case.
fn first_word(text: &str) -> String {
    text.split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// `COMMANDS` lines as messages: one a line, except a press block up to its ENDPRESS and
/// lines continued with `\`.
fn command_messages<'c>(lines: &[&'c ScriptLine]) -> Vec<Message<'c>> {
    let mut out: Vec<Message<'c>> = Vec::new();
    let mut open = false;
    for l in lines {
        let ScriptLine::Text { from, text, .. } = l else {
            continue;
        };
        let word = first_word(text);
        let joins = open
            || out.last().is_some_and(|m| {
                m.from == *from && m.lines.last().is_some_and(|x| is_continued(x))
            });
        match out.last_mut() {
            Some(m) if joins && m.from == *from => m.lines.push(l),
            _ => out.push(Message {
                from: *from,
                lines: vec![l],
            }),
        }
        if word == "press" || word == "broadcast" {
            open = true;
        }
        if word == "endpress" || word == "endbroadcast" {
            open = false;
        }
    }
    out
}

fn is_continued(l: &ScriptLine) -> bool {
    matches!(
        l,
        ScriptLine::Text {
            continued: true,
            ..
        }
    )
}

/// `ORDERS` lines as messages: one a sender, senders in the order they first appear.
fn order_messages<'c>(lines: &[&'c ScriptLine]) -> Vec<Message<'c>> {
    let mut out: Vec<Message<'c>> = Vec::new();
    for l in lines {
        let ScriptLine::Text { from, .. } = l else {
            continue;
        };
        match out.iter_mut().find(|m| m.from == *from) {
            Some(m) => m.lines.push(l),
            None => out.push(Message {
                from: *from,
                lines: vec![l],
            }),
        }
    }
    out
}

/// Which season a phase belongs to (README §1: a Fall runs on through its Winter):
/// (year, 0 for Spring, 1 for Fall).
fn season_of(phase: Phase) -> (u16, u8) {
    match phase.season {
        Season::Spring => (phase.year, 0),
        Season::Fall | Season::Winter => (phase.year, 1),
    }
}

/// The judge's reply to one message of the run.
struct Reply {
    from: Sender,
    /// The message's lines whose refusal the case expects, by message line number.
    expected: Vec<(usize, Expect)>,
    lines: Vec<String>,
}

/// A case being run: the judge, its clock, the mails queued before the run began.
struct Harness<'a> {
    map: &'a Map,
    judge: Judge,
    now: DateTime<Utc>,
    sent: u32,
    /// The replies to the run's messages, in the order sent.
    replies: Vec<Reply>,
    /// Mails with a larger id were queued during the run.
    first_mail: i64,
    /// Time spent processing the case's own phase.
    elapsed: Duration,
}

impl Harness<'_> {
    fn tick(&mut self) -> DateTime<Utc> {
        self.now += chrono::Duration::minutes(1);
        self.now
    }

    /// Mails one message; keeps the reply.
    fn send(&mut self, message: &Message<'_>) -> Result<(), RunError> {
        let mut body = match message.from {
            Sender::Power(p) => format!("SIGNON {}{GAME} {PASSWORD}\n", p.initial()),
            Sender::Master => format!("SIGNON M{GAME} {PASSWORD}\n"),
        };
        let mut expected = Vec::new();
        for (n, l) in message.lines.iter().enumerate() {
            if let ScriptLine::Text { text, expect, .. } = l {
                body.push_str(text);
                body.push('\n');
                // The message's line n + 2 (after the SIGNON) holds this line.
                expected.push((n + 2, expect.clone()));
            }
        }
        self.sent += 1;
        let key = format!("<case-{}@case.test>", self.sent);
        let from = match message.from {
            Sender::Power(p) => address(p),
            Sender::Master => MASTER.to_string(),
        };
        let now = self.tick();
        let msg = Incoming {
            key: key.clone(),
            message_id: Some(key.clone()),
            from,
            reply_to: None,
            from_name: None,
            subject: "case".into(),
            text: body,
            size_capped: false,
        };
        match self.judge.handle(&msg, now).map_err(judge_error)? {
            Handled::Applied { .. } => {}
            Handled::Duplicate => return Err(RunError::Judge("a message was taken twice".into())),
        }
        let reply = self
            .judge
            .all_mail()
            .map_err(judge_error)?
            .into_iter()
            .rev()
            .find(|m| m.in_reply_to.as_deref() == Some(key.as_str()))
            .map(|m| m.body)
            .unwrap_or_default();
        let lines = reply.lines().map(str::to_string).collect();
        self.replies.push(Reply {
            from: message.from,
            expected,
            lines,
        });
        Ok(())
    }

    fn process(&mut self) -> Result<Option<PhaseOutcome>, RunError> {
        let now = self.tick();
        self.judge.process_now(GAME, now).map_err(judge_error)
    }

    fn game(&mut self) -> Result<Game, RunError> {
        self.judge
            .game(GAME)
            .map_err(judge_error)?
            .ok_or_else(|| RunError::Judge("the case's game is gone".into()))
    }

    fn run_mail(&mut self) -> Result<Vec<QueuedMail>, RunError> {
        let first = self.first_mail;
        Ok(self
            .judge
            .all_mail()
            .map_err(judge_error)?
            .into_iter()
            .filter(|m| m.id > first)
            .collect())
    }
}

fn owners_vec(map: &Map, list: &[(Power, ProvinceId)]) -> Vec<Option<Power>> {
    let mut owners = vec![None; map.province_count()];
    for (power, p) in list {
        if let Some(o) = owners.get_mut(p.index()) {
            *o = Some(*power);
        }
    }
    owners
}

/// The position a case starts from (for a retreat case with its movement phase, that
/// movement phase: it is replayed).
fn start_position(map: &Map, case: &Case, phase: Phase) -> Position {
    let mut pos = Position::empty(map, phase);
    match &case.owners {
        Some(o) => pos.owners = owners_vec(map, o),
        None => pos.set_home_ownership(map),
    }
    pos.units = case.prestate.clone();
    pos.sort_units();
    pos.assign_unit_ids();
    pos
}

/// A retreat case without its movement phase: the dislodged units may go to any
/// adjacent empty place (no standoff or attacker is known).
fn add_dislodged(map: &Map, case: &Case, pos: &mut Position) {
    for u in &case.dislodged {
        let options = map
            .locations()
            .into_iter()
            .filter(|l| {
                let ok = match u.kind {
                    UnitKind::Army => {
                        l.coast.is_none() && map.army_border(u.location.province, l.province)
                    }
                    UnitKind::Fleet => map.fleet_border(u.location, *l),
                };
                ok && pos.unit_in(l.province).is_none()
            })
            .collect();
        pos.dislodged.push(DislodgedUnit {
            unit: *u,
            attacker_from: u.location.province,
            attacker: crate::rules::UnitId::NONE,
            retreat_options: options,
        });
    }
    pos.assign_unit_ids();
}

/// The movement position a retreat case came from (its `PRESTATE_RESULTS` orders):
/// units that moved stand where they came from; units of the retreat position that did
/// not move held.
fn movement_position(
    map: &Map,
    case: &Case,
    phase: Phase,
    results: &[ExpectedResult],
) -> Result<Position, RunError> {
    let season = match phase.season {
        Season::Winter => Season::Fall,
        s => s,
    };
    let movement = Phase::new(phase.year, season, PhaseKind::Movement);
    let mut pos = Position::empty(map, movement);
    match &case.owners {
        Some(o) => pos.owners = owners_vec(map, o),
        None => pos.set_home_ownership(map),
    }
    for r in results {
        let Some(spec) = r.order.as_ref().and_then(Order::unit) else {
            continue;
        };
        let Some(kind) = spec.kind else {
            return Err(RunError::Unreadable(CaseError {
                line: r.line,
                reason: "PRESTATE_RESULTS orders must name the unit kind".into(),
            }));
        };
        if pos.unit_in(spec.province()).is_none() {
            pos.units
                .push(Unit::new(Owner::Power(r.power), kind, spec.location));
        }
    }
    let moved_into = |p: ProvinceId| {
        results
            .iter()
            .any(|r| matches!(r.order, Some(Order::Move { dest, .. }) if dest.province == p))
    };
    for u in case.prestate.iter().chain(case.dislodged.iter()) {
        if pos.unit_in(u.location.province).is_none() && !moved_into(u.location.province) {
            pos.units.push(*u);
        }
    }
    pos.sort_units();
    pos.assign_unit_ids();
    Ok(pos)
}

fn unit_text(map: &Map, u: &Unit) -> String {
    format!(
        "{}: {} {}",
        u.owner,
        u.kind.letter(),
        map.location_code(u.location)
    )
}

/// Compares two unit sets and says what is missing and what is extra.
fn compare_units(map: &Map, what: &str, expected: &[Unit], got: &[Unit], out: &mut Vec<String>) {
    let sorted = |units: &[Unit]| {
        let mut v: Vec<String> = units.iter().map(|u| unit_text(map, u)).collect();
        v.sort();
        v
    };
    let e = sorted(expected);
    let g = sorted(got);
    if e == g {
        return;
    }
    let missing: Vec<&str> = e
        .iter()
        .filter(|x| !g.contains(x))
        .map(String::as_str)
        .collect();
    let extra: Vec<&str> = g
        .iter()
        .filter(|x| !e.contains(x))
        .map(String::as_str)
        .collect();
    out.push(format!(
        "{what}: expected but missing [{}]; present but not expected [{}]",
        missing.join(", "),
        extra.join(", ")
    ));
}

/// Orders are the same when they name the same units and places; a unit kind or coast
/// left out on one side matches either.
fn same_order(a: &Order, b: &Order) -> bool {
    fn spec(a: &UnitSpec, b: &UnitSpec) -> bool {
        a.location.province == b.location.province
            && (a.kind.is_none() || b.kind.is_none() || a.kind == b.kind)
    }
    fn loc(a: &Location, b: &Location) -> bool {
        a.province == b.province && (a.coast.is_none() || b.coast.is_none() || a.coast == b.coast)
    }
    match (a, b) {
        (Order::Hold { unit: x }, Order::Hold { unit: y })
        | (Order::Disband { unit: x }, Order::Disband { unit: y })
        | (Order::Build { unit: x }, Order::Build { unit: y })
        | (Order::Remove { unit: x }, Order::Remove { unit: y }) => {
            spec(x, y) && loc(&x.location, &y.location)
        }
        (
            Order::Move {
                unit: x,
                dest: d,
                via_convoy: v,
            },
            Order::Move {
                unit: y,
                dest: e,
                via_convoy: w,
            },
        ) => spec(x, y) && loc(d, e) && v == w,
        (Order::Retreat { unit: x, dest: d }, Order::Retreat { unit: y, dest: e }) => {
            spec(x, y) && loc(d, e)
        }
        (Order::SupportHold { unit: x, target: t }, Order::SupportHold { unit: y, target: s }) => {
            spec(x, y) && spec(t, s)
        }
        (
            Order::SupportMove {
                unit: x,
                target: t,
                dest: d,
            },
            Order::SupportMove {
                unit: y,
                target: s,
                dest: e,
            },
        )
        | (
            Order::Convoy {
                unit: x,
                army: t,
                dest: d,
            },
            Order::Convoy {
                unit: y,
                army: s,
                dest: e,
            },
        ) => spec(x, y) && spec(t, s) && loc(d, e),
        (Order::Waive, Order::Waive) => true,
        _ => false,
    }
}

/// Sets the case's game up: seven players, a master, an observer, the position, the rule
/// set's settings and facts, and the deadline.
fn set_up(
    map: &Map,
    variant: &dyn Variant,
    case: &Case,
    mut position: Position,
    deadline: chrono::DateTime<chrono::Utc>,
) -> Result<Game, RunError> {
    let seat = |address: String| Seat {
        address,
        password_hash: password_hash().to_string(),
    };
    let mut state = variant.case_state();
    for (line, key, value) in &case.settings {
        variant
            .apply_setting(&mut state, key, value)
            .map_err(|reason| {
                RunError::Unreadable(CaseError {
                    line: *line,
                    reason,
                })
            })?;
    }
    let mut resigned = Vec::new();
    for (line, fact) in &case.prestate_variant {
        let unreadable = |reason: String| {
            RunError::Unreadable(CaseError {
                line: *line,
                reason,
            })
        };
        if let Some(result) = owner_fact(map, &mut position, fact) {
            result.map_err(unreadable)?;
            continue;
        }
        let mut setup = Setup {
            map,
            position: &mut position,
            state: &mut state,
            resigned: &mut resigned,
        };
        variant.read_fact(&mut setup, fact).map_err(unreadable)?;
    }
    for (line, unit, note) in &case.unit_notes {
        let placed = position
            .units
            .iter()
            .chain(position.dislodged.iter().map(|d| &d.unit))
            .find(|u| u.location == unit.location)
            .copied()
            .unwrap_or(*unit);
        let mut setup = Setup {
            map,
            position: &mut position,
            state: &mut state,
            resigned: &mut resigned,
        };
        variant
            .read_unit_note(&mut setup, &placed, note)
            .map_err(|reason| {
                RunError::Unreadable(CaseError {
                    line: *line,
                    reason,
                })
            })?;
    }
    let players = Power::ALL
        .into_iter()
        .map(|p| {
            let mut pl = Player::new(p, seat(address(p)));
            if resigned.contains(&p) {
                pl.status = crate::game::SeatStatus::Abandoned(crate::game::Abandonment::Resigned);
            }
            pl
        })
        .collect();
    let mut g = Game::new(GAME, variant, seat(MASTER.to_string()), 1901, map);
    g.arrange(Arrangement {
        players,
        position,
        variant_state: Some(state),
        observers: vec![OBSERVER.to_string()],
        deadline: Some(deadline),
    });
    Ok(g)
}

/// The fact every rule set shares: `owner <Prov> <Power>` (and `owner <Prov> nobody`).
/// None: not this fact. When setting up, it sets the owner; see [`check_owner_fact`].
fn owner_fact(map: &Map, position: &mut Position, fact: &str) -> Option<Result<(), String>> {
    let (province, owner) = read_owner_fact(map, fact)?;
    Some(owner.map(|owner| {
        if let Some(slot) = position.owners.get_mut(province.index()) {
            *slot = owner;
        }
    }))
}

fn read_owner_fact(map: &Map, fact: &str) -> Option<(ProvinceId, Result<Option<Power>, String>)> {
    let words: Vec<&str> = fact.split_whitespace().collect();
    let ["owner", prov, who] = words.as_slice() else {
        return None;
    };
    let Some(p) = map
        .find_province(prov)
        .filter(|p| map.province(*p).supply_centre)
    else {
        return Some((
            map.province_ids().next()?,
            Err(format!("{prov:?} is not a supply centre")),
        ));
    };
    let owner = if who.eq_ignore_ascii_case("nobody") {
        Ok(None)
    } else {
        Power::from_name(who)
            .map(Some)
            .ok_or_else(|| format!("no power called {who:?}"))
    };
    Some((p, owner))
}

fn check_owner_fact(map: &Map, position: &Position, fact: &str) -> Option<Result<(), String>> {
    let (p, owner) = read_owner_fact(map, fact)?;
    Some(owner.and_then(|want| {
        let got = position.owner_of(p);
        if got == want {
            Ok(())
        } else {
            Err(format!(
                "{} is owned by {}",
                map.province(p).name,
                got.map_or("nobody", |g| g.name())
            ))
        }
    }))
}

/// Whether a reply line matches an expected one: the kind, the code and the sentence,
/// the judge's locator (`line <n>: "<text>": `) taken out.
fn reply_matches(e: &ExpectedReply, line: &str) -> bool {
    match e.kind.as_str() {
        "OK" => {
            line == "OK"
                || line
                    .strip_prefix("OK ")
                    .is_some_and(|rest| e.code.is_empty() || rest == e.code)
        }
        kind => {
            let head = format!("{kind} {}: ", e.code);
            let Some(rest) = line.strip_prefix(&head) else {
                return false;
            };
            if rest == e.sentence {
                return true;
            }
            // `line 3: "A Par - Bur": sentence` or `line 3: sentence`.
            let Some(after) = rest.strip_prefix("line ") else {
                return false;
            };
            let Some((n, tail)) = after.split_once(": ") else {
                return false;
            };
            if !n.chars().all(|c| c.is_ascii_digit()) {
                return false;
            }
            tail == e.sentence
                || (tail.starts_with('"') && tail.ends_with(&format!("\": {}", e.sentence)))
        }
    }
}

/// Whether `expected` is an ordered subsequence of `lines`; the first expected line not
/// found (after the ones found) otherwise.
fn subsequence<'e>(expected: &'e [(usize, String)], lines: &[&str]) -> Option<&'e (usize, String)> {
    let mut at = 0;
    for e in expected {
        match lines
            .iter()
            .skip(at)
            .position(|l| l.trim_end() == e.1.trim_end())
        {
            Some(k) => at += k + 1,
            None => return Some(e),
        }
    }
    None
}

/// What the run has shown so far, checked against the case's rule-set checks (BULLETIN,
/// POSTSTATE_VARIANT): the differences.
fn variant_checks(
    h: &mut Harness<'_>,
    variant: &dyn Variant,
    case: &Case,
    before: &VariantState,
) -> Result<Vec<String>, RunError> {
    let map = h.map;
    let mut diffs = Vec::new();
    if let Some(expected) = &case.bulletin {
        let mails = h.run_mail()?;
        let lines: Vec<&str> = mails
            .iter()
            .filter(|m| m.recipient == OBSERVER && m.subject.ends_with(" Results"))
            .flat_map(|m| m.body.lines())
            .collect();
        if let Some((line, text)) = subsequence(expected, &lines) {
            diffs.push(format!(
                "line {line}: BULLETIN: {text:?} is not in the public bulletins (after the lines before it)"
            ));
        }
    }
    if let Some(facts) = &case.poststate_variant {
        let g = h.game()?;
        for (line, fact) in facts {
            let result = match check_owner_fact(map, g.position(), fact) {
                Some(r) => r,
                None => variant.check_fact(
                    &Check {
                        map,
                        position: g.position(),
                        before,
                        after: g.variant_state(),
                        block: facts,
                    },
                    fact,
                ),
            };
            if let Err(why) = result {
                diffs.push(format!("line {line}: POSTSTATE_VARIANT {fact:?}: {why}"));
            }
        }
    }
    Ok(diffs)
}

/// Runs one case and reports what differed.
pub fn run_case(map: &Map, registry: &Registry, case: &Case) -> Result<CaseReport, RunError> {
    let variant = match registry.by_name(&case.variant) {
        Lookup::Found(v) => v,
        Lookup::NotImplemented(name) => return Err(RunError::NotImplemented(name.to_string())),
        Lookup::Unknown => return Err(RunError::UnknownVariant(case.variant.clone())),
    };
    let Some(phase) = case.phase else {
        return Err(RunError::Inconsistent("no PRESTATE_SETPHASE".into()));
    };
    let config = JudgeConfig {
        password_cost: PasswordCost::TEST,
        variants: registry.clone(),
        ..JudgeConfig::default()
    };
    let judge =
        Judge::new(Store::open_in_memory().map_err(judge_error)?, config).map_err(judge_error)?;
    let mut h = Harness {
        map,
        judge,
        now: Utc
            .with_ymd_and_hms(2026, 1, 5, 12, 0, 0)
            .single()
            .unwrap_or_default(),
        sent: 0,
        replies: Vec::new(),
        first_mail: 0,
        elapsed: Duration::ZERO,
    };

    // The game, and for a retreat case its movement phase replayed from its orders.
    // An adjustment case replays the Fall movement phase before it (README §2.3: a rule
    // may need it: a Winter disband that depends on the Fall before).
    let replay = match (&case.prestate_results, phase.kind) {
        (Some(results), PhaseKind::Retreat | PhaseKind::Adjustment) => Some(results),
        _ => None,
    };
    let position = match replay {
        Some(results) => movement_position(map, case, phase, results)?,
        None => {
            let mut p = start_position(map, case, phase);
            add_dislodged(map, case, &mut p);
            p
        }
    };
    let game = set_up(
        map,
        variant,
        case,
        position,
        h.now + chrono::Duration::days(30),
    )?;
    h.judge.install_game(&game).map_err(judge_error)?;
    let initial_state = game.variant_state().clone();
    let mut skipped: Option<PhaseOutcome> = None;
    if let Some(results) = replay {
        let mut by_power: Vec<Message<'_>> = Vec::new();
        let lines: Vec<ScriptLine> = results
            .iter()
            .map(|r| ScriptLine::Text {
                line: r.line,
                from: Sender::Power(r.power),
                text: r.text.clone(),
                retreat: false,
                continued: false,
                expect: Expect::Accepted,
            })
            .collect();
        let refs: Vec<&ScriptLine> = lines.iter().collect();
        by_power.extend(order_messages(&refs));
        for m in &by_power {
            h.send(m)?;
        }
        let out = h.process()?.ok_or_else(|| {
            RunError::Judge("the replayed movement phase was not processed".into())
        })?;
        let mut diffs = Vec::new();
        compare_units(
            map,
            "PRESTATE (replayed from PRESTATE_RESULTS)",
            &case.prestate,
            &out.after.units,
            &mut diffs,
        );
        // godip's files leave a dislodged unit with no legal retreat out of
        // PRESTATE_DISLODGED; it is disbanded whether it is listed or not, so it is read
        // either way (a unit that may retreat must be listed).
        let dislodged: Vec<Unit> = out
            .after
            .dislodged
            .iter()
            .filter(|d| {
                !d.retreat_options.is_empty()
                    || case
                        .dislodged
                        .iter()
                        .any(|u| unit_text(map, u) == unit_text(map, &d.unit))
            })
            .map(|d| d.unit)
            .collect();
        compare_units(
            map,
            "PRESTATE_DISLODGED (replayed)",
            &case.dislodged,
            &dislodged,
            &mut diffs,
        );
        if !diffs.is_empty() {
            return Err(RunError::Inconsistent(diffs.join("; ")));
        }
        let reached = h.game()?.position().phase;
        if reached != phase {
            // No dislodged unit had anywhere to go: they were disbanded with the movement
            // results and there is no retreat phase (as njudge does). The case's retreat
            // orders then arrive after it and are refused; the position is the one after
            // the movement phase.
            if phase.kind != PhaseKind::Retreat
                || !out
                    .after
                    .dislodged
                    .iter()
                    .all(|d| d.retreat_options.is_empty())
            {
                return Err(RunError::Inconsistent(format!(
                    "the replayed movement phase leads to {reached}, not {phase}"
                )));
            }
            skipped = Some(out);
        }
        h.replies.clear();
    }
    h.first_mail = h
        .judge
        .all_mail()
        .map_err(judge_error)?
        .last()
        .map_or(0, |m| m.id);

    // The run.
    let mut diffs = Vec::new();
    let mut start_outcome: Option<PhaseOutcome> = None;
    // The game as the case's phase was processed (its rules say which dislodged units the
    // retreat step deals with).
    let mut start_game: Option<Game> = None;
    let mut season = season_of(phase);
    for (k, moment) in moments(case).iter().enumerate() {
        if let Some((line, marker)) = moment.marker {
            let mut guard = 0;
            loop {
                let g = h.game()?;
                if marker.happened(g.position().phase) {
                    break;
                }
                if *g.status() != Status::Active || marker.missed(g.position().phase) || guard > 12
                {
                    diffs.push(format!(
                        "line {line}: the marker's event never happened (the game is in {}{})",
                        g.position().phase,
                        if *g.status() == Status::Active {
                            ""
                        } else {
                            ", and over"
                        }
                    ));
                    return Ok(report(diffs, &h, phase));
                }
                h.process()?;
                guard += 1;
            }
        }
        if moment.marker.is_some()
            && moment.commands.is_empty()
            && moment.orders.is_empty()
            && moment.retreats.is_empty()
        {
            // A marker with nothing after it: the event is where the checks look.
            continue;
        }
        for m in command_messages(&moment.commands) {
            h.send(&m)?;
        }
        for m in order_messages(&moment.orders) {
            h.send(&m)?;
        }
        let current = h.game()?.position().phase;
        season = season_of(current);
        if k == 0
            && let Some(out) = skipped.take()
        {
            // The case's retreat phase never opened (see above).
            start_outcome = Some(out);
            continue;
        }
        if k == 0 {
            start_game = Some(h.game()?);
        }
        let started = Instant::now();
        let out = h.process()?;
        if k == 0 {
            h.elapsed = started.elapsed();
            start_outcome = out.clone();
        }
        if !moment.retreats.is_empty() {
            let g = h.game()?;
            if g.position().phase.kind == PhaseKind::Retreat {
                for m in order_messages(&moment.retreats) {
                    h.send(&m)?;
                }
                let out = h.process()?;
                if k == 0 {
                    // The position the case describes is the one after its retreats.
                    if let (Some(start), Some(r)) = (start_outcome.as_mut(), out) {
                        start.after = r.after;
                        start.next = r.next;
                    }
                }
            } else {
                diffs.push(format!(
                    "there is no retreat phase after {current} for the (retreat phase) orders"
                ));
            }
        }
    }
    // As far as the checks need: the rest of the season, until they hold.
    if case.has_variant_checks() {
        let mut guard = 0;
        loop {
            if variant_checks(&mut h, variant, case, &initial_state)?.is_empty() {
                break;
            }
            let g = h.game()?;
            if *g.status() != Status::Active || season_of(g.position().phase) != season || guard > 6
            {
                break;
            }
            h.process()?;
            guard += 1;
        }
    }

    // The checks.
    let out = start_outcome
        .ok_or_else(|| RunError::Judge("the case's phase was not processed".into()))?;
    // The units right after the phase, with what the rule set did at its end (a rebellion
    // after the Spring retreats, say): the board the next phase starts from.
    if let Some(post) = &case.poststate {
        compare_units(map, "POSTSTATE", post, &out.next.units, &mut diffs);
    } else if case.poststate_same {
        compare_units(
            map,
            "POSTSTATE_SAME",
            &case.prestate,
            &out.next.units,
            &mut diffs,
        );
    }
    if phase.kind == PhaseKind::Movement
        && (case.poststate.is_some() || case.post_dislodged.is_some())
    {
        // Revision 5 of the rules (README §2.3): every dislodged unit the retreat step deals
        // with, never one the rule set removes at once when dislodged (H13: an outcast's,
        // an armed neutral).
        let removed_at_once = |u: &Unit| {
            start_game.as_ref().is_some_and(|g| {
                let parts = g.view_parts();
                variant
                    .rules(&g.view(map, &parts), g.variant_state())
                    .disband_instead_of_retreat(u)
            })
        };
        let got: Vec<Unit> = out
            .after
            .dislodged
            .iter()
            .map(|d| d.unit)
            .filter(|u| !removed_at_once(u))
            .collect();
        let expected = case.post_dislodged.clone().unwrap_or_default();
        compare_units(map, "POSTSTATE_DISLODGED", &expected, &got, &mut diffs);
    }
    check_order_replies(&h, &mut diffs);
    if let Some(expected) = &case.post_results {
        check_results(map, case, &h, expected, &out, &mut diffs);
    }
    if let Some(expected) = &case.post_options {
        for e in expected {
            let got = out
                .after
                .dislodged
                .iter()
                .find(|d| d.unit.location.province == e.unit.location.province);
            let codes = |v: &[Location]| {
                let mut s: Vec<String> = v.iter().map(|l| map.location_code(*l)).collect();
                s.sort();
                s.join(" ")
            };
            match got {
                None => diffs.push(format!(
                    "line {}: {} was not dislodged",
                    e.line,
                    unit_text(map, &e.unit)
                )),
                Some(d) if codes(&d.retreat_options) != codes(&e.options) => diffs.push(format!(
                    "line {}: retreat options of {}: expected [{}], got [{}]",
                    e.line,
                    unit_text(map, &e.unit),
                    codes(&e.options),
                    codes(&d.retreat_options)
                )),
                Some(_) => {}
            }
        }
    }
    let g = h.game()?;
    if let Some(p) = case.post_phase
        && p != g.position().phase
    {
        diffs.push(format!(
            "POSTSTATE_SETPHASE: expected {p}, got {}",
            g.position().phase
        ));
    }
    if let Some(o) = &case.post_owners {
        let expected = owners_vec(map, o);
        let mut lines = Vec::new();
        for id in map.supply_centres() {
            let (e, got) = (
                expected.get(id.index()).copied().flatten(),
                g.position().owner_of(id),
            );
            if e != got {
                let name = |p: Option<Power>| p.map(|p| p.name()).unwrap_or("nobody");
                lines.push(format!(
                    "{} expected {}, got {}",
                    map.code(id),
                    name(e),
                    name(got)
                ));
            }
        }
        if !lines.is_empty() {
            diffs.push(format!(
                "POSTSTATE_SUPPLYCENTER_OWNERS: {}",
                lines.join("; ")
            ));
        }
    }
    if let Some(expected) = &case.replies {
        check_replies(&h, expected, &mut diffs);
    }
    diffs.extend(variant_checks(&mut h, variant, case, &initial_state)?);
    if let Some(strings) = &case.not_public {
        check_not_public(case, &mut h, strings, &mut diffs)?;
    }
    Ok(report(diffs, &h, phase))
}

fn report(differences: Vec<String>, h: &Harness<'_>, phase: Phase) -> CaseReport {
    CaseReport {
        differences,
        elapsed: h.elapsed,
        phase_kind: phase.kind,
    }
}

/// Every `ORDERS` line marked `# ERROR <code>` is refused with that code (README §2.3).
/// Other lines are not checked on receipt: an order the DATC calls legal but that cannot
/// succeed (a convoy no route needs, a support of an impossible move) may be refused when
/// it arrives, and its unit holds all the same; the position shows the effect.
fn check_order_replies(h: &Harness<'_>, diffs: &mut Vec<String>) {
    for Reply {
        expected, lines, ..
    } in &h.replies
    {
        for (n, expect) in expected {
            let locator = format!(": line {n}: ");
            let refusal = lines
                .iter()
                .find(|l| l.starts_with("ERROR ") && l.contains(&locator));
            let code = refusal.and_then(|l| {
                l.strip_prefix("ERROR ")
                    .and_then(|r| r.split_once(':'))
                    .map(|(c, _)| c.to_string())
            });
            match (expect, &code) {
                (Expect::Refused(want), None) => diffs.push(format!(
                    "an order expected to be refused with {want} was taken (message line {n})"
                )),
                (Expect::Refused(want), Some(got)) if got != want => diffs.push(format!(
                    "an order expected to be refused with {want} was refused with {got}: {}",
                    refusal.map_or("", String::as_str)
                )),
                _ => {}
            }
        }
    }
}

/// Each `POSTSTATE_RESULTS` line: the order's result, or its refusal on receipt (a
/// FAILURE).
fn check_results(
    map: &Map,
    case: &Case,
    h: &Harness<'_>,
    expected: &[ExpectedResult],
    out: &PhaseOutcome,
    diffs: &mut Vec<String>,
) {
    for e in expected {
        let Some(order) = e.order else {
            continue;
        };
        let found = out
            .results
            .iter()
            .find(|r| r.owner == Owner::Power(e.power) && same_order(&r.order, &order));
        match found {
            None if !e.success && refused_on_receipt(map, case, h, e.power, &order) => {}
            None => diffs.push(format!("line {}: no result for {:?}", e.line, e.text)),
            Some(r) if r.succeeded() != e.success => diffs.push(format!(
                "line {}: {}: {}: expected {}, got {}{}",
                e.line,
                r.owner,
                r.order.display(map),
                if e.success { "SUCCESS" } else { "FAILURE" },
                if r.succeeded() { "SUCCESS" } else { "FAILURE" },
                r.failure
                    .as_ref()
                    .map(|f| format!(" ({})", f.marker()))
                    .unwrap_or_default()
            )),
            Some(_) => {}
        }
    }
}

/// Whether the judge refused this order when it arrived.
fn refused_on_receipt(
    map: &Map,
    case: &Case,
    h: &Harness<'_>,
    power: Power,
    order: &Order,
) -> bool {
    let phase = case.phase.map(|p| p.kind);
    h.replies
        .iter()
        .filter(|r| r.from == Sender::Power(power))
        .any(
            |Reply {
                 expected, lines, ..
             }| {
                expected.iter().any(|(n, _)| {
                    let locator = format!(": line {n}: \"");
                    lines.iter().any(|l| {
                        l.starts_with("ERROR ") && l.split_once(&locator).is_some_and(|(_, rest)| {
                        let text = rest.split("\": ").next().unwrap_or("");
                        let cx = crate::command::ParseContext {
                            phase,
                            ..crate::command::ParseContext::default()
                        };
                        matches!(
                            crate::command::parse_command(text, map, &cx),
                            Ok(crate::command::Command::Order(oc)) if same_order(&oc.order, order)
                        )
                    })
                    })
                })
            },
        )
}

fn check_replies(h: &Harness<'_>, expected: &[ExpectedReply], diffs: &mut Vec<String>) {
    for who in expected
        .iter()
        .map(|e| e.to)
        .collect::<std::collections::BTreeSet<_>>()
    {
        let lines: Vec<&str> = h
            .replies
            .iter()
            .filter(|r| r.from == who)
            .flat_map(|r| r.lines.iter().map(String::as_str))
            .collect();
        let mut at = 0;
        for e in expected.iter().filter(|e| e.to == who) {
            match lines.iter().skip(at).position(|l| reply_matches(e, l)) {
                Some(k) => at += k + 1,
                None => diffs.push(format!(
                    "line {}: REPLIES: {who} got no line {} {}{}{} (after the ones before it); its replies: {:?}",
                    e.line,
                    e.kind,
                    e.code,
                    if e.sentence.is_empty() { "" } else { ": " },
                    e.sentence,
                    lines
                )),
            }
        }
    }
}

/// No string of `NOT_PUBLIC` in any mail of the run, but the master's and the reply to a
/// power whose own lines contain it.
fn check_not_public(
    case: &Case,
    h: &mut Harness<'_>,
    strings: &[(usize, String)],
    diffs: &mut Vec<String>,
) -> Result<(), RunError> {
    let mails = h.run_mail()?;
    for (line, s) in strings {
        let own_line = |p: Power| {
            case.commands.iter().chain(&case.orders).any(|l| {
                matches!(l, ScriptLine::Text { from: Sender::Power(q), text, .. } if *q == p && text.contains(s.as_str()))
            })
        };
        for m in &mails {
            let master_alone =
                m.audience == crate::store::Audience::MASTER || m.recipient == MASTER;
            let own_reply = m.audience == crate::store::Audience::Reply
                && Power::ALL
                    .into_iter()
                    .any(|p| address(p) == m.recipient && own_line(p));
            if master_alone || own_reply || !m.body.contains(s.as_str()) {
                continue;
            }
            diffs.push(format!(
                "line {line}: NOT_PUBLIC {s:?} reached {} in \"{}\"",
                m.recipient, m.subject
            ));
            break;
        }
    }
    Ok(())
}
