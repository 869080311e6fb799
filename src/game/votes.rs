//! Draws and concessions: the players' votes (`SET DRAW`, `SET CONCEDE` and their `NO`
//! forms; in a duplex game one vote a player), the draw or concession they agreed (the
//! votes of the powers the rule set asks, H17, that someone plays: `docs/decisions.md`),
//! and the ending the master declares (`DECLARE`).

use crate::command::Declaration;
use crate::map::{Map, Power};
use crate::variant::{Ending, Variant};

use super::{Game, Refused, Status, list_powers};

/// A vote that no longer stands: the surviving powers changed since it was cast.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DrawVote {
    /// `SET DRAW`: a draw among these powers.
    Draw(Vec<Power>),
    /// `SET CONCEDE`: the game conceded to this power.
    Concede(Power),
}

impl Game {
    /// The draw every power in `voters` accepts (DIAS among them), if any: the rule set says
    /// whose agreement a draw needs (H17, [`Variant::draw_powers`]; the standard game's
    /// surviving powers).
    pub fn agreed_draw(&self, voters: &[Power]) -> Option<Vec<Power>> {
        let mut survivors = voters.to_vec();
        survivors.sort();
        survivors.dedup();
        if survivors.is_empty() {
            return None;
        }
        let all_accept = survivors.iter().all(|p| {
            self.player(*p)
                .and_then(|pl| pl.draw.as_ref())
                .is_some_and(|d| {
                    let mut d = if d.is_empty() {
                        survivors.clone()
                    } else {
                        d.clone()
                    };
                    d.sort();
                    d == survivors
                })
        });
        all_accept.then_some(survivors)
    }

    /// The power every player in `voters` concedes to, if they all agree (not the power
    /// itself, nor, in a duplex game, the other powers its player holds).
    pub fn agreed_concession(&self, voters: &[Power]) -> Option<Power> {
        let first = self.player(*voters.first()?)?.concede?;
        let winners = self.held_with(first);
        voters
            .iter()
            .filter(|p| !winners.contains(p))
            .all(|p| self.player(*p).and_then(|pl| pl.concede) == Some(first))
            .then_some(first)
    }

    /// The powers whose agreement ends the game by draw or concession, as the rule set says.
    pub fn draw_powers(&self, map: &Map, variant: &dyn Variant) -> Vec<Power> {
        let parts = self.view_parts();
        variant.draw_powers(&self.view(map, &parts), &self.variant_state)
    }

    /// The powers whose votes a draw or a concession needs, and who share a draw: the
    /// rule set's [`Game::draw_powers`] that someone plays (a power nobody plays has no
    /// vote and no share, `docs/decisions.md`).
    pub fn draw_voters(&self, map: &Map, variant: &dyn Variant) -> Vec<Power> {
        self.draw_powers(map, variant)
            .into_iter()
            .filter(|p| self.is_played(*p))
            .collect()
    }

    /// The powers a draw vote is for, from what the voter wrote (`SET DRAW`, empty: every
    /// power the draw must include; or a list, which must be exactly those: the judge's
    /// draws include all survivors) and the powers the draw must include now (`draw`).
    /// Err: the list as written, when it is not those powers.
    pub fn draw_vote(asked: &[Power], draw: &[Power]) -> Result<Vec<Power>, Vec<Power>> {
        let mut want: Vec<Power> = draw.to_vec();
        want.sort();
        want.dedup();
        if asked.is_empty() {
            return Ok(want);
        }
        let mut got = asked.to_vec();
        got.sort();
        got.dedup();
        if got == want { Ok(want) } else { Err(got) }
    }

    /// Clears every draw and concession vote; returns the votes cleared, by power.
    pub fn clear_votes(&mut self) -> Vec<(Power, DrawVote)> {
        let mut out = Vec::new();
        for p in &mut self.players {
            if let Some(d) = p.draw.take() {
                out.push((p.power, DrawVote::Draw(d)));
            }
            if let Some(c) = p.concede.take() {
                out.push((p.power, DrawVote::Concede(c)));
            }
        }
        self.touch();
        out
    }

    /// Who votes for the player signed on as `signed`, while the game runs or is paused:
    /// the power that stands for the player (in a duplex game the first they hold that is
    /// in the draw), the powers they hold, and the powers whose votes count.
    fn voters(
        &self,
        map: &Map,
        variant: &dyn Variant,
        signed: Power,
    ) -> Result<(Power, Vec<Power>, Vec<Power>), Refused> {
        if self.status != Status::Active && self.status != Status::Paused {
            return Err(Refused::NotActive(self.name.clone()));
        }
        let draw = self.draw_voters(map, variant);
        let held = self.held_with(signed);
        let me = held
            .iter()
            .copied()
            .find(|p| draw.contains(p))
            .unwrap_or(signed);
        Ok((me, held, draw))
    }

