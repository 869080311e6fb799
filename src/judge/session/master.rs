//! The master's commands: processing and previewing, pausing, deadlines and settings,
//! the rule set of a forming game, ejecting a player, rolling back.

use crate::bulletin::{answers, notices};
use crate::command::{EjectTarget, MasterCommand, ObserverSetting, PressSetting, Turn};
use crate::game::{self, Abandonment, ObserverLevel, PressLevel, SeatRefusal, Sender, Status};
use crate::store::StoreError;

use super::super::refusal::Refusal;
use super::super::time::{game_tz, resolve_date};
use super::super::{process, seats};
use super::player::find_variant;
use super::{Done, Session, Verdict};

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
                let d = game::next_deadline(&g.settings.deadlines, g.position.phase.kind, now);
                g.deadline = Some(d);
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
                g.deadline = Some(d);
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
                let n = notices::rolled_back(&config.name, g);
                self.mails
                    .extend(process::everyone(g, &n.subject, &n.body, None));
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
