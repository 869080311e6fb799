//! The list of games (`LIST`, the web view's list) read from the summaries the store keeps
//! with each save (`store::summaries`), not by loading every game: a judge of ten thousand
//! games lists them in a few milliseconds. A game without a current summary (saved by a
//! judge that rendered it another way, or unreadable) is read whole, as before.

use crate::bulletin::listing;
use crate::game::{Game, Status};
use crate::store::{GameSummary, StoreError, Summariser, SummaryRow, Tx};

/// The number of the summaries' rendering: raise it whenever [`summarise`] (the `LIST`
/// line, the status words) renders differently, so that a judge upgraded over an old
/// database renders every summary again once instead of listing old lines (a unit test
/// pins the rendering of a few games to this number).
pub const SUMMARY_FORMAT: i64 = 1;

/// How the judge renders a game's summary: its `LIST` line and the web list's columns.
pub const SUMMARISER: Summariser = Summariser {
    render: summarise,
    format: SUMMARY_FORMAT,
};

/// A game's summary as the lists show it now.
pub fn summarise(g: &Game) -> GameSummary {
    GameSummary {
        listed: is_listed(g),
        variant: g.variant().to_string(),
        phase: (*g.status() != Status::Forming).then(|| g.position().phase.to_string()),
        status: listing::status_word(g),
        line: listing::list_line(g),
    }
}

/// Whether a game is listed to anyone (`SET NOLIST` lists it to its players and master
/// only).
fn is_listed(g: &Game) -> bool {
    g.settings().listed
}

/// A row with its summary: the stored one, or (none current) the game read and summarised
/// now. None: the game is gone, or suspended (`row.suspended` says why; a game found
/// unreadable now is suspended at its next tick, and listed as before).
fn resolved(tx: &Tx<'_>, row: &SummaryRow) -> Result<Resolved, StoreError> {
    if let Some(reason) = &row.suspended {
        return Ok(Resolved::Suspended(reason.clone()));
    }
    if let Some(s) = &row.summary {
        return Ok(Resolved::Summary(s.clone()));
    }
    match tx.load_game(&row.name) {
        Ok(Some(g)) => Ok(Resolved::Summary(summarise(&g))),
        Ok(None) => Ok(Resolved::Gone),
        Err(StoreError::Suspended { reason, .. }) => Ok(Resolved::Suspended(reason)),
        Err(e) => Err(e),
    }
}

enum Resolved {
    Summary(GameSummary),
    Suspended(String),
    Gone,
}

/// The lines of `LIST` after its heading: every game listed to anyone, and `signed_on`
/// (the game the mail signed on to, which lists itself to its players and master even
/// when unlisted), one line each, in name order; a suspended game says so.
pub fn list_lines(tx: &Tx<'_>, signed_on: Option<&str>) -> Result<Vec<String>, StoreError> {
    let mut out = Vec::new();
    for row in tx.summary_rows(SUMMARY_FORMAT, true, signed_on)? {
        match resolved(tx, &row)? {
            Resolved::Suspended(reason) => {
                out.push(listing::suspended_list_line(&row.name, &reason));
            }
            Resolved::Summary(s)
                if s.listed || signed_on.is_some_and(|n| n.eq_ignore_ascii_case(&row.name)) =>
            {
                out.push(s.line);
            }
            Resolved::Summary(_) | Resolved::Gone => {}
        }
    }
    Ok(out)
}

/// One game of the web view's list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedGame {
    pub name: String,
    /// The rule set (empty for a suspended game: its state is not read).
    pub variant: String,
    pub phase: Option<String>,
    pub status: String,
}

