//! Draws and concessions: `SET DRAW`, `SET NODRAW`, `SET CONCEDE`, `SET NOCONCEDE`, and
//! the end of the game when the players agree ([`Game::agreed_ending`]).
//!
//! [`Game::agreed_ending`]: crate::game::Game::agreed_ending

use crate::bulletin::settings as text;
use crate::map::Power;
use crate::store::StoreError;

use super::super::process;
use super::super::refusal::Refusal;
use super::super::session::{Done, Session, Verdict};

impl Session<'_, '_> {
    /// `SET DRAW [powers]`: a vote for the draw among every power still in the game, named
    /// in the reply (in a duplex game one vote a player); a list must be exactly those
    /// powers (the judge's draws include all survivors).
    pub(in crate::judge) fn draw_vote(&mut self, asked: &[Power]) -> Verdict {
        let (signed, map) = (self.signed_power()?, self.map);
        let (Some(g), Some(variant)) = (self.game.as_mut(), self.variant) else {
            return Err(Refusal::NotSignedOn.into());
        };
        let powers = g.vote_draw(map, variant, signed, asked)?;
        self.check_end()?;
        Done::ok(text::draw_vote_echo(&powers))
    }

    /// `SET NODRAW`: the power's draw vote is withdrawn.
    pub(in crate::judge) fn no_draw(&mut self) -> Verdict {
        let p = self.signed_power()?;
        let had = self.game_mut()?.withdraw_draw(p)?;
        Ok(Done::new(text::nodraw_echo(had)))
    }

    /// `SET CONCEDE power`: the reply names who else must concede.
    pub(in crate::judge) fn concede(&mut self, to: Power) -> Verdict {
        let (signed, map) = (self.signed_power()?, self.map);
        let (Some(g), Some(variant)) = (self.game.as_mut(), self.variant) else {
            return Err(Refusal::NotSignedOn.into());
        };
        let others = g.concede(map, variant, signed, to)?;
        self.check_end()?;
        Done::ok(text::concede_echo(to, &others))
    }

    /// `SET NOCONCEDE`: the power's concession is withdrawn.
    pub(in crate::judge) fn no_concede(&mut self) -> Verdict {
        let p = self.signed_power()?;
        let had = self.game_mut()?.withdraw_concession(p)?;
        Ok(Done::new(text::noconcede_echo(had)))
    }

    /// Ends the game when its players agreed a draw or a concession (the powers someone
    /// plays vote: [`crate::game::Game::agreed_ending`]).
    pub(in crate::judge) fn check_end(&mut self) -> Result<(), StoreError> {
        let (map, config, tx, now) = (self.map, self.config, self.tx, self.now);
        let (Some(g), Some(variant)) = (self.game.as_mut(), self.variant) else {
            return Ok(());
        };
        if let Some(e) = g.agreed_ending(map, variant) {
            // An error rolls the whole mail back: a game is never finished without its
            // "Game over" mail.
            let mails = process::finish(config, tx, g, e, now)?;
            self.mails.extend(mails);
        }
        Ok(())
    }
}
