//! A game's settings: what its master may change (press, NMR, observers, the schedule, who
//! may join, anonymity, the entry gates, the number of players …), and the transitions that
//! change them, each checking what it must (`SET ANONYMOUS` only before the start, `SET
//! CENTRES` from 1 to 34, …). A setting of a seat (`SET WAIT`, `SET DRAW`) is the seat's
//! (`seats.rs`, `votes.rs`); the deadlines' own are `timing.rs`'s.

use serde::{Deserialize, Serialize};

use crate::command::{ObserverLevel, PressLevel, ScheduleChange, ScheduleClass};
use crate::variant::Variant;

use super::schedule::{Days, PhaseSchedule, Schedule};
use super::{
    DEFAULT_TAKEOVER_HOURS, DeadlineSettings, Game, Gate, Gates, Invitation, MAX_INVITATIONS,
    MAX_TAKEOVER_HOURS, PressPolicy, Refused, Status,
};

/// The most days `SET MAXABSENCE` allows.
pub const MAX_ABSENCE_DAYS: u32 = 31;

/// The most centres a solo victory may need (`SET CENTRES`): every centre of the board.
pub const MAX_CENTRES_TO_WIN: u32 = 34;

/// Game settings a master may change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    pub press: PressPolicy,
    /// Process missing orders with civil-disorder defaults after the grace period (NMR);
    /// otherwise wait and declare the power abandoned.
    pub nmr: bool,
    pub deadlines: DeadlineSettings,
    /// Centres needed for a solo victory.
    pub centres_to_win: usize,
    /// IANA time zone deadlines are shown in.
    pub time_zone: String,
    /// The master receives every piece of press (`SET ALL PRESS`).
    pub master_reads_all_press: bool,
    /// The game's own schedule (`SET MOVE|RETREAT|ADJUST …`); what it leaves unset keeps
    /// `deadlines`, the judge's defaults.
    #[serde(default)]
    pub schedule: Schedule,
    /// Shown in `LIST` to everyone (`SET LIST`); an unlisted game (`SET NOLIST`) is listed
    /// only to its players and master, and read by name.
    #[serde(default = "yes")]
    pub listed: bool,
    /// The join password's argon2 hash (`SET JOIN PASSWORD`): a forming game with one takes
    /// a new player only with it, or with an invitation's code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub join_password: Option<String>,
    /// The addresses the master invited (`SET INVITE`), each with the code mailed to it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub invitations: Vec<Invitation>,
    /// The game takes joiners by invitation only (issue 37): set by its first `SET
    /// INVITE`, kept when the invitations are used or taken back, lifted only by the
    /// master's `SET NO JOIN PASSWORD`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub invitation_only: bool,
    /// An anonymous (gunboat) game (`CREATE … anonymous`, `SET ANONYMOUS`): no mail,
    /// listing, press or picture shows a player's address or name to anyone but the
    /// master until the game ends. Takeover and abandonment notices must not name a
    /// player either.
    #[serde(default)]
    pub anonymous: bool,
    /// The entry gates (`SET DEDICATION`, `SET ONTIMERAT`, `SET RESRAT`, issue 31): what a
    /// player's reliability record must show to join the game or take a power over.
    #[serde(default, skip_serializing_if = "Gates::is_open")]
    pub gates: Gates,
    /// The players are revealed to everyone when the game ends (`SET NOREVEAL` keeps an
    /// anonymous game's players secret for ever).
    #[serde(default = "yes")]
    pub reveal: bool,
    /// njudge's `SET QUIET`: abandonments and takeovers are told to the master and the
    /// powers concerned only, not announced to everyone.
    #[serde(default)]
    pub quiet: bool,
    /// The players' addresses are shown to the other players while the game runs (`SET
    /// ADDRESSES SHOWN`); by default only the master sees them until the end. Never in an
    /// anonymous game.
    #[serde(default)]
    pub addresses_shown: bool,
    /// `SET COMMENT text`, shown in `LIST`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// `SET APPROVAL`: a takeover waits for the master's `APPROVE` (or `REJECT`).
    #[serde(default)]
    pub approval: bool,
    /// `SET ABANDON n`: a seat whose player missed this many phases in a row is abandoned
    /// (0: never).
    #[serde(default)]
    pub abandon_after: u32,
    /// `SET TAKEOVER n`: the least hours a newcomer gets before the deadline of the phase
    /// they take a power over in.
    #[serde(default = "default_takeover_hours")]
    pub takeover_hours: i64,
    /// `SET PLAYERS n`: a duplex game for n players, each holding several powers (None:
    /// one player a power).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<usize>,
    /// `SET TAKEOVER HISTORY`: a player who takes a power over reads the power's private
    /// mail from before (its press and its copies of the bulletins); by default (`SET NO
    /// TAKEOVER HISTORY`) only what came after the takeover (docs/audience.md).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub takeover_history: bool,
}

/// serde's default for settings that are on unless set off.
fn yes() -> bool {
    true
}

