//! The master's commands: processing and previewing, pausing, deadlines and settings,
//! the rule set of a forming game, ejecting a player, rolling back.

use crate::command::{EjectTarget, MasterCommand, ObserverSetting, PressSetting, Turn};
use crate::game::{self, Abandonment, ObserverLevel, PressLevel, SeatRefusal, Status};
use crate::store::StoreError;

use super::super::refusal::Refusal;
use super::super::time::{format_time, game_tz, resolve_date};
use super::super::{process, seats};
use super::player::find_variant;
use super::{Done, Session, Verdict, Who};

impl Session<'_, '_> {
    pub(super) fn master(&mut self, cmd: &MasterCommand) -> Result<Verdict, StoreError> {
        if self.who != Who::Master {
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
                self.who = Who::Power(*power);
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
                    let missing = g.missing_powers(map, variant);
                    return Ok(Err(Refusal::OrdersMissing(game::list_powers(&missing))));
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
                more.push(
                    "Preview of the results with the orders standing now (nothing is saved):"
                        .into(),
                );
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
                let subject = format!("{}:{} - Paused", config.name, g.name);
                self.mails.extend(process::everyone(
                    g,
                    &subject,
                    "The master has paused the game.\n",
                    None,
                ));
            }
            MasterCommand::Resume => {
                if g.status != Status::Paused {
                    return Ok(Err(Refusal::NotPaused(g.name.clone())));
                }
                g.status = Status::Active;
                let d = game::next_deadline(&g.settings.deadlines, g.position.phase.kind, now);
                g.deadline = Some(d);
                let subject = format!("{}:{} - Resumed", config.name, g.name);
                let text = format!(
                    "The master has resumed the game. The deadline is {}.\n",
                    format_time(g, d)
                );
                self.mails
                    .extend(process::everyone(g, &subject, &text, None));
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
                g.deadline = Some(d);
                g.late_notified = false;
                g.reminded = false;
                let subject = format!("{}:{} - Deadline changed", config.name, g.name);
                let text = format!(
                    "The master set the deadline of {} to {}.\n",
                    g.position.phase,
                    format_time(g, d)
                );
                self.mails
                    .extend(process::everyone(g, &subject, &text, None));
            }
            MasterCommand::SetGrace { date } => {
                let tz = game_tz(g);
                match (resolve_date(*date, &tz, now), g.deadline) {
                    (Some(end), Some(d)) if end >= d => {
                        g.settings.deadlines.grace_hours = (end - d).num_hours();
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
            MasterCommand::SetObserver(o) => {
                g.settings.press.observers = match o {
                    ObserverSetting::Any => ObserverLevel::Any,
                    ObserverSetting::White => ObserverLevel::White,
                    ObserverSetting::None => ObserverLevel::None,
                }
            }
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
                more.push(format!(
                    "{} will be played with the {} rules.",
                    g.name,
                    v.name()
                ));
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
                        more.push(format!("{p} is now open for takeover."));
                        self.dirty = true;
                        self.check_end()?;
                        return Ok(Done::with_more(echo, more));
                    }
                    (None, EjectTarget::Address(a)) => {
                        let before = g.observers.len();
                        g.observers.retain(|o| !o.eq_ignore_ascii_case(a));
                        if g.observers.len() == before {
                            return Ok(Err(SeatRefusal::UnknownAddress {
                                address: a.clone(),
                                game: g.name.clone(),
                            }
                            .into()));
                        }
                        self.mails
                            .push(seats::subscription_ended_mail(config, g, a));
                        more.push(format!("{a} no longer observes {}.", g.name));
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
                more.push(format!(
                    "{} starts now with {} players; {} open for takeover (see the announcement).",
                    g.name,
                    7 - open.len(),
                    if open.is_empty() {
                        "no power is".to_string()
                    } else {
                        format!("{} (dummies) are", game::list_powers(&open))
                    }
                ));
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
                        more.push(format!("{address} now plays {power}."));
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
                more.push(format!(
                    "{} is told; {power} stays open for takeover.",
                    claim.seat.address
                ));
            }
            MasterCommand::SetQuiet(on) => g.settings.quiet = *on,
            MasterCommand::SetApproval(on) => g.settings.approval = *on,
            MasterCommand::SetAbandon { count } => g.settings.abandon_after = *count,
            MasterCommand::SetTakeover { hours } => {
                if *hours > crate::game::MAX_TAKEOVER_HOURS {
                    return Ok(Err(Refusal::BadTakeoverHours(
                        crate::game::MAX_TAKEOVER_HOURS,
                    )));
                }
                g.settings.takeover_hours = i64::from(*hours);
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
                old.settings = g.settings.clone();
                old.master = g.master.clone();
                old.status = Status::Active;
                old.orders.clear();
                old.submitted.clear();
                old.deadline = Some(game::next_deadline(
                    &old.settings.deadlines,
                    old.position.phase.kind,
                    now,
                ));
                tx.drop_snapshots_after(&name, old.turn)?;
                *g = old;
                let subject = format!("{}:{} - Rolled back", config.name, g.name);
                let text = format!(
                    "The master rolled the game back to {}. Orders for that phase are needed again; the deadline is {}.\n",
                    g.position.phase,
                    g.deadline.map(|d| format_time(g, d)).unwrap_or_default()
                );
                self.mails
                    .extend(process::everyone(g, &subject, &text, None));
            }
            MasterCommand::SetStart { .. } | MasterCommand::Promote => {
                return Ok(Err(Refusal::NotSupported));
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
