//! A player's commands: HELP and the listings, CREATE, SIGNON and OBSERVE, and the settings
//! a player makes for their seat (password, address, wait, draw, concession, absence).

use crate::bulletin::settings as text;
use crate::bulletin::{answers, listing, notices};
use crate::command::{self, PlayerCommand, SignonAs};
use crate::game::{
    self, Abandonment, Game, ObserverLevel, PressLevel, Reader, Seat, SeatRef, SeatRefusal, Sender,
    Status,
};
use crate::map::Power;
use crate::store::{Audience, MailKind, NewMail, StoreError};
use crate::variant::Lookup;

use super::super::confirm::AddressRequest;
use super::super::history;
use super::super::refusal::{Refusal, SessionError};
use super::super::{chart, mailing, password, pictures, process, seats, throttle};
use super::{Done, Session, Verdict};
use crate::bulletin::dates::{format_time, zone as game_tz};

impl Session<'_, '_> {
    /// `MAP game [phase]`: the reply carries the picture of a processed phase, or of the
    /// board of the phase open now; each MAP line one picture, in order.
    fn map_reply(&mut self, g: &Game, phase: Option<crate::rules::Phase>) -> Verdict {
        let (phase, picture) = match process::picture_of(self.map, self.config, g, phase, self.now)?
        {
            process::PhasePicture::Open { phase, drawing } => {
                let r = pictures::keep_for_mails(self.tx, g.name(), &phase, &drawing)?;
                (phase, r)
            }
            process::PhasePicture::Processed { phase } => {
                if !pictures::has_phase(self.tx, g.name(), &phase)? {
                    return Err(Refusal::NoPicture {
                        game: g.name().to_string(),
                        phase,
                    }
                    .into());
                }
                let r = pictures::reference(g.name(), &phase);
                (phase, r)
            }
        };
        self.reply_pictures.push((g.name().to_string(), picture));
        Done::ok(answers::map(g.name(), &phase))
    }

    /// `MAP game ALL`: every processed phase of a finished game as one animated GIF.
    fn map_all_reply(&mut self, g: &Game) -> Verdict {
        if !matches!(g.status(), Status::Finished(_)) {
            return Err(Refusal::NotFinished(g.name().to_string()).into());
        }
        self.reply_pictures.push((
            g.name().to_string(),
            pictures::reference(g.name(), pictures::ALL),
        ));
        Done::ok(answers::map_all(g.name()))
    }

