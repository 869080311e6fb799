//! Sign-on and joining: `CREATE`, `SIGNON` as a joiner, a power, the master or an
//! observer, a takeover of an open power, and a joiner's `SET PREFERENCE`. Each proves the
//! address or password as the throttle allows, then calls the `Game` transition (`join`,
//! `claim`, `record_name`, …) and enters the game for the rest of the mail.

use crate::bulletin::dates::format_time;
use crate::bulletin::settings as text;
use crate::bulletin::{answers, notices};
use crate::command::SignonAs;
use crate::game::{self, Game, Invitation, ObserverLevel, PressLevel, Seat, SeatRefusal, Sender};
use crate::map::Power;
use crate::store::{Audience, MailKind, NewMail};
use crate::variant::{Lookup, Reader};

use super::super::confirm::AddressRequest;
use super::super::refusal::{Refusal, SessionError};
use super::super::session::{Done, Session, Verdict};
use super::super::{JudgeConfig, limits, mailing, password, seats, throttle};

impl Session<'_, '_> {
    pub(in crate::judge) fn create(
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
        if let Some(r) = limits::creation_refusal(self.config, self.tx, &address, self.now)? {
            return Err(r.into());
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
        limits::count_creation(self.tx, &address, self.now)?;
        self.enter_game(g)?;
        self.who = Some(Sender::Master);
        let rules =
            (variant.name() != self.config.variants.standard().name()).then(|| variant.name());
        Done::ok(answers::create(name, rules))
    }

    /// `SIGNON`: the mail speaks, from here on, as a joiner, a power, the master or an
    /// observer of the game named (one sign-on a mail).
    pub(in crate::judge) fn signon(
        &mut self,
        who: SignonAs,
        name: &str,
        pw: &str,
        code: Option<&str>,
    ) -> Verdict {
        if self.who.is_some() || self.observer {
            return Err(Refusal::TwoSignons.into());
        }
        let Some(g) = self.tx.load_game(name)? else {
            return Err(Refusal::BadSignon.into());
        };
        match who {
            SignonAs::Join => self.join(g, pw, code),
            SignonAs::Power(p) => self.signon_power(g, p, pw),
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
            SignonAs::Master => self.signon_master(g, pw),
            // njudge's observer sign-on: an address that observes signs on with the password
            // it was mailed; any other asks to observe (as OBSERVE does).
            SignonAs::Observer if g.observes(self.msg.reply_address()) => {
                let from = self.msg.reply_address().to_string();
                self.observer_signon(g, &from, pw)
            }
            SignonAs::Observer => {
                self.address_request(AddressRequest::Observe(g.name().to_string()))
            }
        }
    }

    /// `SIGNON ?game password`: the address joins a forming game, past the master's entry
    /// gates and, in a private game, with its join password or an invitation's code.
    fn join(&mut self, mut g: Game, pw: &str, code: Option<&str>) -> Verdict {
        let from = self.msg.reply_address().to_string();
        let from_name = self.msg.from_name.clone();
        g.may_join(&from)?;
        // The master's entry gates (SET DEDICATION, ONTIMERAT, RESRAT).
        self.passes_gates(&g)?;
        if !password::long_enough(pw) {
            return Err(Refusal::ShortPassword.into());
        }
        let invitation = if g.is_private() {
            self.private_entry(&g, code)?
        } else {
            None
        };
        let seat = Seat {
            address: from.clone(),
            password_hash: password::hash(self.config.password_cost, pw, self.salt()?),
        };
        let count = g.join(seat, from_name.as_deref(), invitation.as_ref())?;
        let gname = g.name().to_string();
        let start = g.not_before().filter(|t| *t > self.now);
        let more = text::joined(&g, count, start);
        self.enter_game(g)?;
        self.joined = true;
        Done::with_more(answers::signon_join(&gname), more)
    }

    /// After a mail that joined a forming game that did not start: the master is told who
    /// joined and every joiner's preferences, the players already in how many are in now
    /// (njudge's "New Player Signon", issue 38). Joiners are outside the game until it
    /// starts: they read it as its observers would.
    pub(in crate::judge) fn new_player_notices(&mut self) {
        let Some(g) = self.game.as_ref().filter(|g| g.is_forming()) else {
            return;
        };
        let newcomer = self.msg.reply_address();
        let judge = &self.config.name;
        let master = notices::new_player(judge, g, Some(newcomer));
        self.mails.extend(mailing::mails_for(
            g,
            &[Reader::Master],
            &master.subject,
            &master.body,
            None,
        ));
        let others = notices::new_player(judge, g, None);
        for j in g
            .joiners()
            .iter()
            .filter(|j| !j.seat.address.eq_ignore_ascii_case(newcomer))
        {
            self.mails.push(NewMail {
                game: Some(g.name().to_string()),
                audience: Audience::Reader(Reader::Observers),
                recipient: j.seat.address.clone(),
                subject: others.subject.clone(),
                body: others.body.clone(),
                kind: MailKind::Generated,
                in_reply_to: None,
                pictures: Vec::new(),
            });
        }
    }

    /// The way into a private game: its join password, or an invitation's code (used
    /// once; the invitation is returned). Wrong codes are throttled like a seat's
    /// passwords: the game's joining checks at most 10 an hour, so neither can be guessed
    /// by mail.
    fn private_entry(
        &mut self,
        g: &Game,
        code: Option<&str>,
    ) -> Result<Option<Invitation>, SessionError> {
        let key = throttle::join_key(g.name());
        if code.is_some()
            && let Some(until) = throttle::locked_until(self.tx, &key, Sender::Master, self.now)?
        {
            throttle::refused(self.tx, &key, Sender::Master, self.now)?;
            return Err(Refusal::JoinLocked {
                until: format_time(g, until),
            }
            .into());
        }
        let by_invitation = code.and_then(|c| g.invitation(c)).cloned();
        let by_password = match (code, g.settings().join_password.as_deref()) {
            (Some(c), Some(hash)) if by_invitation.is_none() => {
                self.verified.verify(self.tx, hash, c)
            }
            _ => false,
        };
        match by_invitation {
            Some(inv) => Ok(Some(inv)),
            None if by_password => Ok(None),
            None => {
                if code.is_some() {
                    throttle::wrong(self.tx, &key, Sender::Master, self.now)?;
                }
                Err(Refusal::PrivateGame(g.name().to_string()).into())
            }
        }
    }

    /// `SIGNON Pgame password`: the mail speaks for the power (njudge: signing on to an
    /// abandoned power takes it over). A mail from elsewhere than the seat's address is
    /// copied to it.
    fn signon_power(&mut self, mut g: Game, p: Power, pw: &str) -> Verdict {
        let Some(pl) = g.player(p) else {
            return Err(Refusal::BadSignon.into());
        };
        if pl.is_open() {
            let echo = crate::bulletin::seats::takeover_signon_echo(p, g.name());
            return self.take_over(g, p, pw, echo);
        }
        let (hash, registered) = (pl.seat.password_hash.clone(), pl.seat.address.clone());
        self.check_password(&g, Sender::Power(p), &hash, pw)?;
        self.copy_or_name(&mut g, registered);
        self.who = Some(Sender::Power(p));
        // A mail from the seat's player: its mail is read, whatever bounced before.
        g.clear_bouncing(p);
        let echo = answers::signon_power(p, g.name());
        self.enter_game(g)?;
        Done::ok(echo)
    }

    /// A seat signed on from `registered`'s password: a mail from elsewhere is copied to
    /// the registered address; one from it records the name it now gives.
    fn copy_or_name(&mut self, g: &mut Game, registered: String) {
        let from = self.msg.reply_address();
        let from_name = self.msg.from_name.as_deref();
        if !registered.eq_ignore_ascii_case(from) {
            self.copy_to = Some(registered);
        } else if from_name.is_some() && g.name_of(from) != from_name {
            g.record_name(from, from_name);
        }
    }

    /// `SIGNON Mgame password`: the master's seat, or a co-master's (all one seat to the
    /// throttle): the one registered at this address first, then the others.
    fn signon_master(&mut self, mut g: Game, pw: &str) -> Verdict {
        let from = self.msg.reply_address().to_string();
        let mut seats: Vec<(usize, Seat)> = g.master_seats().cloned().enumerate().collect();
        seats.sort_by_key(|(_, s)| !s.address.eq_ignore_ascii_case(&from));
        let (tx, verified) = (self.tx, &mut *self.verified);
        let (index, registered) =
            throttle::check_seat(tx, &g, Sender::Master, self.msg, self.now, || {
                seats
                    .into_iter()
                    .find(|(_, s)| verified.verify(tx, &s.password_hash, pw))
                    .map(|(i, s)| (i, s.address))
            })??;
        self.copy_or_name(&mut g, registered);
        self.who = Some(Sender::Master);
        self.master_seat = index;
        let echo = answers::signon_master(g.name());
        self.enter_game(g)?;
        Done::ok(echo)
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
        if !self.verified.verify(self.tx, &hash, pw) {
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
        if self.takeover_waits(&g, p)? {
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
    /// seat sent too many wrong passwords within the hour checks none from those who sent
    /// them, the right one included; its own address keeps a budget of its own
    /// (`throttle`).
    fn check_password(
        &mut self,
        g: &Game,
        seat: Sender,
        hash: &str,
        pw: &str,
    ) -> Result<(), SessionError> {
        let (tx, verified) = (self.tx, &mut *self.verified);
        throttle::check_seat(tx, g, seat, self.msg, self.now, || {
            verified.verify(tx, hash, pw).then_some(())
        })??;
        Ok(())
    }

    pub(in crate::judge) fn preference(&mut self, powers: &[Power]) -> Verdict {
        let from = self.msg.reply_address().to_string();
        self.game_mut()?.set_preference(&from, powers)?;
        Done::ok(answers::set_preference(powers))
    }
}

/// The rule set a CREATE or SET VARIANT names, from the judge's registry.
pub(in crate::judge) fn find_variant(
    config: &JudgeConfig,
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
        "greywhite" | "grey/white" | "graywhite" | "gray/white" => {
            settings.press.level = PressLevel::GreyWhite
        }
        "whitegrey" | "white/grey" => settings.press.level = PressLevel::WhiteGrey,
        "partial" => settings.press.partial = true,
        "nopartial" => settings.press.partial = false,
        "allpress" => settings.master_reads_all_press = true,
        "noobservers" => settings.press.watch = ObserverLevel::None,
        "anonymous" => {
            settings.anonymous = true;
            settings.addresses_shown = false;
        }
        // A gunboat game is anonymous and without press, as njudge's `gunboat` (issue 38:
        // press stayed on); an option after it may open press again.
        "gunboat" => {
            settings.anonymous = true;
            settings.addresses_shown = false;
            settings.press.level = PressLevel::None;
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
