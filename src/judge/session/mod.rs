//! One incoming message, line by line: who is speaking (SIGNON), each command applied to
//! the game through the game's rule set, and the reply that answers every line.
//!
//! The parts: [`player`] (joining, signing on, the player's settings), [`address`] (the
//! settings of an address, confirmed by it), [`master`] (the master's commands), [`play`]
//! (orders, a rule set's commands, press). Refusals are typed
//! ([`Refusal`]); the reply is written by `bulletin::reply`, the one renderer of replies.

mod address;
mod master;
mod player;

use chrono::{DateTime, Utc};

use crate::bulletin::answers::{self, notes};
use crate::bulletin::{LineVerdict, ReplyLine, listing, render_reply_lines};
use crate::command::{self, Command, LineResult, ParseContext, PlayerCommand};
use crate::game::{Game, Status};
use crate::map::Map;
use crate::rules::Warning;
use crate::store::{Audience, MailKind, NewMail, StoreError, Tx};
use crate::variant::{CommandContext, Sender, Variant};

use super::confirm::CONFIRMATION_HOURS;
use super::refusal::{Refusal, SessionError};
use super::{Incoming, JudgeConfig, password, process};

/// What an accepted command produced for the reply: the echo after `OK`, warnings on it,
/// and lines after it.
pub(super) struct Done {
    pub(super) echo: String,
    pub(super) warnings: Vec<Warning>,
    pub(super) more: Vec<String>,
}

impl Done {
    pub(super) fn ok(echo: impl Into<String>) -> Verdict {
        Ok(Done::new(echo))
    }

    pub(super) fn new(echo: impl Into<String>) -> Done {
        Done {
            echo: echo.into(),
            warnings: Vec::new(),
            more: Vec::new(),
        }
    }

    pub(super) fn with_more(echo: impl Into<String>, more: Vec<String>) -> Verdict {
        Ok(Done {
            more,
            ..Done::new(echo)
        })
    }
}

/// What a command did: accepted, refused with a reason, or failed for the system's
/// reasons (the mail is rolled back).
pub(super) type Verdict = Result<Done, SessionError>;

pub(super) struct Session<'a, 't> {
    pub(super) map: &'static Map,
    pub(super) config: &'a JudgeConfig,
    pub(super) verified: &'a mut password::Verified,
    pub(super) tx: &'a Tx<'t>,
    pub(super) msg: &'a Incoming,
    pub(super) now: DateTime<Utc>,
    /// Who the message speaks as, after its SIGNON (None: nobody yet, or an observer).
    pub(super) who: Option<Sender>,
    /// The message signed on as an observer of `game` (`SIGNON Ogame password`): it may
    /// send press as the game's `SET OBSERVER` allows, and nothing a seat does.
    pub(super) observer: bool,
    pub(super) game: Option<Game>,
    /// The rule set of `game`.
    pub(super) variant: Option<&'static dyn Variant>,
    /// The welcome of a power this mail took over (its index in `mails`): its standing
    /// orders are written once the whole mail is read.
    pub(super) welcome: Option<(usize, crate::map::Power)>,
    pub(super) reply: Vec<ReplyLine>,
    pub(super) mails: Vec<NewMail>,
    pub(super) touched: Vec<String>,
    /// The registered address a SIGNON from elsewhere must be copied to.
    pub(super) copy_to: Option<String>,
    /// How many command lines the message had.
    pub(super) commands: usize,
    /// The pictures the reply carries (`MAP`, `SUMMARY`), in the order asked: their game
    /// and name for the outbox (`pictures::reference`).
    pub(super) reply_pictures: Vec<(String, String)>,
    /// Settings of the reply address waiting for its confirmation (`address`).
    pub(super) pending: Vec<super::confirm::AddressRequest>,
    /// The code this message confirmed.
    pub(super) confirmed: Option<String>,
    /// Which master seat signed on (0: the master, then the co-masters in order).
    pub(super) master_seat: usize,
    /// The master acts as a power (`BECOME`): what it sets is the master's doing.
    pub(super) became: bool,
    /// The line of a `PHASE` line that was refused: the orders after it were written for
    /// that phase and are not applied to the phase open now, up to the next command that
    /// is not an order (issue 38).
    pub(super) refused_phase: Option<usize>,
    /// The mail joined a forming game (`SIGNON ?game`): once it is read, the master and
    /// the players already in are told, unless the game starts.
    pub(super) joined: bool,
    /// njudge's `PHASE …` named another phase than the current one: the orders after it
    /// are not read (until a `PHASE` of the current phase).
    pub(super) other_phase: Option<crate::rules::Phase>,
    /// The line of the master's `BECOME power` and the power: the power's player is sent a
    /// copy of the reply from that line on (njudge).
    pub(super) became_at: Option<(usize, crate::map::Power)>,
}

