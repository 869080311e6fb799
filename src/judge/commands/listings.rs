//! Records and listings: `LIST`, `LIST FULL`, `LIST game`, `MAP`, `SUMMARY`, `EXPORT` and
//! `HISTORY`. They read games (any game, not only the one signed on to) and change none;
//! who reads is decided here ([`Session::viewer`], [`Session::may_have_pictures`]), what
//! that reader may see by the audience rule ([`super::super::audience`]).

use crate::bulletin::dates::zone as game_tz;
use crate::bulletin::listing::Shown;
use crate::bulletin::{answers, listing};
use crate::command::{Date, Exclusion, PlayerCommand};
use crate::game::{Game, Sender, Status};
use crate::store::StoreError;

use super::super::audience::{self, Item, Viewer};
use super::super::refusal::{Refusal, SessionError};
use super::super::session::{Done, Session, Verdict};
use super::super::{chart, game_list, history, pictures, process};

impl Session<'_, '_> {
    /// `LIST`: after a SIGNON, the signed-on game's report (`LIST game`), as njudge reads
    /// it; before one, a line for each game this mail may see listed (a suspended game says
    /// so), and on a judge with more games than a page, the games that seek players and how
    /// to ask for the rest (`LIST PAGE n`).
    pub(in crate::judge) fn list(&mut self) -> Verdict {
        if let Some(name) = self.game.as_ref().map(|g| g.name().to_string()) {
            return self.list_game(&name);
        }
        let tx = self.tx;
        let more = match game_list::list_answer(tx, None)? {
            game_list::ListAnswer::All(lines) => {
                let mut more = vec![listing::LIST_HEADING.to_string()];
                more.extend(lines);
                more
            }
            game_list::ListAnswer::Seeking {
                lines,
                more: others,
                total,
            } => {
                let mut more = vec![listing::LIST_SEEKING_HEADING.to_string()];
                let shown = lines.len();
                more.extend(lines);
                more.extend(listing::list_seeking_note(
                    shown,
                    others,
                    total,
                    game_list::LIST_PAGE,
                ));
                more
            }
        };
        Done::with_more("LIST", more)
    }

    /// `LIST PAGE n`: the `n`th page of `LIST`'s lines, by name.
    pub(in crate::judge) fn list_page(&mut self, page: u32) -> Verdict {
        let tx = self.tx;
        let mine = self.game.as_ref().filter(|g| self.lists(g));
        let p = game_list::list_page(tx, mine.map(|g| g.name()), u64::from(page.max(1)))?;
        let mut more = vec![listing::list_page_heading(
            p.page,
            p.pages,
            game_list::LIST_PAGE,
            false,
        )];
        let shown = p.items.len();
        more.extend(p.items);
        more.extend(listing::list_page_note(
            p.page, p.pages, p.total, false, shown,
        ));
        Done::with_more(answers::list_page(p.page, false), more)
    }

    /// `LIST game`: the game's settings and seats; its master also reads each player's
    /// reliability record.
    pub(in crate::judge) fn list_game(&mut self, name: &str) -> Verdict {
        let Some(g) = self.tx.load_game(name)? else {
            return Err(Refusal::NoGame(name.to_string()).into());
        };
        let variant = process::variant_of(self.config, &g)?;
        // Observers' addresses are for the game's master alone.
        let viewer = self.viewer(&g);
        let master = viewer == Viewer::Master;
        let shown = shown(&g, viewer);
        let mut more = lines(&listing::list_game(self.map, variant, &g, shown));
        // The master also reads each player's reliability record (issue 31).
        if master {
            more.extend(self.records_for_master(&g)?);
        }
        Done::with_more(answers::list(g.name()), more)
    }

    /// `LIST FULL`: `LIST game` of every game this mail may see listed; on a judge with
    /// more games than a page of it holds, the first page (`LIST FULL PAGE n`).
    pub(in crate::judge) fn list_full(&mut self) -> Verdict {
        let tx = self.tx;
        let mine = self.game.as_ref().filter(|g| self.lists(g));
        if game_list::full_page_count(tx, mine.map(|g| g.name()))? > 1 {
            return self.list_full_page(1);
        }
        let (more, _) = self.full_listings(&tx.game_names()?)?;
        Done::with_more("LIST FULL", more)
    }

