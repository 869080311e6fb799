//! The public results bulletin of one phase, in njudge's layout and words.
//!
//! Never decides a rule: every line comes from the adjudicator's [`PhaseOutcome`]. The
//! layout is the one njudge mails and that mapping tools (the dipmap family, jDip's
//! importer) parse, with the parts in the canonical order of rules/README §2.2:
//!
//! ```text
//! :: Judge: USDP  Game: demo  Variant: Standard
//! :: Deadline: F1901M Mon Nov 23 2026 20:00:00 +0000
//!
//! Movement results for Spring of 1901.
//!
//! Austria: Army Budapest -> Serbia.
//! Austria: Army Vienna -> Galicia.  (*bounce*)
//!
//! England: Fleet North Sea CONVOY Army Liverpool -> Norway.  (*disrupted, dislodged*)
//!
//! The following units were dislodged:
//!
//! The English Fleet in the North Sea can retreat to Edinburgh or Norwegian Sea.
//!
//! Ownership of supply centers:              (only when the phase ends a Fall)
//!
//! Austria:   Budapest, Serbia, Trieste, Vienna.
//! Unowned:   Belgium, Bulgaria, ...
//!
//! Austria:   4 Supply centers,  3 Units:  Builds   1 unit.
//!
//! The next phase of 'demo' will be Retreats for Spring of 1901.
//! The deadline for orders will be Mon Nov 23 2026 20:00 UTC.
//! ```
//!
//! Decisions where njudge's layout needed one (each is tested):
//!
//! - Each power's orders form a paragraph (a blank line before each power), as njudge
//!   prints them; powers alphabetical, neutral units last under `Neutral:`, each power's
//!   units in unit listing order (canonical province code).
//! - A refused order is not printed (it is in the player's private reply); its unit's
//!   default hold is. A unit that had no order prints njudge's `, No Order Processed`
//!   (a neutral unit, which never takes orders, prints `HOLD`). In a retreat phase a unit
//!   without an order prints `DISBAND`, which is what happened to it.
//! - Markers are njudge's: `(*bounce*)`, `(*cut*)`, `(*void*)`, `(*no convoy*)`,
//!   `(*disrupted*)`; a dislodged unit adds `dislodged` inside the same marker
//!   (`(*bounce, dislodged*)`, a hold alone `(*dislodged*)`), as njudge does. A support
//!   against a unit of the supporter's own power (given, but not counted) prints
//!   `(*not counted*)`: it is not void, it still prevents.
//! - A supported or convoyed unit of another power is named with its adjective
//!   (`SUPPORT Austrian Army Budapest -> Vienna`), as njudge does.
//! - The ownership table and the centre count table are printed in the bulletin of the
//!   phase that ends a Fall (the Fall movement when no retreat follows, else the Fall
//!   retreats), whether or not a Winter follows: the ownership is updated exactly then.
//!   The count table always has the build column (`Builds   0 units.` when even), as
//!   njudge prints it and as jDip's parser expects three numbers per line; the number is
//!   centres minus units at the start of the next phase. It lists every power that owns a
//!   centre or has a unit.
//! - Long sentences (dislodgements, ownership lists) wrap at 78 columns between words, as
//!   njudge does; ownership continuation lines are indented under the names.
//! - Retreat options are listed in canonical code order; dislodged units by power, then
//!   unit listing order; owned centres alphabetically by full name, as njudge lists them
//!   (`Edinburgh, Liverpool, London`).
//! - With no deadline (`next_deadline: None`) the two deadline lines are left out.
//!
//! A rule set's lines take the parts of rules/README §2.2 around the standard results, each
//! part after a blank line: (1) the immediate lines since the last bulletin and (2) the
//! lines before resolution come after the title; (4) the lines after resolution and (5) the
//! summary tables after the standard results; the next-phase lines follow, and (6) the end
//! of the game closes the bulletin (for the standard game, the sentence of its ending).
//! Every line is rendered for one [`Reader`]: a reader sees the public lines and its own.
//! An order the rule set rewrote (H4) prints as the rule set writes it (H20), or by
//! default as `Power: <order in short form> (<note>)`, the form the specs give.

