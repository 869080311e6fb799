//! The list of games (`LIST`, the web view's list) read from the summaries the store keeps
//! with each save (`store::summaries`), not by loading every game: a judge of ten thousand
//! games lists them in a few milliseconds. A game without a current summary (saved by a
//! judge that rendered it another way, or unreadable) is read whole, as before.
//!
//! A judge with more games than a page holds answers a bare `LIST` with the games that
//! seek players (forming, or a position waiting for a replacement) and says how to ask
//! for the rest a page at a time (`LIST PAGE n`, by name); the web list pages the same
//! way (`/?page=n`). Each page is read from the summaries' name index, so its cost does
//! not grow with the games after it.

use crate::bulletin::listing;
use crate::game::{Game, Status};
use crate::store::{GameSummary, StoreError, Summariser, SummaryRow, Tx};

/// The number of the summaries' rendering: raise it whenever [`summarise`] (the `LIST`
/// line, the status words) renders differently, so that a judge upgraded over an old
/// database renders every summary again once instead of listing old lines (a unit test
/// pins the rendering of a few games to this number).
pub const SUMMARY_FORMAT: i64 = 2;

/// How the judge renders a game's summary: its `LIST` line and the web list's columns.
pub const SUMMARISER: Summariser = Summariser {
    render: summarise,
    format: SUMMARY_FORMAT,
};

/// A game's summary as the lists show it now.
pub fn summarise(g: &Game) -> GameSummary {
    GameSummary {
        listed: is_listed(g),
        seeking: *g.status() == Status::Forming || !g.open_powers().is_empty(),
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

/// How many games a page of `LIST` lists (`LIST PAGE n`; a bare `LIST` lists every game
/// when they fit on one page).
pub const LIST_PAGE: u64 = 50;

/// How many games a page of the web view's list lists.
pub const WEB_PAGE: u64 = 100;

/// One page of a list: its items, which page it is (from 1) and how many there are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Page<T> {
    pub items: Vec<T>,
    pub page: u64,
    pub pages: u64,
    /// The games of the whole list (of every page).
    pub total: u64,
}

/// How many pages of `per` items `total` items fill (at least one: an empty list is one
/// empty page).
pub fn pages_of(total: u64, per: u64) -> u64 {
    total.div_ceil(per.max(1)).max(1)
}

/// What a bare `LIST` lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListAnswer {
    /// Every game (they fit on one page), as [`list_lines`] gives them.
    All(Vec<String>),
    /// Too many games for one mail: the lines of the games that seek players (at most
    /// [`LIST_PAGE`], and the game signed on to), whether more seek players than are
    /// shown, and how many games the whole list holds.
    Seeking {
        lines: Vec<String>,
        more: bool,
        total: u64,
    },
}

/// A bare `LIST`: every game when they fit on a page, else the games that seek players
/// first (see [`ListAnswer`]).
pub fn list_answer(tx: &Tx<'_>, signed_on: Option<&str>) -> Result<ListAnswer, StoreError> {
    let total = tx.summary_count(SUMMARY_FORMAT, true, signed_on)?;
    if total <= LIST_PAGE {
        return Ok(ListAnswer::All(list_lines(tx, signed_on)?));
    }
    let rows = tx.seeking_rows(SUMMARY_FORMAT, signed_on, LIST_PAGE + 1)?;
    let more = rows.len() as u64 > LIST_PAGE;
    let shown = rows
        .iter()
        .take(usize::try_from(LIST_PAGE).unwrap_or(usize::MAX));
    Ok(ListAnswer::Seeking {
        lines: lines_of(tx, shown, signed_on)?,
        more,
        total,
    })
}

/// Page `page` (from 1) of `LIST`'s lines, [`LIST_PAGE`] games a page in name order (a
/// page past the last is empty).
pub fn list_page(
    tx: &Tx<'_>,
    signed_on: Option<&str>,
    page: u64,
) -> Result<Page<String>, StoreError> {
    let total = tx.summary_count(SUMMARY_FORMAT, true, signed_on)?;
    let offset = page.saturating_sub(1).saturating_mul(LIST_PAGE);
    let rows = tx.summary_page(SUMMARY_FORMAT, true, signed_on, offset, LIST_PAGE)?;
    Ok(Page {
        items: lines_of(tx, rows.iter(), signed_on)?,
        page,
        pages: pages_of(total, LIST_PAGE),
        total,
    })
}

/// How many games a page of `LIST FULL` holds (`LIST FULL PAGE n`; each is a block of
/// some thirty lines).
pub const FULL_PAGE: u64 = 10;

