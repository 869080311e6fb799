//! Formal Diplomacy rm91 (`docs/rules/formal.md`): powers declare war before they attack
//! (FD-2), may surrender to end their wars (FD-3), claim spheres of influence that close a
//! province to powers at peace with them (FD-4), may not send private press to an enemy
//! (FD-5), and score victory points until a turn limit (FD-1).
//!
//! The parts: [`state`] (wars, spheres, points), [`commands`] (the commands and their
//! errors), [`rules`] (the adjudication hooks and the claims), and here the [`RuleSet`]
//! hooks: the declarations before resolution, the steps, the summary and the end.

mod commands;
mod facts;
mod grammar;
mod rules;
mod state;

use crate::command::Grammar;
use crate::map::{Map, Power, ProvinceId};
use crate::picture::{Mark, RelationStyle};
use crate::rules::VariantRefusal;
use crate::rules::{Order, PhaseKind, PhaseOutcome, PhaseRecord, Position, Season, Step};
use crate::variant::{
    CaseFacts, CommandContext, Ending, GameEnd, GameView, Line, RuleSet, Sender, Taken,
    list_powers, relation_mark,
};

use facts::FormalFacts;

pub use grammar::{FormalCommand, FormalGrammar};
pub use state::FormalState;

use rules::{FormalRules, claims, declared};
use state::{eliminated, pair};

/// The Formal Diplomacy rules.
#[derive(Clone, Copy, Debug, Default)]
pub struct Formal;

impl RuleSet for Formal {
    type State = FormalState;
    type Command = FormalCommand;