use std::fmt::Write as _;

use chrono::{DateTime, Utc};

use crate::map::{Location, Map, Power};
use crate::rules::{
    DislodgedUnit, Failure, Order, OrderResult, Owner, Phase, PhaseKind, PhaseOutcome, Position,
    Unit, UnitKind, UnitSpec,
};
use crate::variant::{Ending, Line, Reader, Variant, list_powers};

/// Lines are wrapped between words to stay within this many columns.
const WIDTH: usize = 78;

/// The column where the centre names start in the ownership table.
const OWNERSHIP_COLUMN: usize = 11;

/// What the bulletin says about the game itself; the caller knows it, the outcome does not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultsHeader {
    /// The judge's name: `USDP`.
    pub judge: String,
    /// The game's name: `demo`.
    pub game: String,
    /// The variant's display name: `Standard`.
    pub variant: String,
    /// The deadline of the next phase; None leaves the deadline lines out. The `::` line
    /// gives it as njudge's tools read it (`Mon Nov 23 2026 20:00:00 +0000`), the last
    /// line in words (`Mon Nov 23 2026 20:00 UTC`), both in `zone`.
    pub next_deadline: Option<DateTime<Utc>>,
    /// The game's time zone.
    pub zone: chrono_tz::Tz,
}

/// How a game ended, in the sentence of its last bulletin (when the rule set writes none,
/// H17), of the end notice and of LIST.
pub fn ending_sentence(ending: &Ending) -> String {
    match ending {
        Ending::Solo(p) => format!("{p} has won a solo victory."),
        Ending::Draw(ps) => format!("The game ended in a draw between {}.", list_powers(ps)),
        Ending::Coalition(ps) => format!("{} have won a coalition victory.", list_powers(ps)),
        Ending::Concession(p) => format!("The game was conceded to {p}."),
        Ending::Terminated => "The game was terminated by the master.".to_string(),
    }
}

/// The subject of a results bulletin: `USDP:demo - S1901M Results`.
pub fn results_subject(judge: &str, game: &str, phase: crate::rules::Phase) -> String {
    format!("{judge}:{game} - {phase} Results")
}

/// Whether `subject` is the subject [`results_subject`] gives the results of `phase` (as
/// the history keeps it), whatever the judge's and the game's names.
pub fn is_results_subject(subject: &str, phase: &str) -> bool {
    subject
        .strip_suffix(" Results")
        .and_then(|s| s.strip_suffix(phase))
        .is_some_and(|s| s.ends_with(" - "))
}

/// A rule set's lines in a results bulletin, by part (rules/README §2.2).
#[derive(Clone, Copy, Debug, Default)]
pub struct Parts<'a> {
    /// 1: the lines of immediate commands since the last results bulletin.
    pub immediate: &'a [Line],
    /// 2: before resolution (H5).
    pub before: &'a [Line],
    /// 4: after resolution, by step (H16).
    pub after: &'a [Line],
    /// 5: the summary tables (H20).
    pub summary: &'a [Line],
    /// 6: the end of the game (H17).
    pub end: &'a [Line],
}

/// What a results bulletin prints besides the adjudicator's outcome: the rule set (for
/// the lines it writes itself), its lines by part, and who reads this copy.
#[derive(Clone, Copy)]
pub struct Extras<'a> {
    pub variant: &'a dyn Variant,
    pub parts: Parts<'a>,
    pub reader: Reader,
}