fn default_takeover_hours() -> i64 {
    DEFAULT_TAKEOVER_HOURS
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            press: PressPolicy::default(),
            nmr: true,
            deadlines: DeadlineSettings::default(),
            centres_to_win: 18,
            time_zone: "UTC".to_string(),
            master_reads_all_press: false,
            schedule: Schedule::default(),
            listed: true,
            join_password: None,
            invitations: Vec::new(),
            invitation_only: false,
            anonymous: false,
            reveal: true,
            quiet: false,
            addresses_shown: false,
            comment: None,
            approval: false,
            abandon_after: 0,
            takeover_hours: DEFAULT_TAKEOVER_HOURS,
            players: None,
            gates: Gates::default(),
            takeover_history: false,
        }
    }
}

/// The settings' transitions: each checks what it must and counts as a change.
impl Game {
    /// `SET NMR` / `SET NONMR`.
    pub fn set_nmr(&mut self, on: bool) {
        self.settings.nmr = on;
        self.touch();
    }

    /// `SET NO PRESS`, `SET GREY`, `SET WHITE`, `SET WHITE/GREY`.
    pub fn set_press(&mut self, level: PressLevel) {
        self.settings.press.level = level;
        self.touch();
    }

    /// `SET PARTIAL` / `SET NO PARTIAL`.
    pub fn set_partial(&mut self, on: bool) {
        self.settings.press.partial = on;
        self.touch();
    }

    /// `SET ALL PRESS` / `SET NO ALL PRESS`: the master reads every piece of press.
    pub fn set_master_reads_all_press(&mut self, on: bool) {
        self.settings.master_reads_all_press = on;
        self.touch();
    }

    /// njudge's `SET OBSERVER`: what observers may send.
    pub fn set_observer_press(&mut self, level: ObserverLevel) {
        self.settings.press.observer_press = level;
        self.touch();
    }

    /// `SET WATCH`: what observers read (`NONE`: the game takes no observers).
    pub fn set_watch(&mut self, level: ObserverLevel) {
        self.settings.press.watch = level;
        self.touch();
    }

    /// Whether the game may take another rule set: only while it forms.
    pub fn may_set_variant(&self) -> Result<(), Refused> {
        if self.status != Status::Forming {
            return Err(Refused::VariantFixed(self.name.clone()));
        }
        Ok(())
    }

    /// `SET VARIANT`: a forming game takes another rule set, with its new state.
    pub fn set_variant(&mut self, variant: &dyn Variant) -> Result<(), Refused> {
        self.may_set_variant()?;
        self.variant = variant.name().to_string();
        self.variant_state = variant.new_state();
        self.touch();
        Ok(())
    }

    /// njudge's `SET QUIET`: seat changes told to the master and the powers concerned only.
    pub fn set_quiet(&mut self, on: bool) {
        self.settings.quiet = on;
        self.touch();
    }

    /// `SET TAKEOVER HISTORY` / `SET NO TAKEOVER HISTORY`: whether a newcomer reads its
    /// power's private mail from before the takeover.
    pub fn set_takeover_history(&mut self, on: bool) {
        self.settings.takeover_history = on;
        self.touch();
    }

    /// `SET APPROVAL`: a takeover waits for the master.
    pub fn set_approval(&mut self, on: bool) {
        self.settings.approval = on;
        self.touch();
    }

    /// `SET ABANDON n`: a seat that missed n phases in a row is abandoned (0: never).
    pub fn set_abandon_after(&mut self, count: u32) {
        self.settings.abandon_after = count;
        self.touch();
    }

    /// `SET DEDICATION`, `SET ONTIMERAT`, `SET RESRAT` (issue 31): read at each join and
    /// takeover from now on.
    pub fn set_gate(&mut self, gate: Gate) {
        self.settings.gates.set(gate);
        self.touch();
    }

    /// `SET TAKEOVER n`: the least hours a newcomer gets before the deadline.
    pub fn set_takeover_hours(&mut self, hours: u32) -> Result<(), Refused> {
        if hours > MAX_TAKEOVER_HOURS {
            return Err(Refused::BadTakeoverHours(MAX_TAKEOVER_HOURS));
        }
        self.settings.takeover_hours = i64::from(hours);
        self.touch();
        Ok(())
    }

    /// `SET CENTRES n`: the centres a solo victory needs, 1 to 34.
    pub fn set_centres_to_win(&mut self, count: u32) -> Result<(), Refused> {
        if count == 0 || count > MAX_CENTRES_TO_WIN {
            return Err(Refused::BadCentreCount);
        }
        self.settings.centres_to_win = count as usize;
        self.touch();
        Ok(())
    }

    /// `SET ZONE`: the IANA time zone deadlines are shown in (the parser checked the name).
    pub fn set_time_zone(&mut self, zone: &str) {
        self.settings.time_zone = zone.to_string();
        self.touch();
    }

    /// `SET COMMENT text` (empty: none).
    pub fn set_comment(&mut self, text: &str) {
        self.settings.comment = (!text.is_empty()).then(|| text.to_string());
        self.touch();
    }

    /// `SET LIST` / `SET NOLIST`.
    pub fn set_listed(&mut self, listed: bool) {
        self.settings.listed = listed;
        self.touch();
    }

