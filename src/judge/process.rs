//! Running a game's phases: the start of a game, processing a phase into a results
//! bulletin, the end of a game, and what a clock tick does at each deadline.

use chrono::{DateTime, Utc};

use crate::bulletin::notices;
use crate::bulletin::results::{
    Extras, Parts, ResultsHeader, ending_sentence, render_results, results_subject,
};
use crate::bulletin::settings::CopyFor;
use crate::game::{self, Abandonment, DueEvent, Ending, Game, Status};
use crate::map::Map;
use crate::picture::{Drawing, PhaseScene};
use crate::store::{Audience, MailKind, NewMail, StoreError, Tx};
use crate::variant::{self, Line, Lookup, Reader, Variant};

use super::mailing::{bulletin_for_everyone, everyone, mails_for};
use super::refusal::Unplayable;
use super::{JudgeConfig, pictures};

/// The game's rule set, from the registry, with its stored state checked. A stored game
/// whose rule set this judge does not run, or whose state that rule set cannot read, cannot
/// be played: it is reported as unreadable, not played by other rules.
pub(super) fn variant_of(
    config: &JudgeConfig,
    g: &Game,
) -> Result<&'static dyn Variant, StoreError> {
    match config.variants.by_name(g.variant()) {
        Lookup::Found(v) => match v.check_state(g.variant_state()) {
            Ok(()) => Ok(v),
            Err(e) => Err(StoreError::Corrupt {
                game: g.name().to_string(),
                reason: e.to_string(),
            }),
        },
        Lookup::NotImplemented(name) => Err(StoreError::Corrupt {
            game: g.name().to_string(),
            reason: Unplayable::NotImplemented(name).to_string(),
        }),
        Lookup::Unknown => Err(StoreError::Corrupt {
            game: g.name().to_string(),
            reason: Unplayable::Unknown(g.variant().to_string()).to_string(),
        }),
    }
}

/// Every player has joined (seven, or as many as `SET PLAYERS` said; or the master sent `FORCE BEGIN` with fewer): assign the
/// powers (seeded; a power nobody got is a dummy, open for takeover), open the rule set's
/// first phase (Spring 1901 in the standard game).
pub(super) fn start_game(
    map: &Map,
    config: &JudgeConfig,
    tx: &Tx<'_>,
    g: &mut Game,
    now: DateTime<Utc>,
) -> Result<Vec<NewMail>, StoreError> {
    let variant = variant_of(config, g)?;
    let d = g.start(map, variant, now);
    tx.save_snapshot(g)?;
    let subject = crate::bulletin::settings::start_subject(&config.name, g);
    let render = |reader: Reader| {
        let to = match reader {
            Reader::Power(p) => CopyFor::Power(p),
            Reader::Master => CopyFor::Master,
            Reader::Observers => CopyFor::Others,
        };
        crate::bulletin::settings::start_text(g, variant, map, &config.name, d, to)
    };
    tx.add_history(
        g.name(),
        now,
        &g.position().phase.to_string(),
        &subject,
        &render(Reader::Observers),
    )?;
    Ok(bulletin_for_everyone(g, &subject, &render))
}

/// Ends the game and announces it.
pub(super) fn finish(
    config: &JudgeConfig,
    tx: &Tx<'_>,
    g: &mut Game,
    ending: Ending,
    now: DateTime<Utc>,
) -> Result<Vec<NewMail>, StoreError> {
    finish_declared(config, tx, g, ending, None, now)
}

/// Ends the game and announces it, with what the master declared (`DECLARE`) first: each
/// reader's copy says how it ended and reveals the players, unless the game keeps them
/// secret (the master reads them all the same).
pub(super) fn finish_declared(
    config: &JudgeConfig,
    tx: &Tx<'_>,
    g: &mut Game,
    ending: Ending,
    declared: Option<&crate::command::Declaration>,
    now: DateTime<Utc>,
) -> Result<Vec<NewMail>, StoreError> {
    let subject = notices::subject(&config.name, g.name(), "Game over");
    let over = ending.clone();
    g.finish(ending);
    let render = |reader: Reader| {
        crate::bulletin::settings::game_over_text(g, declared, &over, reader == Reader::Master)
    };
    tx.add_history(
        g.name(),
        now,
        &g.position().phase.to_string(),
        &subject,
        &render(Reader::Observers),
    )?;
    let mut mails = bulletin_for_everyone(g, &subject, &render);
    // The centre chart goes with each copy whose reader wants pictures.
    let mut chart = None;
    for m in &mut mails {
        if tx.map_choice(&m.recipient)?.unwrap_or(config.maps) {
            if chart.is_none() {
                chart = Some(pictures::keep_chart(tx, g)?);
            }
            m.pictures.extend(chart.clone());
        }
    }
    Ok(mails)
}