/// How many pages `LIST FULL` fills for a mail signed on to `signed_on`.
pub fn full_page_count(tx: &Tx<'_>, signed_on: Option<&str>) -> Result<u64, StoreError> {
    Ok(pages_of(
        tx.summary_count(SUMMARY_FORMAT, true, signed_on)?,
        FULL_PAGE,
    ))
}

/// The names of page `page` (from 1) of `LIST FULL`, [`FULL_PAGE`] games a page in name
/// order: the caller reads each game and decides whether the mail may see it listed.
pub fn full_page(
    tx: &Tx<'_>,
    signed_on: Option<&str>,
    page: u64,
) -> Result<Page<String>, StoreError> {
    let total = tx.summary_count(SUMMARY_FORMAT, true, signed_on)?;
    let offset = page.saturating_sub(1).saturating_mul(FULL_PAGE);
    let rows = tx.summary_page(SUMMARY_FORMAT, true, signed_on, offset, FULL_PAGE)?;
    Ok(Page {
        items: rows.into_iter().map(|r| r.name).collect(),
        page,
        pages: pages_of(total, FULL_PAGE),
        total,
    })
}

/// The lines of `LIST` after its heading: every game listed to anyone, and `signed_on`
/// (the game the mail signed on to, which lists itself to its players and master even
/// when unlisted), one line each, in name order; a suspended game says so.
pub fn list_lines(tx: &Tx<'_>, signed_on: Option<&str>) -> Result<Vec<String>, StoreError> {
    let rows = tx.summary_rows(SUMMARY_FORMAT, true, signed_on)?;
    lines_of(tx, rows.iter(), signed_on)
}