    fn name(&self) -> &'static str {
        "Formal"
    }

    /// `turns=<n>` (FD-1.1).
    fn apply_setting(&self, s: &mut FormalState, key: &str, value: &str) -> Result<(), String> {
        if key != "turns" {
            return Err(crate::variant::no_such_setting(self.name(), key));
        }
        let n: u32 = value
            .parse()
            .ok()
            .filter(|n| *n > 0)
            .ok_or_else(|| format!("turns is a number of movement turns, not \"{value}\""))?;
        s.turns = n;
        Ok(())
    }

    fn settings(&self, state: &Self::State) -> Vec<(&'static str, String)> {
        vec![("turns", state.turns.to_string())]
    }

    fn grammar(&self) -> &'static dyn Grammar {
        &FormalGrammar
    }

    fn take_command(
        &self,
        cx: &CommandContext<'_>,
        s: &FormalState,
        command: &FormalCommand,
    ) -> Result<Taken, VariantRefusal> {
        commands::take(cx, s, command)
    }

    fn rules(&self, game: &GameView<'_>, s: &FormalState) -> Box<dyn crate::rules::Rules> {
        let claims = claims(game, s);
        Box::new(FormalRules {
            resolving: game.resolving,
            declared: declared(game),
            wars: s.wars.clone(),
            soi: s.soi.clone(),
            claims,
        })
    }

    /// H5: surrenders, declarations of war and undone spheres before a movement phase is
    /// resolved. H16: SOI outcomes and entries, the Fall scoring, eliminations; the lines of
    /// the phase together at its end, in §4's order.
    fn step(
        &self,
        game: &GameView<'_>,
        s: &mut FormalState,
        step: Step<'_>,
        position: &mut Position,
    ) -> Vec<Line> {
        let map = game.map;
        let lines = match step {
            Step::Begins => before_resolution(game, s),
            Step::Resolved { record, .. } => {
                if game.position.phase.kind == PhaseKind::Movement {
                    declare_spheres(game, s, record, position);
                }
                entries(map, s, record);
                Vec::new()
            }
            Step::OwnershipUpdated => {
                for p in Power::ALL {
                    let k = map
                        .supply_centres()
                        .filter(|c| {
                            position.owner_of(*c) == Some(p) && map.province(*c).home_of != Some(p)
                        })
                        .count();
                    let h = map
                        .home_centres(p)
                        .filter(|c| position.owner_of(*c).is_some_and(|o| o != p))
                        .count();
                    let d = i32::try_from(k).unwrap_or(0) - i32::try_from(h).unwrap_or(0);
                    let l = s.score(
                        p,
                        d,
                        &format!("Fall scoring: {k} centres abroad, {h} home centres lost"),
                    );
                    s.pending.scoring.push(l);
                }
                Vec::new()
            }
            Step::Opens(_) => {
                let gone: Vec<(ProvinceId, Power)> = s
                    .soi
                    .iter()
                    .filter(|(_, p)| eliminated(position, **p))
                    .map(|(c, p)| (*c, *p))
                    .collect();
                for (c, p) in gone {
                    s.soi.remove(&c);
                    s.pending.eliminated.push(format!(
                        "SOI: {p} has been eliminated; its sphere of influence in {} ends.",
                        map.province_name(c)
                    ));
                }
                flush(&mut s.pending)
            }
            _ => Vec::new(),
        };
        lines.into_iter().map(Line::public).collect()
    }

    /// H20: `WARS:` and `SPHERES:` in every results bulletin.
    fn summary(&self, game: &GameView<'_>, s: &FormalState, _outcome: &PhaseOutcome) -> Vec<Line> {
        let wars: Vec<String> = s.wars.iter().map(|(a, b)| format!("{a}-{b}")).collect();
        let mut spheres: Vec<(String, String)> = s
            .soi
            .iter()
            .map(|(c, p)| {
                (
                    game.map.code(*c).to_string(),
                    format!("{} {p}", game.map.province_name(*c)),
                )
            })
            .collect();
        spheres.sort();
        let none = |v: Vec<String>| {
            if v.is_empty() {
                "none".to_string()
            } else {
                v.join(", ")
            }
        };
        vec![
            Line::public(format!("WARS: {}", none(wars))),
            Line::public(format!(
                "SPHERES: {}",
                none(spheres.into_iter().map(|(_, t)| t).collect())
            )),
        ]
    }

    /// H20: what `WARS:` and `SPHERES:` say (all public, §4): each war a line between the
    /// two powers, each sphere `SOI France` on its province, and the legend.
    fn picture_marks(&self, game: &GameView<'_>, s: &FormalState) -> Vec<Mark> {
        let map = game.map;
        let mut marks: Vec<Mark> = s
            .wars
            .iter()
            .filter_map(|(a, b)| {
                relation_mark(
                    map,
                    game.position,
                    (*a, *b),
                    format!("{a}-{b} war"),
                    RelationStyle::War,
                )
            })
            .collect();
        if s.wars.is_empty() {
            marks.push(Mark::Legend("Wars: none".to_string()));
        }
        let mut spheres: Vec<(&str, ProvinceId, Power)> =
            s.soi.iter().map(|(c, p)| (map.code(*c), *c, *p)).collect();
        spheres.sort();
        if !spheres.is_empty() {
            marks.push(Mark::Legend(
                "SOI <power>: that power's sphere of influence".to_string(),
            ));
        }
        marks.extend(
            spheres
                .into_iter()
                .map(|(_, province, p)| Mark::ProvinceNote {
                    province,
                    text: format!("SOI {p}"),
                }),
        );
        marks
    }

    /// H17 (FD-1.1, FD-1.2): after the last turn (its retreats and, in a Fall, its scoring)
    /// the most victory points win; the centre victory is off.
    fn game_result(&self, game: &GameView<'_>, s: &FormalState) -> Option<GameEnd> {
        let done = completed_turns(game.position.phase)?;
        if done < s.turns {
            return None;
        }
        let best = Power::ALL
            .into_iter()
            .map(|p| s.vp.get(&p).copied().unwrap_or(0))
            .max()
            .unwrap_or(0);
        let winners: Vec<Power> = Power::ALL
            .into_iter()
            .filter(|p| s.vp.get(p).copied().unwrap_or(0) == best)
            .collect();
        let (ending, line) = match winners.as_slice() {
            [one] => (
                Ending::Solo(*one),
                format!("GAME END: {one} wins with {best} victory points."),
            ),
            _ => (
                Ending::Draw(winners.clone()),
                format!(
                    "GAME END: {} share the highest total of {best} victory points.",
                    list_powers(&winners)
                ),
            ),
        };
        Some(GameEnd {
            ending,
            lines: Some(vec![Line::public(line)]),
        })
    }

    /// FD-5.1: no private press between powers at war, one FD-E16 line per enemy named.
    fn press_allowed(
        &self,
        _game: &GameView<'_>,
        s: &FormalState,
        from: Sender,
        to: &[Power],
        broadcast: bool,
    ) -> Result<(), VariantRefusal> {
        let Sender::Power(a) = from else {
            return Ok(());
        };
        if broadcast {
            return Ok(());
        }
        let mut enemies: Vec<Power> = to.iter().copied().filter(|b| s.at_war(a, *b)).collect();
        enemies.sort();
        enemies.dedup();
        let line = |b: Power| format!("{a} is at war with {b} and may not send it press.");
        match enemies.split_first() {
            None => Ok(()),
            Some((first, rest)) => {
                let mut r = VariantRefusal::new("FD-E16", line(*first));
                r.also = rest.iter().map(|b| ("FD-E16", line(*b))).collect();
                Err(r)
            }
        }
    }

    fn case_facts(&self) -> &dyn CaseFacts<FormalState> {
        &FormalFacts
    }
}

