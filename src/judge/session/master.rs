//! The master's commands: processing and previewing, pausing, deadlines and settings,
//! the rule set of a forming game, ejecting a player, rolling back.

use crate::bulletin::settings as text;
use crate::bulletin::{answers, notices};
use crate::command::{
    Declaration, EjectTarget, MasterCommand, ObserverSetting, PhaseClass, PressSetting,
    ScheduleChange, Turn,
};
use crate::game::{
    self, Abandonment, Days, Game, Invitation, Joiner, MAX_INVITATIONS, ObserverLevel,
    PhaseSchedule, PressLevel, Reader, ScheduleClass, Seat, SeatRefusal, Sender, Status,
};
use crate::store::{Audience, MailKind, NewMail, StoreError};

use super::super::refusal::Refusal;
use super::super::time::{game_tz, resolve_date};
use super::super::{confirm, limits, password, process, seats};
use super::player::find_variant;
use super::{Done, Session, Verdict};

/// How many co-masters a game may have.
const MAX_COMASTERS: usize = 5;

impl Session<'_, '_> {
    pub(super) fn master(&mut self, cmd: &MasterCommand) -> Result<Verdict, StoreError> {
        if self.who != Some(Sender::Master) {
            return Ok(Err(Refusal::NotMaster));
        }
        let (map, config, tx, now) = (self.map, self.config, self.tx, self.now);
        let (Some(g), Some(variant)) = (self.game.as_mut(), self.variant) else {
            return Ok(Err(Refusal::NotSignedOn));
        };
        let echo = cmd.render();
        let mut more = Vec::new();
        match cmd {
            MasterCommand::Become { power } => {
                if g.player(*power).is_none() {
                    return Ok(Err(Refusal::NoPlayer {
                        power: *power,
                        game: g.name.clone(),
                    }));
                }
                self.who = Some(Sender::Power(*power));
                self.became = true;
            }
            MasterCommand::Process { phase } => {
                if g.status != Status::Active {
                    return Ok(Err(Refusal::NotActive(g.name.clone())));
                }
                if let Some(ph) = phase
                    && *ph != g.position.phase
                {
                    return Ok(Err(Refusal::WrongPhase {
                        current: g.position.phase,
                        given: *ph,
                    }));
                }
                if !g.ready(map, variant) {
                    return Ok(Err(Refusal::NotReady(text::not_ready_text(
                        &g.missing_powers(map, variant),
                        &g.waiting_powers(map, variant),
                        g.waits_for_master(map, variant),
                    ))));
                }
                if let Some(t) = g.held_until(now) {
                    return Ok(Err(Refusal::NotReady(text::held_until(g, t))));
                }
                let mails = process::process_game(map, config, tx, g, now)?;
                self.mails.extend(mails);
            }
            MasterCommand::ProcessNow => {
                if g.status != Status::Active {
                    return Ok(Err(Refusal::NotActive(g.name.clone())));
                }
                let mails = process::process_game(map, config, tx, g, now)?;
                self.mails.extend(mails);
            }
            MasterCommand::Preview => {
                if g.status != Status::Active {
                    return Ok(Err(Refusal::NotActive(g.name.clone())));
                }
                more.push(answers::PREVIEW_HEADING.to_string());
                more.extend(
                    process::preview(map, config, g)?
                        .lines()
                        .map(str::to_string),
                );
            }
            MasterCommand::Pause => {
                if g.status != Status::Active {
                    return Ok(Err(Refusal::NotActive(g.name.clone())));
                }
                g.status = Status::Paused;
                let n = notices::paused(&config.name, g);
                self.mails
                    .extend(process::everyone(g, &n.subject, &n.body, None));
            }
            MasterCommand::Resume => {
                if g.status != Status::Paused {
                    return Ok(Err(Refusal::NotPaused(g.name.clone())));
                }
                g.status = Status::Active;
                // A deadline the master set in this mail stands; else the schedule's.
                let d = match g.deadline {
                    Some(d) if self.deadline_set && d > now => d,
                    _ => g.open_clock(now),
                };
                let n = notices::resumed(&config.name, g, d);
                self.mails
                    .extend(process::everyone(g, &n.subject, &n.body, None));
            }
            MasterCommand::Terminate => {
                let mails = process::finish(config, tx, g, game::Ending::Terminated, now)?;
                self.mails.extend(mails);
            }
            MasterCommand::SetDeadline { date } => {
                let tz = game_tz(g);
                let Some(d) = resolve_date(*date, &tz, now) else {
                    return Ok(Err(Refusal::BadDate));
                };
                if d <= now {
                    return Ok(Err(Refusal::PastDate));
                }
                // A later deadline takes the schedule's grace after it; an earlier one keeps
                // the end of grace (njudge).
                let old_grace = g.grace_end();
                if g.deadline.is_some_and(|old| d < old) {
                    g.grace_until = old_grace;
                } else {
                    g.grace_until = None;
                }
                g.deadline = Some(d);
                g.scheduled = None;
                self.deadline_set = true;
                g.late_notified = false;
                g.reminded = false;
                let n = notices::deadline_changed(&config.name, g, d);
                self.mails
                    .extend(process::everyone(g, &n.subject, &n.body, None));
            }
            MasterCommand::SetGrace { date } => {
                let tz = game_tz(g);
                match (resolve_date(*date, &tz, now), g.deadline) {
                    (Some(end), Some(d)) if end >= d => {
                        g.grace_until = Some(end);
                        more.push(text::grace_set(g, end));
                    }
                    _ => {
                        return Ok(Err(Refusal::BadGrace));
                    }
                }
            }
            MasterCommand::SetNmr => g.settings.nmr = true,
            MasterCommand::SetNoNmr => g.settings.nmr = false,
            MasterCommand::SetPress(s) => {
                g.settings.press.level = match s {
                    PressSetting::NoPress => PressLevel::None,
                    PressSetting::Grey => PressLevel::Grey,
                    PressSetting::White => PressLevel::White,
                    PressSetting::WhiteGrey => PressLevel::WhiteGrey,
                }
            }
            MasterCommand::SetPartial => g.settings.press.partial = true,
            MasterCommand::SetAllPress => g.settings.master_reads_all_press = true,
            MasterCommand::SetNoAllPress => g.settings.master_reads_all_press = false,
            MasterCommand::SetNoPartial => g.settings.press.partial = false,
            // njudge's SET OBSERVER: what observers may send; SET WATCH: what they read.
            MasterCommand::SetObserver(o) => g.settings.press.observer_press = observer_level(*o),
            MasterCommand::SetWatch(o) => g.settings.press.watch = observer_level(*o),
            MasterCommand::SetVariant { name } => {
                if g.status != Status::Forming {
                    return Ok(Err(Refusal::VariantFixed(g.name.clone())));
                }
                let v = match find_variant(config, name) {
                    Ok(v) => v,
                    Err(r) => return Ok(Err(r)),
                };
                g.variant = v.name().to_string();
                g.variant_state = v.new_state();
                self.variant = Some(v);
                more.push(answers::rules_chosen(&g.name, v.name()));
            }
            MasterCommand::Eject { who } => {
                let power = match who {
                    EjectTarget::Power(p) => Some(*p),
                    EjectTarget::Address(a) => g.power_played_by(a),
                };
                match (power, who) {
                    (Some(p), _) => {
                        if !g.is_played(p) {
                            return Ok(Err(SeatRefusal::NothingToEject {
                                power: p,
                                game: g.name.clone(),
                            }
                            .into()));
                        }
                        let phase = g.position.phase;
                        let mails = seats::abandon(config, g, p, Abandonment::Ejected, phase, true);
                        self.mails.extend(mails);
                        more.push(answers::open_for_takeover(p));
                        self.dirty = true;
                        self.check_end()?;
                        return Ok(Done::with_more(echo, more));
                    }
                    (None, EjectTarget::Address(a)) => {
                        if !g.remove_observer(a) {
                            return Ok(Err(SeatRefusal::UnknownAddress {
                                address: a.clone(),
                                game: g.name.clone(),
                            }
                            .into()));
                        }
                        self.mails
                            .push(seats::subscription_ended_mail(config, g, a));
                        more.push(crate::bulletin::seats::observer_ejected(a, &g.name));
                    }
                    (None, EjectTarget::Power(_)) => {}
                }
            }
            MasterCommand::ForceBegin => {
                if g.status != Status::Forming || g.joiners.is_empty() {
                    return Ok(Err(SeatRefusal::CannotBegin {
                        game: g.name.clone(),
                        joined: g.joiners.len(),
                    }
                    .into()));
                }
                let mails = process::start_game(map, config, tx, g, now)?;
                self.mails.extend(mails);
                let open = g.open_powers();
                more.push(crate::bulletin::seats::force_begun(&g.name, &open));
            }
            MasterCommand::Approve { power } => {
                let Some(claim) = g.player_mut(*power).and_then(|pl| pl.claim.take()) else {
                    return Ok(Err(SeatRefusal::NoClaim {
                        power: *power,
                        game: g.name.clone(),
                    }
                    .into()));
                };
                let address = claim.seat.address.clone();
                match seats::take_over(map, config, tx, g, *power, claim.seat, now)? {
                    Some((_, mails)) => {
                        self.mails.extend(mails);
                        more.push(crate::bulletin::seats::approved(&address, *power));
                    }
                    None => {
                        return Ok(Err(SeatRefusal::NotOpen {
                            power: *power,
                            game: g.name.clone(),
                        }
                        .into()));
                    }
                }
            }
            MasterCommand::Reject { power } => {
                let Some(claim) = g.player_mut(*power).and_then(|pl| pl.claim.take()) else {
                    return Ok(Err(SeatRefusal::NoClaim {
                        power: *power,
                        game: g.name.clone(),
                    }
                    .into()));
                };
                self.mails
                    .push(seats::rejected_mail(config, g, *power, &claim.seat.address));
                more.push(crate::bulletin::seats::rejected(
                    &claim.seat.address,
                    *power,
                ));
            }
            MasterCommand::SetQuiet { on } => g.settings.quiet = *on,
            MasterCommand::SetApproval(on) => g.settings.approval = *on,
            MasterCommand::SetAbandon { count } => g.settings.abandon_after = *count,
            // The entry gates (issue 31): read at each join and takeover from now on.
            MasterCommand::SetDedication { least } => {
                g.settings.gates.set(game::Gate::Dedication(*least));
            }
            MasterCommand::SetOnTimeRatio { least } => {
                let least = least.filter(|n| *n > 0).map(game::Ratio);
                g.settings.gates.set(game::Gate::OnTime(least));
            }
            MasterCommand::SetResignationRatio { most } => {
                let most = most.map(game::Ratio).filter(|r| *r < game::Ratio::ONE);
                g.settings.gates.set(game::Gate::Resignation(most));
            }
            MasterCommand::SetTakeover { hours } => {
                if *hours > crate::game::MAX_TAKEOVER_HOURS {
                    return Ok(Err(Refusal::BadTakeoverHours(
                        crate::game::MAX_TAKEOVER_HOURS,
                    )));
                }
                g.settings.takeover_hours = i64::from(*hours);
            }
            MasterCommand::SetPlayers { count } => {
                let n = usize::try_from(*count).unwrap_or(usize::MAX);
                if let Err(r) = g.set_players(n) {
                    return Ok(Err(match r {
                        game::PlayersRefusal::Started => Refusal::PlayersFixed(g.name.clone()),
                        game::PlayersRefusal::OutOfRange { most } => {
                            Refusal::PlayersOutOfRange(most)
                        }
                        game::PlayersRefusal::TooManyJoined { joined } => Refusal::PlayersJoined {
                            joined,
                            game: g.name.clone(),
                        },
                    }));
                }
                more.push(text::players_set(g));
            }
            MasterCommand::SetCentres { count } => {
                if *count == 0 || *count > 34 {
                    return Ok(Err(Refusal::BadCentreCount));
                }
                g.settings.centres_to_win = *count as usize;
            }
            MasterCommand::Rollback { turn } => {
                let name = g.name.clone();
                let snapshot = match turn {
                    None => tx.load_snapshot(&name, Some(g.turn.saturating_sub(1)), None)?,
                    Some(Turn::Number(n)) => tx.load_snapshot(&name, Some(*n), None)?,
                    Some(Turn::Phase(p)) => tx.load_snapshot(&name, None, Some(&p.to_string()))?,
                };
                let Some(mut old) = snapshot else {
                    return Ok(Err(Refusal::NoSnapshot));
                };
                // Players, settings and addresses stay as they are now; the board goes back.
                old.players = g.players.clone();
                old.observers = g.observers.clone();
                old.observer_seats = g.observer_seats.clone();
                old.settings = g.settings.clone();
                old.master = g.master.clone();
                old.comasters = g.comasters.clone();
                old.absences = g.absences.clone();
                old.names = g.names.clone();
                old.status = Status::Active;
                old.orders.clear();
                old.submitted.clear();
                old.open_clock(now);
                tx.drop_snapshots_after(&name, old.turn)?;
                *g = old;
                let n = notices::rolled_back(&config.name, g);
                self.mails
                    .extend(process::everyone(g, &n.subject, &n.body, None));
            }
            MasterCommand::SetStart { date } => {
                let tz = game_tz(g);
                let Some(d) = resolve_date(*date, &tz, now) else {
                    return Ok(Err(Refusal::BadDate));
                };
                if d <= now {
                    return Ok(Err(Refusal::PastDate));
                }
                g.not_before = Some(d);
                if g.status == Status::Forming {
                    more.push(text::start_set_forming(g, d));
                } else {
                    // njudge: a start after the deadline moves the deadline to it.
                    if g.deadline.is_some_and(|old| old < d) {
                        g.deadline = Some(d);
                        g.scheduled = None;
                        g.grace_until = None;
                        g.late_notified = false;
                        g.reminded = false;
                    }
                    let n = text::start_set_notice(&config.name, g, d);
                    self.mails
                        .extend(process::everyone(g, &n.subject, &n.body, None));
                }
            }
            MasterCommand::SetSchedule { class, change } => match set_schedule(g, *class, change) {
                Ok(line) => more.push(line),
                Err(r) => return Ok(Err(r)),
            },
            MasterCommand::SetZone { zone } => {
                g.settings.time_zone = zone.clone();
                more.push(text::zone_set(g));
            }
            MasterCommand::SetComment { text: c } => {
                g.settings.comment = (!c.is_empty()).then(|| c.clone());
            }
            MasterCommand::SetListed { listed } => g.settings.listed = *listed,
            MasterCommand::SetJoinPassword { password: pw } => match pw {
                Some(pw) if !password::long_enough(pw) => {
                    return Ok(Err(Refusal::ShortPassword));
                }
                Some(pw) => {
                    let salt =
                        config.seed ^ tx.next_counter("salt")?.wrapping_mul(0x9E37_79B9_7F4A_7C15);
                    g.settings.join_password = Some(password::hash(config.password_cost, pw, salt));
                    let echo = text::JOIN_PASSWORD_ECHO.to_string();
                    self.dirty = true;
                    return Ok(Done::with_more(echo, more));
                }
                None => g.settings.join_password = None,
            },
            MasterCommand::SetInvite { addresses, invite } => {
                if g.status != Status::Forming {
                    return Ok(Err(Refusal::InvitationsStarted(g.name.clone())));
                }
                if *invite {
                    if let Some(r) = addresses
                        .iter()
                        .find_map(|a| super::super::addresses::refusal(config, a))
                    {
                        return Ok(Err(r));
                    }
                    let fresh: Vec<&String> = addresses
                        .iter()
                        .filter(|a| {
                            !g.settings
                                .invitations
                                .iter()
                                .any(|i| i.address.eq_ignore_ascii_case(a))
                        })
                        .collect();
                    if g.settings.invitations.len() + fresh.len() > MAX_INVITATIONS {
                        return Ok(Err(Refusal::TooManyInvitations(MAX_INVITATIONS)));
                    }
                    if let Some(r) = limits::unasked_mail_refusal(tx, fresh.iter().copied(), now)? {
                        return Ok(Err(r));
                    }
                    for a in fresh {
                        limits::count_unasked_mail(tx, a, now)?;
                        let code = confirm::secret_code(tx, config.seed, "invitations", a)?;
                        g.settings.invitations.push(Invitation {
                            address: a.clone(),
                            code: code.clone(),
                        });
                        self.mails.push(NewMail {
                            game: Some(g.name.clone()),
                            // Someone outside the game (not yet a player).
                            audience: Audience::Reader(Reader::Observers),
                            recipient: a.clone(),
                            subject: text::invitation_subject(&config.name, &g.name),
                            body: text::invitation_text(&g.name, &config.address, &code),
                            kind: MailKind::Generated,
                            in_reply_to: None,
                            pictures: Vec::new(),
                        });
                    }
                    more.push(text::invited_line(g));
                } else {
                    for a in addresses {
                        let before = g.settings.invitations.len();
                        g.settings
                            .invitations
                            .retain(|i| !i.address.eq_ignore_ascii_case(a));
                        if g.settings.invitations.len() == before {
                            return Ok(Err(Refusal::NotInvited(a.clone())));
                        }
                    }
                }
            }
            MasterCommand::SetAnonymous { on } => {
                if g.status != Status::Forming {
                    return Ok(Err(Refusal::AnonymousStarted(g.name.clone())));
                }
                g.settings.anonymous = *on;
                if *on {
                    g.settings.addresses_shown = false;
                }
            }
            MasterCommand::SetReveal { on } => {
                if matches!(g.status, Status::Finished(_)) {
                    return Ok(Err(Refusal::NotActive(g.name.clone())));
                }
                g.settings.reveal = *on;
            }
            MasterCommand::SetAddresses { shown } => {
                if *shown && g.settings.anonymous {
                    return Ok(Err(Refusal::Anonymous));
                }
                g.settings.addresses_shown = *shown;
            }
            MasterCommand::SetMaxAbsence { days } => {
                if *days > 31 {
                    return Ok(Err(Refusal::BadMaxAbsence));
                }
                g.settings.deadlines.max_absence_days = i64::from(*days);
            }
            MasterCommand::Promote { address } => {
                if let Some(r) = super::super::addresses::refusal(config, address) {
                    return Ok(Err(r));
                }
                if g.has_seat_at(address) {
                    return Ok(Err(Refusal::AlreadyInGame(address.clone())));
                }
                if g.comasters.len() >= MAX_COMASTERS {
                    return Ok(Err(Refusal::TooManyMasters(MAX_COMASTERS)));
                }
                if let Some(r) = limits::unasked_mail_refusal(tx, [address], now)? {
                    return Ok(Err(r));
                }
                limits::count_unasked_mail(tx, address, now)?;
                let code = confirm::secret_code(tx, config.seed, "promotions", address)?;
                let salt =
                    config.seed ^ tx.next_counter("salt")?.wrapping_mul(0x9E37_79B9_7F4A_7C15);
                g.comasters.push(Seat {
                    address: address.clone(),
                    password_hash: password::hash(config.password_cost, &code, salt),
                });
                self.mails.push(NewMail {
                    game: Some(g.name.clone()),
                    audience: Audience::MASTER,
                    recipient: address.clone(),
                    subject: text::promoted_subject(&config.name, &g.name),
                    body: text::promoted_text(&g.name, &code),
                    kind: MailKind::Generated,
                    in_reply_to: None,
                    pictures: Vec::new(),
                });
                more.push(text::promoted_line(address, &g.name));
            }
            MasterCommand::Unstart => {
                if !matches!(g.status, Status::Active | Status::Paused) {
                    return Ok(Err(Refusal::NotActive(g.name.clone())));
                }
                if g.turn > 0 {
                    return Ok(Err(Refusal::AlreadyProcessed(g.name.clone())));
                }
                let start = tx.load_snapshot(&g.name, Some(0), None)?;
                let mails = unstart(map, g, start.map(|s| s.variant_state));
                self.mails.extend(mails);
                let subject = text::unstart_subject(&config.name, &g.name);
                let body = text::unstart_text(&g.name);
                let mut readers: Vec<Reader> = Vec::new();
                readers.push(Reader::Master);
                if g.settings.press.watch != ObserverLevel::None {
                    readers.push(Reader::Observers);
                }
                self.mails
                    .extend(process::mails_for(g, &readers, &subject, &body, None));
                for j in &g.joiners {
                    self.mails.push(NewMail {
                        game: Some(g.name.clone()),
                        // The joiners are outside the game until it starts again.
                        audience: Audience::Reader(Reader::Observers),
                        recipient: j.seat.address.clone(),
                        subject: subject.clone(),
                        body: body.clone(),
                        kind: MailKind::Generated,
                        in_reply_to: None,
                        pictures: Vec::new(),
                    });
                }
            }
            MasterCommand::Declare(d) => {
                if !matches!(g.status, Status::Active | Status::Paused) {
                    return Ok(Err(Refusal::NotActive(g.name.clone())));
                }
                let in_game = g.draw_powers(map, variant);
                let (ending, declared) = match d {
                    Declaration::Draw(ps) => {
                        let out: Vec<_> = ps
                            .iter()
                            .filter(|p| !in_game.contains(p))
                            .copied()
                            .collect();
                        if !out.is_empty() {
                            return Ok(Err(Refusal::OutOfGame(game::list_powers(&out))));
                        }
                        let mut ps = ps.clone();
                        ps.sort();
                        (game::Ending::Draw(ps.clone()), Declaration::Draw(ps))
                    }
                    Declaration::Winner(p) => {
                        if !in_game.contains(p) {
                            return Ok(Err(Refusal::OutOfGame(p.name().to_string())));
                        }
                        (game::Ending::Solo(*p), Declaration::Winner(*p))
                    }
                };
                let mails = process::finish_declared(config, tx, g, ending, Some(&declared), now)?;
                self.mails.extend(mails);
            }
        }
        self.dirty = true;
        Ok(Done::with_more(echo, more))
    }