    pub(super) fn player(&mut self, cmd: &PlayerCommand) -> Verdict {
        let tx = self.tx;
        match cmd {
            // In a game, its rule set's commands follow the judge's.
            PlayerCommand::Help => Done::with_more("HELP", listing::help(self.variant)),
            PlayerCommand::Version => Done::ok(answers::version()),
            PlayerCommand::List { game: None } => {
                let mut more = vec![listing::LIST_HEADING.to_string()];
                for name in tx.game_names()? {
                    match tx.load_game(&name) {
                        // An unlisted game is listed to its players and master only.
                        Ok(Some(g)) if !self.lists(&g) => {}
                        Ok(Some(g)) => more.push(listing::list_line(&g)),
                        Ok(None) => {}
                        Err(StoreError::Suspended { game, reason }) => {
                            more.push(listing::suspended_list_line(&game, &reason));
                        }
                        Err(e) => return Err(e.into()),
                    }
                }
                Done::with_more("LIST", more)
            }
            PlayerCommand::List { game: Some(name) } => match tx.load_game(name.as_str())? {
                Some(g) => {
                    let variant = process::variant_of(self.config, &g)?;
                    // Observers' addresses are for the game's master alone.
                    let master = self.history_reader(&g) == Reader::Master;
                    let mut more = lines(&listing::list_game(self.map, variant, &g, master));
                    // The master also reads each player's reliability record (issue 31).
                    if master {
                        more.extend(self.records_for_master(&g)?);
                    }
                    Done::with_more(answers::list(g.name()), more)
                }
                None => Err(Refusal::NoGame(name.to_string()).into()),
            },
            PlayerCommand::ListFull => {
                let mut more = Vec::new();
                for name in tx.game_names()? {
                    match tx.load_game(&name) {
                        Ok(Some(g)) if !self.lists(&g) => continue,
                        Ok(Some(g)) => {
                            let variant = process::variant_of(self.config, &g)?;
                            let master = self.history_reader(&g) == Reader::Master;
                            more.extend(lines(&listing::list_game(self.map, variant, &g, master)));
                        }
                        Ok(None) => continue,
                        Err(StoreError::Suspended { game, reason }) => {
                            more.push(listing::suspended_full_line(&game, &reason));
                        }
                        Err(e) => return Err(e.into()),
                    }
                    more.push(String::new());
                }
                Done::with_more("LIST FULL", more)
            }
            PlayerCommand::SetMap { on } => self.address_request(AddressRequest::Map(*on)),
            // Players as people (issue 31): a profile and a link are settings of the
            // address, made once it proved itself.
            PlayerCommand::Register { fields, closed } => {
                self.address_request(AddressRequest::Register(fields.clone(), *closed))
            }
            PlayerCommand::AlsoAt { address } => {
                self.address_request(AddressRequest::AlsoAt(address.clone()))
            }
            PlayerCommand::Whois { who } => self.whois(who),
            PlayerCommand::Unobserve { game } => {
                self.address_request(AddressRequest::Unobserve(game.to_string()))
            }
            PlayerCommand::Confirm { code } => self.confirm(code),
            PlayerCommand::Map { game, phase } => match tx.load_game(game.as_str())? {
                Some(g) if !self.may_have_pictures(&g) => {
                    Err(Refusal::NoPictureForYou(g.name().to_string()).into())
                }
                Some(g) => self.map_reply(&g, *phase),
                None => Err(Refusal::NoGame(game.to_string()).into()),
            },
            PlayerCommand::MapAll { game } => match tx.load_game(game.as_str())? {
                Some(g) if !self.may_have_pictures(&g) => {
                    Err(Refusal::NoPictureForYou(g.name().to_string()).into())
                }
                Some(g) => self.map_all_reply(&g),
                None => Err(Refusal::NoGame(game.to_string()).into()),
            },
            PlayerCommand::Summary { game } => match tx.load_game(game.as_str())? {
                // A game under way or over has a centre chart: its year-by-year table is in
                // the summary, and its picture is attached to the reply of those who may
                // have its pictures (its players and master, signed on, and its observers).
                Some(g) => {
                    let master = self.history_reader(&g) == Reader::Master;
                    let chart = if *g.status() == Status::Forming {
                        None
                    } else {
                        Some(chart::centre_chart(tx, &g)?)
                    };
                    let attach = chart.is_some() && self.may_have_pictures(&g);
                    if attach {
                        let kept = pictures::keep_chart(tx, &g)?;
                        self.reply_pictures.push((g.name().to_string(), kept));
                    }
                    Done::with_more(
                        answers::summary(g.name(), attach),
                        lines(&listing::summary(self.map, &g, master, chart.as_ref())),
                    )
                }
                None => Err(Refusal::NoGame(game.to_string()).into()),
            },
            // The record goes as an attachment, drawn up when the reply is sent (as a
            // picture is), as an outsider may read it: only to those who may have the game's
            // pictures, so that a forged address cannot have it mailed to someone else.
            PlayerCommand::Export { game } => match tx.load_game(game.as_str())? {
                Some(g) if !self.may_have_pictures(&g) => {
                    Err(Refusal::NoExportForYou(g.name().to_string()).into())
                }
                Some(g) => {
                    self.reply_pictures.push((
                        g.name().to_string(),
                        pictures::reference(g.name(), pictures::EXPORT),
                    ));
                    Done::ok(answers::export(g.name()))
                }
                None => Err(Refusal::NoGame(game.to_string()).into()),
            },
            PlayerCommand::History {
                game,
                from,
                to,
                lines,
                exclude,
            } => match tx.load_game(game.as_str())? {
                Some(g) => {
                    let reader = self.history_reader(&g);
                    if reader == Reader::Observers
                        && g.settings().press.watch == ObserverLevel::None
                    {
                        return Err(Refusal::HistoryClosed(g.name().to_string()).into());
                    }
                    let tz = game_tz(&g);
                    let window = history::Window {
                        from: from.and_then(|d| history::history_time(&d, &tz, self.now, false)),
                        to: to.and_then(|d| history::history_time(&d, &tz, self.now, true)),
                        exclude: exclude.clone(),
                    };
                    let entries = history::for_reader(&g, reader, tx.history(g.name())?);
                    let entries = history::select(entries, &window);
                    let limit = lines.map_or(listing::HISTORY_LINES, |n| n as usize);
                    let more = listing::history_upto(&g, &entries, limit);
                    Done::with_more(answers::history(cmd), more)
                }
                None => Err(Refusal::NoGame(game.to_string()).into()),
            },
            PlayerCommand::Create {
                game,
                password: pw,
                variant,
                options,
            } => self.create(game.as_str(), pw, variant.as_deref(), options),
            PlayerCommand::Signon {
                who,
                game,
                password: pw,
                code,
            } => self.signon(*who, game.as_str(), pw, code.as_deref()),
            PlayerCommand::Observe { game, .. } => {
                self.address_request(AddressRequest::Observe(game.to_string()))
            }
            PlayerCommand::SetPassword { password: pw } if !password::long_enough(pw) => {
                Err(Refusal::ShortPassword.into())
            }
            PlayerCommand::SetPassword { password: pw } => {
                let hash = password::hash(self.config.password_cost, pw, self.salt()?);
                let seat = self.seat_ref()?;
                self.game_mut()?.set_seat_password(seat, &hash)?;
                Done::ok(answers::SET_PASSWORD)
            }
            PlayerCommand::SetAddress { address } => {
                let seat = self.seat_ref()?;
                if self.game_mut()?.set_seat_address(seat, address)? {
                    self.tell_new_address(address);
                }
                Done::ok(answers::set_address(address))
            }
            PlayerCommand::SetWait | PlayerCommand::SetNoWait => {
                let wait = matches!(cmd, PlayerCommand::SetWait);
                let p = self.signed_power()?;
                self.game_mut()?.set_wait(p, wait)?;
                Ok(Done::new(answers::set_wait(wait)))
            }
            PlayerCommand::SetDraw { powers } => self.draw_vote(powers),
            PlayerCommand::SetNoDraw => {
                let p = self.signed_power()?;
                let had = self.game_mut()?.withdraw_draw(p)?;
                Ok(Done::new(text::nodraw_echo(had)))
            }
            PlayerCommand::SetConcede { to } => self.concede(*to),
            PlayerCommand::SetNoConcede => {
                let p = self.signed_power()?;
                let had = self.game_mut()?.withdraw_concession(p)?;
                Ok(Done::new(text::noconcede_echo(had)))
            }
            PlayerCommand::SetPreference { powers } => self.preference(powers),
            PlayerCommand::SetAbsence { from, to } => self.absence(*from, *to),
            PlayerCommand::SetNoAbsence { date } => self.no_absence(*date),
            PlayerCommand::Resign => self.resign(),
            PlayerCommand::Signoff => Done::ok("SIGNOFF"),
            PlayerCommand::Clear => match (self.who, self.game.as_mut()) {
                (Some(Sender::Power(p)), Some(g)) => {
                    // A duplex player's CLEAR clears the orders of every power they hold.
                    g.clear_orders_of(p);
                    Done::ok("CLEAR")
                }
                _ => Err(Refusal::NotSignedOn.into()),
            },
        }
    }

