//! One incoming message, line by line: who is speaking (SIGNON), each command applied to
//! the game, and the reply that lists every line as `OK ...` or `ERROR ...`.

use chrono::{DateTime, Utc};

use crate::command::{
    self, Command, LineResult, MasterCommand, ObserverSetting, ParseContext, PlayerCommand,
    PressSetting, SignonAs, Turn,
};
use crate::game::{self, Audience, Game, Joiner, ObserverLevel, PressLevel, Seat, Sender, Status};
use crate::map::{Map, Power};
use crate::rules::{self, PowerOrder, Standard};
use crate::store::{NewMail, StoreError, Tx};

use super::{Incoming, JudgeConfig, password, process, replies};

/// Who the message speaks as, after its SIGNON.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Who {
    Nobody,
    Power(Power),
    Master,
    Observer,
}

/// A refused command: a stable code and a sentence for the player.
pub(super) struct Refused {
    pub code: &'static str,
    pub sentence: String,
}

fn refuse<T>(code: &'static str, sentence: impl Into<String>) -> Result<T, Refused> {
    Err(Refused {
        code,
        sentence: sentence.into(),
    })
}

/// What a command produced for the reply: an echo for `OK`, or more lines after it.
pub(super) struct Done {
    echo: String,
    more: Vec<String>,
}

impl Done {
    fn ok(echo: impl Into<String>) -> Result<Done, Refused> {
        Ok(Done {
            echo: echo.into(),
            more: Vec::new(),
        })
    }
}

pub(super) struct Session<'a, 't> {
    map: &'static Map,
    config: &'a JudgeConfig,
    verified: &'a mut password::Verified,
    tx: &'a Tx<'t>,
    msg: &'a Incoming,
    now: DateTime<Utc>,
    who: Who,
    game: Option<Game>,
    dirty: bool,
    orders_changed: bool,
    reply: Vec<String>,
    mails: Vec<NewMail>,
    touched: Vec<String>,
    /// The registered address a SIGNON from elsewhere must be copied to.
    copy_to: Option<String>,
    /// How many command lines the message had.
    commands: usize,
}

/// After this many unreadable lines the rest of a message is not read (a mail of junk
/// gets a short answer, not an echo of itself).
const MAX_ERRORS: usize = 50;

const NO_SIGNON: &str = "sign on first: SIGNON <power initial><game> <password>";

impl<'a, 't> Session<'a, 't> {
    pub(super) fn new(
        map: &'static Map,
        config: &'a JudgeConfig,
        verified: &'a mut password::Verified,
        tx: &'a Tx<'t>,
        msg: &'a Incoming,
        now: DateTime<Utc>,
    ) -> Self {
        Session {
            map,
            config,
            verified,
            tx,
            msg,
            now,
            who: Who::Nobody,
            game: None,
            dirty: false,
            orders_changed: false,
            reply: Vec::new(),
            mails: Vec::new(),
            touched: Vec::new(),
            copy_to: None,
            commands: 0,
        }
    }

    pub(super) fn command_count(&self) -> usize {
        self.commands
    }

    /// Reads and applies every line.
    pub(super) fn run(&mut self) -> Result<(), StoreError> {
        let mut lines = command::parse_message(&self.msg.text, self.map);
        // A SIGNON to an active game decides how orders read (a move in a retreat phase is
        // a retreat): read the message again with that context.
        let signon_game = lines.iter().find_map(|l| match &l.outcome {
            Ok(Command::Player(PlayerCommand::Signon { game, .. })) => Some(game.to_string()),
            _ => None,
        });
        if let Some(name) = signon_game
            && let Some(g) = self.tx.load_game(&name)?
            && g.status != Status::Forming
        {
            let cx = ParseContext {
                phase: Some(g.position.phase.kind),
                ballots_in_press: false,
            };
            lines = command::parse_message_with(&self.msg.text, self.map, &cx);
        }
        self.commands = lines.len();
        if lines.is_empty() {
            self.reply.push(
                "No commands found in your message. Send HELP for the list of commands.".into(),
            );
        }
        let mut errors = 0;
        for (i, line) in lines.iter().enumerate() {
            if line.outcome.is_err() {
                errors += 1;
            }
            if errors > MAX_ERRORS {
                self.reply.push(format!(
                    "Too many lines could not be read; the judge stopped at line {} and ignored the {} command lines after it.",
                    line.line,
                    lines.len() - i
                ));
                break;
            }
            self.line(line)?;
        }
        // A forming game that is full starts once the whole message is read, so that the
        // last joiner's SET PREFERENCE counts.
        if let Some(g) = self.game.as_mut()
            && g.status == Status::Forming
            && g.joiners.len() == 7
        {
            let mails = process::start_game(self.map, self.config, self.tx, g, self.now)?;
            self.mails.extend(mails);
            self.dirty = true;
            self.reply.push(format!(
                "{} starts now; the powers are assigned (see the announcement).",
                g.name
            ));
        }
        if self.msg.size_capped {
            self.reply.push(
                "NOTE: your message was longer than this judge reads; only its beginning was read."
                    .into(),
            );
        }
        Ok(())
    }