fn header(config: &JudgeConfig, g: &Game, next_deadline: Option<DateTime<Utc>>) -> ResultsHeader {
    ResultsHeader {
        judge: config.name.clone(),
        game: g.name().to_string(),
        variant: g.variant().to_string(),
        next_deadline,
        zone: crate::bulletin::dates::zone(g),
    }
}

/// The results the standing orders would give now, for the master's PREVIEW: the phase
/// processed on a copy of the game, rendered as the master would read it.
pub(super) fn preview(map: &Map, config: &JudgeConfig, g: &Game) -> Result<String, StoreError> {
    let variant = variant_of(config, g)?;
    let parts = g.view_parts();
    let mut state = g.variant_state().clone();
    let processed = variant::process_phase(variant, &mut state, &g.view(map, &parts));
    let end = end_lines(processed.end.as_ref());
    let extras = Extras {
        variant,
        parts: Parts {
            immediate: g.immediate(),
            before: &processed.before,
            after: &processed.after,
            summary: &processed.summary,
            end: &end,
        },
        reader: Reader::Master,
    };
    Ok(render_results(
        map,
        &header(config, g, None),
        g.position(),
        &processed.outcome,
        &extras,
    ))
}

/// The lines that end a game: the rule set's, or the standard sentence.
fn end_lines(end: Option<&variant::GameEnd>) -> Vec<Line> {
    match end {
        None => Vec::new(),
        Some(e) => e
            .lines
            .clone()
            .unwrap_or_else(|| vec![Line::public(ending_sentence(&e.ending))]),
    }
}

/// Adjudicates the current phase with the standing orders (missing ones take the
/// civil-disorder defaults) through the game's rule set, mails each reader its copy of the
/// results, opens the next phase (or ends the game), and saves a snapshot of it.
pub(super) fn process_game(
    map: &Map,
    config: &JudgeConfig,
    tx: &Tx<'_>,
    g: &mut Game,
    now: DateTime<Utc>,
) -> Result<Vec<NewMail>, StoreError> {
    Ok(process_game_with_outcome(map, config, tx, g, now)?.0)
}

/// [`process_game`], also returning the adjudicator's outcome.
pub(super) fn process_game_with_outcome(
    map: &Map,
    config: &JudgeConfig,
    tx: &Tx<'_>,
    g: &mut Game,
    now: DateTime<Utc>,
) -> Result<(Vec<NewMail>, crate::rules::PhaseOutcome), StoreError> {
    let variant = variant_of(config, g)?;
    let game::Advanced {
        before,
        processed,
        seq,
        immediate,
        postal,
        dropping,
        voters_before,
        next_deadline,
        ending,
    } = g.advance(map, variant, now);
    let end = end_lines(processed.end.as_ref());
    let head = header(config, g, next_deadline);
    let render = |reader: Reader| {
        let extras = Extras {
            variant,
            parts: Parts {
                immediate: &immediate,
                before: &processed.before,
                after: &processed.after,
                summary: &processed.summary,
                end: &end,
            },
            reader,
        };
        render_results(map, &head, &before, &processed.outcome, &extras)
    };
    let subject = results_subject(&config.name, g.name(), before.phase);
    tx.add_history(
        g.name(),
        now,
        &before.phase.to_string(),
        &subject,
        &render(Reader::Observers),
    )?;
    let mut mails = bulletin_for_everyone(g, &subject, &render);
    // The picture of the phase, one for every copy (H20: only what every reader may read),
    // kept as what it shows and drawn when the copies are sent; each copy carries it if its
    // reader wants maps.
    let phase = before.phase.to_string();
    let scene = draw(
        map,
        variant,
        g,
        &before,
        &processed.outcome.results,
        &processed.outcome.after.dislodged,
        now,
    );
    let picture = pictures::keep_phase(tx, g.name(), &phase, seq, &Drawing::Phase(scene))?;
    for m in &mut mails {
        if tx.map_choice(&m.recipient)?.unwrap_or(config.maps) {
            m.pictures.push(picture.clone());
        }
    }
    // Postal press goes out with the results.
    for (readers, subject, body) in postal {
        mails.extend(mails_for(g, &readers, &subject, &body, None));
    }
    if ending.is_none() {
        let limit = g.settings().abandon_after;
        for p in dropping {
            mails.extend(super::seats::abandon(
                config,
                g,
                p,
                Abandonment::MissedPhases(limit),
                before.phase,
                true,
            ));
        }
    }
    // Draw votes and concessions last while the powers in the game stay the same.
    let voters_after = g.draw_voters(map, variant);
    if ending.is_none() && voters_after != voters_before {
        let subject = notices::subject(&config.name, g.name(), "Votes cleared");
        for (power, vote) in g.clear_votes() {
            let text =
                crate::bulletin::settings::votes_cleared_text(g.name(), &vote, &voters_after);
            mails.extend(mails_for(g, &[Reader::Power(power)], &subject, &text, None));
        }
    }
    tx.save_snapshot(g)?;
    if let Some(e) = ending {
        mails.extend(finish(config, tx, g, e, now)?);
    } else if let Some(e) = g.agreed_ending(map, variant) {
        // A seat abandoned leaves the players who agreed a draw or a concession alone.
        mails.extend(finish(config, tx, g, e, now)?);
    }
    Ok((mails, processed.outcome))
}

