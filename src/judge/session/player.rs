//! A player's commands: HELP and the listings, CREATE, SIGNON and OBSERVE, and the settings
//! a player makes for their seat (password, address, wait, draw, concession, absence).

use crate::bulletin::settings as text;
use crate::bulletin::{answers, listing, notices};
use crate::command::{self, PlayerCommand, SignonAs};
use crate::game::{
    self, Abandonment, Claim, Game, Joiner, ObserverLevel, PressLevel, Reader, Seat, SeatRefusal,
    Sender, Status,
};
use crate::map::Power;
use crate::store::{Audience, MailKind, NewMail, StoreError};
use crate::variant::Lookup;

use super::super::confirm::AddressRequest;
use super::super::history;
use super::super::refusal::Refusal;
use super::super::time::{format_time, game_tz, resolve_date, resolve_date_at};
use super::super::{limits, password, pictures, process, seats, throttle};
use super::{Done, Session, Verdict};

impl Session<'_, '_> {
    /// `MAP game [phase]`: the reply carries the picture of a processed phase, or of the
    /// board of the phase open now; each MAP line one picture, in order.
    fn map_reply(
        &mut self,
        g: &Game,
        phase: Option<crate::rules::Phase>,
    ) -> Result<Verdict, StoreError> {
        let (phase, picture) = match process::picture_of(self.map, self.config, g, phase, self.now)?
        {
            process::PhasePicture::Open { phase, drawing } => {
                let r = pictures::keep_for_mails(self.tx, &g.name, &phase, &drawing)?;
                (phase, r)
            }
            process::PhasePicture::Processed { phase } => {
                if !pictures::has_phase(self.tx, &g.name, &phase)? {
                    return Ok(Err(Refusal::NoPicture {
                        game: g.name.clone(),
                        phase,
                    }));
                }
                let r = pictures::reference(&g.name, &phase);
                (phase, r)
            }
        };
        self.reply_pictures.push((g.name.clone(), picture));
        Ok(Done::ok(answers::map(&g.name, &phase)))
    }

    /// `MAP game ALL`: every processed phase of a finished game as one animated GIF.
    fn map_all_reply(&mut self, g: &Game) -> Verdict {
        if !matches!(g.status, Status::Finished(_)) {
            return Err(Refusal::NotFinished(g.name.clone()));
        }
        self.reply_pictures
            .push((g.name.clone(), pictures::reference(&g.name, pictures::ALL)));
        Done::ok(answers::map_all(&g.name))
    }

