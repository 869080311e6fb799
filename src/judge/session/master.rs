//! The master's commands: processing and previewing, pausing, deadlines and settings,
//! the rule set of a forming game, seats, rolling back. Each calls one `Game` transition
//! and picks who is told and in which words.

use crate::bulletin::settings as text;
use crate::bulletin::{answers, notices};
use crate::command::{MasterCommand, Turn};
use crate::game::{self, Ejected, Invitation, ObserverLevel, Reader, Seat, Sender};
use crate::store::{Audience, MailKind, NewMail};

use super::super::refusal::Refusal;
use super::super::{confirm, mailing, password, process, seats};
use super::player::find_variant;
use super::{Done, Session, Verdict};

impl Session<'_, '_> {
    pub(super) fn master(&mut self, cmd: &MasterCommand) -> Verdict {
        if self.who != Some(Sender::Master) {
            return Err(Refusal::NotMaster.into());
        }
        if self.game.is_none() || self.variant.is_none() {
            return Err(Refusal::NotSignedOn.into());
        }
        let more = self.master_command(cmd)?;
        // A master's command, even one that changes nothing (PREVIEW, BECOME), has the
        // judge look again at whether every order is in when the mail is done.
        if let Some(g) = self.game.as_mut() {
            g.mark_changed();
        }
        Done::with_more(cmd.render(), more)
    }