/// The picture of a phase of `g`: the board it started from, its orders and results (none
/// for the phase now open) and the rule set's marks as the game stands now (H20).
fn draw(
    map: &Map,
    variant: &dyn Variant,
    g: &Game,
    position: &crate::rules::Position,
    results: &[crate::rules::OrderResult],
    dislodged: &[crate::rules::DislodgedUnit],
    now: DateTime<Utc>,
) -> PhaseScene {
    let parts = g.view_parts();
    let scene = crate::picture::Scene {
        title: crate::bulletin::pictures::phase_title(g, position.phase, now),
        position,
        results,
        dislodged,
        marks: variant.picture_marks(&g.view(map, &parts), g.variant_state()),
    };
    PhaseScene::of(&scene)
}

/// Which picture of a game a phase names.
pub(super) enum PhasePicture {
    /// The board of the phase open now, drawn afresh.
    Open { phase: String, drawing: Drawing },
    /// A processed phase: the picture drawn when it was processed, if it has one.
    Processed { phase: String },
}

/// Which picture of `g` a phase names (None: the phase now open). The open phase of a
/// running game is drawn afresh, without its orders (private until processed) (`MAP`,
/// `dipjudge map`).
pub(super) fn picture_of(
    map: &Map,
    config: &JudgeConfig,
    g: &Game,
    phase: Option<crate::rules::Phase>,
    now: DateTime<Utc>,
) -> Result<PhasePicture, StoreError> {
    let current = g.position().phase;
    let phase = phase.unwrap_or(current);
    if phase == current && matches!(g.status(), Status::Active | Status::Paused) {
        let variant = variant_of(config, g)?;
        let scene = draw(map, variant, g, g.position(), &[], &[], now);
        return Ok(PhasePicture::Open {
            phase: phase.to_string(),
            drawing: Drawing::Phase(scene),
        });
    }
    Ok(PhasePicture::Processed {
        phase: phase.to_string(),
    })
}

