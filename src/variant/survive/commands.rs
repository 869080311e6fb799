//! Survive's commands (§3): ballots, taken on receipt while a vote Winter is open and
//! answered privately (SRV-1 to SRV-3), and jury votes in the jury phase (SRV-5b), each
//! refused with the spec's code and sentence in the table's order.

use super::grammar::{Ballot as Written, SurviveCommand};
use crate::map::Power;
use crate::rules::VariantRefusal;
use crate::variant::{Applied, CommandContext, Line, Reader, Sender, Taken, list_powers};

use super::state::{Ballot, SurviveState, is_vote_winter, next_vote_year, votes_of};

fn refuse<T>(code: &'static str, sentence: String) -> Result<T, VariantRefusal> {
    Err(VariantRefusal::new(code, sentence))
}

/// A ballot as written, checked (SRV-3): the votes it gives, or the refusal.
fn check_ballot(
    cx: &CommandContext<'_>,
    s: &SurviveState,
    voter: Power,
    written: &Written,
) -> Result<Option<Ballot>, VariantRefusal> {
    let phase = cx.game.position.phase;
    if !is_vote_winter(phase) {
        return refuse(
            "SRV-E1",
            format!(
                "there is no vote now; the next vote is in Winter {}.",
                next_vote_year(phase)
            ),
        );
    }
    if s.is_outcast(voter) {
        return refuse(
            "SRV-E2",
            format!("{voter} is out of the game and cannot vote."),
        );
    }
    let n = votes_of(cx.game.position, voter);
    let pairs: Vec<(Power, u32)> = match written {
        Written::Withdraw => return Ok(None),
        Written::All(p) => vec![(*p, n)],
        Written::Split(v) => v.clone(),
    };
    if pairs.iter().any(|(p, _)| *p == voter) {
        return refuse(
            "SRV-E5",
            "a power cannot vote for itself. Ballot not recorded.".into(),
        );
    }
    if let Some((p, _)) = pairs.iter().find(|(p, _)| s.is_outcast(*p)) {
        return refuse(
            "SRV-E6",
            format!("{p} is out of the game and cannot receive votes. Ballot not recorded."),
        );
    }
    let m: u32 = pairs.iter().map(|(_, k)| *k).sum();
    if m < n {
        return refuse(
            "SRV-E3",
            format!(
                "{voter} has {n} votes and must use them all; this ballot uses {m}. Ballot not recorded."
            ),
        );
    }
    if m > n {
        return refuse(
            "SRV-E4",
            format!("{voter} has {n} votes; this ballot uses {m}. Ballot not recorded."),
        );
    }
    let mut ballot = Ballot::new();
    for (p, k) in pairs {
        *ballot.entry(p).or_default() += k;
    }
    Ok(Some(ballot))
}

/// A jury vote (SRV-5b): by a juror, or the master when the jury is even or a tie waits
/// for it; the candidate it names.
fn check_jury(s: &SurviveState, sender: Sender, candidate: Power) -> Result<(), VariantRefusal> {
    let not_juror = |who: String| refuse("SRV-E9", format!("{who} is not a juror."));
    let Some(jury) = &s.jury else {
        return not_juror(sender.to_string());
    };
    match (sender, &jury.tied) {
        (Sender::Master, Some(tied)) => {
            if tied.contains(&candidate) {
                Ok(())
            } else {
                refuse(
                    "SRV-E9",
                    format!(
                        "{candidate} is not one of the tied candidates ({}).",
                        list_powers(tied)
                    ),
                )
            }
        }
        (Sender::Master, None) if !jury.master_votes() => not_juror("Master".into()),
        (Sender::Power(p), Some(_)) => not_juror(p.to_string()),
        (Sender::Power(p), None) if !jury.jurors.contains(&p) => not_juror(p.to_string()),
        _ if !jury.candidates.contains(&candidate) => {
            refuse("SRV-E9", format!("{candidate} is not a candidate."))
        }
        _ => Ok(()),
    }
}