    /// Whether `LIST` shows `g` to this mail: a listed game to anyone, an unlisted one to
    /// its players and master signed on.
    fn lists(&self, g: &Game) -> bool {
        g.settings().listed || self.history_reader(g) != Reader::Observers
    }

    /// The power the mail signed on as (a seat's setting, a vote, RESIGN).
    fn signed_power(&self) -> Result<Power, Refusal> {
        match (self.who, self.game.as_ref()) {
            (Some(Sender::Power(p)), Some(_)) => Ok(p),
            _ => Err(Refusal::NotSignedOn),
        }
    }

    /// The seat the mail signed on as (`SET PASSWORD`, `SET ADDRESS`).
    fn seat_ref(&self) -> Result<SeatRef, Refusal> {
        match self.who {
            Some(Sender::Power(p)) => Ok(SeatRef::Power(p)),
            Some(Sender::Master) => Ok(SeatRef::Master(self.master_seat)),
            None => Err(Refusal::NotSignedOn),
        }
    }

    /// `SET DRAW [powers]`: a vote for the draw among every power still in the game, named
    /// in the reply (in a duplex game one vote a player); a list must be exactly those
    /// powers (the judge's draws include all survivors).
    fn draw_vote(&mut self, asked: &[Power]) -> Verdict {
        let (signed, map) = (self.signed_power()?, self.map);
        let (Some(g), Some(variant)) = (self.game.as_mut(), self.variant) else {
            return Err(Refusal::NotSignedOn.into());
        };
        let powers = g.vote_draw(map, variant, signed, asked)?;
        self.check_end()?;
        Done::ok(text::draw_vote_echo(&powers))
    }