/// The lines of a message that each rule set it meets takes first
/// ([`Variant::processed_first`]), in line order, with how far each list has been walked.
#[derive(Default)]
struct EarlyLines {
    lists: Vec<(&'static str, Vec<usize>, usize)>,
}

impl EarlyLines {
    /// The index of `variant`'s list, made on first use.
    fn of(&mut self, variant: &'static dyn Variant, lines: &[LineResult]) -> usize {
        if let Some(k) = self
            .lists
            .iter()
            .position(|(name, _, _)| *name == variant.name())
        {
            return k;
        }
        let listed = lines
            .iter()
            .enumerate()
            .filter(|(_, l)| {
                matches!(&l.outcome, Ok(Command::Variant(v)) if variant.processed_first(v))
            })
            .map(|(j, _)| j)
            .collect();
        self.lists.push((variant.name(), listed, 0));
        self.lists.len() - 1
    }

    /// The next line of list `k` not walked yet.
    fn next(&mut self, k: usize) -> Option<usize> {
        let (_, listed, walked) = self.lists.get_mut(k)?;
        let j = listed.get(*walked).copied()?;
        *walked += 1;
        Some(j)
    }
}

/// After this many unreadable lines the rest of a message is not read (a mail of junk
/// gets a short answer, not an echo of itself).
const MAX_ERRORS: usize = 50;

/// Lines answered in a mail that has not signed on; the rest are not read. A stranger's
/// mail must not draw a long reply to whatever address it names.
const MAX_UNSIGNED_LINES: usize = 50;

/// The most a reply to a mail that has not signed on, from an address that has not proved
/// itself, may hold (a listing, a history); the rest is cut.
const MAX_UNPROVEN_REPLY_BYTES: usize = 12 * 1024;

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
            who: None,
            observer: false,
            game: None,
            variant: None,
            welcome: None,
            reply: Vec::new(),
            mails: Vec::new(),
            touched: Vec::new(),
            copy_to: None,
            commands: 0,
            reply_pictures: Vec::new(),
            pending: Vec::new(),
            confirmed: None,
            master_seat: 0,
            became: false,
            refused_phase: None,
            joined: false,
            other_phase: None,
            became_at: None,
        }
    }

    pub(super) fn command_count(&self) -> usize {
        self.commands
    }

    pub(super) fn note(&mut self, line: impl Into<String>) {
        self.reply.push(ReplyLine::Note(line.into()));
    }

    /// Says that the mail reuses the Message-ID of an earlier mail of its sender with other
    /// content: it is read as a new mail (a client that reuses IDs, or someone who sent a
    /// mail under the sender's ID first, cannot make it vanish).
    pub(super) fn note_reused_id(&mut self) {
        self.note(notes::REUSED_ID);
    }

    /// Reads and applies every line.
    pub(super) fn run(&mut self) -> Result<(), StoreError> {
        self.confirm_by_subject()?;
        let lines = self.read_lines()?;
        self.commands = lines.len();
        if lines.is_empty() && self.confirmed.is_none() {
            self.note(notes::NO_COMMANDS);
        }
        let mut errors = 0;
        // The reply to each line, kept apart so that lines a rule set takes first (a
        // declaration of war before the moves it allows, H1) still answer in line order.
        let mut answers: Vec<Option<Vec<ReplyLine>>> = vec![None; lines.len()];
        let mut early = EarlyLines::default();
        let mut unsigned = 0;
        for (i, line) in lines.iter().enumerate() {
            if line.outcome.is_err() {
                errors += 1;
            }
            if self.who.is_none() {
                unsigned += 1;
                if unsigned > MAX_UNSIGNED_LINES {
                    let stop = notes::unsigned_stop(MAX_UNSIGNED_LINES, lines.len() - i);
                    self.flush(&mut answers);
                    self.note(stop);
                    return self.after_lines();
                }
            }
            if errors > MAX_ERRORS {
                let stop = notes::too_many_errors(line.line, lines.len() - i);
                self.flush(&mut answers);
                self.note(stop);
                return self.after_lines();
            }
            if answers.get(i).is_some_and(Option::is_some) {
                continue;
            }
            if self.takes_first_later(line) {
                self.take_first_after(i, &lines, &mut answers, &mut early)?;
            }
            let answer = self.answer(line)?;
            if let Some(slot) = answers.get_mut(i) {
                *slot = Some(answer);
            }
        }
        self.flush(&mut answers);
        self.after_lines()
    }

    /// Answers, in line order, every line after line `i` that the rule set takes first and
    /// that is not answered yet.
    ///
    /// Which lines a rule set takes first depends on the rule set and the line alone, so
    /// they are listed once per rule set the message meets, not looked for again before
    /// each order: a mail of thousands of orders costs time in proportion to its lines, not
    /// to their square. Lines before `i` are all answered (lines are answered in order, or
    /// earlier), so a rule set's list is walked once: after a walk at line `i` every listed
    /// line after `i` is answered, and the next walk would find nothing. Taking a line first
    /// never changes the message's game or rule set (only SIGNON, CREATE and OBSERVE do).
    fn take_first_after(
        &mut self,
        i: usize,
        lines: &[LineResult],
        answers: &mut [Option<Vec<ReplyLine>>],
        early: &mut EarlyLines,
    ) -> Result<(), StoreError> {
        let Some(variant) = self.variant else {
            return Ok(());
        };
        let k = early.of(variant, lines);
        while let Some(j) = early.next(k) {
            if j <= i || answers.get(j).is_some_and(Option::is_some) {
                continue;
            }
            let Some(later) = lines.get(j) else {
                continue;
            };
            let answer = self.answer(later)?;
            if let Some(slot) = answers.get_mut(j) {
                *slot = Some(answer);
            }
        }
        Ok(())
    }

    /// Appends the lines' answers to the reply, in line order.
    fn flush(&mut self, answers: &mut [Option<Vec<ReplyLine>>]) {
        for a in answers.iter_mut() {
            if let Some(lines) = a.take() {
                self.reply.extend(lines);
            }
        }
    }

    /// Applies one line; returns its answer (the reply lines it made).
    fn answer(&mut self, line: &LineResult) -> Result<Vec<ReplyLine>, StoreError> {
        let before = self.reply.len();
        self.line(line)?;
        Ok(self.reply.split_off(before))
    }

    /// Whether the game's rule set takes this line before the unit orders of the mail.
    fn taken_first(&self, line: &LineResult) -> bool {
        match (&line.outcome, self.variant) {
            (Ok(Command::Variant(v)), Some(variant)) => variant.processed_first(v),
            _ => false,
        }
    }

    /// Whether, before this line, the lines the rule set takes first must be taken: it is
    /// a unit order or a rule set's order that may depend on them.
    fn takes_first_later(&self, line: &LineResult) -> bool {
        matches!(
            &line.outcome,
            Ok(Command::Order(_)) | Ok(Command::Variant(_))
        ) && !self.taken_first(line)
    }

    /// What follows the lines: a forming game that filled up starts; a capped mail says so.
    fn after_lines(&mut self) -> Result<(), StoreError> {
        self.keep_seat_proof();
        self.save_game()?;
        // A forming game that is full starts once the whole message is read, so that the
        // last joiner's SET PREFERENCE counts.
        let joined = std::mem::take(&mut self.joined);
        if let Some(g) = self.game.as_mut()
            && g.may_start(self.now)
        {
            let mails = process::start_game(self.map, self.config, self.tx, g, self.now)?;
            self.mails.extend(mails);
            let started = notes::game_starts(g.name());
            self.note(started);
        } else if joined {
            // With its preferences, as the whole mail set them (njudge's New Player Signon).
            self.new_player_notices();
        }
        if self.msg.size_capped {
            // The mail layer cut the text at the end of a line: every line before the first
            // unread one was read whole, and nothing of that line or after it.
            let unread = self.msg.text.bytes().filter(|&b| b == b'\n').count() + 1;
            self.note(notes::size_capped(unread));
        }
        Ok(())
    }

    /// The message's lines, read in the context of the game its SIGNON names: the phase
    /// decides how orders read (a move in a retreat phase is a retreat), and the game's rule
    /// set whether ballots are read from press to the master (H19).
    ///
    /// The game is found by reading up to the SIGNON only; the lines are read whole once
    /// more in the game's context (or once only, without a SIGNON). Only the errors the
    /// reply can show (the first [`MAX_ERRORS`]) are given suggestions.
    fn read_lines(&self) -> Result<Vec<LineResult>, StoreError> {
        let any = self.config.variants.any_grammar();
        let unknown = ParseContext {
            phase: None,
            grammar: Some(&any),
        };
        let first = command::parse_until_signon(&self.msg.text, self.map, &unknown, MAX_ERRORS);
        let signon_game = first.iter().find_map(|l| match &l.outcome {
            Ok(Command::Player(PlayerCommand::Signon { game, .. })) => Some(game.to_string()),
            _ => None,
        });
        let Some(name) = signon_game else {
            // No SIGNON: `first` is every line.
            return Ok(first);
        };
        let found = match self.tx.load_game(&name) {
            // A suspended game's lines are refused one by one; they read as in no game.
            Err(StoreError::Suspended { .. }) => None,
            other => other?,
        };
        let (phase, grammar) = match found {
            Some(g) => (
                (*g.status() != Status::Forming).then_some(g.position().phase.kind),
                self.config
                    .variants
                    .grammar_for(process::variant_of(self.config, &g)?),
            ),
            None => (None, any),
        };
        let cx = ParseContext {
            phase,
            grammar: Some(&grammar),
        };
        Ok(command::parse_message_reporting(
            &self.msg.text,
            self.map,
            &cx,
            MAX_ERRORS,
        ))
    }

    fn line(&mut self, line: &LineResult) -> Result<(), StoreError> {
        self.line_answered(line)?;
        self.note_phase_line(line);
        Ok(())
    }

    /// After a line: a `PHASE` line that cannot be read holds back the orders after it
    /// (they were written for the phase it meant), as a `PHASE` read for another phase does
    /// (`other_phase`, `commands::orders`); a `PHASE` line that is read ends the hold, and
    /// so only a `PHASE` of the phase open now lets orders through again (issue 38).
    fn note_phase_line(&mut self, line: &LineResult) {
        let is_phase = line
            .text
            .split_whitespace()
            .next()
            .is_some_and(|w| w.eq_ignore_ascii_case("phase"));
        if is_phase {
            self.refused_phase = line.outcome.is_err().then_some(line.line);
        }
    }

    fn line_answered(&mut self, line: &LineResult) -> Result<(), StoreError> {
        let verdict = match &line.outcome {
            Err(_) => {
                self.reply.push(ReplyLine::Verdict {
                    number: line.line,
                    text: line.text.clone(),
                    verdict: LineVerdict::parsed(line.verdict(self.map)),
                });
                return Ok(());
            }
            Ok(cmd) => {
                if matches!(cmd, Command::Player(_) | Command::Master(_)) {
                    self.save_game()?;
                }
                match self.apply(cmd, line) {
                    Ok(done) => Ok(done),
                    Err(SessionError::Refused(r)) => Err(r),
                    // A line that reads a suspended game is refused; the rest go on.
                    Err(SessionError::System(StoreError::Suspended { game, reason })) => {
                        Err(Refusal::Suspended { game, reason })
                    }
                    Err(SessionError::System(e)) => return Err(e),
                }
            }
        };
        if let (Ok(_), Ok(Command::Master(command::MasterCommand::Become { power }))) =
            (&verdict, &line.outcome)
        {
            self.became_at = Some((line.line, *power));
        }
        match verdict {
            Ok(done) => {
                self.reply.push(ReplyLine::Verdict {
                    number: line.line,
                    text: line.text.clone(),
                    verdict: LineVerdict::Ok(done.echo),
                });
                for w in done.warnings {
                    self.reply.push(ReplyLine::Verdict {
                        number: line.line,
                        text: line.text.clone(),
                        verdict: LineVerdict::Warning {
                            code: w.code.to_string(),
                            sentence: w.sentence,
                        },
                    });
                }
                self.reply
                    .extend(done.more.into_iter().map(ReplyLine::Note));
            }
            Err(r) => {
                self.reply.push(ReplyLine::Verdict {
                    number: line.line,
                    text: line.text.clone(),
                    verdict: LineVerdict::Error {
                        code: r.code().to_string(),
                        sentence: r.to_string(),
                    },
                });
                for (code, sentence) in r.also() {
                    self.reply.push(ReplyLine::Verdict {
                        number: line.line,
                        text: line.text.clone(),
                        verdict: LineVerdict::Error {
                            code: code.to_string(),
                            sentence: sentence.clone(),
                        },
                    });
                }
            }
        }
        Ok(())
    }

    fn apply(&mut self, cmd: &Command, line: &LineResult) -> Verdict {
        if let (Some(at), Command::Order(_) | Command::Variant(_)) = (self.refused_phase, cmd) {
            return Err(Refusal::AfterRefusedPhase(at).into());
        }
        match cmd {
            Command::Player(p) => {
                self.variant_allows(p, &line.text)?;
                self.player(p)
            }
            Command::Master(m) => self.master(m),
            Command::Order(_) | Command::Variant(_) if self.other_phase.is_some() => {
                let phase = self.other_phase.map(|p| p.to_string()).unwrap_or_default();
                Err(Refusal::ForAnotherPhase(phase).into())
            }
            Command::Order(o) => self.order(o.order),
            Command::Press(p) => self.press(p),
            Command::Variant(v) => self.variant_command(v, line),
        }
    }

    /// Writes the game if a line changed it since it was last written. Orders, press and a
    /// rule set's commands change the game in memory and read nothing from the database,
    /// so a mail of a thousand orders writes its game once, not a thousand times; every
    /// other command may read the game from the database (LIST, a second game's command),
    /// so it is written before them, and before what follows the lines.
    fn save_game(&mut self) -> Result<(), StoreError> {
        if let Some(g) = self.game.as_mut()
            && g.unsaved()
        {
            self.tx.save_game(g)?;
            g.mark_saved();
        }
        Ok(())
    }

    /// Makes `g` the message's game, with its rule set.
    pub(super) fn enter_game(&mut self, g: Game) -> Result<(), StoreError> {
        self.variant = Some(process::variant_of(self.config, &g)?);
        self.touched.push(g.name().to_string());
        self.game = Some(g);
        Ok(())
    }

    pub(super) fn game_mut(&mut self) -> Result<&mut Game, Refusal> {
        self.game.as_mut().ok_or(Refusal::NotSignedOn)
    }

    /// The game and its rule set, once signed on.
    pub(super) fn game_and_variant(
        &mut self,
    ) -> Result<(&mut Game, &'static dyn Variant), Refusal> {
        match (self.game.as_mut(), self.variant) {
            (Some(g), Some(v)) => Ok((g, v)),
            _ => Err(Refusal::NotSignedOn),
        }
    }

    /// H1: whether the game's rule set allows a player command now (a draw where there are
    /// no draws, say). Only commands in a running game are asked about.
    fn variant_allows(&self, cmd: &PlayerCommand, text: &str) -> Result<(), Refusal> {
        let (Some(g), Some(variant), Some(sender)) = (self.game.as_ref(), self.variant, self.who)
        else {
            return Ok(());
        };
        if *g.status() != Status::Active {
            return Ok(());
        }
        let parts = g.view_parts();
        let cx = CommandContext {
            game: g.view(self.map, &parts),
            sender,
            text,
        };
        variant
            .allows_player_command(&cx, g.variant_state(), cmd)
            .map_err(Refusal::Variant)
    }

    pub(super) fn salt(&self) -> Result<u64, StoreError> {
        salt(self.config, self.tx)
    }

    /// Saves the game, queues the reply and the other mails; returns how many were queued
    /// and the games touched.
    pub(super) fn finish(mut self) -> Result<(usize, Vec<String>), StoreError> {
        if let (Some(Sender::Power(p)), Some(g)) = (self.who, self.game.as_ref())
            && g.orders_changed()
        {
            // A duplex player's reply lists the standing orders of every power they hold.
            for q in g.held_with(p) {
                let listing = listing::standing_orders(self.map, g, q);
                self.reply.extend(listing.into_iter().map(ReplyLine::Note));
            }
        }
        if let (Some(g), Some(variant)) = (self.game.as_mut(), self.variant)
            && g.changed()
        {
            g.note_all_in(self.map, variant, self.now);
            self.tx.save_game(g)?;
        }
        let game = self.game.as_ref().map(|g| g.name().to_string());
        let subject = answers::reply_subject(&self.config.name, &self.msg.subject);
        let mut body = render_reply_lines(&self.reply);
        if self.who.is_none() && !self.address_proven()? {
            body = answers::cap_unproven_reply(body, MAX_UNPROVEN_REPLY_BYTES);
        }
        let body = self.bounded_reply(body)?;
        // A reply with pictures is about the game of its first.
        let reply_game = match self.reply_pictures.first() {
            Some((g, _)) => Some(g.clone()),
            None => game.clone(),
        };
        let pictures: Vec<String> = std::mem::take(&mut self.reply_pictures)
            .into_iter()
            .map(|(_, r)| r)
            .collect();
        // Settings of an address that has not proved itself wait for its confirmation: the
        // reply asks for it (its code in the subject), or, when the address was sent one
        // within the day, no reply goes at all. A copy never carries the code.
        let (reply_subject, reply_body) = match self.pending.is_empty() {
            true => (Some(subject.clone()), body.clone()),
            false => match self.confirmation_request()? {
                Some((code, requests)) => (
                    Some(answers::confirmation_subject(&self.config.name, &code)),
                    answers::confirmation_reply(&body, &code, &requests, CONFIRMATION_HOURS),
                ),
                // A signed-on mail is answered all the same (its orders need their answers),
                // without a second code.
                None if self.who.is_some() => {
                    (Some(subject.clone()), answers::confirmation_pending(&body))
                }
                None => {
                    tracing::info!(
                        to = %self.msg.reply_address(),
                        "no reply: a confirmation went to this address within the day"
                    );
                    (None, String::new())
                }
            },
        };
        let mut count = 0;
        if let Some(reply_subject) = reply_subject {
            let reply = NewMail {
                game: reply_game,
                audience: Audience::Reply,
                recipient: self.msg.reply_address().to_string(),
                subject: reply_subject,
                body: reply_body,
                kind: MailKind::Replied,
                in_reply_to: self.msg.message_id.clone(),
                pictures,
            };
            self.tx.queue_mail(&reply, self.now)?;
            count += 1;
        }
        count += self.queue_copies(game.as_deref(), &subject, body)?;
        if let (Some((i, p)), Some(g)) = (self.welcome, self.game.as_ref())
            && g.orders_changed()
            && let Some(m) = self.mails.get_mut(i)
            && let Some(at) = m
                .body
                .rfind(&crate::bulletin::seats::welcome_standing_heading(p))
        {
            m.body.truncate(at);
            m.body.push_str(&crate::bulletin::seats::welcome_standing(
                self.map,
                p,
                g.orders_of(p),
            ));
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

impl Session<'_, '_> {
    /// The copies of the reply: to a seat's registered address when the mail signed on
    /// from another, and to a power's player when the master acted as the power.
    fn queue_copies(
        &mut self,
        game: Option<&str>,
        subject: &str,
        body: String,
    ) -> Result<usize, StoreError> {
        let mut count = 0;
        if let Some(copy) = self.became_copy(game) {
            self.tx.queue_mail(&copy, self.now)?;
            count += 1;
        }
        if let Some(registered) = self.copy_to.take() {
            self.tx.queue_mail(
                &NewMail {
                    game: game.map(str::to_string),
                    audience: Audience::SignonCopy,
                    recipient: registered,
                    subject: answers::signon_copy_subject(subject, self.msg.reply_address()),
                    body,
                    kind: MailKind::Generated,
                    in_reply_to: None,
                    pictures: Vec::new(),
                },
                self.now,
            )?;
            count += 1;
        }
        Ok(count)
    }

    /// After the master's `BECOME power`: the copy of the reply from that line on, for the
    /// power's player (njudge sends the player what was done in their name). The lines
    /// before `BECOME` are the master's own and are not copied.
    fn became_copy(&self, game: Option<&str>) -> Option<NewMail> {
        let (n, power) = self.became_at?;
        let g = self.game.as_ref()?;
        let player = g.player(power)?;
        if player.seat.address.is_empty() {
            return None;
        }
        let from = self
            .reply
            .iter()
            .position(|l| matches!(l, ReplyLine::Verdict { number, .. } if *number >= n))?;
        let lines = self.reply.get(from..)?;
        Some(NewMail {
            game: game.map(str::to_string),
            audience: Audience::power(power),
            recipient: player.seat.address.clone(),
            subject: crate::bulletin::seats::became_subject(&self.config.name, g.name(), power),
            body: crate::bulletin::seats::became_text(g.name(), power, &render_reply_lines(lines)),
            kind: MailKind::Generated,
            in_reply_to: None,
            pictures: Vec::new(),
        })
    }
}

/// A fresh salt for a password's hash: the judge's seed and the next of its counter.
pub(super) fn salt(config: &JudgeConfig, tx: &Tx<'_>) -> Result<u64, StoreError> {
    Ok(config.seed ^ tx.next_counter("salt")?.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}