    /// Ends the game when its players agreed a draw or a concession (the powers someone
    /// plays vote: `process::agreed_ending`).
    pub(super) fn check_end(&mut self) -> Result<(), StoreError> {
        let (map, config, tx, now) = (self.map, self.config, self.tx, self.now);
        let (Some(g), Some(variant)) = (self.game.as_mut(), self.variant) else {
            return Ok(());
        };
        if let Some(e) = process::agreed_ending(map, variant, g) {
            // An error rolls the whole mail back: a game is never finished without its
            // "Game over" mail.
            let mails = process::finish(config, tx, g, e, now)?;
            self.mails.extend(mails);
        }
        Ok(())
    }
}

/// `SET MOVE|RETREAT|ADJUST …`: the class's schedule takes what the line sets; the reply
/// line says what the class's deadlines keep from now on.
fn set_schedule(
    g: &mut Game,
    class: PhaseClass,
    change: &ScheduleChange,
) -> Result<String, Refusal> {
    let class = match class {
        PhaseClass::Movement => ScheduleClass::Movement,
        PhaseClass::Retreat => ScheduleClass::Retreat,
        PhaseClass::Adjustment => ScheduleClass::Adjustment,
    };
    if change.next.is_some_and(|m| m < 60) {
        return Err(Refusal::NextTooShort);
    }
    let days = match &change.days {
        Some(d) => Some(Days::parse(d).ok_or(Refusal::BadDate)?),
        None => None,
    };
    g.settings.schedule.of_mut(class).merge(&PhaseSchedule {
        clock: change.clock,
        min: change.min,
        next: change.next,
        grace: change.grace,
        delay: change.delay,
        days,
    });
    let kind = match class {
        ScheduleClass::Movement => crate::rules::PhaseKind::Movement,
        ScheduleClass::Retreat => crate::rules::PhaseKind::Retreat,
        ScheduleClass::Adjustment => crate::rules::PhaseKind::Adjustment,
    };
    let word = match class {
        ScheduleClass::Movement => "Movement",
        ScheduleClass::Retreat => "Retreat",
        ScheduleClass::Adjustment => "Adjustment",
    };
    Ok(text::schedule_set_line(word, &g.rule(kind), &g.time_zone()))
}