    /// `LIST game` of each of `names` this mail may see listed, a blank line after each (a
    /// suspended game says so), and how many were listed.
    fn full_listings(&mut self, names: &[String]) -> Result<(Vec<String>, usize), SessionError> {
        let tx = self.tx;
        let mut more = Vec::new();
        let mut listed = 0;
        for name in names {
            match tx.load_game(name) {
                Ok(Some(g)) if !self.lists(&g) => continue,
                Ok(Some(g)) => {
                    let variant = process::variant_of(self.config, &g)?;
                    let shown = shown(&g, self.viewer(&g));
                    more.extend(lines(&listing::list_game(self.map, variant, &g, shown)));
                }
                Ok(None) => continue,
                Err(StoreError::Suspended { game, reason }) => {
                    more.push(listing::suspended_full_line(&game, &reason));
                }
                Err(e) => return Err(e.into()),
            }
            listed += 1;
            more.push(String::new());
        }
        Ok((more, listed))
    }

    /// `LIST FULL PAGE n`: `LIST game` of each game of the `n`th page, by name.
    pub(in crate::judge) fn list_full_page(&mut self, page: u32) -> Verdict {
        let tx = self.tx;
        let mine = self.game.as_ref().filter(|g| self.lists(g));
        let p = game_list::full_page(tx, mine.map(|g| g.name()), u64::from(page.max(1)))?;
        let mut more = vec![
            listing::list_page_heading(p.page, p.pages, game_list::FULL_PAGE, true),
            String::new(),
        ];
        let (listed, shown) = self.full_listings(&p.items)?;
        more.extend(listed);
        more.extend(listing::list_page_note(
            p.page, p.pages, p.total, true, shown,
        ));
        Done::with_more(answers::list_page(p.page, true), more)
    }

    /// A game this mail may have pictures of (`MAP`, `MAP ALL`), or why not.
    fn game_with_pictures(&self, name: &str) -> Result<Game, super::super::refusal::SessionError> {
        match self.tx.load_game(name)? {
            Some(g) if !self.may_have_pictures(&g) => {
                Err(Refusal::NoPictureForYou(g.name().to_string()).into())
            }
            Some(g) => Ok(g),
            None => Err(Refusal::NoGame(name.to_string()).into()),
        }
    }

    /// `MAP game [phase]`.
    pub(in crate::judge) fn map(
        &mut self,
        name: &str,
        phase: Option<crate::rules::Phase>,
    ) -> Verdict {
        let g = self.game_with_pictures(name)?;
        self.attachment_room()?;
        self.map_reply(&g, phase)
    }

    /// `MAP game ALL`.
    pub(in crate::judge) fn map_all(&mut self, name: &str) -> Verdict {
        let g = self.game_with_pictures(name)?;
        self.attachment_room()?;
        self.map_all_reply(&g)
    }

    /// `SUMMARY game`: a game under way or over has a centre chart: its year-by-year table
    /// is in the summary, and its picture is attached to the reply of those who may have
    /// its pictures (its players and master, signed on, and its observers).
    pub(in crate::judge) fn summary(&mut self, name: &str) -> Verdict {
        let tx = self.tx;
        let Some(g) = tx.load_game(name)? else {
            return Err(Refusal::NoGame(name.to_string()).into());
        };
        let shown = shown(&g, self.viewer(&g));
        let chart = if *g.status() == Status::Forming {
            None
        } else {
            Some(chart::centre_chart(tx, &g)?)
        };
        let attach =
            chart.is_some() && self.may_have_pictures(&g) && self.attachment_room().is_ok();
        if attach {
            let kept = pictures::keep_chart(tx, &g)?;
            self.reply_pictures.push((g.name().to_string(), kept));
        }
        Done::with_more(
            answers::summary(g.name(), attach),
            lines(&listing::summary(self.map, &g, shown, chart.as_ref())),
        )
    }