fn in_jury_phase(cx: &CommandContext<'_>) -> bool {
    cx.game.position.phase.kind.is(&super::JURY)
}

/// The candidate a jury command names: `JURY France`, or `VOTE France` in the jury phase.
fn jury_candidate(cx: &CommandContext<'_>, command: &SurviveCommand) -> Option<Power> {
    match command {
        SurviveCommand::Jury { power } => Some(*power),
        SurviveCommand::Vote(Written::All(p)) if in_jury_phase(cx) => Some(*p),
        _ => None,
    }
}

/// H1: ballots and jury votes are taken on receipt; everything else is not Survive's.
pub fn take(
    cx: &CommandContext<'_>,
    s: &SurviveState,
    command: &SurviveCommand,
) -> Result<Taken, VariantRefusal> {
    if let Some(candidate) = jury_candidate(cx, command) {
        if !in_jury_phase(cx) {
            return refuse("SRV-E9", format!("{} is not a juror.", cx.sender));
        }
        check_jury(s, cx.sender, candidate)?;
        return Ok(Taken::Immediate);
    }
    match (command, cx.sender) {
        (SurviveCommand::Vote(written), Sender::Power(voter)) => {
            check_ballot(cx, s, voter, written)?;
            Ok(Taken::Immediate)
        }
        (SurviveCommand::Vote(_), Sender::Master) => refuse(
            "NOT-A-POWER",
            "a ballot is a power's; sign on as the power (or BECOME it)".into(),
        ),
        (SurviveCommand::Jury { .. }, _) => Err(crate::variant::not_in_variant("Survive")),
    }
}

/// `England 2, Germany 3` (powers alphabetical).
fn ballot_text(b: &Ballot) -> String {
    b.iter()
        .map(|(p, n)| format!("{p} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// H2: records a ballot or a jury vote; nothing is published (SRV-1.4).
pub fn apply(
    cx: &CommandContext<'_>,
    s: &mut SurviveState,
    command: &SurviveCommand,
) -> Result<Applied, VariantRefusal> {
    if let Some(candidate) = jury_candidate(cx, command) {
        check_jury(s, cx.sender, candidate)?;
        if let Some(jury) = s.jury.as_mut() {
            match cx.sender {
                Sender::Master => jury.master = Some(candidate),
                Sender::Power(p) => {
                    jury.votes.insert(p, candidate);
                }
            }
        }
        return Ok(Applied {
            echo: Some(format!("JURY {candidate} (jury vote recorded)")),
            // SRV-5b.4: the jury's votes are the master's to see.
            lines: vec![Line::to(
                Reader::Master,
                format!("SURVIVE: {} votes for {candidate} in the jury.", cx.sender),
            )],
            ..Applied::default()
        });
    }
    let (SurviveCommand::Vote(written), Sender::Power(voter)) = (command, cx.sender) else {
        return refuse("NOT-IN-VARIANT", "not a Survive command".into());
    };
    let (echo, to_master) = match check_ballot(cx, s, voter, written)? {
        None => match s.ballots.remove(&voter) {
            Some(_) => (
                "ballot withdrawn".to_string(),
                format!("SURVIVE: {voter} withdraws its ballot."),
            ),
            None => (
                "no ballot to withdraw".to_string(),
                format!("SURVIVE: {voter} has no ballot to withdraw."),
            ),
        },
        Some(ballot) => {
            let text = ballot_text(&ballot);
            let master = format!("SURVIVE: {voter}'s ballot: {text}.");
            match s.ballots.insert(voter, ballot) {
                Some(_) => (format!("ballot replaced: {text}"), master),
                None => (format!("ballot recorded: {text}"), master),
            }
        }
    };
    // SRV-3.3: every ballot reaches the master (at once, and again with the results).
    Ok(Applied {
        echo: Some(echo),
        lines: vec![Line::to(Reader::Master, to_master)],
        ..Applied::default()
    })
}
