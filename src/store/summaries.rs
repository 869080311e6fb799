//! The games' summaries (migration 11): one row a game, kept with each save, that the list
//! of games (`LIST`, the web view's list) reads instead of loading every game. What a row
//! holds is rendered above the store (the judge's [`Summariser`], handed in with
//! [`Store::set_summariser`]); the store keeps it and says when it is missing or was
//! rendered another way ([`GameSummary::format`]), and the reader then reads that game
//! whole. Triggers keep a row for every stored game and copy its suspension, whatever code
//! writes `games`.

use rusqlite::params;

use crate::game::Game;

use super::{Store, StoreError, Tx};

/// What the list of games shows of one game, as rendered when it was last saved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    /// Whether the game is listed to anyone (`SET NOLIST`: only to its players and master).
    pub listed: bool,
    /// Whether the game seeks players: it forms, or a position waits for a replacement.
    /// A bare `LIST` of a large judge shows these games first ([`Tx::seeking_rows`]).
    /// Kept for a listed game only (an unlisted one is read back as not seeking).
    pub seeking: bool,
    /// The rule set's name.
    pub variant: String,
    /// The phase open now (None while the game forms).
    pub phase: Option<String>,
    /// The status as the list words it (`forming (3 of 7 joined)`, `active`, ...).
    pub status: String,
    /// The game's line of `LIST`.
    pub line: String,
}

/// Renders a game's summary (the judge's, from the game's listing), and the number that
/// names that rendering: rows rendered under another number are read as missing, so a
/// judge whose listing changed never shows a line rendered the old way.
#[derive(Clone, Copy, Debug)]
pub struct Summariser {
    pub render: fn(&Game) -> GameSummary,
    /// Never 0 (0 marks a row with no summary).
    pub format: i64,
}

/// One row of the list of games, in name order: the game's summary if it is current, the
/// game's suspension if it is suspended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SummaryRow {
    pub name: String,
    /// None: no current summary (the game was stored without one, or rendered another
    /// way): read the game itself.
    pub summary: Option<GameSummary>,
    /// Why the game is suspended, if it is.
    pub suspended: Option<String>,
}

/// How a summary's `listed` column holds what it says: 0 unlisted, 1 listed, 2 listed and
/// seeking players (one column, so that the seeking games are found without a new one).
fn listed_value(s: &GameSummary) -> i64 {
    match (s.listed, s.seeking) {
        (false, _) => 0,
        (true, false) => 1,
        (true, true) => 2,
    }
}

/// A row of `SELECT name, format, listed, variant, phase, status, line, suspended`.
fn summary_row(r: &rusqlite::Row<'_>, format: i64) -> rusqlite::Result<SummaryRow> {
    let current = r.get::<_, i64>(1)? == format;
    let summary = if current {
        let listed: i64 = r.get(2)?;
        Some(GameSummary {
            listed: listed != 0,
            seeking: listed == 2,
            variant: r.get(3)?,
            phase: r.get(4)?,
            status: r.get(5)?,
            line: r.get(6)?,
        })
    } else {
        None
    };
    Ok(SummaryRow {
        name: r.get(0)?,
        summary,
        suspended: r.get(7)?,
    })
}

impl Store {
    /// Keeps each saved game's summary from now on, and renders again every summary that
    /// is missing or was rendered another way (after an upgrade: each game read once).
    /// Returns how many were rendered. A game that cannot be read keeps no summary (the
    /// list reads it whole, and finds it unreadable, as before).
    pub fn set_summariser(&mut self, summariser: Summariser) -> Result<usize, StoreError> {
        self.summariser = Some(summariser);
        // Looked at first without the write lock: a judge opened beside a running one
        // (`dump-state`, `unsuspend`) writes nothing when every summary is current.
        let stale: i64 = self.conn.query_row(
            "SELECT count(*) FROM game_summaries WHERE format <> ?1 AND suspended IS NULL",
            params![summariser.format],
            |r| r.get(0),
        )?;
        if stale == 0 {
            return Ok(0);
        }
        self.transaction(|tx| {
            let stale = {
                let mut st = tx.tx.prepare_cached(
                    "SELECT name FROM game_summaries
                     WHERE format <> ?1 AND suspended IS NULL ORDER BY name",
                )?;
                st.query_map(params![summariser.format], |r| r.get::<_, String>(0))?
                    .collect::<Result<Vec<_>, _>>()?
            };
            let mut made = 0;
            for name in stale {
                match tx.load_game(&name) {
                    Ok(Some(g)) => {
                        tx.keep_summary(&g)?;
                        made += 1;
                    }
                    Ok(None) | Err(StoreError::Corrupt { .. } | StoreError::Suspended { .. }) => {}
                    Err(e) => return Err(e),
                }
            }
            Ok(made)
        })
    }
}

