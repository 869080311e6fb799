//! Phases as data: the standard calendar's three kinds (movement, retreats, adjustments)
//! and the phases a rule set describes for itself (hook H18: an alliance phase, a jury, a
//! conference), each an [`OwnPhase`] giving its name, short code, length and what follows.
//! Nothing here names a rule set: a rule set's phases are values in its own folder.
//!
//! A phase reads and prints without its rule set at hand (`S1901M`, `A1901`, `W1910J`,
//! `Spring 1901, Movement`, `Alliance 1901`): the phases rule sets describe are kept in a
//! process-wide list ([`describe_phases`], filled by the variant registry), append-only and
//! never changed, so a stored game's phase and a master's `ROLLBACK A1901` read the same
//! wherever they are read.

use std::fmt;
use std::sync::RwLock;

/// Spring, Fall or Winter.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum Season {
    Spring,
    Fall,
    Winter,
}

impl Season {
    /// `Spring`, `Fall`, `Winter`.
    pub fn name(self) -> &'static str {
        match self {
            Season::Spring => "Spring",
            Season::Fall => "Fall",
            Season::Winter => "Winter",
        }
    }

    /// `S`, `F`, `W`: the first letter of a short code.
    pub fn letter(self) -> char {
        match self {
            Season::Spring => 'S',
            Season::Fall => 'F',
            Season::Winter => 'W',
        }
    }
}

/// What comes after a rule set's own phase (when the rule set's calendar adds nothing).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Then {
    /// The movement phase of its season and year (an alliance phase before Spring 1901 is
    /// followed by Spring 1901's movement).
    Movement,
    /// What follows a Winter: the rule set's next phase of its own, else the next Spring.
    AfterWinter,
}

/// A phase of a rule set's own (H18, `docs/rules/README.md` §2.3): no unit is ordered in
/// it, only the commands of the rule set that holds it. The rule set describes it; its
/// calendar hook says when it is held.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct OwnPhase {
    /// Its name in bulletins and case files: `Alliance`, `Jury`.
    pub name: &'static str,
    /// The letter of its short code: `A` (`A1901`), `J` (`W1910J`).
    pub letter: char,
    /// Whether the letter stands in place of the season (`A1901`, `C1904`) or follows the
    /// year (`W1910J`).
    pub letter_first: bool,
    /// The season it belongs to.
    pub season: Season,
    /// Whether it comes before its season's standard phases (an alliance phase before the
    /// Spring movement) or after them (a jury after the Winter's adjustments).
    pub before: bool,
    /// How long it runs, in movement deadlines: (numerator, denominator), `(3, 2)` for one
    /// and a half.
    pub length: (u8, u8),
    /// What follows it.
    pub then: Then,
}

impl OwnPhase {
    /// Its deadline in minutes, for a game whose movement phases run `movement_hours`.
    pub fn minutes(&self, movement_hours: i64) -> i64 {
        let (num, den) = self.length;
        movement_hours * 60 * i64::from(num) / i64::from(den.max(1))
    }
}

/// What is ordered in a phase: the standard game's movement, retreats and adjustments, or a
/// phase of a rule set's own (H18), which takes no unit orders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PhaseKind {
    Movement,
    Retreat,
    Adjustment,
    /// A rule set's own phase, as the rule set describes it.
    Own(&'static OwnPhase),
}

impl PhaseKind {
    /// Whether units are ordered in this phase (movement, retreats, adjustments); a rule
    /// set's own phase takes only that rule set's commands.
    pub fn has_unit_orders(self) -> bool {
        !matches!(self, PhaseKind::Own(_))
    }

    /// `Movement`, `Retreats`, `Adjustments`, or the own phase's name: the word bulletins
    /// and case files use.
    pub fn name(self) -> &'static str {
        match self {
            PhaseKind::Movement => "Movement",
            PhaseKind::Retreat => "Retreats",
            PhaseKind::Adjustment => "Adjustments",
            PhaseKind::Own(o) => o.name,
        }
    }

    /// Whether this is the rule set's own phase `own`.
    pub fn is(self, own: &OwnPhase) -> bool {
        matches!(self, PhaseKind::Own(o) if o == own)
    }

    /// The order within one season of one year: own phases that come before the standard
    /// ones, movement, retreats, adjustments, own phases that come after.
    fn rank(self) -> (u8, &'static str) {
        match self {
            PhaseKind::Own(o) if o.before => (0, o.name),
            PhaseKind::Movement => (1, ""),
            PhaseKind::Retreat => (2, ""),
            PhaseKind::Adjustment => (3, ""),
            PhaseKind::Own(o) => (4, o.name),
        }
    }

    /// Where the phase comes in its season (0 first): what [`PhaseKind`]s sort by.
    pub fn place_in_season(self) -> u8 {
        self.rank().0
    }

    /// The word a stored game writes (`Movement`, `Retreat`, `Adjustment`, an own phase's
    /// name).
    fn stored(self) -> &'static str {
        match self {
            PhaseKind::Movement => "Movement",
            PhaseKind::Retreat => "Retreat",
            PhaseKind::Adjustment => "Adjustment",
            PhaseKind::Own(o) => o.name,
        }
    }
}