    /// `SET CONCEDE power`: the reply names who else must concede.
    fn concede(&mut self, to: Power) -> Verdict {
        let (signed, map) = (self.signed_power()?, self.map);
        let (Some(g), Some(variant)) = (self.game.as_mut(), self.variant) else {
            return Err(Refusal::NotSignedOn.into());
        };
        let others = g.concede(map, variant, signed, to)?;
        self.check_end()?;
        Done::ok(text::concede_echo(to, &others))
    }

    /// Whether this mail may have a picture of `g` (`MAP`): it signed on as one of the
    /// game's powers or its master, or comes from one of its observers. A picture is large:
    /// a stranger's small mail must not draw one to any address it names.
    fn may_have_pictures(&self, g: &Game) -> bool {
        let address = self.msg.reply_address();
        self.history_reader(g) != Reader::Observers
            || g.observers()
                .iter()
                .any(|o| o.eq_ignore_ascii_case(address))
    }

    /// Who reads a game's history in this mail: the power or master it signed on as in
    /// that game, else an outsider (an address proves nothing).
    fn history_reader(&self, g: &Game) -> Reader {
        let same = self.game.as_ref().is_some_and(|cur| cur.name() == g.name());
        match self.who {
            Some(Sender::Power(p)) if same => Reader::Power(p),
            Some(Sender::Master) if same => Reader::Master,
            _ => Reader::Observers,
        }
    }

    /// `RESIGN`: the player leaves; the power is abandoned and open for takeover, everyone
    /// is told (unless the game is quiet), and the rest of the mail is not signed on. In a
    /// duplex game the player resigns every power they hold (njudge).
    fn resign(&mut self) -> Verdict {
        let config = self.config;
        let (Some(Sender::Power(p)), Some(g)) = (self.who, self.game.as_mut()) else {
            return Err(Refusal::NotSignedOn.into());
        };
        let left = g.resign(p)?;
        let mut lines = Vec::new();
        for (q, address) in &left {
            let why = Abandonment::Resigned;
            let mails = seats::abandoned_mails(config, g, *q, why, address, false);
            self.mails.extend(mails);
            lines.push(crate::bulletin::seats::left_line(g, *q, why));
        }
        // What follows the RESIGN no longer speaks for the power (njudge: RESIGN comes last).
        self.who = None;
        self.check_end()?;
        Done::with_more("RESIGN", lines)
    }

    /// Tells an address that it now receives a seat's mail (`SET ADDRESS`): a mistyped
    /// address learns why the judge writes to it, and a player learns at once whether the
    /// new address takes mail.
    fn tell_new_address(&mut self, address: &str) {
        let Some(g) = self.game.as_ref() else {
            return;
        };
        let seat = self.who.unwrap_or(Sender::Master);
        let audience = match seat {
            Sender::Power(p) => Audience::power(p),
            Sender::Master => Audience::MASTER,
        };
        let n = notices::address_set(&self.config.name, g, seat);
        self.mails.push(NewMail {
            game: Some(g.name().to_string()),
            audience,
            recipient: address.to_string(),
            subject: n.subject,
            body: n.body,
            kind: MailKind::Generated,
            in_reply_to: None,
            pictures: Vec::new(),
        });
    }