/// Renders the results bulletin of the phase `before.phase`, adjudicated into `outcome`,
/// for one reader. Every line ends with `\n`; no line has trailing blanks.
pub fn render_results(
    map: &Map,
    header: &ResultsHeader,
    before: &Position,
    outcome: &PhaseOutcome,
    extras: &Extras<'_>,
) -> String {
    let mut b = Bulletin::default();
    let part = |b: &mut Bulletin, lines: &[Line]| {
        let mine: Vec<&Line> = lines.iter().filter(|l| l.is_for(extras.reader)).collect();
        if !mine.is_empty() {
            b.blank();
            for l in mine {
                b.line(&l.text);
            }
        }
    };
    let next = &outcome.next;

    b.line(&format!(
        ":: Judge: {}  Game: {}  Variant: {}",
        header.judge, header.game, header.variant
    ));
    if let Some(deadline) = header.next_deadline {
        b.line(&format!(
            ":: Deadline: {} {}",
            next.phase,
            super::dates::for_tools(&header.zone, deadline)
        ));
    }
    b.blank();
    let phase = before.phase;
    b.line(&phase_title(phase));
    part(&mut b, extras.parts.immediate);
    part(&mut b, extras.parts.before);

    order_lines(&mut b, map, before, outcome, extras.variant);

    if phase.kind == PhaseKind::Movement && !outcome.after.dislodged.is_empty() {
        b.blank();
        b.line("The following units were dislodged:");
        b.blank();
        let mut dislodged: Vec<&DislodgedUnit> = outcome.after.dislodged.iter().collect();
        dislodged.sort_by_key(|d| (d.unit.owner, d.unit.location));
        for d in dislodged {
            b.wrapped("", &dislodged_sentence(map, d), "");
        }
    }

    if outcome.ownership_updated {
        ownership(&mut b, map, next);
    }
    part(&mut b, extras.parts.after);
    part(&mut b, extras.parts.summary);

    // A game that ends with this phase has no next phase to announce.
    if extras.parts.end.is_empty() {
        b.blank();
        b.line(&format!(
            "The next phase of '{}' will be {}.",
            header.game,
            phase_words(next.phase)
        ));
        if let Some(deadline) = header.next_deadline {
            b.line(&format!(
                "The deadline for orders will be {}.",
                super::dates::in_words(&header.zone, deadline)
            ));
        }
    }
    part(&mut b, extras.parts.end);
    b.text
}

/// The first line of a phase's results: `Movement results for Spring of 1901.`
fn phase_title(phase: Phase) -> String {
    let title = match phase.kind {
        PhaseKind::Movement => "Movement results",
        PhaseKind::Retreat => "Retreat orders",
        PhaseKind::Adjustment => "Adjustment orders",
        PhaseKind::Own(_) => "Results",
    };
    match phase.kind {
        PhaseKind::Own(_) => format!("{title} of the {}.", phase_words(phase)),
        _ => format!("{title} for {} of {}.", phase.season_name(), phase.year),
    }
}

/// A phase in njudge's words: `Movement for Spring of 1901`, `Adjustments for Winter of
/// 1901`; a phase a rule set adds, by its name: `Alliance phase of 1901` (written `A1901`),
/// `Jury phase of Winter 1910` (written `W1910J`).
pub fn phase_words(phase: Phase) -> String {
    match phase.kind {
        PhaseKind::Own(own) if own.letter_first => format!("{} phase of {}", own.name, phase.year),
        PhaseKind::Own(own) => format!(
            "{} phase of {} {}",
            own.name,
            phase.season_name(),
            phase.year
        ),
        k => format!("{} for {} of {}", k.name(), phase.season_name(), phase.year),
    }
}

/// The bulletin text being built, one line at a time.
#[derive(Default)]
struct Bulletin {
    text: String,
}

impl Bulletin {
    /// Appends one line, without trailing blanks.
    fn line(&mut self, line: &str) {
        self.text.push_str(line.trim_end());
        self.text.push('\n');
    }

    fn blank(&mut self) {
        self.text.push('\n');
    }

    /// Appends `prefix` and a long sentence, wrapped at [`WIDTH`]; continuation lines
    /// start with `indent`.
    fn wrapped(&mut self, prefix: &str, sentence: &str, indent: &str) {
        for l in wrap(prefix, sentence, WIDTH, indent) {
            self.line(&l);
        }
    }
}

/// Greedy word wrap: `prefix` (kept as it is, padding included) and then as many words of
/// `text` as fit in `width` columns on each line (a single longer word gets a line of its
/// own); continuation lines start with `indent`.
fn wrap(prefix: &str, text: &str, width: usize, indent: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut current = prefix.to_string();
    let mut fresh = true;
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        if !fresh && current.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut current));
            current.push_str(indent);
            fresh = true;
        }
        if !fresh {
            current.push(' ');
        }
        current.push_str(word);
        fresh = false;
    }
    lines.push(current);
    lines
}