impl PartialOrd for PhaseKind {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for PhaseKind {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl serde::Serialize for PhaseKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.stored())
    }
}

impl<'de> serde::Deserialize<'de> for PhaseKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let word = String::deserialize(d)?;
        match word.as_str() {
            "Movement" => Ok(PhaseKind::Movement),
            "Retreat" => Ok(PhaseKind::Retreat),
            "Adjustment" => Ok(PhaseKind::Adjustment),
            name => own_by_name(name).map(PhaseKind::Own).ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "no rule set this judge runs has a phase called {name:?}"
                ))
            }),
        }
    }
}

/// The phases rule sets have described ([`describe_phases`]).
static OWN_PHASES: RwLock<Vec<&'static OwnPhase>> = RwLock::new(Vec::new());

/// Makes a rule set's phases known, so that they read and print anywhere (the registry
/// calls it for every rule set it holds). A phase already known is left as it is; one whose
/// name or short code another phase has is refused (a rule set must choose its own), and
/// so is a letter-first code with a season's letter (`S`, `F`, `W`).
pub fn describe_phases(phases: &'static [OwnPhase]) {
    if phases.is_empty() {
        return;
    }
    let Ok(mut known) = OWN_PHASES.write() else {
        return;
    };
    for p in phases {
        if known.contains(&p) {
            continue;
        }
        let clash = known.iter().any(|k| {
            k.name.eq_ignore_ascii_case(p.name)
                || (k.letter.eq_ignore_ascii_case(&p.letter)
                    && k.letter_first == p.letter_first
                    && (p.letter_first || k.season == p.season))
        }) || (p.letter_first && "SFWsfw".contains(p.letter))
            || (!p.letter_first && "MRABmrab".contains(p.letter));
        if clash {
            tracing::error!(
                phase = p.name,
                "a rule set's phase clashes with a known one"
            );
            continue;
        }
        known.push(p);
    }
}

/// The known own phase called `name` (any letter case).
fn own_by_name(name: &str) -> Option<&'static OwnPhase> {
    OWN_PHASES
        .read()
        .ok()?
        .iter()
        .copied()
        .find(|o| o.name.eq_ignore_ascii_case(name))
}

/// The known own phase written with `letter`, first or after a season's year.
fn own_by_letter(letter: char, letter_first: bool, season: Season) -> Option<&'static OwnPhase> {
    OWN_PHASES.read().ok()?.iter().copied().find(|o| {
        o.letter.eq_ignore_ascii_case(&letter)
            && o.letter_first == letter_first
            && (letter_first || o.season == season)
    })
}

/// A phase of the game, written as njudge writes it: `S1901M`, `F1901R`, `W1901A`; a rule
/// set's own phase as the rule set writes it (`A1901`, `W1910J`).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct Phase {
    pub year: u16,
    pub season: Season,
    pub kind: PhaseKind,
}

impl Phase {
    /// Spring 1901 movement: the first phase of a standard game.
    pub const FIRST: Phase = Phase {
        year: 1901,
        season: Season::Spring,
        kind: PhaseKind::Movement,
    };

    pub fn new(year: u16, season: Season, kind: PhaseKind) -> Phase {
        Phase { year, season, kind }
    }

    /// A rule set's own phase in `year` (in the season it belongs to).
    pub fn own(year: u16, own: &'static OwnPhase) -> Phase {
        Phase::new(year, own.season, PhaseKind::Own(own))
    }