    fn create(
        &mut self,
        name: &str,
        pw: &str,
        variant: Option<&str>,
        options: &[String],
    ) -> Verdict {
        if self.tx.load_game(name)?.is_some() {
            return Err(Refusal::GameExists(name.to_string()).into());
        }
        if !password::long_enough(pw) {
            return Err(Refusal::ShortPassword.into());
        }
        let address = self.msg.reply_address().to_string();
        let day = chrono::Duration::hours(24);
        let limit = self.config.games_per_day;
        if self.tx.creations_since(&address, self.now - day)? >= limit as usize {
            return Err(Refusal::TooManyGames(limit).into());
        }
        // `CREATE ?game pw anonymous`: the first word is an option when it names no rule set.
        let mut options: Vec<String> = options.to_vec();
        let variant = match variant {
            None => self.config.variants.standard(),
            Some(v) => match find_variant(self.config, v) {
                Ok(v) => v,
                Err(r) => {
                    if apply_option(&mut game::Settings::default(), v).is_ok() {
                        options.insert(0, v.to_string());
                        self.config.variants.standard()
                    } else {
                        return Err(r.into());
                    }
                }
            },
        };
        let seat = Seat {
            address: self.msg.reply_address().to_string(),
            password_hash: password::hash(self.config.password_cost, pw, self.salt()?),
        };
        let mut settings = game::Settings {
            deadlines: self.config.deadlines.clone(),
            time_zone: self.config.time_zone.clone(),
            ..game::Settings::default()
        };
        let mut state = variant.new_state();
        for o in &options {
            match o.split_once('=') {
                Some((key, value)) => variant
                    .apply_setting(&mut state, key.trim(), value.trim())
                    .map_err(Refusal::BadSetting)?,
                None => apply_option(&mut settings, o)?,
            }
        }
        let g = Game::create(
            variant,
            self.map,
            game::NewGame {
                name,
                master: seat,
                master_name: self.msg.from_name.as_deref(),
                seed: self.config.seed ^ game_seed(name),
                settings,
                state,
                now: self.now,
            },
        );
        self.tx.save_game(&g)?;
        self.tx
            .record_creation(&address, self.now, self.now - day)?;
        self.enter_game(g)?;
        self.who = Some(Sender::Master);
        let rules =
            (variant.name() != self.config.variants.standard().name()).then(|| variant.name());
        Done::ok(answers::create(name, rules))
    }

