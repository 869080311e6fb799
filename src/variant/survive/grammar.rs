//! Survive's commands as players write them (`survive.md` §3): ballots (`VOTE`) in the
//! Winter orders or in press to the master (SRV-3.3, H19), and jury votes (`JURY`). A
//! ballot line that cannot be read is SRV-E7, the whole line quoted.

use serde::{Deserialize, Serialize};

use crate::command::parts::{
    PResult, Why, blanks, cut, end_of_line, expect, failure, keyword, number, power,
};
use crate::command::{Coded, Grammar, OwnCommand, RuleCommand};
use crate::map::{Map, Power};

/// A ballot as written.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ballot {
    /// `VOTE France 2 Germany 1`: votes per power, in the order written.
    Split(Vec<(Power, u32)>),
    /// `VOTE France` or `VOTE France ALL`.
    All(Power),
    /// `VOTE NONE`: withdraw the ballot.
    Withdraw,
}

/// One Survive command.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SurviveCommand {
    /// A ballot (SRV-3).
    Vote(Ballot),
    /// `JURY France` (SRV-5b).
    Jury { power: Power },
}

impl OwnCommand for SurviveCommand {
    fn render(&self, _map: &Map) -> String {
        match self {
            SurviveCommand::Vote(Ballot::Withdraw) => "VOTE NONE".into(),
            SurviveCommand::Vote(Ballot::All(p)) => format!("VOTE {p} ALL"),
            SurviveCommand::Vote(Ballot::Split(v)) => {
                let parts: Vec<String> = v.iter().map(|(p, n)| format!("{p} {n}")).collect();
                format!("VOTE {}", parts.join(", "))
            }
            SurviveCommand::Jury { power } => format!("JURY {power}"),
        }
    }
}

/// Survive's grammar.
pub struct SurviveGrammar;

impl Grammar for SurviveGrammar {
    fn keywords(&self) -> &[&'static str] {
        &["vote", "jury"]
    }

    // survive_command = vote | jury ;
    // jury = "JURY" power ;
    fn command<'a>(&self, _map: &Map, line: &'a str) -> PResult<'a, RuleCommand> {
        if let Ok((r, _)) = keyword("jury")(line) {
            let (r, p) = cut(expect("a power", power)(r))?;
            let (r, _) = cut(end_of_line(r))?;
            return Ok((r, RuleCommand::new(SurviveCommand::Jury { power: p })));
        }
        match vote(line) {
            Some(b) => Ok(("", RuleCommand::new(SurviveCommand::Vote(b)))),
            // SRV-E7 (SRV-AMB-14): any fault in a ballot line is SRV-E7, the whole line
            // quoted.
            None => failure(
                blanks(line),
                Why::Coded(Coded {
                    code: "SRV-E7",
                    sentence: format!("cannot read the ballot \"{line}\". Ballot not recorded."),
                    stated: true,
                }),
            ),
        }
    }

    /// SRV-3.3: a `VOTE` line inside press to the master is a ballot.
    fn in_press_to_master(&self, line: &str) -> bool {
        keyword("vote")(line).is_ok()
    }

    fn help(&self) -> &'static str {
        include_str!("help.txt")
    }
}

// vote = "VOTE" ( "NONE" | power [ "ALL" ] | power number { [ "," ] power number } ) ;
fn vote(i: &str) -> Option<Ballot> {
    let (r, _) = keyword("vote")(i).ok()?;
    if let Ok((r, _)) = keyword("none")(r)
        && end_of_line(r).is_ok()
    {
        return Some(Ballot::Withdraw);
    }
    let (r, p) = power(r).ok()?;
    if end_of_line(r).is_ok() {
        return Some(Ballot::All(p));
    }
    if let Ok((r, _)) = keyword("all")(r)
        && end_of_line(r).is_ok()
    {
        return Some(Ballot::All(p));
    }
    let (mut r, n) = number(r).ok()?;
    if n == 0 {
        return None;
    }
    let mut votes = vec![(p, n)];
    loop {
        if end_of_line(r).is_ok() {
            return Some(Ballot::Split(votes));
        }
        let after = blanks(r);
        let after = after.strip_prefix(',').unwrap_or(after);
        let (a, p) = power(after).ok()?;
        let (a, n) = number(a).ok()?;
        if n == 0 {
            return None;
        }
        votes.push((p, n));
        r = a;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    grammar_cases! { SurviveGrammar;
        vote_split: "VOTE France 2, Germany 1" => Some("VOTE France 2, Germany 1"),
        vote_all: "vote fra" => Some("VOTE France ALL"),
        vote_all_word: "vote french all" => Some("VOTE France ALL"),
        vote_none: "vote none" => Some("VOTE NONE"),
        vote_bad_power: "vote frnace 2" => None,
        vote_zero: "vote france 0" => None,
        vote_dangling: "vote france 2 germany" => None,
        srv_jury: "jury turkey" => Some("JURY Turkey"),
    }

    /// SRV-E7 quotes the whole line, and the reply does not quote it again.
    #[test]
    fn srv_e7_an_unreadable_ballot() {
        let map = Map::standard().unwrap();
        let Err(nom::Err::Failure(e)) = SurviveGrammar.command(map, "VOTE Frnace 3") else {
            panic!("a failure");
        };
        assert_eq!(
            e.why,
            Why::Coded(Coded {
                code: "SRV-E7",
                sentence: "cannot read the ballot \"VOTE Frnace 3\". Ballot not recorded.".into(),
                stated: true
            })
        );
    }
}