    fn line(&mut self, line: &LineResult) -> Result<(), StoreError> {
        let cmd = match &line.outcome {
            Err(_) => {
                self.reply.push(line.reply(self.map));
                return Ok(());
            }
            Ok(c) => c.clone(),
        };
        let outcome = self.apply(&cmd)?;
        // Later lines (LIST, a second command) read the game from the database: keep it
        // current within the transaction.
        if self.dirty
            && let Some(g) = self.game.as_ref()
        {
            self.tx.save_game(g)?;
        }
        match outcome {
            Ok(done) => {
                self.reply.push(format!("OK {}", done.echo));
                self.reply.extend(done.more);
            }
            Err(r) => self.reply.push(format!(
                "ERROR {}: line {}: \"{}\": {}",
                r.code,
                line.line,
                mask_password(&line.text),
                r.sentence
            )),
        }
        Ok(())
    }

    fn game_mut(&mut self) -> Result<&mut Game, Refused> {
        match self.game.as_mut() {
            Some(g) => Ok(g),
            None => refuse("NOT-SIGNED-ON", NO_SIGNON),
        }
    }

    fn apply(&mut self, cmd: &Command) -> Result<Result<Done, Refused>, StoreError> {
        Ok(match cmd {
            Command::Player(p) => self.player(p)?,
            Command::Master(m) => self.master(m)?,
            Command::Order(o) => self.order(o.order),
            Command::Press(p) => self.press(p),
            Command::Variant(_) => refuse(
                "NOT-IN-VARIANT",
                "this game is played with the standard rules, which have no such command",
            ),
        })
    }

    // ---- player commands -------------------------------------------------------------

