//! Settings: the master's `SET` commands of a game's press, rules and entry (each a
//! `Game` setter that checks its own refusals), `SET VARIANT` of a forming game, the join
//! password of a private game, and the number of players.

use crate::bulletin::answers;
use crate::bulletin::settings as text;
use crate::command::NjudgeWord;
use crate::game::{self, Game, Refused};

use super::super::password;
use super::super::refusal::Refusal;
use super::super::session::{Done, Session, Verdict, salt};
use super::signon::find_variant;
use super::{More, signed_on};

impl Session<'_, '_> {
    /// A setting that cannot be refused: the reply is `OK` alone.
    pub(in crate::judge) fn set(&mut self, change: impl FnOnce(&mut Game)) -> More {
        change(signed_on(&mut self.game)?);
        Ok(Vec::new())
    }

    /// A setting the game may refuse (a forming game's only, say): the reply is `OK` alone.
    pub(in crate::judge) fn try_set(
        &mut self,
        change: impl FnOnce(&mut Game) -> Result<(), Refused>,
    ) -> More {
        change(signed_on(&mut self.game)?)?;
        Ok(Vec::new())
    }

    /// One of njudge's master words a dipjudge game does otherwise (`SET FAKE`, `SET ACCESS
    /// …`, a board's option): `OK` with the sentence when the game already does what it
    /// asks, refused with it otherwise; nothing changes either way.
    pub(in crate::judge) fn njudge_setting(&mut self, w: NjudgeWord) -> More {
        let line = text::njudge_word(w);
        if w.as_asked() {
            Ok(vec![line])
        } else {
            Err(Refusal::Otherwise(line).into())
        }
    }

    /// One of njudge's words anyone sends that dipjudge does otherwise (`DIARY`, `MAP *`,
    /// `SIGNON ? password`, an observer's `SET NO BROADCAST`): as [`Self::njudge_setting`].
    pub(in crate::judge) fn njudge_word(&mut self, w: NjudgeWord) -> Verdict {
        let more = self.njudge_setting(w)?;
        Done::with_more(w.render(), more)
    }

    /// `SET VARIANT name`: a forming game's rule set; the rest of the mail reads it.
    pub(in crate::judge) fn set_variant(&mut self, name: &str) -> More {
        let config = self.config;
        let g = signed_on(&mut self.game)?;
        g.may_set_variant()?;
        let v = find_variant(config, name)?;
        g.set_variant(v)?;
        let line = answers::rules_chosen(g.name(), v.name());
        self.variant = Some(v);
        Ok(vec![line])
    }

    /// `SET PLAYERS n`: how many players a forming game waits for.
    pub(in crate::judge) fn set_players(&mut self, count: u32) -> More {
        let g = signed_on(&mut self.game)?;
        g.set_players(usize::try_from(count).unwrap_or(usize::MAX))?;
        Ok(vec![text::players_set(g)])
    }

    /// `SET JOIN password` (None: `SET NOJOIN`): the password that joins a private game,
    /// kept hashed.
    pub(in crate::judge) fn set_join_password(&mut self, pw: Option<&str>) -> More {
        let (config, tx) = (self.config, self.tx);
        let g = signed_on(&mut self.game)?;
        match pw {
            Some(pw) if !password::long_enough(pw) => return Err(Refusal::ShortPassword.into()),
            Some(pw) => {
                let salt = salt(config, tx)?;
                g.set_join_password(Some(password::hash(config.password_cost, pw, salt)));
            }
            None => g.set_join_password(None),
        }
        Ok(Vec::new())
    }

    /// `SET ONTIMERAT n` (none or 0: no gate): the least on-time ratio a newcomer needs.
    pub(in crate::judge) fn set_on_time_gate(&mut self, least: Option<u32>) -> More {
        let least = least.filter(|n| *n > 0).map(game::Ratio);
        self.set(|g| g.set_gate(game::Gate::OnTime(least)))
    }

    /// `SET RESRAT n` (none, or 100% and over: no gate): the most resignations a newcomer
    /// may have.
    pub(in crate::judge) fn set_resignation_gate(&mut self, most: Option<u32>) -> More {
        let most = most.map(game::Ratio).filter(|r| *r < game::Ratio::ONE);
        self.set(|g| g.set_gate(game::Gate::Resignation(most)))
    }
}
