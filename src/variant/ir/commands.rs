//! International Relations' commands (§3): treaty proposals and their withdrawal,
//! abrogations, permissions and transfers, each kept with the phase's orders, and victory
//! claims, taken at once; each refused with the spec's code and sentence in the table's
//! order.

use super::grammar::IrCommand;
use crate::command::OwnCommand;
use crate::map::Power;
use crate::rules::{PhaseKind, Season, VariantRefusal};
use crate::variant::{CommandContext, Sender, Slot, Taken, surviving_powers};

use super::board::{Board, permits};
use super::state::IrState;
use super::turn::conundrum;

fn refuse<T>(code: &'static str, sentence: String) -> Result<T, VariantRefusal> {
    Err(VariantRefusal::new(code, sentence))
}

/// The power word of an `ENTER … WITH <power>` line as written (`{text}` of IR-X2).
fn power_text(text: &str) -> String {
    let lower = text.to_ascii_lowercase();
    match lower.rfind("with") {
        Some(i) => text.get(i + 4..).unwrap_or("").trim().to_string(),
        None => text.trim().to_string(),
    }
}

/// Where a proposal to `b` is kept: one per partner; in an alliance or conference phase as
/// a member of the power's set of proposals (IR-H1).
fn proposal_slot(phase: crate::rules::Phase, b: Power) -> Slot {
    if matches!(phase.kind, PhaseKind::Own(_)) {
        Slot::Member {
            set: "treaties".into(),
            key: b.name().into(),
        }
    } else {
        Slot::Named(format!("treaty {}", b.name()))
    }
}