/// `Austria`, `Neutral`: the label of an owner's paragraph.
fn owner_label(owner: Owner) -> &'static str {
    match owner {
        Owner::Power(p) => p.name(),
        Owner::Neutral => "Neutral",
    }
}

/// `Austrian`, `neutral`: the adjective before a unit of this owner.
fn owner_adjective(owner: Owner) -> &'static str {
    match owner {
        Owner::Power(p) => p.adjective(),
        Owner::Neutral => "neutral",
    }
}

/// `Army Paris`, `Fleet St Petersburg (south coast)`.
pub(super) fn unit_words(map: &Map, kind: Option<UnitKind>, location: Location) -> String {
    let kind = kind.map_or("Unit", UnitKind::name);
    format!("{kind} {}", map.location_name(location))
}

/// The unit an order names as it stood on the board: its kind and exact coast come from
/// the position when the player left them out. Retreat orders name dislodged units.
fn board_unit(before: &Position, spec: UnitSpec) -> Option<Unit> {
    let province = spec.location.province;
    before.unit_in(province).copied().or_else(|| {
        before
            .dislodged
            .iter()
            .find(|d| d.unit.location.province == province)
            .map(|d| d.unit)
    })
}

/// The ordered unit itself, for the start of an order line.
fn ordered_unit(map: &Map, before: &Position, spec: UnitSpec) -> String {
    match board_unit(before, spec) {
        Some(u) => unit_words(map, Some(u.kind), u.location),
        None => unit_words(map, spec.kind, spec.location),
    }
}

/// A supported or convoyed unit; one of another power gets its adjective first.
fn other_unit(map: &Map, before: &Position, owner: Owner, spec: UnitSpec) -> String {
    match before.unit_in(spec.location.province).copied() {
        Some(u) if u.owner != owner => format!(
            "{} {}",
            owner_adjective(u.owner),
            unit_words(map, Some(u.kind), u.location)
        ),
        Some(u) => unit_words(map, Some(u.kind), u.location),
        None => unit_words(map, spec.kind, spec.location),
    }
}

/// `a fleet`, `an army`, `a unit`.
fn kind_with_article(kind: Option<UnitKind>) -> &'static str {
    match kind {
        Some(UnitKind::Army) => "an army",
        Some(UnitKind::Fleet) => "a fleet",
        None => "a unit",
    }
}

/// The text of one order line after `Power: `, without the final full stop.
fn order_text(map: &Map, before: &Position, outcome: &PhaseOutcome, r: &OrderResult) -> String {
    let unit = |spec: UnitSpec| ordered_unit(map, before, spec);
    let other = |spec: UnitSpec| other_unit(map, before, r.owner, spec);
    let place = |l: Location| map.location_name(l);
    match r.order {
        Order::Hold { unit: u } if !r.given && r.owner != Owner::Neutral => {
            format!("{}, No Order Processed", unit(u))
        }
        Order::Hold { unit: u } => format!("{} HOLD", unit(u)),
        Order::Move { unit: u, dest, .. } | Order::Retreat { unit: u, dest } => {
            format!("{} -> {}", unit(u), place(dest))
        }
        Order::SupportHold { unit: u, target } => format!("{} SUPPORT {}", unit(u), other(target)),
        Order::SupportMove {
            unit: u,
            target,
            dest,
        } => format!("{} SUPPORT {} -> {}", unit(u), other(target), place(dest)),
        Order::Convoy {
            unit: u,
            army,
            dest,
        } => {
            format!("{} CONVOY {} -> {}", unit(u), other(army), place(dest))
        }
        Order::Disband { unit: u } => format!("{} DISBAND", unit(u)),
        Order::Build { unit: u } => {
            // The unit as built (the adjudicator settles a missing kind or coast).
            let built = outcome
                .after
                .units
                .iter()
                .find(|x| x.location.province == u.location.province && x.owner == r.owner);
            let (kind, location) = match built {
                Some(b) => (Some(b.kind), b.location),
                None => (u.kind, u.location),
            };
            format!(
                "Builds {} in {}",
                kind_with_article(kind),
                map.location_name(location)
            )
        }
        Order::Remove { unit: u } => {
            let (kind, location) = match board_unit(before, u) {
                Some(b) => (Some(b.kind), b.location),
                None => (u.kind, u.location),
            };
            let kind = kind.map_or("unit", |k| match k {
                UnitKind::Army => "army",
                UnitKind::Fleet => "fleet",
            });
            let the = if map.is_sea(location.province) {
                "the "
            } else {
                ""
            };
            format!("Removes the {kind} in {the}{}", map.location_name(location))
        }
        Order::Waive => "Build waived".to_string(),
    }
}