    fn player(&mut self, cmd: &PlayerCommand) -> Result<Result<Done, Refused>, StoreError> {
        let tx = self.tx;
        Ok(match cmd {
            PlayerCommand::Help => Ok(Done {
                echo: "HELP".into(),
                more: replies::help_text().lines().map(str::to_string).collect(),
            }),
            PlayerCommand::Version => {
                Done::ok(format!("VERSION: dipjudge {}", env!("CARGO_PKG_VERSION")))
            }
            PlayerCommand::List { game: None } => {
                let mut more = vec!["Games on this judge:".to_string()];
                for name in tx.game_names()? {
                    if let Some(g) = tx.load_game(&name)? {
                        more.push(replies::list_line(&g));
                    }
                }
                Ok(Done {
                    echo: "LIST".into(),
                    more,
                })
            }
            PlayerCommand::List { game: Some(name) } => match tx.load_game(name.as_str())? {
                Some(g) => Ok(Done {
                    echo: format!("LIST {}", g.name),
                    more: replies::list_game(self.map, &g)
                        .lines()
                        .map(str::to_string)
                        .collect(),
                }),
                None => refuse("NO-GAME", format!("there is no game called {name}")),
            },
            PlayerCommand::ListFull => {
                let mut more = Vec::new();
                for name in tx.game_names()? {
                    if let Some(g) = tx.load_game(&name)? {
                        more.extend(replies::list_game(self.map, &g).lines().map(str::to_string));
                        more.push(String::new());
                    }
                }
                Ok(Done {
                    echo: "LIST FULL".into(),
                    more,
                })
            }
            PlayerCommand::Summary { game } => match tx.load_game(game.as_str())? {
                Some(g) => Ok(Done {
                    echo: format!("SUMMARY {}", g.name),
                    more: replies::summary(self.map, &g)
                        .lines()
                        .map(str::to_string)
                        .collect(),
                }),
                None => refuse("NO-GAME", format!("there is no game called {game}")),
            },
            PlayerCommand::History { game, lines, .. } => match tx.load_game(game.as_str())? {
                Some(g) => {
                    let mut more = Vec::new();
                    for h in tx.history(&g.name)? {
                        more.push(format!("==== {} ({})", h.subject, h.phase));
                        more.extend(h.body.lines().map(str::to_string));
                    }
                    if let Some(n) = lines {
                        let n = *n as usize;
                        if more.len() > n {
                            more = more.split_off(more.len() - n);
                        }
                    }
                    Ok(Done {
                        echo: format!("HISTORY {}", g.name),
                        more,
                    })
                }
                None => refuse("NO-GAME", format!("there is no game called {game}")),
            },
            PlayerCommand::Create {
                game,
                password: pw,
                variant,
                options,
            } => self.create(game.as_str(), pw, variant.as_deref(), options)?,
            PlayerCommand::Signon {
                who,
                game,
                password: pw,
            } => self.signon(*who, game.as_str(), pw)?,
            PlayerCommand::Observe { game, .. } => self.observe(game.as_str())?,
            PlayerCommand::SetPassword { password: pw } => {
                let hash = password::hash(self.config.password_cost, pw, self.salt()?);
                match self.seat_mut() {
                    Ok(seat) => {
                        seat.password_hash = hash;
                        self.dirty = true;
                        Done::ok("SET PASSWORD (the new password is not shown)")
                    }
                    Err(e) => Err(e),
                }
            }
            PlayerCommand::SetAddress { address } => match self.seat_mut() {
                Ok(seat) => {
                    seat.address = address.clone();
                    self.dirty = true;
                    Done::ok(format!("SET ADDRESS {address}"))
                }
                Err(e) => Err(e),
            },
            PlayerCommand::SetWait | PlayerCommand::SetNoWait => {
                let wait = matches!(cmd, PlayerCommand::SetWait);
                self.with_player(|p| p.wait = wait).map(|_| Done {
                    echo: if wait { "SET WAIT" } else { "SET NOWAIT" }.into(),
                    more: Vec::new(),
                })
            }
            PlayerCommand::SetDraw { powers } => {
                let powers = powers.clone();
                let echo = if powers.is_empty() {
                    "SET DRAW".to_string()
                } else {
                    format!("SET DRAW {}", game::list_powers(&powers))
                };
                match self.with_player(|p| p.draw = Some(powers)) {
                    Ok(()) => {
                        self.check_end();
                        Done::ok(echo)
                    }
                    Err(e) => Err(e),
                }
            }
            PlayerCommand::SetNoDraw => self.with_player(|p| p.draw = None).map(|_| Done {
                echo: "SET NODRAW".into(),
                more: Vec::new(),
            }),
            PlayerCommand::SetConcede { to } => {
                let to = *to;
                match self.with_player(|p| p.concede = Some(to)) {
                    Ok(()) => {
                        self.check_end();
                        Done::ok(format!("SET CONCEDE {to}"))
                    }
                    Err(e) => Err(e),
                }
            }
            PlayerCommand::SetPreference { powers } => self.preference(powers),
            PlayerCommand::SetAbsence { from, to } => self.absence(*from, *to),
            PlayerCommand::Resign => match (self.who, self.game.as_mut()) {
                (Who::Power(p), Some(g)) => {
                    if let Some(pl) = g.player_mut(p) {
                        pl.resigned = true;
                        pl.abandoned = true;
                    }
                    let (name, master) = (g.name.clone(), g.master.address.clone());
                    self.dirty = true;
                    self.mails.push(NewMail {
                        game: Some(name.clone()),
                        audience: "master".into(),
                        recipient: master,
                        subject: format!("{}:{name} - {p} resigned", self.config.name),
                        body: format!("The player of {p} resigned from '{name}'. The power is open for takeover.\n"),
                        kind: "generated",
                        in_reply_to: None,
                    });
                    Done::ok("RESIGN")
                }
                _ => refuse("NOT-SIGNED-ON", NO_SIGNON),
            },
            PlayerCommand::Signoff => Done::ok("SIGNOFF"),
            PlayerCommand::Clear => match (self.who, self.game.as_mut()) {
                (Who::Power(p), Some(g)) => {
                    g.clear_orders(p);
                    g.all_in_since = None;
                    self.dirty = true;
                    self.orders_changed = true;
                    Done::ok("CLEAR")
                }
                _ => refuse("NOT-SIGNED-ON", NO_SIGNON),
            },
        })
    }