    /// `EXPORT game`: the record goes as an attachment, drawn up when the reply is sent (as
    /// a picture is), as an outsider may read it: only to those who may have the game's
    /// pictures, so that a forged address cannot have it mailed to someone else.
    pub(in crate::judge) fn export(&mut self, name: &str) -> Verdict {
        match self.tx.load_game(name)? {
            Some(g) if !self.may_have_pictures(&g) => {
                Err(Refusal::NoExportForYou(g.name().to_string()).into())
            }
            Some(g) => {
                self.attachment_room()?;
                self.reply_pictures.push((
                    g.name().to_string(),
                    pictures::reference(g.name(), pictures::EXPORT),
                ));
                Done::ok(answers::export(g.name()))
            }
            None => Err(Refusal::NoGame(name.to_string()).into()),
        }
    }

    /// `HISTORY game [FROM date] [TO date] [LINES n]` (or njudge's second form, `exclude`):
    /// what this mail's reader received, in the window asked.
    pub(in crate::judge) fn history(
        &mut self,
        cmd: &PlayerCommand,
        name: &str,
        (from, to): (Option<Date>, Option<Date>),
        lines: Option<u32>,
        exclude: &Option<Exclusion>,
    ) -> Verdict {
        let Some(g) = self.tx.load_game(name)? else {
            return Err(Refusal::NoGame(name.to_string()).into());
        };
        let viewer = self.viewer(&g);
        if audience::history_closed(viewer, &audience::Settings::of(&g)) {
            return Err(Refusal::HistoryClosed(g.name().to_string()).into());
        }
        let tz = game_tz(&g);
        let window = history::Window {
            from: from.and_then(|d| history::history_time(&d, &tz, self.now, false)),
            to: to.and_then(|d| history::history_time(&d, &tz, self.now, true)),
            exclude: exclude.clone(),
        };
        let entries = audience::entries_for(&g, viewer, self.tx.history(g.name())?);
        let entries = history::select(entries, &window);
        let limit = lines.map_or(listing::HISTORY_LINES, |n| n as usize);
        let more = listing::history_upto(&g, &entries, limit);
        Done::with_more(answers::history(cmd), more)
    }

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

    /// Whether `LIST` shows `g` to this mail: a listed game to anyone, an unlisted one to
    /// its players and master signed on.
    fn lists(&self, g: &Game) -> bool {
        g.settings().listed || matches!(self.viewer(g), Viewer::Master | Viewer::Power { .. })
    }

    /// Whether this mail may have a picture of `g` (`MAP`): it signed on as one of the
    /// game's powers or its master, or comes from one of its observers. A picture is large:
    /// a stranger's small mail must not draw one to any address it names.
    pub(in crate::judge) fn may_have_pictures(&self, g: &Game) -> bool {
        let address = self.msg.reply_address();
        matches!(self.viewer(g), Viewer::Master | Viewer::Power { .. })
            || g.observers()
                .iter()
                .any(|o| o.eq_ignore_ascii_case(address))
    }

    /// Who reads game `g` in this mail: the power or master it signed on as in that game,
    /// an observer signed on to it, else an outsider (an address proves nothing).
    pub(in crate::judge) fn viewer(&self, g: &Game) -> Viewer {
        let same = self.game.as_ref().is_some_and(|cur| cur.name() == g.name());
        match self.who {
            Some(Sender::Power(p)) if same => Viewer::power(g, p),
            Some(Sender::Master) if same => Viewer::Master,
            None if same && self.observer => Viewer::Observer,
            _ => Viewer::Outsider,
        }
    }
}

/// What `viewer` may see of `g`'s players in a listing (`LIST game`, `SUMMARY`).
fn shown(g: &Game, viewer: Viewer) -> Shown {
    let s = audience::Settings::of(g);
    Shown {
        master: viewer == Viewer::Master,
        players: audience::may_read(Item::Players, viewer, &s),
        addresses: audience::may_read(Item::Addresses, viewer, &s),
    }
}

/// A text's lines, for the reply.
fn lines(text: &str) -> Vec<String> {
    text.lines().map(str::to_string).collect()
}
