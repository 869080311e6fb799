//! Orders: a power's orders (checked by the game's rules, H3), a rule set's own commands
//! (taken as H1 says: applied at once, H2, or kept with the orders), and `CLEAR`.

use crate::command::{LineResult, RuleCommand};
use crate::game::CommandTaken;
use crate::rules;
use crate::variant::Sender;

use super::super::mailing;
use super::super::refusal::Refusal;
use super::super::session::{Done, Session, Verdict};

impl Session<'_, '_> {
    /// njudge's `PHASE season year phase`: the current phase's orders follow as ever; for
    /// another phase, the orders after it are not read (up to a `PHASE` of the current
    /// phase) and the line is refused with what to do instead. dipjudge keeps no orders
    /// for a later phase (docs/decisions.md).
    pub(in crate::judge) fn phase(&mut self, phase: rules::Phase) -> Verdict {
        let current = self.game_mut()?.position().phase;
        if phase == current {
            self.other_phase = None;
            return Done::ok(crate::command::PlayerCommand::Phase { phase }.render());
        }
        self.other_phase = Some(phase);
        Err(Refusal::Otherwise(crate::bulletin::settings::njudge_word(
            crate::command::NjudgeWord::LaterPhase,
        ))
        .into())
    }

    pub(in crate::judge) fn order(&mut self, order: rules::Order) -> Verdict {
        let Some(Sender::Power(signed)) = self.who else {
            return Err(Refusal::NotSignedOnToOrder.into());
        };
        let map = self.map;
        let (g, variant) = self.game_and_variant()?;
        // A duplex player orders for each power they hold: the order is the unit's power's.
        let taken = g.give_order(map, variant, signed, order)?;
        Ok(Done {
            warnings: taken.warnings,
            ..Done::new(taken.order.order.display(map))
        })
    }

    /// A rule set's command (H1): refused, applied at once (H2; its lines are mailed at
    /// once to whoever may read them and repeated in the next results), or kept with the
    /// sender's orders of this phase.
    pub(in crate::judge) fn variant_command(
        &mut self,
        cmd: &RuleCommand,
        line: &LineResult,
    ) -> Verdict {
        let (map, config) = (self.map, self.config);
        let Some(sender) = self.who else {
            return Err(Refusal::NotSignedOnForVariant(cmd.render(map)).into());
        };
        let (Some(g), Some(variant)) = (self.game.as_mut(), self.variant) else {
            return Err(Refusal::NotSignedOn.into());
        };
        let echo = match g.take_command(map, variant, sender, cmd, &line.text)? {
            CommandTaken::Immediate {
                lines,
                echo,
                refused,
            } => {
                self.mails.extend(mailing::announce(config, g, &lines));
                if let Some(r) = refused {
                    return Err(Refusal::Variant(r).into());
                }
                echo
            }
            CommandTaken::Kept { echo } => echo,
        };
        Done::ok(echo.unwrap_or_else(|| cmd.render(map)))
    }

    /// `CLEAR`: the power's standing orders are dropped (a duplex player's CLEAR clears
    /// the orders of every power they hold).
    pub(in crate::judge) fn clear(&mut self) -> Verdict {
        match (self.who, self.game.as_mut()) {
            (Some(Sender::Power(p)), Some(g)) => {
                g.clear_orders_of(p);
                Done::ok("CLEAR")
            }
            _ => Err(Refusal::NotSignedOn.into()),
        }
    }
}