    fn salt(&self) -> Result<u64, StoreError> {
        Ok(self.config.seed
            ^ self
                .tx
                .next_counter("salt")?
                .wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }

    fn seat_mut(&mut self) -> Result<&mut Seat, Refused> {
        let who = self.who;
        let g = self.game_mut()?;
        match who {
            Who::Power(p) => match g.player_mut(p) {
                Some(pl) => Ok(&mut pl.seat),
                None => refuse("NOT-SIGNED-ON", NO_SIGNON),
            },
            Who::Master => Ok(&mut g.master),
            _ => refuse("NOT-SIGNED-ON", NO_SIGNON),
        }
    }

    fn with_player(&mut self, f: impl FnOnce(&mut game::Player)) -> Result<(), Refused> {
        let Who::Power(p) = self.who else {
            return refuse("NOT-SIGNED-ON", NO_SIGNON);
        };
        let g = self.game_mut()?;
        match g.player_mut(p) {
            Some(pl) => {
                f(pl);
                self.dirty = true;
                Ok(())
            }
            None => refuse("NOT-SIGNED-ON", NO_SIGNON),
        }
    }

    fn create(
        &mut self,
        name: &str,
        pw: &str,
        variant: Option<&str>,
        options: &[String],
    ) -> Result<Result<Done, Refused>, StoreError> {
        if self.tx.load_game(name)?.is_some() {
            return Ok(refuse(
                "GAME-EXISTS",
                format!("a game called {name} already exists"),
            ));
        }
        let variant = variant.unwrap_or("standard");
        if !variant.eq_ignore_ascii_case("standard") {
            return Ok(refuse(
                "NO-VARIANT",
                format!(
                    "this judge does not run the {variant} variant yet; the standard game is available"
                ),
            ));
        }
        let seat = Seat {
            address: self.msg.reply_address().to_string(),
            password_hash: password::hash(self.config.password_cost, pw, self.salt()?),
        };
        let seed = self.config.seed ^ fnv(name);
        let mut g = Game::new(name, &crate::variant::Standard, seat, seed, self.map);
        g.settings.deadlines = self.config.deadlines.clone();
        g.settings.time_zone = self.config.time_zone.clone();
        for o in options {
            if let Err(r) = apply_option(&mut g.settings, o) {
                return Ok(Err(r));
            }
        }
        self.tx.save_game(&g)?;
        self.touched.push(g.name.clone());
        self.game = Some(g);
        self.who = Who::Master;
        Ok(Done::ok(format!(
            "CREATE ?{name} (you are its master; players join with SIGNON ?{name} <password>)"
        )))
    }

    fn signon(
        &mut self,
        who: SignonAs,
        name: &str,
        pw: &str,
    ) -> Result<Result<Done, Refused>, StoreError> {
        if self.who != Who::Nobody {
            return Ok(refuse("TWO-SIGNONS", "only one SIGNON per message"));
        }
        // One answer for a missing game and a wrong password: no hint which it was.
        let wrong = || refuse("BAD-SIGNON", "no such game, or a wrong password");
        let Some(mut g) = self.tx.load_game(name)? else {
            return Ok(wrong());
        };
        let from = self.msg.reply_address().to_string();
        match who {
            SignonAs::Join => {
                if g.status != Status::Forming {
                    return Ok(refuse(
                        "NOT-FORMING",
                        format!("{} is not taking new players", g.name),
                    ));
                }
                if g.joiners
                    .iter()
                    .any(|j| j.seat.address.eq_ignore_ascii_case(&from))
                {
                    return Ok(refuse(
                        "ALREADY-JOINED",
                        format!("{from} has already joined {}", g.name),
                    ));
                }
                g.joiners.push(Joiner {
                    seat: Seat {
                        address: from,
                        password_hash: password::hash(self.config.password_cost, pw, self.salt()?),
                    },
                    preferences: Vec::new(),
                });
                let count = g.joiners.len();
                let gname = g.name.clone();
                let mut more = vec![format!("{count} of 7 players have joined {gname}.")];
                if count == 7 {
                    more.push(format!(
                        "{gname} is full: it starts when this message has been read."
                    ));
                }
                self.touched.push(gname.clone());
                self.game = Some(g);
                self.dirty = true;
                Ok(Ok(Done {
                    echo: format!("SIGNON ?{gname}"),
                    more,
                }))
            }
            SignonAs::Power(p) => {
                let Some(pl) = g.player(p) else {
                    return Ok(wrong());
                };
                if !self.verified.verify(&pl.seat.password_hash, pw) {
                    return Ok(wrong());
                }
                if !pl.seat.address.eq_ignore_ascii_case(&from) {
                    self.copy_to = Some(pl.seat.address.clone());
                }
                self.who = Who::Power(p);
                let echo = format!("SIGNON {}{} ({p})", p.initial(), g.name);
                self.touched.push(g.name.clone());
                self.game = Some(g);
                Ok(Done::ok(echo))
            }
            SignonAs::Master => {
                if !self.verified.verify(&g.master.password_hash, pw) {
                    return Ok(wrong());
                }
                self.who = Who::Master;
                let echo = format!("SIGNON M{} (master)", g.name);
                self.touched.push(g.name.clone());
                self.game = Some(g);
                Ok(Done::ok(echo))
            }
            SignonAs::Observer => self.observe(name),
        }
    }

    fn observe(&mut self, name: &str) -> Result<Result<Done, Refused>, StoreError> {
        let Some(mut g) = self.tx.load_game(name)? else {
            return Ok(refuse("BAD-SIGNON", "no such game, or a wrong password"));
        };
        if g.settings.press.observers == ObserverLevel::None {
            return Ok(refuse(
                "NO-OBSERVERS",
                format!("{} takes no observers", g.name),
            ));
        }
        let from = self.msg.reply_address().to_string();
        if !g.observers.iter().any(|o| o.eq_ignore_ascii_case(&from)) {
            g.observers.push(from);
            self.dirty = true;
        }
        self.who = Who::Observer;
        let echo = format!(
            "OBSERVE {} (you will receive its results and public press)",
            g.name
        );
        self.touched.push(g.name.clone());
        self.game = Some(g);
        Ok(Done::ok(echo))
    }

    fn preference(&mut self, powers: &[Power]) -> Result<Done, Refused> {
        let from = self.msg.reply_address().to_string();
        let g = self.game_mut()?;
        match g
            .joiners
            .iter_mut()
            .find(|j| j.seat.address.eq_ignore_ascii_case(&from))
        {
            Some(j) => {
                j.preferences = powers.to_vec();
                self.dirty = true;
                Done::ok(format!(
                    "SET PREFERENCE {}",
                    powers
                        .iter()
                        .map(|p| p.name())
                        .collect::<Vec<_>>()
                        .join(" ")
                ))
            }
            None => refuse(
                "NOT-JOINED",
                "preferences are for players waiting in a forming game",
            ),
        }
    }

    fn absence(&mut self, from: command::Date, to: Option<command::Date>) -> Result<Done, Refused> {
        let Who::Power(p) = self.who else {
            return refuse("NOT-SIGNED-ON", NO_SIGNON);
        };
        let now = self.now;
        let judge = self.config.name.clone();
        let g = self.game_mut()?;
        let tz = game_tz(g);
        let (Some(start), end) = (
            resolve_date(from, &tz, now),
            to.and_then(|d| resolve_date(d, &tz, now)),
        ) else {
            return refuse(
                "BAD-DATE",
                "that date cannot be placed in the game's calendar",
            );
        };
        let end = end.unwrap_or(start + chrono::Duration::days(1));
        let limit = now + chrono::Duration::days(g.settings.deadlines.max_absence_days);
        if end > limit || end < start {
            return refuse(
                "ABSENCE-TOO-LONG",
                format!(
                    "an absence may end at most {} days from now",
                    g.settings.deadlines.max_absence_days
                ),
            );
        }
        let mut moved = None;
        if let Some(d) = g.deadline
            && d >= start
            && d < end
        {
            g.deadline = Some(end);
            moved = Some(end);
        }
        let mut mails = Vec::new();
        if let Some(d) = moved {
            let text = format!(
                "{p} will be absent; the deadline of {} moves to {}.\n",
                g.position.phase,
                format_time(g, d)
            );
            let subject = format!("{judge}:{} - Deadline moved", g.name);
            mails = process::everyone(g, &subject, &text, None);
        }
        self.dirty = true;
        self.mails.extend(mails);
        Done::ok(format!(
            "SET ABSENCE {from}{}",
            to.map(|t| format!(" TO {t}")).unwrap_or_default()
        ))
    }

    // ---- orders ------------------------------------------------------------------------

    fn order(&mut self, order: rules::Order) -> Result<Done, Refused> {
        let Who::Power(power) = self.who else {
            return refuse(
                "NOT-SIGNED-ON",
                "sign on as a power before ordering: SIGNON <initial><game> <password>",
            );
        };
        let map = self.map;
        let fresh = !self.orders_changed;
        let g = self.game_mut()?;
        if g.status != Status::Active {
            return refuse(
                "NOT-ACTIVE",
                format!("{} is not running (no orders are taken now)", g.name),
            );
        }
        let po = PowerOrder::new(power, order);
        let standing: Vec<PowerOrder> = g.standing_for(power, fresh).to_vec();
        let verdict = rules::check_orders(map, &Standard, &g.position, &standing, &[po]);
        if let Some(Some(refusal)) = verdict.first() {
            return refuse(refusal.code(), refusal.to_string());
        }
        g.take_order(power, po, fresh);
        self.dirty = true;
        self.orders_changed = true;
        Done::ok(po.order.display(map))
    }

    // ---- press -------------------------------------------------------------------------

    fn press(&mut self, p: &command::Press) -> Result<Done, Refused> {
        let sender = match self.who {
            Who::Power(pw) => Sender::Power(pw),
            Who::Master => Sender::Master,
            _ => {
                return refuse(
                    "NOT-SIGNED-ON",
                    "sign on as a power or as the master before sending press",
                );
            }
        };
        let judge = self.config.name.clone();
        let map = self.map;
        let now_phase;
        let route;
        {
            let g = self.game_mut()?;
            now_phase = g.position.phase;
            route = match game::press_route(g, map, &crate::variant::Standard, sender, &p.header) {
                Ok(r) => r,
                Err(e) => return refuse(e.code(), e.to_string()),
            };
        }
        let g = self.game_mut()?;
        let from_name = match sender {
            Sender::Power(pw) if route.signed => pw.name().to_string(),
            Sender::Master => "the Master".to_string(),
            Sender::Power(_) => "someone".to_string(),
        };
        let to_text = if route.public {
            "everyone".to_string()
        } else {
            route
                .named
                .iter()
                .map(|a| match a {
                    Audience::Power(p) => p.name().to_string(),
                    Audience::Master => "the Master".to_string(),
                    Audience::Observers => "observers".to_string(),
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let kind = if route.public { "Broadcast" } else { "Press" };
        let subject = match &p.header.subject {
            Some(s) if p.header.kind == command::PressKind::Official => {
                format!("{judge}:{} - {s}", g.name)
            }
            _ => format!("{judge}:{} - {now_phase} {kind} from {from_name}", g.name),
        };
        let mut body = format!("Message from {from_name} to {to_text}:\n\n");
        for l in &p.body {
            body.push_str(l);
            body.push('\n');
        }
        let readers = route.readers.clone();
        if p.header.postal {
            g.postal.push((readers, subject, body));
            self.dirty = true;
            return Done::ok(format!("{} (held until the next results)", p.render()));
        }
        let mails = process::mails_for(g, &readers, &subject, &body, None);
        if route.public {
            let name = g.name.clone();
            if let Err(e) =
                self.tx
                    .add_history(&name, self.now, &now_phase.to_string(), &subject, &body)
            {
                tracing::error!(error = %e, "could not record press in history");
            }
        }
        self.mails.extend(mails);
        Done::ok(p.render())
    }

    // ---- master commands ---------------------------------------------------------------

    fn master(&mut self, cmd: &MasterCommand) -> Result<Result<Done, Refused>, StoreError> {
        if self.who != Who::Master {
            return Ok(refuse(
                "NOT-MASTER",
                "sign on as the master first: SIGNON M<game> <password>",
            ));
        }
        let (map, config, tx, now) = (self.map, self.config, self.tx, self.now);
        let Some(g) = self.game.as_mut() else {
            return Ok(refuse("NOT-SIGNED-ON", NO_SIGNON));
        };
        let echo = cmd.render();
        let mut more = Vec::new();
        match cmd {
            MasterCommand::Become { power } => {
                if g.player(*power).is_none() {
                    return Ok(refuse(
                        "NO-PLAYER",
                        format!("{power} has no player in {}", g.name),
                    ));
                }
                self.who = Who::Power(*power);
            }
            MasterCommand::Process { phase } => {
                if g.status != Status::Active {
                    return Ok(refuse("NOT-ACTIVE", format!("{} is not running", g.name)));
                }
                if let Some(ph) = phase
                    && *ph != g.position.phase
                {
                    return Ok(refuse(
                        "WRONG-PHASE",
                        format!("the current phase is {}, not {ph}", g.position.phase),
                    ));
                }
                if !g.all_in(map, &crate::variant::Standard) {
                    let missing = g.missing_powers(map, &crate::variant::Standard);
                    return Ok(refuse(
                        "ORDERS-MISSING",
                        format!(
                            "orders are missing from {} (or someone waits); PROCESS! processes now with civil-disorder defaults",
                            game::list_powers(&missing)
                        ),
                    ));
                }
                let mails = process::process_game(map, config, tx, g, now)?;
                self.mails.extend(mails);
            }
            MasterCommand::ProcessNow => {
                if g.status != Status::Active {
                    return Ok(refuse("NOT-ACTIVE", format!("{} is not running", g.name)));
                }
                let mails = process::process_game(map, config, tx, g, now)?;
                self.mails.extend(mails);
            }
            MasterCommand::Preview => {
                if g.status != Status::Active {
                    return Ok(refuse("NOT-ACTIVE", format!("{} is not running", g.name)));
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
                    return Ok(refuse("NOT-ACTIVE", format!("{} is not running", g.name)));
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
                    return Ok(refuse("NOT-PAUSED", format!("{} is not paused", g.name)));
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
                    return Ok(refuse(
                        "BAD-DATE",
                        "that date cannot be placed in the game's calendar",
                    ));
                };
                if d <= now {
                    return Ok(refuse(
                        "PAST-DATE",
                        "the new deadline must be in the future",
                    ));
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
                        return Ok(refuse(
                            "BAD-DATE",
                            "the grace period must end after the deadline",
                        ));
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
                if !name.eq_ignore_ascii_case("standard") {
                    return Ok(refuse(
                        "NO-VARIANT",
                        format!("this judge does not run the {name} variant yet"),
                    ));
                }
            }
            MasterCommand::Eject { power } => {
                let Some(pl) = g.player_mut(*power) else {
                    return Ok(refuse("NO-PLAYER", format!("{power} has no player")));
                };
                pl.abandoned = true;
                pl.resigned = true;
                more.push(format!("{power} is now open for takeover."));
            }
            MasterCommand::SetCentres { count } => {
                if *count == 0 || *count > 34 {
                    return Ok(refuse(
                        "BAD-NUMBER",
                        "the centres for victory must be between 1 and 34",
                    ));
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
                    return Ok(refuse(
                        "NO-SNAPSHOT",
                        "there is no saved phase to roll back to",
                    ));
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
                return Ok(refuse(
                    "NOT-SUPPORTED",
                    "this judge does not support that master command yet",
                ));
            }
        }
        self.dirty = true;
        Ok(Ok(Done { echo, more }))
    }

    fn check_end(&mut self) {
        let (config, tx, now) = (self.config, self.tx, self.now);
        let Some(g) = self.game.as_mut() else { return };
        let ending = g
            .agreed_draw()
            .map(game::Ending::Draw)
            .or_else(|| g.agreed_concession().map(game::Ending::Concession));
        if let Some(e) = ending {
            match process::finish(config, tx, g, e, now) {
                Ok(mails) => self.mails.extend(mails),
                Err(err) => tracing::error!(error = %err, "could not end the game"),
            }
        }
    }

    /// Saves the game, queues the reply and the other mails; returns how many were queued
    /// and the games touched.
    pub(super) fn finish(mut self) -> Result<(usize, Vec<String>), StoreError> {
        if let (Who::Power(p), Some(g)) = (self.who, self.game.as_ref())
            && self.orders_changed
        {
            self.reply.push(String::new());
            self.reply.push(format!(
                "Orders standing for {p} in {} ({}):",
                g.name, g.position.phase
            ));
            let mut standing: Vec<&PowerOrder> = g.orders_of(p).iter().collect();
            standing.sort_by_key(|o| o.order.unit().map(|u| u.province()));
            for o in standing {
                self.reply.push(format!("  {}", o.order.display(self.map)));
            }
            let missing = g.unordered_units(p);
            if g.position.phase.kind == rules::PhaseKind::Movement && !missing.is_empty() {
                let names: Vec<String> = missing
                    .iter()
                    .map(|u| {
                        format!(
                            "{} {}",
                            u.kind.map(|k| k.letter()).unwrap_or('?'),
                            self.map.display_location(u.location)
                        )
                    })
                    .collect();
                self.reply.push(format!(
                    "Units without orders (they will hold): {}",
                    names.join(", ")
                ));
            }
        }
        if let Some(g) = self.game.as_mut()
            && self.dirty
        {
            if g.status == Status::Active && g.all_in(self.map, &crate::variant::Standard) {
                if g.all_in_since.is_none() {
                    g.all_in_since = Some(self.now);
                }
            } else {
                g.all_in_since = None;
            }
            self.tx.save_game(g)?;
        }
        let game = self.game.as_ref().map(|g| g.name.clone());
        let subject = if self.msg.subject.trim().is_empty() {
            format!("{} reply", self.config.name)
        } else if self.msg.subject.to_ascii_lowercase().starts_with("re:") {
            self.msg.subject.clone()
        } else {
            format!("Re: {}", self.msg.subject)
        };
        let mut body = self.reply.join("\n");
        body.push('\n');
        let reply = NewMail {
            game: game.clone(),
            audience: "reply".into(),
            recipient: self.msg.reply_address().to_string(),
            subject: subject.clone(),
            body: body.clone(),
            kind: "replied",
            in_reply_to: self.msg.message_id.clone(),
        };
        let mut count = 0;
        self.tx.queue_mail(&reply, self.now)?;
        count += 1;
        if let Some(registered) = self.copy_to.take() {
            self.tx.queue_mail(
                &NewMail {
                    game: game.clone(),
                    audience: "signon-copy".into(),
                    recipient: registered,
                    subject: format!(
                        "{} (copy: signed on from {})",
                        subject,
                        self.msg.reply_address()
                    ),
                    body,
                    kind: "generated",
                    in_reply_to: None,
                },
                self.now,
            )?;
            count += 1;
        }
        for m in &self.mails {
            self.tx.queue_mail(m, self.now)?;
            count += 1;
        }
        self.touched.sort();
        self.touched.dedup();
        Ok((count, self.touched))
    }
}

/// A CREATE option: the press and deadline settings a master would otherwise SET.
fn apply_option(settings: &mut game::Settings, word: &str) -> Result<(), Refused> {
    let w: String = word
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '/')
        .collect::<String>()
        .to_ascii_lowercase();
    match w.as_str() {
        "nmr" => settings.nmr = true,
        "nonmr" => settings.nmr = false,
        "nopress" => settings.press.level = PressLevel::None,
        "white" => settings.press.level = PressLevel::White,
        "grey" | "gray" => settings.press.level = PressLevel::Grey,
        "whitegrey" | "white/grey" | "greywhite" | "grey/white" => {
            settings.press.level = PressLevel::WhiteGrey
        }
        "partial" => settings.press.partial = true,
        "nopartial" => settings.press.partial = false,
        "allpress" => settings.master_reads_all_press = true,
        "noobservers" => settings.press.observers = ObserverLevel::None,
        _ => {
            return refuse(
                "BAD-OPTION",
                format!(
                    "no game option called {word:?}; the options are NMR, NONMR, NOPRESS, WHITE, GREY, WHITEGREY, PARTIAL, NOPARTIAL, ALLPRESS, NOOBSERVERS"
                ),
            );
        }
    }
    Ok(())
}

/// A stable hash of a game name (its seed).
fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The game's time zone (UTC if the name is unknown).
pub(super) fn game_tz(g: &Game) -> chrono_tz::Tz {
    g.settings.time_zone.parse().unwrap_or(chrono_tz::UTC)
}

/// A deadline as players read it: `Mon Nov 23 2026 20:00 UTC`, in the game's zone.
pub(super) fn format_time(g: &Game, t: DateTime<Utc>) -> String {
    t.with_timezone(&game_tz(g))
        .format("%a %b %d %Y %H:%M %Z")
        .to_string()
}

/// Places a written date in the game's zone: a missing year is the next such date from
/// now; a missing time is 23:59.
pub(super) fn resolve_date(
    d: command::Date,
    tz: &chrono_tz::Tz,
    now: DateTime<Utc>,
) -> Option<DateTime<Utc>> {
    use chrono::{Datelike, NaiveDate, TimeZone};
    let (h, m) = d.time.unwrap_or((23, 59));
    let local_now = now.with_timezone(tz);
    let make = |y: i32| {
        NaiveDate::from_ymd_opt(y, u32::from(d.month), u32::from(d.day))
            .and_then(|nd| nd.and_hms_opt(u32::from(h), u32::from(m), 0))
            .and_then(|ndt| tz.from_local_datetime(&ndt).earliest())
            .map(|t| t.with_timezone(&Utc))
    };
    match d.year {
        Some(y) => make(i32::from(y)),
        None => {
            let this = make(local_now.year())?;
            if this >= now {
                Some(this)
            } else {
                make(local_now.year() + 1)
            }
        }
    }
}

/// Hides the password of a SIGNON, CREATE or SET PASSWORD line in an error echo.
fn mask_password(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
    let secret_at = match lower
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["signon", _, _, ..]
        | ["create", _, _, ..]
        | ["observe", _, _, ..]
        | ["watch", _, _, ..] => Some(2),
        ["sign", "on", _, _, ..] => Some(3),
        ["set", "password", _, ..] => Some(2),
        _ => None,
    };
    match secret_at {
        Some(i) => words
            .iter()
            .enumerate()
            .map(|(k, w)| if k == i { "********" } else { w })
            .collect::<Vec<_>>()
            .join(" "),
        None => text.to_string(),
    }
}