/// The njudge marker after an order line (`  (*bounce, dislodged*)`), or nothing.
fn marker(r: &OrderResult) -> String {
    let what = match &r.failure {
        None | Some(Failure::Dislodged) | Some(Failure::Illegal(_)) => None,
        Some(Failure::Bounce | Failure::RetreatBounce) => Some("bounce"),
        Some(Failure::Cut) => Some("cut"),
        Some(Failure::Void) => Some("void"),
        Some(Failure::NotCounted) => Some("not counted"),
        Some(Failure::NoConvoy) => Some("no convoy"),
        Some(Failure::Disrupted) => Some("disrupted"),
    };
    let dislodged = r.dislodged || r.failure == Some(Failure::Dislodged);
    match (what, dislodged) {
        (Some(w), true) => format!("  (*{w}, dislodged*)"),
        (Some(w), false) => format!("  (*{w}*)"),
        (None, true) => "  (*dislodged*)".to_string(),
        (None, false) => String::new(),
    }
}

/// The orders part: one paragraph per owner.
fn order_lines(
    b: &mut Bulletin,
    map: &Map,
    before: &Position,
    outcome: &PhaseOutcome,
    variant: &dyn Variant,
) {
    let mut shown: Vec<&OrderResult> = outcome
        .results
        .iter()
        .filter(|r| !matches!(r.failure, Some(Failure::Illegal(_))))
        .collect();
    // Unit listing order within each owner; waives (no unit) after the units. The sort is
    // stable, so the adjudicator's order stands among equals.
    shown.sort_by_key(|r| {
        let unit = r.order.unit().map(|u| u.location.province);
        (r.owner, unit.is_none(), unit)
    });
    let mut current: Option<Owner> = None;
    for r in shown {
        if current != Some(r.owner) {
            b.blank();
            current = Some(r.owner);
        }
        let line = match (variant.result_line(map, r), &r.note) {
            (Some(text), _) => format!("{}: {text}", owner_label(r.owner)),
            // A rewritten order: its note says what became of it; only a dislodgement is
            // added (the standard markers would describe the order as given).
            (None, Some(note)) => format!(
                "{}: {} ({note}){}",
                owner_label(r.owner),
                r.order.display(map),
                if r.dislodged { "  (*dislodged*)" } else { "" }
            ),
            (None, None) => format!(
                "{}: {}.{}",
                owner_label(r.owner),
                order_text(map, before, outcome, r),
                marker(r)
            ),
        };
        b.line(&line);
    }
}

/// `The English Fleet in the North Sea can retreat to Edinburgh or Norwegian Sea.`
fn dislodged_sentence(map: &Map, d: &DislodgedUnit) -> String {
    let u = &d.unit;
    let the = if map.is_sea(u.location.province) {
        "the "
    } else {
        ""
    };
    let mut s = format!(
        "The {} {} in {the}{}",
        owner_adjective(u.owner),
        u.kind.name(),
        map.location_name(u.location)
    );
    if u.owner == Owner::Neutral {
        // A neutral unit never retreats (H12): no retreats to speak of.
        s.push_str(" was destroyed.");
    } else if d.retreat_options.is_empty() {
        s.push_str(" with no valid retreats was destroyed.");
    } else {
        let mut options = d.retreat_options.clone();
        options.sort();
        let names: Vec<String> = options.iter().map(|l| map.location_name(*l)).collect();
        let _ = write!(s, " can retreat to {}.", names.join(" or "));
    }
    s
}