    /// The master's command, done: the lines its reply adds after `OK`.
    fn master_command(
        &mut self,
        cmd: &MasterCommand,
    ) -> Result<Vec<String>, super::super::refusal::SessionError> {
        let (map, config, tx, now) = (self.map, self.config, self.tx, self.now);
        let (Some(g), Some(variant)) = (self.game.as_mut(), self.variant) else {
            return Err(Refusal::NotSignedOn.into());
        };
        let mut more = Vec::new();
        match cmd {
            MasterCommand::Become { power } => {
                if g.player(*power).is_none() {
                    return Err(Refusal::NoPlayer {
                        power: *power,
                        game: g.name().to_string(),
                    }
                    .into());
                }
                self.who = Some(Sender::Power(*power));
                self.became = true;
            }
            MasterCommand::Process { phase } => {
                g.may_process(map, variant, *phase, now)?;
                let mails = process::process_game(map, config, tx, g, now)?;
                self.mails.extend(mails);
            }
            MasterCommand::ProcessNow => {
                g.may_process_now()?;
                let mails = process::process_game(map, config, tx, g, now)?;
                self.mails.extend(mails);
            }
            MasterCommand::Preview => {
                g.may_process_now()?;
                more.push(answers::PREVIEW_HEADING.to_string());
                more.extend(
                    process::preview(map, config, g)?
                        .lines()
                        .map(str::to_string),
                );
            }
            MasterCommand::Pause => {
                g.pause()?;
                let n = notices::paused(&config.name, g);
                self.mails
                    .extend(mailing::everyone(g, &n.subject, &n.body, None));
            }
            MasterCommand::Resume => {
                let d = g.resume(now)?;
                let n = notices::resumed(&config.name, g, d);
                self.mails
                    .extend(mailing::everyone(g, &n.subject, &n.body, None));
            }
            MasterCommand::Terminate => {
                let mails = process::finish(config, tx, g, game::Ending::Terminated, now)?;
                self.mails.extend(mails);
            }
            MasterCommand::SetDeadline { date } => {
                let d = g.set_deadline(*date, now)?;
                let n = notices::deadline_changed(&config.name, g, d);
                self.mails
                    .extend(mailing::everyone(g, &n.subject, &n.body, None));
            }
            MasterCommand::SetGrace { date } => {
                let end = g.set_grace(*date, now)?;
                more.push(text::grace_set(g, end));
            }
            MasterCommand::SetNmr => g.set_nmr(true),
            MasterCommand::SetNoNmr => g.set_nmr(false),
            MasterCommand::SetPress(level) => g.set_press(*level),
            MasterCommand::SetPartial => g.set_partial(true),
            MasterCommand::SetNoPartial => g.set_partial(false),
            MasterCommand::SetAllPress => g.set_master_reads_all_press(true),
            MasterCommand::SetNoAllPress => g.set_master_reads_all_press(false),
            // njudge's SET OBSERVER: what observers may send; SET WATCH: what they read.
            MasterCommand::SetObserver(o) => g.set_observer_press(*o),
            MasterCommand::SetWatch(o) => g.set_watch(*o),
            MasterCommand::SetVariant { name } => {
                g.may_set_variant()?;
                let v = find_variant(config, name)?;
                g.set_variant(v)?;
                self.variant = Some(v);
                more.push(answers::rules_chosen(g.name(), v.name()));
            }
            MasterCommand::Eject { who } => match g.eject(who)? {
                Ejected::Player { power, previous } => {
                    let why = game::Abandonment::Ejected;
                    self.mails.extend(seats::abandoned_mails(
                        config, g, power, why, &previous, true,
                    ));
                    more.push(answers::open_for_takeover(power));
                    self.check_end()?;
                }
                Ejected::Observer(a) => {
                    self.mails
                        .push(seats::subscription_ended_mail(config, g, &a));
                    more.push(crate::bulletin::seats::observer_ejected(&a, g.name()));
                }
            },
            MasterCommand::ForceBegin => {
                g.may_force_begin()?;
                let mails = process::start_game(map, config, tx, g, now)?;
                self.mails.extend(mails);
                let open = g.open_powers();
                more.push(crate::bulletin::seats::force_begun(g.name(), &open));
            }
            MasterCommand::Approve { power } => {
                let claim = g.take_claim(*power)?;
                let address = claim.seat.address.clone();
                match seats::take_over(map, config, tx, g, *power, claim.seat, now)? {
                    Some((_, mails)) => {
                        self.mails.extend(mails);
                        more.push(crate::bulletin::seats::approved(&address, *power));
                    }
                    None => {
                        return Err(game::SeatRefusal::NotOpen {
                            power: *power,
                            game: g.name().to_string(),
                        }
                        .into());
                    }
                }
            }
            MasterCommand::Reject { power } => {
                let claim = g.take_claim(*power)?;
                self.mails
                    .push(seats::rejected_mail(config, g, *power, &claim.seat.address));
                more.push(crate::bulletin::seats::rejected(
                    &claim.seat.address,
                    *power,
                ));
            }
            MasterCommand::SetQuiet { on } => g.set_quiet(*on),
            MasterCommand::SetApproval(on) => g.set_approval(*on),
            MasterCommand::SetAbandon { count } => g.set_abandon_after(*count),
            // The entry gates (issue 31): read at each join and takeover from now on.
            MasterCommand::SetDedication { least } => g.set_gate(game::Gate::Dedication(*least)),
            MasterCommand::SetOnTimeRatio { least } => {
                let least = least.filter(|n| *n > 0).map(game::Ratio);
                g.set_gate(game::Gate::OnTime(least));
            }
            MasterCommand::SetResignationRatio { most } => {
                let most = most.map(game::Ratio).filter(|r| *r < game::Ratio::ONE);
                g.set_gate(game::Gate::Resignation(most));
            }
            MasterCommand::SetTakeover { hours } => g.set_takeover_hours(*hours)?,
            MasterCommand::SetPlayers { count } => {
                g.set_players(usize::try_from(*count).unwrap_or(usize::MAX))?;
                more.push(text::players_set(g));
            }
            MasterCommand::SetCentres { count } => g.set_centres_to_win(*count)?,
            MasterCommand::Rollback { turn } => {
                let name = g.name().to_string();
                let snapshot = match turn {
                    None => tx.load_snapshot(&name, Some(g.turn().saturating_sub(1)), None)?,
                    Some(Turn::Number(n)) => tx.load_snapshot(&name, Some(*n), None)?,
                    Some(Turn::Phase(p)) => tx.load_snapshot(&name, None, Some(&p.to_string()))?,
                };
                let old = snapshot.ok_or(Refusal::NoSnapshot)?;
                let turn = g.roll_back(old, now);
                tx.drop_snapshots_after(&name, turn)?;
                let n = notices::rolled_back(&config.name, g);
                self.mails
                    .extend(mailing::everyone(g, &n.subject, &n.body, None));
            }
            MasterCommand::SetStart { date } => {
                let d = g.set_start(*date, now)?;
                if g.is_forming() {
                    more.push(text::start_set_forming(g, d));
                } else {
                    let n = text::start_set_notice(&config.name, g, d);
                    self.mails
                        .extend(mailing::everyone(g, &n.subject, &n.body, None));
                }
            }
            MasterCommand::SetSchedule { class, change } => {
                g.set_schedule(*class, change)?;
                let rule = g.class_rule(*class);
                more.push(text::schedule_set_line(*class, &rule, &g.time_zone()));
            }
            MasterCommand::SetZone { zone } => {
                g.set_time_zone(zone);
                more.push(text::zone_set(g));
            }
            MasterCommand::SetComment { text: c } => g.set_comment(c),
            MasterCommand::SetListed { listed } => g.set_listed(*listed),
            MasterCommand::SetJoinPassword { password: pw } => match pw {
                Some(pw) if !password::long_enough(pw) => {
                    return Err(Refusal::ShortPassword.into());
                }
                Some(pw) => {
                    let salt =
                        config.seed ^ tx.next_counter("salt")?.wrapping_mul(0x9E37_79B9_7F4A_7C15);
                    g.set_join_password(Some(password::hash(config.password_cost, pw, salt)));
                }
                None => g.set_join_password(None),
            },
            MasterCommand::SetInvite { addresses, invite } => {
                if *invite {
                    let fresh: Vec<String> =
                        g.new_invitees(addresses)?.into_iter().cloned().collect();
                    let mut invitations = Vec::new();
                    for a in fresh {
                        let code = confirm::secret_code(tx, config.seed, "invitations", &a)?;
                        self.mails.push(NewMail {
                            game: Some(g.name().to_string()),
                            // Someone outside the game (not yet a player).
                            audience: Audience::Reader(Reader::Observers),
                            recipient: a.clone(),
                            subject: text::invitation_subject(&config.name, g.name()),
                            body: text::invitation_text(g.name(), &config.address, &code),
                            kind: MailKind::Generated,
                            in_reply_to: None,
                            pictures: Vec::new(),
                        });
                        invitations.push(Invitation { address: a, code });
                    }
                    g.add_invitations(invitations);
                    more.push(text::invited_line(g));
                } else {
                    g.uninvite(addresses)?;
                }
            }
            MasterCommand::SetAnonymous { on } => g.set_anonymous(*on)?,
            MasterCommand::SetReveal { on } => g.set_reveal(*on)?,
            MasterCommand::SetAddresses { shown } => g.set_addresses_shown(*shown)?,
            MasterCommand::SetMaxAbsence { days } => g.set_max_absence(*days)?,
            MasterCommand::Promote { address } => {
                g.may_promote(address)?;
                let code = confirm::secret_code(tx, config.seed, "promotions", address)?;
                let salt =
                    config.seed ^ tx.next_counter("salt")?.wrapping_mul(0x9E37_79B9_7F4A_7C15);
                g.promote(Seat {
                    address: address.clone(),
                    password_hash: password::hash(config.password_cost, &code, salt),
                })?;
                self.mails.push(NewMail {
                    game: Some(g.name().to_string()),
                    audience: Audience::MASTER,
                    recipient: address.clone(),
                    subject: text::promoted_subject(&config.name, g.name()),
                    body: text::promoted_text(g.name(), &code),
                    kind: MailKind::Generated,
                    in_reply_to: None,
                    pictures: Vec::new(),
                });
                more.push(text::promoted_line(address, g.name()));
            }
            MasterCommand::Unstart => {
                g.may_unstart()?;
                let start = tx.load_snapshot(g.name(), Some(0), None)?;
                // The press held for the results goes now, to the players as they were.
                let postal: Vec<NewMail> = g
                    .postal()
                    .iter()
                    .flat_map(|(readers, subject, body)| {
                        mailing::mails_for(g, readers, subject, body, None)
                    })
                    .collect();
                g.unstart(map, start.map(|s| s.variant_state().clone()))?;
                self.mails.extend(postal);
                let subject = text::unstart_subject(&config.name, g.name());
                let body = text::unstart_text(g.name());
                let mut readers: Vec<Reader> = vec![Reader::Master];
                if g.settings().press.watch != ObserverLevel::None {
                    readers.push(Reader::Observers);
                }
                self.mails
                    .extend(mailing::mails_for(g, &readers, &subject, &body, None));
                for j in g.joiners() {
                    self.mails.push(NewMail {
                        game: Some(g.name().to_string()),
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
                let (ending, declared) = g.declared_ending(map, variant, d)?;
                let mails = process::finish_declared(config, tx, g, ending, Some(&declared), now)?;
                self.mails.extend(mails);
            }
        }
        Ok(more)
    }

    /// Ends the game when its players agreed a draw or a concession (the powers someone
    /// plays vote: [`game::Game::agreed_ending`]).
    pub(super) fn check_end(&mut self) -> Result<(), crate::store::StoreError> {
        let (map, config, tx, now) = (self.map, self.config, self.tx, self.now);
        let (Some(g), Some(variant)) = (self.game.as_mut(), self.variant) else {
            return Ok(());
        };
        if let Some(e) = g.agreed_ending(map, variant) {
            // An error rolls the whole mail back: a game is never finished without its
            // "Game over" mail.
            let mails = process::finish(config, tx, g, e, now)?;
            self.mails.extend(mails);
        }
        Ok(())
    }
}