    fn signon(&mut self, who: SignonAs, name: &str, pw: &str, code: Option<&str>) -> Verdict {
        if self.who.is_some() || self.observer {
            return Err(Refusal::TwoSignons.into());
        }
        let Some(mut g) = self.tx.load_game(name)? else {
            return Err(Refusal::BadSignon.into());
        };
        let from = self.msg.reply_address().to_string();
        let from_name = self.msg.from_name.clone();
        match who {
            SignonAs::Join => {
                g.may_join(&from)?;
                // The master's entry gates (SET DEDICATION, ONTIMERAT, RESRAT).
                self.passes_gates(&g)?;
                if !password::long_enough(pw) {
                    return Err(Refusal::ShortPassword.into());
                }
                // A private game: its join password, or an invitation's code (used once).
                // Wrong codes are throttled like a seat's passwords: the game's joining
                // checks at most 10 an hour, so neither can be guessed by mail.
                let mut invitation = None;
                if g.is_private() {
                    if code.is_some()
                        && let Some(until) = throttle::locked_until(
                            self.tx,
                            &throttle::join_key(g.name()),
                            Sender::Master,
                            self.now,
                        )?
                    {
                        throttle::refused(
                            self.tx,
                            &throttle::join_key(g.name()),
                            Sender::Master,
                            self.now,
                        )?;
                        return Err(Refusal::JoinLocked {
                            until: format_time(&g, until),
                        }
                        .into());
                    }
                    let by_invitation = code.and_then(|c| g.invitation(c)).cloned();
                    let by_password = match (code, g.settings().join_password.as_deref()) {
                        (Some(c), Some(hash)) if by_invitation.is_none() => {
                            self.verified.verify(hash, c)
                        }
                        _ => false,
                    };
                    match by_invitation {
                        Some(inv) => invitation = Some(inv),
                        None if by_password => {}
                        None => {
                            if code.is_some() {
                                throttle::wrong(
                                    self.tx,
                                    &throttle::join_key(g.name()),
                                    Sender::Master,
                                    self.now,
                                )?;
                            }
                            return Err(Refusal::PrivateGame(g.name().to_string()).into());
                        }
                    }
                }
                let seat = Seat {
                    address: from.clone(),
                    password_hash: password::hash(self.config.password_cost, pw, self.salt()?),
                };
                let count = g.join(seat, from_name.as_deref(), invitation.as_ref())?;
                let gname = g.name().to_string();
                let start = g.not_before().filter(|t| *t > self.now);
                let more = text::joined(&g, count, start);
                self.enter_game(g)?;
                Done::with_more(answers::signon_join(&gname), more)
            }
            SignonAs::Power(p) => {
                let Some(pl) = g.player(p) else {
                    return Err(Refusal::BadSignon.into());
                };
                // njudge: signing on to an abandoned power takes it over.
                if pl.is_open() {
                    let echo = crate::bulletin::seats::takeover_signon_echo(p, g.name());
                    return self.take_over(g, p, pw, echo);
                }
                let (hash, registered) = (pl.seat.password_hash.clone(), pl.seat.address.clone());
                self.check_password(&g, Sender::Power(p), &hash, pw)?;
                if !registered.eq_ignore_ascii_case(&from) {
                    self.copy_to = Some(registered);
                } else if from_name.is_some() && g.name_of(&from) != from_name.as_deref() {
                    g.record_name(&from, from_name.as_deref());
                }
                self.who = Some(Sender::Power(p));
                // A mail from the seat's player: its mail is read, whatever bounced before.
                g.clear_bouncing(p);
                let echo = answers::signon_power(p, g.name());
                self.enter_game(g)?;
                Done::ok(echo)
            }
            SignonAs::Takeover(p) => match g.player(p) {
                None => Err(SeatRefusal::NotRunning {
                    game: g.name().to_string(),
                }
                .into()),
                Some(pl) if pl.is_playing() => Err(SeatRefusal::NotOpen {
                    power: p,
                    game: g.name().to_string(),
                }
                .into()),
                Some(_) => {
                    let echo = crate::bulletin::seats::takeover_echo(p, g.name());
                    self.take_over(g, p, pw, echo)
                }
            },
            SignonAs::Master => {
                // The master's seat, or a co-master's (all one seat to the throttle): the
                // one registered at this address first, then the others.
                let seat = Sender::Master;
                if let Some(until) = throttle::locked_until(self.tx, g.name(), seat, self.now)? {
                    throttle::refused(self.tx, g.name(), seat, self.now)?;
                    return Err(Refusal::SignonLocked {
                        until: format_time(&g, until),
                    }
                    .into());
                }
                let mut seats: Vec<(usize, Seat)> = g.master_seats().cloned().enumerate().collect();
                seats.sort_by_key(|(_, s)| !s.address.eq_ignore_ascii_case(&from));
                let Some((index, registered)) = seats
                    .into_iter()
                    .find(|(_, s)| self.verified.verify(&s.password_hash, pw))
                    .map(|(i, s)| (i, s.address))
                else {
                    throttle::wrong(self.tx, g.name(), seat, self.now)?;
                    return Err(Refusal::BadSignon.into());
                };
                if !registered.eq_ignore_ascii_case(&from) {
                    self.copy_to = Some(registered);
                } else if from_name.is_some() && g.name_of(&from) != from_name.as_deref() {
                    g.record_name(&from, from_name.as_deref());
                }
                self.who = Some(Sender::Master);
                self.master_seat = index;
                let echo = answers::signon_master(g.name());
                self.enter_game(g)?;
                Done::ok(echo)
            }
            // njudge's observer sign-on: an address that observes signs on with the password
            // it was mailed; any other asks to observe (as OBSERVE does).
            SignonAs::Observer if g.observes(&from) => self.observer_signon(g, &from, pw),
            SignonAs::Observer => {
                self.address_request(AddressRequest::Observe(g.name().to_string()))
            }
        }
    }