/// H1: whether and how a command is taken now.
pub fn take(
    cx: &CommandContext<'_>,
    s: &IrState,
    command: &IrCommand,
) -> Result<Taken, VariantRefusal> {
    let map = cx.game.map;
    let position = cx.game.position;
    let phase = position.phase;
    let Sender::Power(a) = cx.sender else {
        return refuse(
            "NOT-A-POWER",
            "treaties, permissions and transfers are a power's; sign on as the power (or BECOME it)".into(),
        );
    };
    let fall_movement = phase.season == Season::Fall && phase.kind == PhaseKind::Movement;
    let proposing = fall_movement || matches!(phase.kind, PhaseKind::Own(_));
    let in_game = |p: Power| surviving_powers(position).contains(&p);
    match command {
        IrCommand::EnterTreaty { with: b, .. } => {
            let b = *b;
            if !proposing {
                return refuse(
                    "IR-X1",
                    "treaties can only be entered with Fall movement orders or in an alliance conference.".into(),
                );
            }
            if b == a || !in_game(b) {
                return refuse(
                    "IR-X2",
                    format!("{} is not another power in this game.", power_text(cx.text)),
                );
            }
            if let Some(t) = s.treaty(a, b) {
                return refuse("IR-X3", format!("{a} and {b} already have an {}.", t.kind));
            }
            if s.at_war(a, b) && !s.peace_treaties {
                return refuse(
                    "IR-X19",
                    format!(
                        "{a} is at war with {b}; a treaty between them would create a relationship conundrum (peace treaties are off in this game)."
                    ),
                );
            }
            if let Some((z, x, y)) = conundrum(s, a, b) {
                return refuse(
                    "IR-X4",
                    format!(
                        "{a} cannot sign with {b}: {z} has a treaty with {x} and is at war with {y}."
                    ),
                );
            }
            // IR-H1: in an alliance or conference phase a later message replaces the
            // power's earlier set of proposals.
            let slot = proposal_slot(phase, b);
            Ok(if fall_movement {
                Taken::Order { slot, echo: None }
            } else {
                Taken::Replacing { slot, echo: None }
            })
        }
        IrCommand::WithdrawTreaty { kind, with: b } => {
            if !proposing {
                return refuse(
                    "WRONG-PHASE",
                    "a treaty proposal can only be withdrawn where it is made: with Fall movement orders, or in an alliance or conference phase.".into(),
                );
            }
            let proposed = cx.game.variant_orders.iter().any(|v| {
                v.from == cx.sender
                    && v.command.get::<IrCommand>()
                        == Some(&IrCommand::EnterTreaty {
                            kind: *kind,
                            with: *b,
                        })
            });
            if !proposed {
                return refuse(
                    "NO-PROPOSAL",
                    format!("{a} has not proposed an {kind} with {b} in this phase."),
                );
            }
            Ok(Taken::Order {
                slot: proposal_slot(phase, *b),
                echo: None,
            })
        }
        IrCommand::Abrogate { kind, with: b } => {
            if phase.kind != PhaseKind::Adjustment {
                return refuse(
                    "IR-X5",
                    "treaties can only be abrogated with Winter orders.".into(),
                );
            }
            let treaty = s
                .treaty(a, *b)
                .filter(|t| *b != a && t.lapsing.is_none() && kind.is_none_or(|k| k == t.kind));
            if treaty.is_none() {
                let what = kind.map_or("treaty".to_string(), |k| k.to_string());
                return refuse("IR-X6", format!("{a} has no {what} with {b}."));
            };
            if let Some(c) = s.coalition_of(a, *b) {
                let (x, y) = super::state::pair(a, *b);
                return refuse(
                    "IR-X7",
                    format!(
                        "{x} and {y} have claimed a coalition victory together; their treaty cannot be abrogated before Fall {}.",
                        c.decided_at
                    ),
                );
            }
            Ok(Taken::Order {
                slot: Slot::Named(format!("abrogate {}", b.name())),
                echo: None,
            })
        }
        IrCommand::PermitMove { power: b, .. } | IrCommand::PermitInto { power: b, .. } => {
            let dest = match command {
                IrCommand::PermitMove { dest, .. } => dest.province,
                IrCommand::PermitInto { province, .. } => *province,
                _ => return refuse("NOT-IN-VARIANT", "not a permission".into()),
            };
            if !matches!(phase.kind, PhaseKind::Movement | PhaseKind::Retreat) {
                return refuse(
                    "WRONG-PHASE",
                    "permissions can only be given with movement or retreat orders.".into(),
                );
            }
            if s.allied(a, *b, phase).is_none() {
                return refuse(
                    "IR-X12",
                    format!("{a} has no treaty with {b}; only allies can be given permission."),
                );
            }
            let ps = permits(cx.game.variant_orders);
            let board = Board {
                map,
                position,
                s,
                permits: &ps,
            };
            if !board.controls(a, *b, dest) {
                return refuse(
                    "IR-X12",
                    format!(
                        "{} is not territory controlled by {a}.",
                        map.province_name(dest)
                    ),
                );
            }
            Ok(Taken::Order {
                slot: Slot::Named(format!("permit {}", command.render(map))),
                echo: None,
            })
        }
        IrCommand::Transfer { province, to: b } => {
            if !fall_movement {
                return refuse(
                    "IR-X13",
                    "ownership can only be transferred with Fall movement orders.".into(),
                );
            }
            if position.owner_of(*province) != Some(a) || !map.province(*province).supply_centre {
                return refuse(
                    "IR-X13",
                    format!("{a} does not own {}.", map.province_name(*province)),
                );
            }
            if s.allied(a, *b, phase).is_none() {
                return refuse("IR-X13", format!("{a} has no treaty with {b}."));
            }
            Ok(Taken::Order {
                slot: Slot::Named(format!("transfer {}", map.code(*province))),
                echo: None,
            })
        }
        IrCommand::ClaimSolo => {
            super::claims::check(s, position, a, None).map(|()| Taken::Immediate)
        }
        IrCommand::ClaimCoalition { with } => {
            super::claims::check(s, position, a, Some(with)).map(|()| Taken::Immediate)
        }
    }
}