/// The games listed to anyone, in name order, as the web view lists them (a suspended
/// game as `suspended`).
pub fn listed_games(tx: &Tx<'_>) -> Result<Vec<ListedGame>, StoreError> {
    let mut out = Vec::new();
    for row in tx.summary_rows(SUMMARY_FORMAT, true, None)? {
        match resolved(tx, &row)? {
            Resolved::Suspended(_) => out.push(ListedGame {
                name: row.name,
                variant: String::new(),
                phase: None,
                status: "suspended".into(),
            }),
            Resolved::Summary(s) if s.listed => out.push(ListedGame {
                name: row.name,
                variant: s.variant,
                phase: s.phase,
                status: s.status,
            }),
            Resolved::Summary(_) | Resolved::Gone => {}
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use chrono::{DateTime, TimeZone, Utc};

    use super::*;
    use crate::judge::{Incoming, Judge, JudgeConfig, PasswordCost};
    use crate::store::Store;

    fn t0() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 1, 12, 0, 0).unwrap()
    }

    struct Desk {
        judge: Judge,
        n: u32,
    }

    impl Desk {
        fn new() -> Desk {
            let config = JudgeConfig {
                password_cost: PasswordCost::TEST,
                ..JudgeConfig::default()
            };
            Desk {
                judge: Judge::new(Store::open_in_memory().unwrap(), config).unwrap(),
                n: 0,
            }
        }

        /// Mails `body` from `from`; returns the reply's body.
        fn mail(&mut self, from: &str, body: &str) -> String {
            self.n += 1;
            let key = format!("<m{}@test>", self.n);
            let msg = Incoming {
                key: key.clone(),
                message_id: Some(key),
                from: from.into(),
                reply_to: None,
                from_name: None,
                subject: "x".into(),
                text: body.into(),
                size_capped: false,
            };
            self.judge.handle(&msg, t0()).unwrap();
            self.judge
                .all_mail()
                .unwrap()
                .into_iter()
                .rev()
                .find(|m| m.recipient == from)
                .map(|m| m.body)
                .unwrap_or_default()
        }

        /// Three games: `alpha` forming, `beta` forming and unlisted, `gamma` under way.
        fn three_games(&mut self) {
            self.mail("gm-a@example.test", "CREATE ?alpha gmpass-01");
            self.mail(
                "gm-b@example.test",
                "CREATE ?beta gmpass-02\nSET NOLIST\nSET COMMENT by invitation",
            );
            self.mail("gm-c@example.test", "CREATE ?gamma gmpass-03");
            for i in 0..7 {
                self.mail(
                    &format!("p{i}@example.test"),
                    &format!("SIGNON ?gamma password{i}"),
                );
            }
        }

        fn lines(&mut self, signed_on: Option<&str>) -> Vec<String> {
            self.judge
                .store
                .read(|tx| list_lines(tx, signed_on))
                .unwrap()
        }
    }

    /// What the summaries of the three games render under [`SUMMARY_FORMAT`]. A change
    /// here means the `LIST` line or the status words changed: raise `SUMMARY_FORMAT` so
    /// that a judge upgraded over an old database renders its summaries again, then write
    /// the new lines here.
    const PINNED: (i64, &str) = (
        1,
        "alpha|true|Standard||forming (0 of 7 joined)|  alpha        Standard   forming (0 of 7 joined)
beta|false|Standard||forming (0 of 7 joined)|  beta         Standard   forming (0 of 7 joined) [unlisted] - by invitation
gamma|true|Standard|S1901M|active|  gamma        Standard   S1901M active",
    );

    #[test]
    fn the_rendering_is_pinned_to_its_format_number() {
        let mut d = Desk::new();
        d.three_games();
        let all = d.judge.store.read(|tx| {
            let mut out = Vec::new();
            for r in tx.summary_rows(SUMMARY_FORMAT, false, None)? {
                let s = r.summary.expect("every summary is current");
                out.push(format!(
                    "{}|{}|{}|{}|{}|{}",
                    r.name,
                    s.listed,
                    s.variant,
                    s.phase.unwrap_or_default(),
                    s.status,
                    s.line
                ));
            }
            Ok::<_, StoreError>(out.join("\n"))
        });
        assert_eq!(
            (SUMMARY_FORMAT, all.unwrap().as_str()),
            PINNED,
            "the summaries render differently: raise SUMMARY_FORMAT and pin the new text"
        );
    }

    #[test]
    fn list_reads_the_summaries_as_each_game_lists_itself() {
        let mut d = Desk::new();
        d.three_games();
        let games: Vec<Game> = ["alpha", "beta", "gamma"]
            .iter()
            .map(|n| d.judge.game(n).unwrap().unwrap())
            .collect();
        let line = |i: usize| listing::list_line(&games[i]);
        // Anyone: the listed games; the unlisted one to its own master, signed on.
        assert_eq!(d.lines(None), vec![line(0), line(2)]);
        assert_eq!(d.lines(Some("BETA")), vec![line(0), line(1), line(2)]);
        let reply = d.mail("stranger@example.test", "LIST");
        assert!(
            reply.contains(&line(0)) && reply.contains(&line(2)),
            "{reply}"
        );
        assert!(!reply.contains("beta"), "{reply}");
        let reply = d.mail("gm-b@example.test", "SIGNON Mbeta gmpass-02\nLIST");
        assert!(reply.contains(&line(1)), "{reply}");
        // The web view's list: the listed games, with the status the lists word.
        let web = d.judge.store.read(listed_games).unwrap();
        let names: Vec<&str> = web.iter().map(|g| g.name.as_str()).collect();
        assert_eq!(names, ["alpha", "gamma"]);
        assert_eq!(web[1].phase.as_deref(), Some("S1901M"));
        assert_eq!(web[1].status, "active");
        assert_eq!(web[0].status, listing::status_word(&games[0]));
    }

    #[test]
    fn a_suspended_game_is_listed_as_suspended() {
        let mut d = Desk::new();
        d.three_games();
        d.judge
            .store
            .transaction(|tx| tx.suspend_game("gamma", "its stored state cannot be read"))
            .unwrap();
        let lines = d.lines(None);
        assert_eq!(
            lines.last().map(String::as_str),
            Some("  gamma        suspended: its stored state cannot be read")
        );
        let web = d.judge.store.read(listed_games).unwrap();
        assert_eq!(web[1].status, "suspended");
        assert_eq!(web[1].variant, "");
    }
}