/// The ownership table and the centre count table, from the position at the start of the
/// next phase (after the Fall update).
fn ownership(b: &mut Bulletin, map: &Map, next: &Position) {
    b.blank();
    b.line("Ownership of supply centers:");
    b.blank();
    let indent = " ".repeat(OWNERSHIP_COLUMN);
    let list = |label: &str, owner: Option<Power>| -> Option<(String, String)> {
        let mut names: Vec<&str> = map
            .supply_centres()
            .filter(|c| next.owner_of(*c) == owner)
            .map(|c| map.province(c).name.as_str())
            .collect();
        names.sort_unstable();
        if names.is_empty() {
            return None;
        }
        let label = format!("{label}:");
        let prefix = format!("{label:<w$}", w = OWNERSHIP_COLUMN.max(label.len() + 1));
        Some((prefix, format!("{}.", names.join(", "))))
    };
    for p in Power::ALL {
        if let Some((prefix, l)) = list(p.name(), Some(p)) {
            b.wrapped(&prefix, &l, &indent);
        }
    }
    if let Some((prefix, l)) = list("Unowned", None) {
        b.wrapped(&prefix, &l, &indent);
    }

    b.blank();
    for p in Power::ALL {
        let centres = next.centre_count(p);
        let units = next
            .units
            .iter()
            .filter(|u| u.owner == Owner::Power(p))
            .count();
        if centres == 0 && units == 0 {
            continue;
        }
        let (verb, n) = if centres >= units {
            ("Builds", centres - units)
        } else {
            ("Removes", units - centres)
        };
        let label = format!("{}:", p.name());
        b.line(&format!(
            "{label:<w$}{centres:>2} Supply centers, {units:>2} Units:  {verb:<7} {n:>2} {}.",
            if n == 1 { "unit" } else { "units" },
            w = 10.max(label.len() + 1)
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_keeps_short_lines_whole() {
        assert_eq!(wrap("", "a b c", 78, ""), vec!["a b c"]);
        assert_eq!(wrap("", "", 78, ""), vec![""]);
        assert_eq!(
            wrap("Italy:     ", "Rome.", 78, ""),
            vec!["Italy:     Rome."]
        );
    }

    #[test]
    fn wrap_breaks_between_words_with_indent() {
        assert_eq!(wrap("", "aaa bbb ccc", 7, "  "), vec!["aaa bbb", "  ccc"]);
        assert_eq!(wrap("X:  ", "aa bb", 7, "    "), vec!["X:  aa", "    bb"]);
        assert_eq!(
            wrap("", "averyveryverylongword b", 5, ""),
            vec!["averyveryverylongword", "b"]
        );
    }

    #[test]
    fn subject_names_judge_game_and_phase() {
        let phase = crate::rules::Phase::FIRST;
        assert_eq!(
            results_subject("USDP", "demo", phase),
            "USDP:demo - S1901M Results"
        );
    }

    #[test]
    fn markers_combine_with_dislodged() {
        let map = crate::map::Map::standard().expect("standard map");
        let spec = UnitSpec::new(
            Some(UnitKind::Army),
            Location::province(map.find_province("vie").expect("vie")),
        );
        let r = |failure: Option<Failure>, dislodged: bool| OrderResult {
            owner: Owner::Power(Power::Austria),
            order: Order::Hold { unit: spec },
            given: true,
            failure,
            dislodged,
            note: None,
        };
        assert_eq!(marker(&r(None, false)), "");
        assert_eq!(
            marker(&r(Some(Failure::Dislodged), true)),
            "  (*dislodged*)"
        );
        assert_eq!(
            marker(&r(Some(Failure::Bounce), true)),
            "  (*bounce, dislodged*)"
        );
        assert_eq!(marker(&r(Some(Failure::Cut), false)), "  (*cut*)");
        assert_eq!(
            marker(&r(Some(Failure::NotCounted), false)),
            "  (*not counted*)"
        );
    }
}