/// Takes a game whose first phase is not processed back to forming: its players wait as
/// joiners (each with their power as first preference), the board and the rule set's
/// state go back to the start (`start_state`, the state saved when it started), and the
/// press held for the results is delivered now. Returns that press.
fn unstart(
    map: &crate::map::Map,
    g: &mut Game,
    start_state: Option<crate::variant::VariantState>,
) -> Vec<NewMail> {
    let postal: Vec<NewMail> = std::mem::take(&mut g.postal)
        .into_iter()
        .flat_map(|(readers, subject, body)| process::mails_for(g, &readers, &subject, &body, None))
        .collect();
    // A duplex player is one joiner again, preferring the powers they held.
    let mut joiners: Vec<Joiner> = Vec::new();
    for p in g.players.drain(..) {
        let same = joiners.iter_mut().find(|j| {
            !p.seat.address.is_empty() && j.seat.address.eq_ignore_ascii_case(&p.seat.address)
        });
        match same {
            Some(j) => j.preferences.push(p.power),
            None => joiners.push(Joiner {
                seat: p.seat,
                preferences: vec![p.power],
            }),
        }
    }
    g.joiners = joiners;
    g.status = Status::Forming;
    g.open_phase(crate::rules::Position::standard_start(map));
    g.deadline = None;
    g.not_before = None;
    g.immediate.clear();
    if let Some(state) = start_state {
        g.variant_state = state;
    }
    postal
}

/// A level of `SET OBSERVER` or `SET WATCH`, as the game keeps it.
fn observer_level(o: ObserverSetting) -> ObserverLevel {
    match o {
        ObserverSetting::Any => ObserverLevel::Any,
        ObserverSetting::White => ObserverLevel::White,
        ObserverSetting::None => ObserverLevel::None,
    }
}