    /// `SET JOIN PASSWORD` (its argon2 hash) / `SET NO JOIN PASSWORD`.
    pub fn set_join_password(&mut self, hash: Option<String>) {
        // `SET NO JOIN PASSWORD` opens a private game, however it was made private.
        // Its invitations still out are moot then, and taken back.
        if hash.is_none() {
            self.settings.invitation_only = false;
            self.settings.invitations.clear();
        }
        self.settings.join_password = hash;
        self.touch();
    }

    /// The addresses of `addresses` not invited yet, if they may be: the game is forming
    /// and the invitations stay within [`MAX_INVITATIONS`]. The judge mails each a code and
    /// adds them ([`Game::add_invitations`]).
    pub fn new_invitees<'a>(&self, addresses: &'a [String]) -> Result<Vec<&'a String>, Refused> {
        if self.status != Status::Forming {
            return Err(Refused::InvitationsStarted(self.name.clone()));
        }
        let fresh: Vec<&String> = addresses
            .iter()
            .filter(|a| {
                !self
                    .settings
                    .invitations
                    .iter()
                    .any(|i| i.address.eq_ignore_ascii_case(a))
            })
            .collect();
        if self.settings.invitations.len() + fresh.len() > MAX_INVITATIONS {
            return Err(Refused::TooManyInvitations(MAX_INVITATIONS));
        }
        Ok(fresh)
    }

    /// `SET INVITE`: the invitations [`Game::new_invitees`] allowed, each with its code.
    pub fn add_invitations(&mut self, invitations: Vec<Invitation>) {
        self.settings.invitations.extend(invitations);
        self.settings.invitation_only = true;
        self.touch();
    }

    /// `SET NOINVITE addresses`: each invitation is taken back, in the order given; the
    /// first address not invited is refused (those before it are taken back, and counted
    /// as a change only with the mail's next one, as the judge always did).
    pub fn uninvite(&mut self, addresses: &[String]) -> Result<(), Refused> {
        if self.status != Status::Forming {
            return Err(Refused::InvitationsStarted(self.name.clone()));
        }
        for a in addresses {
            let before = self.settings.invitations.len();
            self.settings
                .invitations
                .retain(|i| !i.address.eq_ignore_ascii_case(a));
            if self.settings.invitations.len() == before {
                return Err(Refused::NotInvited(a.clone()));
            }
        }
        self.touch();
        Ok(())
    }

    /// Uses up an invitation (a join by its code).
    pub(super) fn use_invitation(&mut self, used: &Invitation) {
        self.settings.invitations.retain(|i| i != used);
    }

    /// `SET ANONYMOUS` / `SET NOANONYMOUS`, before the start: an anonymous game never shows
    /// its players' addresses.
    pub fn set_anonymous(&mut self, on: bool) -> Result<(), Refused> {
        if self.status != Status::Forming {
            return Err(Refused::AnonymousStarted(self.name.clone()));
        }
        self.settings.anonymous = on;
        if on {
            self.settings.addresses_shown = false;
        }
        self.touch();
        Ok(())
    }

    /// `SET REVEAL` / `SET NOREVEAL`, before the end.
    pub fn set_reveal(&mut self, on: bool) -> Result<(), Refused> {
        if matches!(self.status, Status::Finished(_)) {
            return Err(Refused::NotActive(self.name.clone()));
        }
        self.settings.reveal = on;
        self.touch();
        Ok(())
    }

    /// `SET ADDRESSES SHOWN|HIDDEN`: never shown in an anonymous game.
    pub fn set_addresses_shown(&mut self, shown: bool) -> Result<(), Refused> {
        if shown && self.settings.anonymous {
            return Err(Refused::Anonymous);
        }
        self.settings.addresses_shown = shown;
        self.touch();
        Ok(())
    }

    /// `SET MAXABSENCE days`: 0 to 31.
    pub fn set_max_absence(&mut self, days: u32) -> Result<(), Refused> {
        if days > MAX_ABSENCE_DAYS {
            return Err(Refused::BadMaxAbsence);
        }
        self.settings.deadlines.max_absence_days = i64::from(days);
        self.touch();
        Ok(())
    }

    /// `SET MOVE|RETREAT|ADJUST …`: the class's schedule takes what the line sets (`NEXT`
    /// at least an hour; `DAYS` allowing some day).
    pub fn set_schedule(
        &mut self,
        class: ScheduleClass,
        change: &ScheduleChange,
    ) -> Result<(), Refused> {
        if change.next.is_some_and(|m| m < 60) {
            return Err(Refused::NextTooShort);
        }
        let days = match &change.days {
            Some(d) => Some(Days::parse(d).ok_or(Refused::BadDays)?),
            None => None,
        };
        self.settings.schedule.of_mut(class).merge(&PhaseSchedule {
            clock: change.clock,
            min: change.min,
            next: change.next,
            grace: change.grace,
            delay: change.delay,
            days,
        });
        self.touch();
        Ok(())
    }
}

#[cfg(test)]
mod tests;