/// Removes a forming game nobody joined once it expired, and tells its master; true if it
/// did.
fn expire(
    config: &JudgeConfig,
    tx: &Tx<'_>,
    g: &Game,
    expiry: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Result<bool, StoreError> {
    if now < expiry {
        return Ok(false);
    }
    tx.remove_game(g.name())?;
    let n = notices::game_removed(&config.name, g);
    tx.queue_mail(
        &NewMail {
            game: Some(g.name().to_string()),
            audience: Audience::MASTER,
            recipient: g.master().address.clone(),
            subject: n.subject,
            body: n.body,
            kind: MailKind::Generated,
            in_reply_to: None,
            pictures: Vec::new(),
        },
        now,
    )?;
    Ok(true)
}

/// What a tick does for one game; true if anything happened.
pub(super) fn tick_game(
    map: &Map,
    config: &JudgeConfig,
    tx: &Tx<'_>,
    name: &str,
    now: DateTime<Utc>,
    last_tick: Option<DateTime<Utc>>,
) -> Result<bool, StoreError> {
    let Some(mut g) = tx.load_game(name)? else {
        return Ok(false);
    };
    if let Some(expiry) = g.expires() {
        return expire(config, tx, &g, expiry, now);
    }
    // A full game waiting for the start time its master set starts at it.
    if g.may_start(now) {
        let mails = start_game(map, config, tx, &mut g, now)?;
        for m in &mails {
            tx.queue_mail(m, now)?;
        }
        tx.save_game(&g)?;
        return Ok(true);
    }
    let Some(deadline) = g.deadline() else {
        return Ok(false);
    };
    if !g.is_active() {
        return Ok(false);
    }
    let variant = variant_of(config, &g)?;
    let mut mails = match g.due(map, variant, now, last_tick) {
        DueEvent::Nothing => return Ok(false),
        DueEvent::Held => {
            tx.save_game(&g)?;
            return Ok(false);
        }
        DueEvent::Remind => remind(config, &mut g, map, variant, deadline),
        DueEvent::Late => late(config, &mut g, map, variant, deadline),
        DueEvent::Process | DueEvent::ProcessEarly => process_game(map, config, tx, &mut g, now)?,
        DueEvent::GraceOver if g.settings().nmr => process_game(map, config, tx, &mut g, now)?,
        DueEvent::GraceOver => grace_over(config, &mut g, map, variant),
        DueEvent::TimeWarp => {
            let new = g.time_warp(now);
            let n = notices::time_warp(&config.name, &g, last_tick, now, new);
            everyone(&g, &n.subject, &n.body, None)
        }
    };
    if let Some(base) = &config.web_base_url {
        super::weblinks::add_links(tx, &g, base, &mut mails, now)?;
    }
    for m in &mails {
        tx.queue_mail(m, now)?;
    }
    tx.save_game(&g)?;
    Ok(true)
}

/// The reminder of `deadline`, to each power whose orders are missing.
fn remind(
    config: &JudgeConfig,
    g: &mut Game,
    map: &Map,
    variant: &dyn Variant,
    deadline: DateTime<Utc>,
) -> Vec<NewMail> {
    g.note_reminded();
    let mut mails = Vec::new();
    for p in g.missing_powers(map, variant) {
        let status = g.order_status(map, variant, p);
        let n = notices::reminder(&config.name, g, p, deadline, status);
        mails.extend(mails_for(g, &[Reader::Power(p)], &n.subject, &n.body, None));
    }
    mails
}

/// The late notices: each late power is told, and everyone reads the late powers everyone
/// may know of (the master also those late with orders only they and the master may know
/// of, H20).
fn late(
    config: &JudgeConfig,
    g: &mut Game,
    map: &Map,
    variant: &dyn Variant,
    deadline: DateTime<Utc>,
) -> Vec<NewMail> {
    let judge = &config.name;
    let grace_end = g.grace_end().unwrap_or(deadline);
    let late = g.note_late(map, variant);
    let mut mails = Vec::new();
    for p in &late {
        let status = g.order_status(map, variant, *p);
        let n = notices::late_notice(judge, g, *p, status, grace_end);
        mails.extend(mails_for(
            g,
            &[Reader::Power(*p)],
            &n.subject,
            &n.body,
            None,
        ));
    }
    let named = g.public_missing_powers(map, variant);
    let unnamed: Vec<_> = late
        .iter()
        .filter(|p| !named.contains(p))
        .copied()
        .collect();
    let notice =
        |reader: Reader| notices::late_powers(judge, g, &named, &unnamed, grace_end, reader);
    let subject = notice(Reader::Observers).subject;
    let render = |reader: Reader| notice(reader).body;
    mails.extend(bulletin_for_everyone(g, &subject, &render));
    mails
}

/// The end of a NONMR game's grace with orders missing: each late player leaves (and is
/// told), and the game waits for replacements (the master decides: PROCESS, or a new
/// player). A quiet game tells the master alone (and each late player).
fn grace_over(
    config: &JudgeConfig,
    g: &mut Game,
    map: &Map,
    variant: &dyn Variant,
) -> Vec<NewMail> {
    let judge = &config.name;
    let late = g.public_missing_powers(map, variant);
    let mut mails = Vec::new();
    for p in &late {
        // The late player is told; a power nobody played is abandoned already.
        if let Some(address) = g
            .player(*p)
            .filter(|pl| pl.is_playing())
            .map(|pl| pl.seat.address.clone())
            && g.abandon(*p, Abandonment::Late)
        {
            mails.push(NewMail {
                game: Some(g.name().to_string()),
                audience: Audience::power(*p),
                recipient: address,
                subject: crate::bulletin::seats::left_subject(judge, g.name(), *p),
                body: crate::bulletin::seats::left_mail(g, *p, Abandonment::Late),
                kind: MailKind::Generated,
                in_reply_to: None,
                pictures: Vec::new(),
            });
        }
    }
    g.stop_clock();
    let n = notices::abandoned(judge, g, &late);
    if g.seat_changes_public() {
        mails.extend(everyone(g, &n.subject, &n.body, None));
    } else {
        mails.extend(mails_for(g, &[Reader::Master], &n.subject, &n.body, None));
    }
    mails
}