/// H5: surrenders, then declarations of war, then undone spheres (FD-3.1, FD-2.1,
/// FD-4.9a), before the movement phase's orders are resolved.
fn before_resolution(game: &GameView<'_>, s: &mut FormalState) -> Vec<String> {
    if game.position.phase.kind != PhaseKind::Movement {
        return Vec::new();
    }
    let map = game.map;
    let mut lines = Vec::new();
    let mut surrenderers: Vec<Power> = game
        .variant_orders
        .iter()
        .filter_map(|v| match (v.command.get::<FormalCommand>(), v.from) {
            (Some(FormalCommand::Surrender), Sender::Power(a)) => Some(a),
            _ => None,
        })
        .collect();
    surrenderers.sort();
    surrenderers.dedup();
    for a in surrenderers {
        let enemies = s.enemies(a);
        if enemies.is_empty() {
            continue;
        }
        for b in &enemies {
            s.wars.remove(&pair(a, *b));
        }
        lines.push(format!(
            "SURRENDER: {a} surrenders to {} and is at war with no one.",
            list_powers(&enemies)
        ));
        for b in enemies {
            let l = s.score(a, -1, &format!("surrendered to {b}"));
            s.pending.events.push(l);
            let l = s.score(b, 1, &format!("{a} surrendered"));
            s.pending.events.push(l);
        }
    }
    let mut dwos: Vec<(Power, Power)> = declared(game).into_iter().collect();
    dwos.sort();
    for (a, b) in dwos {
        s.wars.insert(pair(a, b));
        lines.push(format!("WAR: {a} declares war on {b}."));
        let l = s.score(a, -1, &format!("declared war on {b}"));
        s.pending.events.push(l);
    }
    let mut undone: Vec<(Power, ProvinceId)> = game
        .variant_orders
        .iter()
        .filter_map(|v| match (v.command.get::<FormalCommand>(), v.from) {
            (Some(FormalCommand::UndoSoi { province }), Sender::Power(a))
                if s.soi.get(province) == Some(&a) =>
            {
                Some((a, *province))
            }
            _ => None,
        })
        .collect();
    undone.sort_by(|x, y| (x.0, map.code(x.1)).cmp(&(y.0, map.code(y.1))));
    for (a, p) in undone {
        s.soi.remove(&p);
        lines.push(format!(
            "SOI: {a} gives up its sphere of influence in {}.",
            map.province_name(p)
        ));
    }
    lines
}