    /// Reads `S1901M`, `F1901R`, `W1901A` (also `W1901B`), and a known rule set's phases
    /// (`A1901`, `W1910J`), in any letter case.
    pub fn parse(text: &str) -> Option<Phase> {
        let t = text.trim();
        let mut chars = t.chars();
        let first = chars.next()?.to_ascii_uppercase();
        let rest = chars.as_str();
        let whole_year = |r: &str| -> Option<u16> {
            if r.is_empty() || !r.chars().all(|c| c.is_ascii_digit()) {
                return None;
            }
            r.parse().ok()
        };
        let season = match first {
            'S' => Season::Spring,
            'F' => Season::Fall,
            'W' => Season::Winter,
            letter => {
                let own = own_by_letter(letter, true, Season::Spring)?;
                return whole_year(rest).map(|y| Phase::own(y, own));
            }
        };
        let kind_char = rest.chars().last()?;
        let year: u16 = whole_year(rest.strip_suffix(kind_char)?)?;
        let kind = match (season, kind_char.to_ascii_uppercase()) {
            (Season::Spring | Season::Fall, 'M') => PhaseKind::Movement,
            (Season::Spring | Season::Fall, 'R') => PhaseKind::Retreat,
            (Season::Winter, 'A' | 'B') => PhaseKind::Adjustment,
            (season, letter) => PhaseKind::Own(own_by_letter(letter, false, season)?),
        };
        Some(Phase { year, season, kind })
    }

    /// Reads a phase in the words case files and bulletins use: `Spring 1901, Movement`,
    /// `Fall 1901, Retreat` (or `Retreats`), `Winter 1901, Adjustment` (`Fall 1901,
    /// Adjustment` too), a known rule set's phase (`Alliance 1901`, `Winter 1910, Jury`),
    /// or a short code (`S1901M`). Letter case is ignored.
    pub fn parse_words(text: &str) -> Option<Phase> {
        if let Some(p) = Phase::parse(text) {
            return Some(p);
        }
        let lower = text.trim().to_ascii_lowercase();
        let words: Vec<&str> = lower.split([' ', ',']).filter(|w| !w.is_empty()).collect();
        if let [name, year] = words.as_slice()
            && let Some(own) = own_by_name(name).filter(|o| o.letter_first)
        {
            return year.parse().ok().map(|y| Phase::own(y, own));
        }
        let [season, year, kind] = words.as_slice() else {
            return None;
        };
        let year: u16 = year.parse().ok()?;
        let kind = match *kind {
            "movement" => PhaseKind::Movement,
            "retreat" | "retreats" => PhaseKind::Retreat,
            "adjustment" | "adjustments" => PhaseKind::Adjustment,
            name => PhaseKind::Own(own_by_name(name).filter(|o| !o.letter_first)?),
        };
        let season = match (*season, kind) {
            (_, PhaseKind::Adjustment) => Season::Winter,
            ("spring", PhaseKind::Movement | PhaseKind::Retreat) => Season::Spring,
            ("fall" | "autumn", PhaseKind::Movement | PhaseKind::Retreat) => Season::Fall,
            (word, PhaseKind::Own(o)) if word.eq_ignore_ascii_case(o.season.name()) => o.season,
            _ => return None,
        };
        Some(Phase::new(year, season, kind))
    }

    /// Spring movement of the next year.
    pub fn next_spring(&self) -> Phase {
        Phase::new(
            self.year.saturating_add(1),
            Season::Spring,
            PhaseKind::Movement,
        )
    }

    /// The phase in the words case files and bulletins use: `Spring 1901, Movement`,
    /// `Winter 1901, Adjustments`; a rule set's phase as its short code puts it: `Alliance
    /// 1901`, `Winter 1910, Jury`.
    pub fn long_name(&self) -> String {
        match self.kind {
            PhaseKind::Own(o) if o.letter_first => format!("{} {}", o.name, self.year),
            k => format!("{} {}, {}", self.season_name(), self.year, k.name()),
        }
    }

    /// `Spring of 1901` style words for bulletins: (`Movement`, `Spring`, 1901).
    pub fn season_name(&self) -> &'static str {
        self.season.name()
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.season.letter();
        match self.kind {
            PhaseKind::Own(o) if o.letter_first => write!(f, "{}{}", o.letter, self.year),
            PhaseKind::Own(o) => write!(f, "{s}{}{}", self.year, o.letter),
            PhaseKind::Movement => write!(f, "{s}{}M", self.year),
            PhaseKind::Retreat => write!(f, "{s}{}R", self.year),
            PhaseKind::Adjustment => write!(f, "{s}{}A", self.year),
        }
    }
}