    /// `SIGNON Ogame password` from an address observing `g`: the password the judge mailed
    /// it, checked as the throttle allows (each observer's sign-on apart). An observer that
    /// never had one (it observed before observers had passwords) is told how to get one.
    fn observer_signon(&mut self, g: Game, from: &str, pw: &str) -> Verdict {
        let key = throttle::observer_key(g.name(), from);
        let Some(hash) = g.observer_seat(from).map(|s| s.password_hash.clone()) else {
            return Err(Refusal::NoObserverPassword(g.name().to_string()).into());
        };
        if let Some(until) = throttle::locked_until(self.tx, &key, Sender::Master, self.now)? {
            throttle::refused(self.tx, &key, Sender::Master, self.now)?;
            return Err(Refusal::SignonLocked {
                until: format_time(&g, until),
            }
            .into());
        }
        if !self.verified.verify(&hash, pw) {
            throttle::wrong(self.tx, &key, Sender::Master, self.now)?;
            return Err(Refusal::BadSignon.into());
        }
        self.observer = true;
        let echo = answers::signon_observer(g.name());
        self.enter_game(g)?;
        Done::ok(echo)
    }

    /// A newcomer asks for an abandoned or dummy `power` of `g` (by SIGNON or TAKEOVER, echoed
    /// `echo`) with the password `pw` they choose: refused, waiting for the master's
    /// approval, or taken over at once (the mail then speaks for the power).
    fn take_over(&mut self, mut g: Game, p: Power, pw: &str, echo: String) -> Verdict {
        let from = self.msg.reply_address().to_string();
        let name = g.name().to_string();
        g.may_take_over(p, &from)?;
        // A takeover passes the game's entry gates as a join does (njudge).
        self.passes_gates(&g)?;
        if !password::long_enough(pw) {
            return Err(Refusal::ShortPassword.into());
        }
        let seat = Seat {
            address: from.clone(),
            password_hash: password::hash(self.config.password_cost, pw, self.salt()?),
        };
        if g.settings().approval {
            g.claim(p, seat, self.now);
            self.mails
                .push(seats::claim_mail(self.config, &g, p, &from));
            let more = vec![crate::bulletin::seats::claim_waits(&name, p)];
            self.enter_game(g)?;
            return Done::with_more(crate::bulletin::seats::takeover_waits(&echo), more);
        }
        // In a duplex game the newcomer takes over, with `p`, the other powers its last
        // player left (njudge: a takeover of France "takes over other country too").
        let partners = g.left_with(p);
        let (map, config, tx, now) = (self.map, self.config, self.tx, self.now);
        let take = |g: &mut Game, q| seats::take_over(map, config, tx, g, q, seat.clone(), now);
        let Some((_, mails)) = take(&mut g, p)? else {
            return Err(SeatRefusal::NotOpen {
                power: p,
                game: name,
            }
            .into());
        };
        // The welcome comes first (`seats::take_over`).
        self.welcome = Some((self.mails.len(), p));
        self.mails.extend(mails);
        let mut with = Vec::new();
        for q in partners {
            if let Some((_, mails)) = take(&mut g, q)? {
                self.mails.extend(mails);
                with.push(q);
            }
        }
        let more = if with.is_empty() {
            Vec::new()
        } else {
            vec![crate::bulletin::seats::taken_over_with(p, &with)]
        };
        self.who = Some(Sender::Power(p));
        self.enter_game(g)?;
        Done::with_more(crate::bulletin::seats::taken_over(&echo, p), more)
    }

    /// Checks a password for a seat (a power's, or the master's), as the throttle allows: a
    /// seat sent too many wrong passwords within the hour checks none, the right one
    /// included (`throttle`).
    fn check_password(
        &mut self,
        g: &Game,
        seat: Sender,
        hash: &str,
        pw: &str,
    ) -> Result<(), SessionError> {
        if let Some(until) = throttle::locked_until(self.tx, g.name(), seat, self.now)? {
            throttle::refused(self.tx, g.name(), seat, self.now)?;
            return Err(Refusal::SignonLocked {
                until: format_time(g, until),
            }
            .into());
        }
        if self.verified.verify(hash, pw) {
            return Ok(());
        }
        throttle::wrong(self.tx, g.name(), seat, self.now)?;
        Err(Refusal::BadSignon.into())
    }