/// `LIST`'s line of each row this mail may see listed.
fn lines_of<'r>(
    tx: &Tx<'_>,
    rows: impl Iterator<Item = &'r SummaryRow>,
    signed_on: Option<&str>,
) -> Result<Vec<String>, StoreError> {
    let mut out = Vec::new();
    for row in rows {
        match resolved(tx, row)? {
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
    listed_of(tx, tx.summary_rows(SUMMARY_FORMAT, true, None)?)
}

/// Page `page` (from 1) of the web view's list, [`WEB_PAGE`] games a page in name order
/// (a page past the last is empty).
pub fn listed_games_page(tx: &Tx<'_>, page: u64) -> Result<Page<ListedGame>, StoreError> {
    let total = tx.summary_count(SUMMARY_FORMAT, true, None)?;
    let offset = page.saturating_sub(1).saturating_mul(WEB_PAGE);
    let rows = tx.summary_page(SUMMARY_FORMAT, true, None, offset, WEB_PAGE)?;
    Ok(Page {
        items: listed_of(tx, rows)?,
        page,
        pages: pages_of(total, WEB_PAGE),
        total,
    })
}

/// The web list's entry of each row listed to anyone.
fn listed_of(tx: &Tx<'_>, rows: Vec<SummaryRow>) -> Result<Vec<ListedGame>, StoreError> {
    let mut out = Vec::new();
    for row in rows {
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
                // Pages of games made by addresses that never confirmed one (issue 37's
                // ceiling is tested in tests/attacks.rs).
                unproven_games_per_day: 1_000,
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
        2,
        "alpha|true|true|Standard||forming (0 of 7 joined)|  alpha        Standard   forming (0 of 7 joined)
beta|false|false|Standard||forming (0 of 7 joined)|  beta         Standard   forming (0 of 7 joined) [unlisted] - by invitation
gamma|true|false|Standard|S1901M|active|  gamma        Standard   S1901M active",
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
                    "{}|{}|{}|{}|{}|{}|{}",
                    r.name,
                    s.listed,
                    s.seeking,
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
        // Its master, signed on, reads its report: njudge's LIST after SIGNON (issue 38).
        let reply = d.mail("gm-b@example.test", "SIGNON Mbeta gmpass-02\nLIST");
        assert!(reply.contains("OK LIST beta"), "{reply}");
        assert!(!reply.contains(&line(0)), "{reply}");
        // The web view's list: the listed games, with the status the lists word.
        let web = d.judge.store.read(listed_games).unwrap();
        let names: Vec<&str> = web.iter().map(|g| g.name.as_str()).collect();
        assert_eq!(names, ["alpha", "gamma"]);
        assert_eq!(web[1].phase.as_deref(), Some("S1901M"));
        assert_eq!(web[1].status, "active");
        assert_eq!(web[0].status, listing::status_word(&games[0]));
    }

    #[test]
    fn a_judge_of_more_games_than_a_page_lists_those_seeking_players_then_pages_by_name() {
        let mut d = Desk::new();
        d.three_games();
        // alpha and z00..z48 form (50 seek players), gamma plays, beta is unlisted: 51
        // games are listed to a stranger, one more than a page.
        let per = usize::try_from(LIST_PAGE).unwrap();
        for i in 0..per - 1 {
            d.mail(
                &format!("gm-z{i}@example.test"),
                &format!("CREATE ?z{i:02} gmpass-{i:03}"),
            );
        }
        let line = |d: &mut Desk, n: &str| listing::list_line(&d.judge.game(n).unwrap().unwrap());
        let (alpha, beta, gamma) = (
            line(&mut d, "alpha"),
            line(&mut d, "beta"),
            line(&mut d, "gamma"),
        );
        let reply = d.mail("stranger@example.test", "LIST");
        assert!(reply.contains(listing::LIST_SEEKING_HEADING), "{reply}");
        assert!(
            reply.contains(&alpha) && reply.contains("  z48 "),
            "{reply}"
        );
        assert!(
            !reply.contains(&gamma),
            "a game under way seeks nobody: {reply}"
        );
        assert!(!reply.contains("beta"), "{reply}");
        assert!(
            reply.contains("51 games are listed on this judge"),
            "{reply}"
        );
        assert!(
            reply.contains("LIST PAGE 1 to\nLIST PAGE 2 list them all"),
            "{reply}"
        );
        // The page boundary: 50 by name on page 1, the 51st on page 2.
        let page = |d: &mut Desk, signed_on: Option<&str>, n: u64| {
            d.judge
                .store
                .read(|tx| list_page(tx, signed_on, n))
                .unwrap()
        };
        let p1 = page(&mut d, None, 1);
        assert_eq!((p1.items.len(), p1.pages, p1.total), (per, 2, 51));
        assert_eq!(p1.items[0], alpha);
        assert_eq!(p1.items[1], gamma);
        assert!(p1.items[per - 1].starts_with("  z47 "), "{:?}", p1.items);
        let p2 = page(&mut d, None, 2);
        assert_eq!(p2.items.len(), 1);
        assert!(p2.items[0].starts_with("  z48 "));
        assert!(page(&mut d, None, 3).items.is_empty());
        let reply = d.mail("stranger@example.test", "LIST PAGE 2");
        assert!(reply.contains("page 2 of 2 (50 to a page)"), "{reply}");
        assert!(reply.contains("there is no page after page 2"), "{reply}");
        let reply = d.mail("stranger@example.test", "LIST PAGE 1");
        assert!(reply.contains("LIST PAGE 2 lists the next page"), "{reply}");
        assert!(
            !reply.contains("beta"),
            "an unlisted game is never listed: {reply}"
        );
        // The unlisted game lists itself to its master signed on, on its page.
        let reply = d.mail("gm-b@example.test", "SIGNON Mbeta gmpass-02\nLIST PAGE 1");
        assert!(reply.contains(&beta), "{reply}");
        // A bare LIST after SIGNON is the signed-on game's report, as njudge reads it
        // (issue 38), however many games the judge holds.
        let reply = d.mail("gm-b@example.test", "SIGNON Mbeta gmpass-02\nLIST");
        assert!(
            reply.contains("OK LIST beta") && !reply.contains(listing::LIST_SEEKING_HEADING),
            "the game signed on to: {reply}"
        );
        // A game that leaves the list: z00 unlisted, 50 games fit one mail again.
        d.mail("gm-z0@example.test", "SIGNON Mz00 gmpass-000\nSET NOLIST");
        let reply = d.mail("stranger@example.test", "LIST");
        assert!(reply.contains(listing::LIST_HEADING), "{reply}");
        assert!(
            reply.contains(&gamma),
            "every game, as on a small judge: {reply}"
        );
        assert!(!reply.contains("z00") && !reply.contains("PAGE"), "{reply}");
        let p1 = page(&mut d, None, 1);
        assert_eq!((p1.items.len(), p1.pages, p1.total), (per, 1, 50));
        // The web list pages the same rows.
        let web = d.judge.store.read(|tx| listed_games_page(tx, 1)).unwrap();
        assert_eq!((web.items.len(), web.pages, web.total), (per, 1, 50));
        assert!(
            web.items
                .iter()
                .all(|g| g.name != "beta" && g.name != "z00")
        );
        // LIST FULL: a page of ten games at a time.
        let reply = d.mail("stranger@example.test", "LIST FULL");
        assert!(
            reply.contains("in full, page 1 of 5 (10 to a page)"),
            "{reply}"
        );
        assert!(
            reply.contains("LIST FULL PAGE 2 lists the next page"),
            "{reply}"
        );
        assert!(
            reply.contains("Game: alpha") && !reply.contains("Game: z09"),
            "{reply}"
        );
        let reply = d.mail("stranger@example.test", "LIST FULL PAGE 5");
        assert!(
            reply.contains("Game: z48") && !reply.contains("Game: z38"),
            "{reply}"
        );
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