    pub(super) fn player(&mut self, cmd: &PlayerCommand) -> Result<Verdict, StoreError> {
        let tx = self.tx;
        Ok(match cmd {
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
                        Err(e) => return Err(e),
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
                    Done::with_more(answers::list(&g.name), more)
                }
                None => Err(Refusal::NoGame(name.to_string())),
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
                        Err(e) => return Err(e),
                    }
                    more.push(String::new());
                }
                Done::with_more("LIST FULL", more)
            }
            PlayerCommand::SetMap { on } => self.address_request(AddressRequest::Map(*on))?,
            // Players as people (issue 31): a profile and a link are settings of the
            // address, made once it proved itself.
            PlayerCommand::Register { fields, closed } => {
                self.address_request(AddressRequest::Register(fields.clone(), *closed))?
            }
            PlayerCommand::AlsoAt { address } => {
                self.address_request(AddressRequest::AlsoAt(address.clone()))?
            }
            PlayerCommand::Whois { who } => self.whois(who)?,
            PlayerCommand::Unobserve { game } => {
                self.address_request(AddressRequest::Unobserve(game.to_string()))?
            }
            PlayerCommand::Confirm { code } => self.confirm(code)?,
            PlayerCommand::Map { game, phase } => match tx.load_game(game.as_str())? {
                Some(g) if !self.may_have_pictures(&g) => Err(Refusal::NoPictureForYou(g.name)),
                Some(g) => self.map_reply(&g, *phase)?,
                None => Err(Refusal::NoGame(game.to_string())),
            },
            PlayerCommand::MapAll { game } => match tx.load_game(game.as_str())? {
                Some(g) if !self.may_have_pictures(&g) => Err(Refusal::NoPictureForYou(g.name)),
                Some(g) => self.map_all_reply(&g),
                None => Err(Refusal::NoGame(game.to_string())),
            },
            PlayerCommand::Summary { game } => match tx.load_game(game.as_str())? {
                // A game under way or over has a centre chart: its year-by-year table is in
                // the summary, and its picture is attached to the reply of those who may
                // have its pictures (its players and master, signed on, and its observers).
                Some(g) => {
                    let master = self.history_reader(&g) == Reader::Master;
                    let chart = if g.status == Status::Forming {
                        None
                    } else {
                        Some(pictures::centre_chart(tx, &g)?)
                    };
                    let attach = chart.is_some() && self.may_have_pictures(&g);
                    if attach {
                        let kept = pictures::keep_chart(tx, &g)?;
                        self.reply_pictures.push((g.name.clone(), kept));
                    }
                    Done::with_more(
                        answers::summary(&g.name, attach),
                        lines(&listing::summary(self.map, &g, master, chart.as_ref())),
                    )
                }
                None => Err(Refusal::NoGame(game.to_string())),
            },
            // The record goes as an attachment, drawn up when the reply is sent (as a
            // picture is), as an outsider may read it: only to those who may have the game's
            // pictures, so that a forged address cannot have it mailed to someone else.
            PlayerCommand::Export { game } => match tx.load_game(game.as_str())? {
                Some(g) if !self.may_have_pictures(&g) => Err(Refusal::NoExportForYou(g.name)),
                Some(g) => {
                    self.reply_pictures.push((
                        g.name.clone(),
                        pictures::reference(&g.name, pictures::EXPORT),
                    ));
                    Done::ok(answers::export(&g.name))
                }
                None => Err(Refusal::NoGame(game.to_string())),
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
                    if reader == Reader::Observers && g.settings.press.watch == ObserverLevel::None
                    {
                        return Ok(Err(Refusal::HistoryClosed(g.name)));
                    }
                    let tz = game_tz(&g);
                    let window = history::Window {
                        from: from.and_then(|d| history::history_time(&d, &tz, self.now, false)),
                        to: to.and_then(|d| history::history_time(&d, &tz, self.now, true)),
                        exclude: exclude.clone(),
                    };
                    let entries = history::for_reader(&g, reader, tx.history(&g.name)?);
                    let entries = history::select(entries, &window);
                    let limit = lines.map_or(listing::HISTORY_LINES, |n| n as usize);
                    let more = listing::history_upto(&g, &entries, limit);
                    Done::with_more(answers::history(cmd), more)
                }
                None => Err(Refusal::NoGame(game.to_string())),
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
                code,
            } => self.signon(*who, game.as_str(), pw, code.as_deref())?,
            PlayerCommand::Observe { game, .. } => {
                self.address_request(AddressRequest::Observe(game.to_string()))?
            }
            PlayerCommand::SetPassword { password: pw } if !password::long_enough(pw) => {
                Err(Refusal::ShortPassword)
            }
            PlayerCommand::SetPassword { password: pw } => {
                let hash = password::hash(self.config.password_cost, pw, self.salt()?);
                match self.each_seat(|seat| seat.password_hash = hash.clone()) {
                    Ok(_) => {
                        self.dirty = true;
                        Done::ok(answers::SET_PASSWORD)
                    }
                    Err(e) => Err(e),
                }
            }
            PlayerCommand::SetAddress { address } => {
                if let Some(r) = super::super::addresses::refusal(self.config, address) {
                    return Ok(Err(r));
                }
                let mut changed = false;
                match self.each_seat(|seat| {
                    changed |= !seat.address.eq_ignore_ascii_case(address);
                    seat.address = address.clone();
                }) {
                    Ok(_) => {
                        self.dirty = true;
                        if changed {
                            self.tell_new_address(address);
                        }
                        Done::ok(answers::set_address(address))
                    }
                    Err(e) => Err(e),
                }
            }
            PlayerCommand::SetWait | PlayerCommand::SetNoWait => {
                let wait = matches!(cmd, PlayerCommand::SetWait);
                self.with_player(|p| p.wait = wait)
                    .map(|_| Done::new(answers::set_wait(wait)))
            }
            PlayerCommand::SetDraw { powers } => self.draw_vote(powers)?,
            PlayerCommand::SetNoDraw => {
                let mut had = false;
                self.with_player(|p| had |= p.draw.take().is_some())
                    .map(|_| Done::new(text::nodraw_echo(had)))
            }
            PlayerCommand::SetConcede { to } => self.concede(*to)?,
            PlayerCommand::SetNoConcede => {
                let mut had = false;
                self.with_player(|p| had |= p.concede.take().is_some())
                    .map(|_| Done::new(text::noconcede_echo(had)))
            }
            PlayerCommand::SetPreference { powers } => self.preference(powers),
            PlayerCommand::SetAbsence { from, to } => self.absence(*from, *to)?,
            PlayerCommand::SetNoAbsence { date } => self.no_absence(*date),
            PlayerCommand::Resign => self.resign()?,
            PlayerCommand::Signoff => Done::ok("SIGNOFF"),
            PlayerCommand::Clear => match (self.who, self.game.as_mut()) {
                (Some(Sender::Power(p)), Some(g)) => {
                    // A duplex player's CLEAR clears the orders of every power they hold.
                    for q in g.held_with(p) {
                        g.clear_orders(q);
                    }
                    g.all_in_since = None;
                    self.dirty = true;
                    self.orders_changed = true;
                    Done::ok("CLEAR")
                }
                _ => Err(Refusal::NotSignedOn),
            },
        })
    }

    /// Whether `LIST` shows `g` to this mail: a listed game to anyone, an unlisted one to
    /// its players and master signed on.
    fn lists(&self, g: &Game) -> bool {
        g.settings.listed || self.history_reader(g) != Reader::Observers
    }

    /// Who votes on a draw or a concession: the power signed on, and the powers whose votes
    /// count (`Game::draw_voters`), while the game runs or is paused.
    ///
    /// In a duplex game a player votes once for all their powers: the power signed on
    /// stands for the first of them still in the game, and the powers it holds come back.
    fn voters(&self) -> Result<(Power, Vec<Power>, Vec<Power>), Refusal> {
        let Some(Sender::Power(signed)) = self.who else {
            return Err(Refusal::NotSignedOn);
        };
        let (Some(g), Some(variant)) = (self.game.as_ref(), self.variant) else {
            return Err(Refusal::NotSignedOn);
        };
        if g.status != Status::Active && g.status != Status::Paused {
            return Err(Refusal::NotActive(g.name.clone()));
        }
        let draw = g.draw_voters(self.map, variant);
        let held = g.held_with(signed);
        let me = held
            .iter()
            .copied()
            .find(|p| draw.contains(p))
            .unwrap_or(signed);
        Ok((me, held, draw))
    }

    /// `SET DRAW [powers]`: a vote for the draw among every power still in the game, named
    /// in the reply; a list must be exactly those powers (the judge's draws include all
    /// survivors).
    fn draw_vote(&mut self, asked: &[Power]) -> Result<Verdict, StoreError> {
        let (me, _, draw) = match self.voters() {
            Ok(v) => v,
            Err(r) => return Ok(Err(r)),
        };
        if !draw.contains(&me) {
            return Ok(Err(Refusal::OutOfGame(me.name().to_string())));
        }
        let powers = match Game::draw_vote(asked, &draw) {
            Ok(p) => p,
            Err(asked) => return Ok(Err(Refusal::DrawRefused(text::draw_refused(&asked, &draw)))),
        };
        let echo = text::draw_vote_echo(&powers);
        if let Err(r) = self.with_player(|p| p.draw = Some(powers.clone())) {
            return Ok(Err(r));
        }
        self.check_end()?;
        Ok(Done::ok(echo))
    }

    /// `SET CONCEDE power`: the reply names who else must concede.
    fn concede(&mut self, to: Power) -> Result<Verdict, StoreError> {
        let (_, held, draw) = match self.voters() {
            Ok(v) => v,
            Err(r) => return Ok(Err(r)),
        };
        if !draw.contains(&to) {
            return Ok(Err(Refusal::OutOfGame(to.name().to_string())));
        }
        // In a duplex game the powers held with the one conceded to need not concede.
        let winners = self
            .game
            .as_ref()
            .map_or_else(|| vec![to], |g| g.held_with(to));
        let others: Vec<Power> = draw
            .iter()
            .copied()
            .filter(|p| !winners.contains(p) && !held.contains(p))
            .collect();
        let echo = text::concede_echo(to, &others);
        if let Err(r) = self.with_player(|p| p.concede = Some(to)) {
            return Ok(Err(r));
        }
        self.check_end()?;
        Ok(Done::ok(echo))
    }

    /// Whether this mail may have a picture of `g` (`MAP`): it signed on as one of the
    /// game's powers or its master, or comes from one of its observers. A picture is large:
    /// a stranger's small mail must not draw one to any address it names.
    fn may_have_pictures(&self, g: &Game) -> bool {
        let address = self.msg.reply_address();
        self.history_reader(g) != Reader::Observers
            || g.observers.iter().any(|o| o.eq_ignore_ascii_case(address))
    }

    /// Who reads a game's history in this mail: the power or master it signed on as in
    /// that game, else an outsider (an address proves nothing).
    fn history_reader(&self, g: &Game) -> Reader {
        let same = self.game.as_ref().is_some_and(|cur| cur.name == g.name);
        match self.who {
            Some(Sender::Power(p)) if same => Reader::Power(p),
            Some(Sender::Master) if same => Reader::Master,
            _ => Reader::Observers,
        }
    }

    /// `RESIGN`: the player leaves; the power is abandoned and open for takeover, everyone
    /// is told (unless the game is quiet), and the rest of the mail is not signed on.
    fn resign(&mut self) -> Result<Verdict, StoreError> {
        let config = self.config;
        let (Some(Sender::Power(p)), Some(g)) = (self.who, self.game.as_mut()) else {
            return Ok(Err(Refusal::NotSignedOn));
        };
        if !g.is_played(p) {
            return Ok(Err(SeatRefusal::NobodyPlays {
                power: p,
                game: g.name.clone(),
            }
            .into()));
        }
        let phase = g.position.phase;
        // In a duplex game the player resigns every power they hold (njudge): all are
        // abandoned first, so that none of them is told of the others' resignation.
        let held = g.held_with(p);
        let previous: Vec<String> = held
            .iter()
            .map(|q| {
                g.player(*q)
                    .map(|pl| pl.seat.address.clone())
                    .unwrap_or_default()
            })
            .collect();
        for q in &held {
            g.abandon_at(*q, Abandonment::Resigned, phase);
        }
        let mut lines = Vec::new();
        for (q, address) in held.iter().zip(&previous) {
            let mails =
                seats::abandoned_mails(config, g, *q, Abandonment::Resigned, address, false);
            self.mails.extend(mails);
            lines.push(crate::bulletin::seats::left_line(
                g,
                *q,
                Abandonment::Resigned,
            ));
        }
        self.dirty = true;
        // What follows the RESIGN no longer speaks for the power (njudge: RESIGN comes last).
        self.who = None;
        self.check_end()?;
        Ok(Done::with_more("RESIGN", lines))
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
            game: Some(g.name.clone()),
            audience,
            recipient: address.to_string(),
            subject: n.subject,
            body: n.body,
            kind: MailKind::Generated,
            in_reply_to: None,
            pictures: Vec::new(),
        });
    }

    /// Changes the seat signed on (`SET PASSWORD`, `SET ADDRESS`): in a duplex game, the
    /// seat of every power its player holds, which stay one player's.
    fn each_seat(&mut self, mut f: impl FnMut(&mut Seat)) -> Result<(), Refusal> {
        let held = match (self.who, self.game.as_ref()) {
            (Some(Sender::Power(p)), Some(g)) => g.held_with(p),
            _ => Vec::new(),
        };
        f(self.seat_mut()?);
        if let Some(g) = self.game.as_mut() {
            for q in held.into_iter().skip(1) {
                if let Some(pl) = g.player_mut(q) {
                    pl.bouncing = None;
                    f(&mut pl.seat);
                }
            }
        }
        Ok(())
    }

    fn seat_mut(&mut self) -> Result<&mut Seat, Refusal> {
        let (who, index) = (self.who, self.master_seat);
        let g = self.game_mut()?;
        match who {
            Some(Sender::Power(p)) => {
                let name = g.name.clone();
                let pl = g.player_mut(p).ok_or(Refusal::NotSignedOn)?;
                // A power nobody plays gets its new player by a takeover, not by the master
                // setting its address and password (BECOME).
                if !pl.is_playing() {
                    return Err(SeatRefusal::NobodyPlays {
                        power: p,
                        game: name,
                    }
                    .into());
                }
                pl.bouncing = None;
                Ok(&mut pl.seat)
            }
            Some(Sender::Master) if index == 0 => Ok(&mut g.master),
            Some(Sender::Master) => g.comasters.get_mut(index - 1).ok_or(Refusal::NotSignedOn),
            _ => Err(Refusal::NotSignedOn),
        }
    }

    /// Makes a setting of the seat signed on (`SET WAIT`, `SET DRAW`, …): in a duplex game,
    /// of every power its player holds (one player, one setting).
    fn with_player(&mut self, mut f: impl FnMut(&mut game::Player)) -> Result<(), Refusal> {
        let Some(Sender::Power(p)) = self.who else {
            return Err(Refusal::NotSignedOn);
        };
        let g = self.game_mut()?;
        let name = g.name.clone();
        let held = g.held_with(p);
        let pl = g.player_mut(p).ok_or(Refusal::NotSignedOn)?;
        if !pl.is_playing() {
            return Err(SeatRefusal::NobodyPlays {
                power: p,
                game: name,
            }
            .into());
        }
        for q in held {
            if let Some(pl) = g.player_mut(q) {
                f(pl);
            }
        }
        self.dirty = true;
        Ok(())
    }

    fn create(
        &mut self,
        name: &str,
        pw: &str,
        variant: Option<&str>,
        options: &[String],
    ) -> Result<Verdict, StoreError> {
        if self.tx.load_game(name)?.is_some() {
            return Ok(Err(Refusal::GameExists(name.to_string())));
        }
        if !password::long_enough(pw) {
            return Ok(Err(Refusal::ShortPassword));
        }
        let address = self.msg.reply_address().to_string();
        if let Some(r) = limits::creation_refusal(self.config, self.tx, &address, self.now)? {
            return Ok(Err(r));
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
                        return Ok(Err(r));
                    }
                }
            },
        };
        let seat_address = self.msg.reply_address().to_string();
        let seat = Seat {
            address: seat_address.clone(),
            password_hash: password::hash(self.config.password_cost, pw, self.salt()?),
        };
        let seed = self.config.seed ^ game_seed(name);
        let mut g = Game::new(name, variant, seat, seed, self.map);
        g.settings.deadlines = self.config.deadlines.clone();
        g.settings.time_zone = self.config.time_zone.clone();
        for o in &options {
            let applied = match o.split_once('=') {
                Some((key, value)) => variant
                    .apply_setting(&mut g.variant_state, key.trim(), value.trim())
                    .map_err(Refusal::BadSetting),
                None => apply_option(&mut g.settings, o),
            };
            if let Err(r) = applied {
                return Ok(Err(r));
            }
        }
        g.created = Some(self.now);
        g.record_name(&seat_address, self.msg.from_name.as_deref());
        self.tx.save_game(&g)?;
        limits::count_creation(self.tx, &address, self.now)?;
        self.enter_game(g)?;
        self.who = Some(Sender::Master);
        let rules =
            (variant.name() != self.config.variants.standard().name()).then(|| variant.name());
        Ok(Done::ok(answers::create(name, rules)))
    }

    fn signon(
        &mut self,
        who: SignonAs,
        name: &str,
        pw: &str,
        code: Option<&str>,
    ) -> Result<Verdict, StoreError> {
        if self.who.is_some() || self.observer {
            return Ok(Err(Refusal::TwoSignons));
        }
        let Some(mut g) = self.tx.load_game(name)? else {
            return Ok(Err(Refusal::BadSignon));
        };
        let from = self.msg.reply_address().to_string();
        let from_name = self.msg.from_name.clone();
        match who {
            SignonAs::Join => {
                if g.status != Status::Forming {
                    return Ok(Err(Refusal::NotForming(g.name)));
                }
                if g.joiners
                    .iter()
                    .any(|j| j.seat.address.eq_ignore_ascii_case(&from))
                {
                    return Ok(Err(Refusal::AlreadyJoined { from, game: g.name }));
                }
                if g.joiners.len() >= g.players_wanted() {
                    return Ok(Err(Refusal::GameFull(g.name)));
                }
                // The master's entry gates (SET DEDICATION, ONTIMERAT, RESRAT).
                if let Err(r) = self.passes_gates(&g)? {
                    return Ok(Err(r));
                }
                if !password::long_enough(pw) {
                    return Ok(Err(Refusal::ShortPassword));
                }
                // A private game: its join password, or an invitation's code (used once).
                // Wrong codes are throttled like a seat's passwords: the game's joining
                // checks at most 10 an hour, so neither can be guessed by mail.
                if g.is_private() {
                    if code.is_some()
                        && let Some(until) = throttle::locked_until(
                            self.tx,
                            &throttle::join_key(&g.name),
                            Sender::Master,
                            self.now,
                        )?
                    {
                        throttle::refused(
                            self.tx,
                            &throttle::join_key(&g.name),
                            Sender::Master,
                            self.now,
                        )?;
                        return Ok(Err(Refusal::JoinLocked {
                            until: format_time(&g, until),
                        }));
                    }
                    let by_invitation = code.and_then(|c| g.invitation(c)).cloned();
                    let by_password = match (code, g.settings.join_password.as_deref()) {
                        (Some(c), Some(hash)) if by_invitation.is_none() => {
                            self.verified.verify(hash, c)
                        }
                        _ => false,
                    };
                    match by_invitation {
                        Some(inv) => g.settings.invitations.retain(|i| *i != inv),
                        None if by_password => {}
                        None => {
                            if code.is_some() {
                                throttle::wrong(
                                    self.tx,
                                    &throttle::join_key(&g.name),
                                    Sender::Master,
                                    self.now,
                                )?;
                            }
                            return Ok(Err(Refusal::PrivateGame(g.name)));
                        }
                    }
                }
                g.joiners.push(Joiner {
                    seat: Seat {
                        address: from.clone(),
                        password_hash: password::hash(self.config.password_cost, pw, self.salt()?),
                    },
                    preferences: Vec::new(),
                });
                g.record_name(&from, from_name.as_deref());
                let count = g.joiners.len();
                let gname = g.name.clone();
                let start = g.not_before.filter(|t| *t > self.now);
                let more = text::joined(&g, count, start);
                self.enter_game(g)?;
                self.dirty = true;
                Ok(Done::with_more(answers::signon_join(&gname), more))
            }
            SignonAs::Power(p) => {
                let Some(pl) = g.player(p) else {
                    return Ok(Err(Refusal::BadSignon));
                };
                // njudge: signing on to an abandoned power takes it over.
                if pl.is_open() {
                    let echo = crate::bulletin::seats::takeover_signon_echo(p, &g.name);
                    return self.take_over(g, p, pw, echo);
                }
                let (hash, registered) = (pl.seat.password_hash.clone(), pl.seat.address.clone());
                if let Err(r) = self.check_password(&g, Sender::Power(p), &hash, pw)? {
                    return Ok(Err(r));
                }
                if !registered.eq_ignore_ascii_case(&from) {
                    self.copy_to = Some(registered);
                } else if from_name.is_some() && g.name_of(&from) != from_name.as_deref() {
                    g.record_name(&from, from_name.as_deref());
                    self.dirty = true;
                }
                self.who = Some(Sender::Power(p));
                // A mail from the seat's player: its mail is read, whatever bounced before.
                let cleared = g.clear_bouncing(p);
                let echo = answers::signon_power(p, &g.name);
                self.enter_game(g)?;
                self.dirty |= cleared;
                Ok(Done::ok(echo))
            }
            SignonAs::Takeover(p) => match g.player(p) {
                None => Ok(Err(SeatRefusal::NotRunning { game: g.name }.into())),
                Some(pl) if pl.is_playing() => Ok(Err(SeatRefusal::NotOpen {
                    power: p,
                    game: g.name,
                }
                .into())),
                Some(_) => {
                    let echo = crate::bulletin::seats::takeover_echo(p, &g.name);
                    self.take_over(g, p, pw, echo)
                }
            },
            SignonAs::Master => {
                // The master's seat, or a co-master's (all one seat to the throttle): the
                // one registered at this address first, then the others.
                let mut seats: Vec<(usize, Seat)> = g.master_seats().cloned().enumerate().collect();
                seats.sort_by_key(|(_, s)| !s.address.eq_ignore_ascii_case(&from));
                let verified = &mut *self.verified;
                let found =
                    throttle::check_seat(self.tx, &g, Sender::Master, self.msg, self.now, || {
                        seats
                            .into_iter()
                            .find(|(_, s)| verified.verify(&s.password_hash, pw))
                    })?;
                let (index, registered) = match found {
                    Ok((i, s)) => (i, s.address),
                    Err(r) => return Ok(Err(r)),
                };
                if !registered.eq_ignore_ascii_case(&from) {
                    self.copy_to = Some(registered);
                } else if from_name.is_some() && g.name_of(&from) != from_name.as_deref() {
                    g.record_name(&from, from_name.as_deref());
                    self.dirty = true;
                }
                self.who = Some(Sender::Master);
                self.master_seat = index;
                let echo = answers::signon_master(&g.name);
                self.enter_game(g)?;
                Ok(Done::ok(echo))
            }
            // njudge's observer sign-on: an address that observes signs on with the password
            // it was mailed; any other asks to observe (as OBSERVE does).
            SignonAs::Observer if g.observes(&from) => self.observer_signon(g, &from, pw),
            SignonAs::Observer => self.address_request(AddressRequest::Observe(g.name)),
        }
    }

    /// `SIGNON Ogame password` from an address observing `g`: the password the judge mailed
    /// it, checked as the throttle allows (each observer's sign-on apart). An observer that
    /// never had one (it observed before observers had passwords) is told how to get one.
    fn observer_signon(&mut self, g: Game, from: &str, pw: &str) -> Result<Verdict, StoreError> {
        let key = throttle::observer_key(&g.name, from);
        let Some(hash) = g.observer_seat(from).map(|s| s.password_hash.clone()) else {
            return Ok(Err(Refusal::NoObserverPassword(g.name)));
        };
        if let Some(until) = throttle::locked_until(self.tx, &key, Sender::Master, self.now)? {
            throttle::refused(self.tx, &key, Sender::Master, self.now)?;
            return Ok(Err(Refusal::SignonLocked {
                until: format_time(&g, until),
            }));
        }
        if !self.verified.verify(&hash, pw) {
            throttle::wrong(self.tx, &key, Sender::Master, self.now)?;
            return Ok(Err(Refusal::BadSignon));
        }
        self.observer = true;
        let echo = answers::signon_observer(&g.name);
        self.enter_game(g)?;
        Ok(Done::ok(echo))
    }

    /// A newcomer asks for an abandoned or dummy `power` of `g` (by SIGNON or TAKEOVER, echoed
    /// `echo`) with the password `pw` they choose: refused, waiting for the master's
    /// approval, or taken over at once (the mail then speaks for the power).
    fn take_over(
        &mut self,
        mut g: Game,
        p: Power,
        pw: &str,
        echo: String,
    ) -> Result<Verdict, StoreError> {
        let from = self.msg.reply_address().to_string();
        let name = g.name.clone();
        if !g.is_running() {
            return Ok(Err(SeatRefusal::NotRunning { game: name }.into()));
        }
        if let Some(q) = g.power_played_by(&from) {
            return Ok(Err(SeatRefusal::AlreadyPlays {
                power: q,
                game: name,
            }
            .into()));
        }
        if g.was_ejected(p, &from) {
            return Ok(Err(SeatRefusal::Ejected {
                power: p,
                game: name,
            }
            .into()));
        }
        if g.player(p).is_some_and(|pl| pl.claim.is_some()) {
            return Ok(Err(SeatRefusal::ClaimPending {
                power: p,
                game: name,
            }
            .into()));
        }
        // A takeover passes the game's entry gates as a join does (njudge).
        if let Err(r) = self.passes_gates(&g)? {
            return Ok(Err(r));
        }
        if !password::long_enough(pw) {
            return Ok(Err(Refusal::ShortPassword));
        }
        let seat = Seat {
            address: from.clone(),
            password_hash: password::hash(self.config.password_cost, pw, self.salt()?),
        };
        if g.settings.approval {
            if let Some(pl) = g.player_mut(p) {
                pl.claim = Some(Claim { seat, at: self.now });
            }
            self.mails
                .push(seats::claim_mail(self.config, &g, p, &from));
            let more = vec![crate::bulletin::seats::claim_waits(&name, p)];
            self.enter_game(g)?;
            self.dirty = true;
            return Ok(Done::with_more(
                crate::bulletin::seats::takeover_waits(&echo),
                more,
            ));
        }
        // In a duplex game the newcomer takes over, with `p`, the other powers its last
        // player left (njudge: a takeover of France "takes over other country too").
        let partners = g.left_with(p);
        let (map, config, tx, now) = (self.map, self.config, self.tx, self.now);
        let take = |g: &mut Game, q| seats::take_over(map, config, tx, g, q, seat.clone(), now);
        let Some((_, mails)) = take(&mut g, p)? else {
            return Ok(Err(SeatRefusal::NotOpen {
                power: p,
                game: name,
            }
            .into()));
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
        self.dirty = true;
        Ok(Done::with_more(
            crate::bulletin::seats::taken_over(&echo, p),
            more,
        ))
    }

    /// Checks a password for a seat (a power's, or the master's), as the throttle allows: a
    /// seat sent too many wrong passwords within the hour checks none from those who sent
    /// them, the right one included; its own address keeps a budget of its own
    /// (`throttle`).
    fn check_password(
        &mut self,
        g: &Game,
        seat: Sender,
        hash: &str,
        pw: &str,
    ) -> Result<Result<(), Refusal>, StoreError> {
        let verified = &mut *self.verified;
        throttle::check_seat(self.tx, g, seat, self.msg, self.now, || {
            verified.verify(hash, pw).then_some(())
        })
    }

    fn preference(&mut self, powers: &[Power]) -> Verdict {
        let from = self.msg.reply_address().to_string();
        let g = self.game_mut()?;
        let joiner = g
            .joiners
            .iter_mut()
            .find(|j| j.seat.address.eq_ignore_ascii_case(&from))
            .ok_or(Refusal::NotJoined)?;
        joiner.preferences = powers.to_vec();
        self.dirty = true;
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

    /// `SET ABSENCE from [TO to]` (njudge `data/absence`): remembered for the seat; no
    /// deadline computed from now on falls inside it (the one running now stands). A start
    /// without a time is 00:00, an end 23:59; without an end the absence lasts a day.
    /// At most [`game::MAX_ABSENCES`] a seat, each at most the game's maximum long (the
    /// master is not bound by it).
    fn absence(
        &mut self,
        from: command::Date,
        to: Option<command::Date>,
    ) -> Result<Verdict, StoreError> {
        let Some((who, by_master)) = self.absentee() else {
            return Ok(Err(Refusal::AbsenceNeedsSeat));
        };
        let (now, judge) = (self.now, self.config.name.clone());
        let Some(g) = self.game.as_mut() else {
            return Ok(Err(Refusal::NotSignedOn));
        };
        if matches!(g.status, Status::Finished(_)) {
            return Ok(Err(Refusal::NotActive(g.name.clone())));
        }
        let tz = game_tz(g);
        let Some(start) = resolve_date_at(from, &tz, now, (0, 0)) else {
            return Ok(Err(Refusal::BadDate));
        };
        let end = match to {
            Some(d) => match resolve_date_at(d, &tz, now, (23, 59)) {
                Some(e) => e,
                None => return Ok(Err(Refusal::BadDate)),
            },
            None => start + chrono::Duration::days(1),
        };
        if end <= start || end <= now {
            return Ok(Err(Refusal::AbsenceBackwards));
        }
        let max = g.settings.deadlines.max_absence_days;
        if !by_master && end - start > chrono::Duration::days(max) + chrono::Duration::minutes(1) {
            return Ok(Err(Refusal::AbsenceOverMax(max)));
        }
        let pending = g
            .absences
            .iter()
            .filter(|a| a.who == who && a.to > now)
            .count();
        if pending >= game::MAX_ABSENCES {
            return Ok(Err(Refusal::TooManyAbsences(pending)));
        }
        let absence = game::Absence {
            who,
            from: start,
            to: end,
        };
        let echo = answers::set_absence(from, to);
        let mut more = Vec::new();
        if let Some(d) = g.deadline
            && start <= d
            && d < end
        {
            more.push(text::absence_stands(g, d));
        }
        let reply = text::absence_echo(&echo, &tz, &absence);
        // The master is told of each absence its players set.
        if !by_master {
            let body = text::absence_notice(&g.name, &tz, &absence);
            let subject = text::absence_subject(&judge, &g.name);
            self.mails.extend(process::mails_for(
                g,
                &[Reader::Master],
                &subject,
                &body,
                None,
            ));
        }
        g.absences.push(absence);
        self.dirty = true;
        Ok(Done::with_more(reply, more))
    }

    /// `SET NOABSENCE [date]`: cancels the seat's absence that holds the date (the first
    /// one; a date without a time holds the whole day), or every absence of the seat.
    fn no_absence(&mut self, date: Option<command::Date>) -> Verdict {
        let Some((who, _)) = self.absentee() else {
            return Err(Refusal::AbsenceNeedsSeat);
        };
        let now = self.now;
        let g = self.game_mut()?;
        let tz = game_tz(g);
        let mut cancelled = Vec::new();
        match date {
            None => {
                let (gone, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut g.absences)
                    .into_iter()
                    .partition(|a| a.who == who);
                g.absences = kept;
                cancelled = gone;
            }
            Some(d) => {
                let (lo, hi) = match d.time {
                    Some(_) => {
                        let t = resolve_date(d, &tz, now).ok_or(Refusal::BadDate)?;
                        (t, t + chrono::Duration::seconds(1))
                    }
                    None => {
                        let lo = resolve_date_at(d, &tz, now, (0, 0)).ok_or(Refusal::BadDate)?;
                        (lo, lo + chrono::Duration::days(1))
                    }
                };
                if let Some(i) = g
                    .absences
                    .iter()
                    .position(|a| a.who == who && a.from < hi && lo < a.to)
                {
                    cancelled.push(g.absences.remove(i));
                }
            }
        }
        if cancelled.is_empty() {
            return Err(match date {
                Some(d) => Refusal::NoAbsenceOn(d),
                None => Refusal::NoAbsence,
            });
        }
        self.dirty = true;
        let reply = text::noabsence_echo(date, &tz, &cancelled);
        // The deadline an absence had moved comes back to the schedule's (everyone is told).
        let judge = self.config.name.clone();
        let g = self.game_mut()?;
        let Some(back) = g.deadline_back(now) else {
            return Done::ok(reply);
        };
        let (line, n) = text::deadline_back(&judge, g, back);
        let mails = process::everyone(g, &n.subject, &n.body, None);
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