impl Tx<'_> {
    /// Keeps `game`'s summary as the summariser renders it (with none set, marks the row
    /// as having no current summary: it no longer says what the game holds).
    pub(super) fn keep_summary(&self, game: &Game) -> Result<(), StoreError> {
        let Some(s) = self.summariser else {
            self.execute(
                "UPDATE game_summaries SET format = 0 WHERE name = ?1",
                params![game.name()],
            )?;
            return Ok(());
        };
        let summary = (s.render)(game);
        self.execute(
            "INSERT INTO game_summaries (name, format, listed, variant, phase, status, line)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
             ON CONFLICT(name) DO UPDATE SET format = excluded.format, listed = excluded.listed,
             variant = excluded.variant, phase = excluded.phase, status = excluded.status,
             line = excluded.line",
            params![
                game.name(),
                s.format,
                listed_value(&summary),
                summary.variant,
                summary.phase,
                summary.status,
                summary.line
            ],
        )?;
        Ok(())
    }

    /// Every game's row of the list, in name order: with `listed_only`, the games listed
    /// to anyone, the game `also` (listed or not) and every suspended or unsummarised game
    /// (whose listing the caller decides from the game itself). Reads the summaries only.
    pub fn summary_rows(
        &self,
        format: i64,
        listed_only: bool,
        also: Option<&str>,
    ) -> Result<Vec<SummaryRow>, StoreError> {
        self.summary_page(format, listed_only, also, 0, u64::MAX)
    }

    /// One page of [`Tx::summary_rows`]: at most `limit` rows from the `offset`th, in name
    /// order. Walks the name index: its cost grows with `offset`, not with the games after
    /// the page.
    pub fn summary_page(
        &self,
        format: i64,
        listed_only: bool,
        also: Option<&str>,
        offset: u64,
        limit: u64,
    ) -> Result<Vec<SummaryRow>, StoreError> {
        let mut st = self.tx.prepare_cached(
            "SELECT name, format, listed, variant, phase, status, line, suspended
             FROM game_summaries
             WHERE NOT ?2 OR listed OR format <> ?1 OR suspended IS NOT NULL
                OR name = ?3 COLLATE NOCASE
             ORDER BY name LIMIT ?5 OFFSET ?4",
        )?;
        let offset = i64::try_from(offset).unwrap_or(i64::MAX);
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = st.query_map(params![format, listed_only, also, offset, limit], |r| {
            summary_row(r, format)
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// How many rows [`Tx::summary_rows`] would return.
    pub fn summary_count(
        &self,
        format: i64,
        listed_only: bool,
        also: Option<&str>,
    ) -> Result<u64, StoreError> {
        let n: i64 = self
            .tx
            .prepare_cached(
                "SELECT count(*) FROM game_summaries
             WHERE NOT ?2 OR listed OR format <> ?1 OR suspended IS NOT NULL
                OR name = ?3 COLLATE NOCASE",
            )?
            .query_row(params![format, listed_only, also], |r| r.get(0))?;
        Ok(u64::try_from(n).unwrap_or(0))
    }

    /// At most `limit` rows, in name order, of the listed games that seek players
    /// ([`GameSummary::seeking`]), with the game `also` (seeking or not, listed or not).
    pub fn seeking_rows(
        &self,
        format: i64,
        also: Option<&str>,
        limit: u64,
    ) -> Result<Vec<SummaryRow>, StoreError> {
        let mut st = self.tx.prepare_cached(
            "SELECT name, format, listed, variant, phase, status, line, suspended
             FROM game_summaries
             WHERE (listed = 2 AND format = ?1 AND suspended IS NULL)
                OR name = ?2 COLLATE NOCASE
             ORDER BY name LIMIT ?3",
        )?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = st.query_map(params![format, also, limit], |r| summary_row(r, format))?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// How many games there are in each status word of the summaries (`forming (…)`
    /// counts as `forming`, `finished: …` as `finished`), and how many are suspended: what
    /// `GET /metrics` shows. Games with no current summary count as `unknown`.
    pub fn game_counts(&self, format: i64) -> Result<Vec<(String, u64)>, StoreError> {
        let mut st = self.tx.prepare_cached(
            "SELECT CASE
                 WHEN suspended IS NOT NULL THEN 'suspended'
                 WHEN format <> ?1 THEN 'unknown'
                 WHEN status LIKE 'forming%' THEN 'forming'
                 WHEN status LIKE 'finished%' THEN 'finished'
                 ELSE status END AS word, count(*)
             FROM game_summaries GROUP BY word ORDER BY word",
        )?;
        let rows = st.query_map(params![format], |r| {
            Ok((
                r.get::<_, String>(0)?,
                u64::try_from(r.get::<_, i64>(1)?).unwrap_or(0),
            ))
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Map;

    fn game(name: &str) -> Game {
        let map = Map::standard().unwrap();
        let master = crate::game::Seat {
            address: "gm@example.test".into(),
            password_hash: String::new(),
        };
        Game::new(name, &crate::variant::Standard, master, 1, map)
    }

    fn first(g: &Game) -> GameSummary {
        GameSummary {
            listed: true,
            seeking: false,
            variant: g.variant().to_string(),
            phase: None,
            status: "first".into(),
            line: format!("first {}", g.name()),
        }
    }

    fn second(g: &Game) -> GameSummary {
        GameSummary {
            line: format!("second {}", g.name()),
            ..first(g)
        }
    }

    const FIRST: Summariser = Summariser {
        render: first,
        format: 1,
    };

    fn lines(store: &mut Store, format: i64) -> Vec<(String, Option<String>)> {
        store
            .read(|tx| tx.summary_rows(format, false, None))
            .unwrap()
            .into_iter()
            .map(|r| (r.name, r.summary.map(|s| s.line)))
            .collect()
    }

    #[test]
    fn a_summary_is_kept_with_each_save_and_rendered_again_when_its_rendering_changes() {
        let path = std::env::temp_dir().join(format!(
            "dipjudge-summaries-{}-{}.db",
            std::process::id(),
            chrono::Utc::now().timestamp_micros()
        ));
        let mut store = Store::open(&path).unwrap();
        // Saved without a summariser: a row, with no summary.
        store
            .transaction(|tx| tx.save_game(&game("alpha")))
            .unwrap();
        assert_eq!(lines(&mut store, 1), vec![("alpha".into(), None)]);
        // The summariser renders what is missing, then keeps each save's.
        assert_eq!(store.set_summariser(FIRST).unwrap(), 1);
        store.transaction(|tx| tx.save_game(&game("beta"))).unwrap();
        assert_eq!(
            lines(&mut store, 1),
            vec![
                ("alpha".into(), Some("first alpha".into())),
                ("beta".into(), Some("first beta".into()))
            ]
        );
        assert_eq!(store.set_summariser(FIRST).unwrap(), 0, "all current");
        // A state written by other means (a hand edit) makes the row stale.
        store
            .conn
            .execute("UPDATE games SET state = state WHERE name = 'beta'", [])
            .unwrap();
        assert_eq!(lines(&mut store, 1)[1], ("beta".into(), None));
        // A judge that renders another way renders every row again, once.
        drop(store);
        let mut store = Store::open(&path).unwrap();
        let second_way = Summariser {
            render: second,
            format: 2,
        };
        assert_eq!(store.set_summariser(second_way).unwrap(), 2);
        assert_eq!(
            lines(&mut store, 2),
            vec![
                ("alpha".into(), Some("second alpha".into())),
                ("beta".into(), Some("second beta".into()))
            ]
        );
        // Suspension is copied, removal removes.
        store
            .transaction(|tx| tx.suspend_game("alpha", "broken").map(|_| ()))
            .unwrap();
        let rows = store.read(|tx| tx.summary_rows(2, true, None)).unwrap();
        assert_eq!(rows[0].suspended.as_deref(), Some("broken"));
        let counts = store.read(|tx| tx.game_counts(2)).unwrap();
        assert_eq!(
            counts,
            vec![("first".into(), 1), ("suspended".into(), 1)],
            "status words as rendered"
        );
        store.transaction(|tx| tx.remove_game("alpha")).unwrap();
        assert_eq!(lines(&mut store, 2).len(), 1);
        drop(store);
        for suffix in ["", "-wal", "-shm"] {
            let mut p = path.as_os_str().to_owned();
            p.push(suffix);
            let _ = std::fs::remove_file(std::path::PathBuf::from(p));
        }
    }

    #[test]
    fn pages_and_the_seeking_games_are_read_by_name_and_leave_out_unlisted_games() {
        let mut store = Store::open_in_memory().unwrap();
        // `h…` unlisted, `s…` seeking players.
        fn marked(g: &Game) -> GameSummary {
            GameSummary {
                listed: !g.name().starts_with('h'),
                seeking: g.name().starts_with('s') || g.name().starts_with('h'),
                ..first(g)
            }
        }
        store
            .set_summariser(Summariser {
                render: marked,
                format: 1,
            })
            .unwrap();
        store
            .transaction(|tx| {
                for n in ["a1", "a2", "hid", "s1", "s2", "z1", "z2"] {
                    tx.save_game(&game(n))?;
                }
                Ok::<_, StoreError>(())
            })
            .unwrap();
        let names = |rows: Vec<SummaryRow>| rows.into_iter().map(|r| r.name).collect::<Vec<_>>();
        let page = |store: &mut Store, also: Option<&str>, offset, limit| {
            names(
                store
                    .read(|tx| tx.summary_page(1, true, also, offset, limit))
                    .unwrap(),
            )
        };
        assert_eq!(page(&mut store, None, 0, 4), ["a1", "a2", "s1", "s2"]);
        assert_eq!(page(&mut store, None, 4, 4), ["z1", "z2"]);
        assert!(page(&mut store, None, 8, 4).is_empty());
        assert_eq!(page(&mut store, Some("HID"), 0, 3), ["a1", "a2", "hid"]);
        let count =
            |store: &mut Store, also| store.read(|tx| tx.summary_count(1, true, also)).unwrap();
        assert_eq!(count(&mut store, None), 6);
        assert_eq!(count(&mut store, Some("hid")), 7);
        let seeking = |store: &mut Store, also, limit| {
            names(store.read(|tx| tx.seeking_rows(1, also, limit)).unwrap())
        };
        assert_eq!(
            seeking(&mut store, None, 10),
            ["s1", "s2"],
            "never the unlisted one"
        );
        assert_eq!(seeking(&mut store, None, 1), ["s1"]);
        assert_eq!(seeking(&mut store, Some("z2"), 10), ["s1", "s2", "z2"]);
        // A game that leaves the list leaves its pages.
        store.transaction(|tx| tx.remove_game("a2")).unwrap();
        assert_eq!(page(&mut store, None, 0, 4), ["a1", "s1", "s2", "z1"]);
        // Read back as it was rendered.
        let rows = store
            .read(|tx| tx.summary_page(1, false, None, 1, 1))
            .unwrap();
        let hid = rows[0].summary.clone().unwrap();
        assert_eq!(
            (rows[0].name.as_str(), hid.listed, hid.seeking),
            ("hid", false, false)
        );
    }

    #[test]
    fn unlisted_games_are_left_out_but_the_one_asked_for() {
        let mut store = Store::open_in_memory().unwrap();
        store.set_summariser(FIRST).unwrap();
        fn hidden(g: &Game) -> GameSummary {
            GameSummary {
                listed: !g.name().starts_with('h'),
                ..first(g)
            }
        }
        store
            .set_summariser(Summariser {
                render: hidden,
                format: 1,
            })
            .unwrap();
        store
            .transaction(|tx| {
                for n in ["a", "hidden", "hush", "z"] {
                    tx.save_game(&game(n))?;
                }
                Ok::<_, StoreError>(())
            })
            .unwrap();
        let names = |also: Option<&str>, store: &mut Store| -> Vec<String> {
            store
                .read(|tx| tx.summary_rows(1, true, also))
                .unwrap()
                .into_iter()
                .map(|r| r.name)
                .collect()
        };
        assert_eq!(names(None, &mut store), ["a", "z"]);
        assert_eq!(names(Some("HUSH"), &mut store), ["a", "hush", "z"]);
    }
}