    fn preference(&mut self, powers: &[Power]) -> Verdict {
        let from = self.msg.reply_address().to_string();
        self.game_mut()?.set_preference(&from, powers)?;
        Done::ok(answers::set_preference(powers))
    }

    /// Whose absence a mail sets: the power it signed on as (the master's doing when it
    /// became that power), or the master's own.
    fn absentee(&self) -> Option<(Sender, bool)> {
        match self.who {
            Some(Sender::Power(p)) => Some((Sender::Power(p), self.became)),
            Some(Sender::Master) => Some((Sender::Master, true)),
            None => None,
        }
    }

    /// `SET ABSENCE from [TO to]` (njudge `data/absence`): remembered for the seat
    /// ([`Game::set_absence`]); the master is told of each absence its players set.
    fn absence(&mut self, from: command::Date, to: Option<command::Date>) -> Verdict {
        let Some((who, by_master)) = self.absentee() else {
            return Err(Refusal::AbsenceNeedsSeat.into());
        };
        let (now, judge) = (self.now, self.config.name.clone());
        let Some(g) = self.game.as_mut() else {
            return Err(Refusal::NotSignedOn.into());
        };
        let set = g.set_absence(who, from, to, by_master, now)?;
        let tz = g.time_zone();
        let more: Vec<String> = set
            .stands
            .map(|d| text::absence_stands(g, d))
            .into_iter()
            .collect();
        let reply = text::absence_echo(&answers::set_absence(from, to), &tz, &set.absence);
        if !by_master {
            let body = text::absence_notice(g.name(), &tz, &set.absence);
            let subject = text::absence_subject(&judge, g.name());
            self.mails.extend(mailing::mails_for(
                g,
                &[Reader::Master],
                &subject,
                &body,
                None,
            ));
        }
        Done::with_more(reply, more)
    }

    /// `SET NOABSENCE [date]`: cancels the seat's absence that holds the date, or every
    /// absence of the seat ([`Game::cancel_absences`]); the deadline an absence had moved
    /// comes back to the schedule's (everyone is told).
    fn no_absence(&mut self, date: Option<command::Date>) -> Verdict {
        let Some((who, _)) = self.absentee() else {
            return Err(Refusal::AbsenceNeedsSeat.into());
        };
        let (now, judge) = (self.now, self.config.name.clone());
        let g = self.game_mut()?;
        let cancelled = g.cancel_absences(who, date, now)?;
        let reply = text::noabsence_echo(date, &g.time_zone(), &cancelled);
        let Some(back) = g.deadline_back(now) else {
            return Done::ok(reply);
        };
        let (line, n) = text::deadline_back(&judge, g, back);
        let mails = mailing::everyone(g, &n.subject, &n.body, None);
        self.mails.extend(mails);
        Done::with_more(reply, vec![line])
    }
}

/// A text's lines, for the reply.
fn lines(text: &str) -> Vec<String> {
    text.lines().map(str::to_string).collect()
}

/// The rule set a CREATE or SET VARIANT names, from the judge's registry.
pub(super) fn find_variant(
    config: &super::super::JudgeConfig,
    name: &str,
) -> Result<&'static dyn crate::variant::Variant, Refusal> {
    match config.variants.by_name(name) {
        Lookup::Found(v) => Ok(v),
        Lookup::NotImplemented(canonical) => Err(Refusal::VariantNotImplemented(
            canonical,
            config.variants.implemented(),
        )),
        Lookup::Unknown => Err(Refusal::UnknownVariant(
            name.to_string(),
            config.variants.names(),
        )),
    }
}

/// A CREATE option: the press and deadline settings a master would otherwise SET.
fn apply_option(settings: &mut game::Settings, word: &str) -> Result<(), Refusal> {
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
        "noobservers" => settings.press.watch = ObserverLevel::None,
        "anonymous" | "gunboat" => {
            settings.anonymous = true;
            settings.addresses_shown = false;
        }
        "noreveal" => settings.reveal = false,
        "nolist" | "private" => settings.listed = false,
        "quiet" => settings.quiet = true,
        _ => return Err(Refusal::BadOption(word.to_string())),
    }
    Ok(())
}

/// A stable hash of a game name (its seed).
fn game_seed(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