/// How many movement turns are complete when `next` opens; None while a retreat phase of
/// the last one is still to come.
fn completed_turns(next: crate::rules::Phase) -> Option<u32> {
    let base = u32::from(next.year.saturating_sub(1901)) * 2;
    match (next.season, next.kind) {
        (_, PhaseKind::Retreat) => None,
        (Season::Spring, _) => Some(base),
        (Season::Fall, _) => Some(base + 1),
        (Season::Winter, _) => Some(base + 2),
    }
}

/// FD-4.3–4.6: which declarations succeed, at the end of the movement phase.
fn declare_spheres(
    game: &GameView<'_>,
    s: &mut FormalState,
    record: &PhaseRecord,
    after: &Position,
) {
    let map = game.map;
    let all = claims(game, s);
    for c in &all {
        let dislodged = after
            .dislodged
            .iter()
            .any(|d| d.unit.location.province == c.unit_at);
        let won = c.void_by.is_none()
            && !dislodged
            && (!c.adjacent() || {
                let moves = record.attacks.iter().filter(|a| a.to == c.target).map(|a| {
                    1 + record
                        .supports
                        .iter()
                        .filter(|sp| {
                            sp.target == a.attacker && sp.dest == Some(c.target) && sp.effective()
                        })
                        .count() as u32
                });
                let rivals = all
                    .iter()
                    .filter(|o| *o != c && o.target == c.target && o.void_by.is_none())
                    .map(|o| o.strength);
                moves.chain(rivals).all(|p| c.strength > p)
            });
        let prov = map.province_name(c.target);
        let code = map.code(c.target).to_string();
        let line = if won {
            s.soi.insert(c.target, c.power);
            format!("SOI: {} declares {prov} its sphere of influence.", c.power)
        } else {
            format!(
                "SOI: {} fails to declare {prov} its sphere of influence.",
                c.power
            )
        };
        s.pending.outcomes.push((c.power, code, line));
    }
}

/// FD-4.9(b): a foreign unit that ends the phase in a sphere after moving or retreating into
/// it ends the sphere, and its owner loses a point.
fn entries(map: &Map, s: &mut FormalState, record: &PhaseRecord) {
    let mut entered: Vec<(Power, String, ProvinceId, Power)> = Vec::new();
    for u in &record.units {
        let (Some(to), Some(b)) = (u.moved_to, u.owner.power()) else {
            continue;
        };
        if !matches!(u.order, Order::Move { .. } | Order::Retreat { .. }) {
            continue;
        }
        if let Some(a) = s.soi.get(&to.province).copied()
            && a != b
        {
            entered.push((a, map.code(to.province).to_string(), to.province, b));
        }
    }
    entered.sort();
    for (a, code, p, b) in entered {
        s.soi.remove(&p);
        let prov = map.province_name(p);
        s.pending.entries.push((
            b,
            code,
            format!("SOI: {b} enters {prov}; the sphere of influence of {a} there ends."),
        ));
        let l = s.score(a, -1, &format!("sphere of influence {prov} entered by {b}"));
        s.pending.events.push(l);
    }
}

/// The phase's collected lines in §4's order: SOI outcomes, entries, eliminations, event
/// points, the Fall scoring.
fn flush(p: &mut state::Pending) -> Vec<String> {
    let mut outcomes = std::mem::take(&mut p.outcomes);
    outcomes.sort();
    let mut entries = std::mem::take(&mut p.entries);
    entries.sort();
    outcomes
        .into_iter()
        .chain(entries)
        .map(|(_, _, l)| l)
        .chain(std::mem::take(&mut p.eliminated))
        .chain(std::mem::take(&mut p.events))
        .chain(std::mem::take(&mut p.scoring))
        .collect()
}

#[cfg(test)]
mod tests;