    /// `SET DRAW [powers]` from the player of `signed`: a vote for the draw among every
    /// power still in the game (a list must be exactly those powers). Returns the powers
    /// of the draw voted for.
    pub fn vote_draw(
        &mut self,
        map: &Map,
        variant: &dyn Variant,
        signed: Power,
        asked: &[Power],
    ) -> Result<Vec<Power>, Refused> {
        let (me, _, draw) = self.voters(map, variant, signed)?;
        if !draw.contains(&me) {
            return Err(Refused::OutOfGame(me.name().to_string()));
        }
        let powers =
            Game::draw_vote(asked, &draw).map_err(|asked| Refused::DrawRefused { asked, draw })?;
        let vote = powers.clone();
        self.each_held(signed, |p| p.draw = Some(vote.clone()))?;
        Ok(powers)
    }

    /// `SET CONCEDE power` from the player of `signed`. Returns who else must concede (the
    /// powers in the game but the winner's and the player's own).
    pub fn concede(
        &mut self,
        map: &Map,
        variant: &dyn Variant,
        signed: Power,
        to: Power,
    ) -> Result<Vec<Power>, Refused> {
        let (_, held, draw) = self.voters(map, variant, signed)?;
        if !draw.contains(&to) {
            return Err(Refused::OutOfGame(to.name().to_string()));
        }
        // In a duplex game the powers held with the one conceded to need not concede.
        let winners = self.held_with(to);
        let others: Vec<Power> = draw
            .iter()
            .copied()
            .filter(|p| !winners.contains(p) && !held.contains(p))
            .collect();
        self.each_held(signed, |p| p.concede = Some(to))?;
        Ok(others)
    }

    /// `SET NODRAW`: whether there was a vote to take back.
    pub fn withdraw_draw(&mut self, signed: Power) -> Result<bool, Refused> {
        let mut had = false;
        self.each_held(signed, |p| had |= p.draw.take().is_some())?;
        Ok(had)
    }

    /// `SET NOCONCEDE`: whether there was a concession to take back.
    pub fn withdraw_concession(&mut self, signed: Power) -> Result<bool, Refused> {
        let mut had = false;
        self.each_held(signed, |p| had |= p.concede.take().is_some())?;
        Ok(had)
    }

    /// The draw or concession the game's players agreed, if any: the votes of the powers
    /// whose agreement the rule set asks for ([`Game::draw_powers`]) that someone plays. A
    /// power nobody plays (abandoned, a dummy) has no vote and no share: a draw is among
    /// the surviving powers that are played (`docs/decisions.md`).
    pub fn agreed_ending(&self, map: &Map, variant: &dyn Variant) -> Option<Ending> {
        if self.status != Status::Active {
            return None;
        }
        let voters = self.draw_voters(map, variant);
        self.agreed_draw(&voters)
            .map(Ending::Draw)
            .or_else(|| self.agreed_concession(&voters).map(Ending::Concession))
    }

    /// `DECLARE DRAW powers` / `DECLARE WINNER power`, while the game runs or is paused:
    /// the ending, and what was declared (the draw's powers in order). Refused when a power
    /// named is not in the game.
    pub fn declared_ending(
        &self,
        map: &Map,
        variant: &dyn Variant,
        declared: &Declaration,
    ) -> Result<(Ending, Declaration), Refused> {
        if !matches!(self.status, Status::Active | Status::Paused) {
            return Err(Refused::NotActive(self.name.clone()));
        }
        let in_game = self.draw_powers(map, variant);
        match declared {
            Declaration::Draw(ps) => {
                let out: Vec<_> = ps
                    .iter()
                    .filter(|p| !in_game.contains(p))
                    .copied()
                    .collect();
                if !out.is_empty() {
                    return Err(Refused::OutOfGame(list_powers(&out)));
                }
                let mut ps = ps.clone();
                ps.sort();
                Ok((Ending::Draw(ps.clone()), Declaration::Draw(ps)))
            }
            Declaration::Winner(p) => {
                if !in_game.contains(p) {
                    return Err(Refused::OutOfGame(p.name().to_string()));
                }
                Ok((Ending::Solo(*p), Declaration::Winner(*p)))
            }
        }
    }
}

#[cfg(test)]
mod tests;
