//! International Relations rv20 (`shared/rules/international-relations.md`): powers sign
//! treaties (MDT, AAT) that decide who may attack whom (IR-B, IR-C), give notice to
//! abrogate them (IR-D), pay penalties for aggression (IR-E), act as one power with their
//! allies (IR-F) and enter an ally's territory only with its permission (IR-G); the game
//! opens with an alliance phase (IR-H), may hold International Conferences (IR-I), and is
//! won only by a victory claim decided at a Fall check (IR-A).
//!
//! The parts: [`state`] (relations, treaties, penalties, claims), [`board`] (Controlled
//! Territory and what each order is), [`commands`] (the commands and their errors),
//! [`claims`] (victory claims), [`rules`] (the adjudication hooks), [`turn`] (what each
//! phase changes, with its lines), and here the [`Variant`] hooks and the case facts.

mod board;
mod claims;
mod commands;
mod rules;
mod state;
mod turn;

use crate::command::{TreatyKind, VariantCommand};
use crate::map::Power;
use crate::picture::{Mark, RelationStyle};
use crate::rules::{Phase, PhaseKind, PhaseOutcome, Position, Season, Step, VariantRefusal};
use crate::variant::{
    Check, CommandContext, GameEnd, GameView, Line, Sender, Setup, StateError, Taken, Variant,
    VariantState, negated_facts, relation_mark,
};

pub use state::IrState;

use board::{Board, permits};
use rules::IrRules;
use state::{Claim, Imminent, Lapsing, Penalty, Rule, Treaty, pair};

/// The International Relations rules.
#[derive(Clone, Copy, Debug, Default)]
pub struct InternationalRelations;

fn read(state: &VariantState) -> IrState {
    state.get()
}

impl Variant for InternationalRelations {
    fn name(&self) -> &'static str {
        "InternationalRelations"
    }

    fn new_state(&self) -> VariantState {
        VariantState::typed::<IrState>()
    }

    /// §7: "Unless a case says `first_shot unfired`, the first shot has already been fired."
    fn case_state(&self) -> VariantState {
        let mut state = self.new_state();
        state.update(|s: &mut IrState| s.first_shot_fired = true);
        state
    }

    /// `peace_treaties=on|off` (IR-C3).
    fn apply_setting(
        &self,
        state: &mut VariantState,
        key: &str,
        value: &str,
    ) -> Result<(), String> {
        if key != "peace_treaties" {
            return Err(crate::variant::no_such_setting(self.name(), key));
        }
        let on = crate::variant::switch(key, value)?;
        state.update(|s: &mut IrState| s.peace_treaties = on);
        Ok(())
    }

    fn settings(&self, state: &VariantState) -> Vec<(&'static str, String)> {
        let on = state.get::<IrState>().peace_treaties;
        vec![("peace_treaties", if on { "on" } else { "off" }.to_string())]
    }

    fn check_state(&self, state: &VariantState) -> Result<(), StateError> {
        state.check::<IrState>()
    }

    fn help(&self) -> &'static str {
        include_str!("help.txt")
    }

    fn take_command(
        &self,
        cx: &CommandContext<'_>,
        state: &VariantState,
        command: &VariantCommand,
    ) -> Result<Taken, VariantRefusal> {
        commands::take(cx, &read(state), command)
    }

    /// IR-A3: a claim is filed at once; its lines are public at once.
    fn apply_now(
        &self,
        cx: &CommandContext<'_>,
        state: &mut VariantState,
        command: &VariantCommand,
    ) -> Result<crate::variant::Applied, VariantRefusal> {
        let Sender::Power(a) = cx.sender else {
            return Err(VariantRefusal::new(
                "NOT-A-POWER",
                "a victory is claimed by a power".to_string(),
            ));
        };
        let partners = match command {
            VariantCommand::ClaimSolo => None,
            VariantCommand::ClaimCoalition { with } => Some(with.as_slice()),
            _ => {
                return Err(VariantRefusal::new(
                    "NOT-IN-VARIANT",
                    "only a victory claim is taken at once".to_string(),
                ));
            }
        };
        let position = cx.game.position;
        claims::check(&read(state), position, a, partners)?;
        let lines = state.update(|s: &mut IrState| claims::file(s, position, a, partners));
        Ok(crate::variant::Applied {
            echo: None,
            lines: lines.into_iter().map(Line::public).collect(),
            refused: None,
        })
    }

    /// IR-A3: at the Spring movement deadline, the coalition claims not every member filed
    /// lapse.
    fn before_resolution(&self, game: &GameView<'_>, state: &mut VariantState) -> Vec<Line> {
        let phase = game.position.phase;
        if phase.season != Season::Spring || phase.kind != PhaseKind::Movement {
            return Vec::new();
        }
        state
            .update(claims::lapse)
            .into_iter()
            .map(Line::public)
            .collect()
    }

    fn rules(&self, game: &GameView<'_>, state: &VariantState) -> Box<dyn crate::rules::Rules> {
        Box::new(IrRules {
            s: read(state),
            permits: permits(game.variant_orders),
            resolving: game.resolving,
            phase: game.position.phase,
        })
    }

    /// H16: the turn's aggressions, penalties, wars, treaty effects and treaties; the
    /// Winter's notices; the lapse after the lapsing Spring; the Fall check.
    fn step(
        &self,
        game: &GameView<'_>,
        state: &mut VariantState,
        step: Step<'_>,
        position: &mut Position,
    ) -> Vec<Line> {
        let map = game.map;
        let phase = game.position.phase;
        let lines = state.update(|s: &mut IrState| match step {
            Step::Resolved { .. } => match phase.kind {
                PhaseKind::Movement => {
                    let ps = permits(game.variant_orders);
                    if phase.season == Season::Fall {
                        let start = s.clone();
                        let board = Board {
                            map,
                            position: game.position,
                            s: &start,
                            permits: &ps,
                        };
                        s.confined = turn::confined(&board);
                        s.transfers = transfers(game);
                    }
                    turn::movement_turn(
                        map,
                        game.position,
                        s,
                        game.orders,
                        game.variant_orders,
                        &ps,
                    )
                }
                PhaseKind::Adjustment => {
                    let mut lines = turn::winter(s, phase, game.variant_orders);
                    lines.extend(turn::conference_winter(s, map, position, phase.year));
                    lines
                }
                PhaseKind::Alliance | PhaseKind::Conference => {
                    turn::conference_treaties(s, phase, game.variant_orders)
                }
                PhaseKind::Retreat | PhaseKind::Jury => Vec::new(),
            },
            Step::SpringEnds => turn::spring_ends(s, phase.year),
            Step::OwnershipUpdated => turn::fall_check(s, position, phase.year),
            Step::FallEnds => {
                s.confined.clear();
                Vec::new()
            }
            Step::Opens(next) => {
                if next.season == Season::Spring && next.kind == PhaseKind::Movement {
                    turn::spring_opens(s, next.year);
                }
                Vec::new()
            }
        });
        lines.into_iter().map(Line::public).collect()
    }

    /// H20: `RELATIONS:` in every results bulletin.
    fn summary(
        &self,
        game: &GameView<'_>,
        state: &VariantState,
        _outcome: &PhaseOutcome,
    ) -> Vec<Line> {
        vec![Line::public(relations_line(
            &read(state),
            game.position.phase,
        ))]
    }

    /// H20: what `RELATIONS:` says (§4: public; the alliance and conference proposals are
    /// not, and are never read here): each treaty signed a line between its partners in its
    /// `RELATIONS:` words (`England-France MDT (lapsing)`), each war a line, each imminent
    /// war a legend line.
    fn picture_marks(&self, game: &GameView<'_>, state: &VariantState) -> Vec<Mark> {
        let s = read(state);
        let (map, position, phase) = (game.map, game.position, game.position.phase);
        let mut items: Vec<((Power, Power), u8, Mark)> = Vec::new();
        for t in &s.treaties {
            let text = treaty_text(t, phase);
            if let Some(m) = relation_mark(map, position, (t.a, t.b), text, RelationStyle::Treaty) {
                items.push(((t.a, t.b), 0, m));
            }
        }
        for (a, b) in &s.wars {
            let text = format!("{a}-{b} war");
            if let Some(m) = relation_mark(map, position, (*a, *b), text, RelationStyle::War) {
                items.push(((*a, *b), 1, m));
            }
        }
        items.sort_by_key(|x| (x.0, x.1));
        let mut marks: Vec<Mark> = items.into_iter().map(|(_, _, m)| m).collect();
        if marks.is_empty() {
            marks.push(Mark::Legend("Relations: none".to_string()));
        }
        marks.extend(
            imminent_pairs(&s)
                .into_iter()
                .map(|(z, x)| Mark::Legend(format!("Imminent war: {z} may attack {x}"))),
        );
        marks
    }

    /// IR-A2, IR-A6, IR-A8: the 18-centre victory is disabled; the game ends when a claim
    /// succeeds at a Fall check (several: a joint result).
    fn game_result(&self, _game: &GameView<'_>, state: &VariantState) -> Option<GameEnd> {
        let s = read(state);
        let ending = match s.victory.as_slice() {
            [] => return None,
            [(members, _)] => match members.as_slice() {
                [one] => crate::variant::Ending::Solo(*one),
                _ => crate::variant::Ending::Coalition(members.clone()),
            },
            many => {
                let mut all: Vec<Power> = many.iter().flat_map(|(m, _)| m.clone()).collect();
                all.sort();
                all.dedup();
                crate::variant::Ending::Draw(all)
            }
        };
        Some(GameEnd {
            ending,
            lines: Some(
                claims::victory_lines(&s)
                    .into_iter()
                    .map(Line::public)
                    .collect(),
            ),
        })
    }

    /// IR-H1: the game opens with the alliance phase before Spring 1901.
    fn first_phase(&self, _state: &VariantState) -> Phase {
        Phase::alliance(1901)
    }

    /// IR-I3: the conference phase after the Winter whose adjustments abrogated every
    /// treaty.
    fn inserted_after(
        &self,
        state: &VariantState,
        phase: Phase,
        _position: &Position,
    ) -> Option<Phase> {
        let s = read(state);
        (phase.kind == PhaseKind::Adjustment
            && s.conference == Some(phase.year)
            && s.contacts.is_some())
        .then(|| Phase::conference(phase.year))
    }

    /// IR-D1, IR-G2: every Winter is held, for abrogations and disbands by choice.
    fn must_hold(&self, _state: &VariantState, phase: Phase, _position: &Position) -> bool {
        phase.kind == PhaseKind::Adjustment
    }

    /// A Winter in which a treaty could be abrogated or a unit disbanded by choice runs to
    /// its deadline: any partner may act without owing an order.
    /// An alliance or conference phase owes nothing and always runs to its deadline.
    fn processes_early(&self, game: &GameView<'_>, state: &VariantState) -> bool {
        match game.position.phase.kind {
            PhaseKind::Alliance | PhaseKind::Conference => return false,
            PhaseKind::Adjustment => {}
            _ => return true,
        }
        let s = read(state);
        let open = s
            .treaties
            .iter()
            .any(|t| t.lapsing.is_none() && s.coalition_of(t.a, t.b).is_none());
        !open && s.confined.is_empty()
    }

    fn read_fact(&self, setup: &mut Setup<'_>, fact: &str) -> Result<(), String> {
        let words: Vec<&str> = fact.split_whitespace().collect();
        let phase = setup.position.phase;
        setup
            .state
            .update(|s: &mut IrState| read_one(s, phase, &words))
            .map_err(|e| format!("{e} (in \"{fact}\")"))
    }

    fn check_fact(&self, check: &Check<'_>, fact: &str) -> Result<(), String> {
        let s: IrState = check.after.get();
        let before: IrState = check.before.get();
        let listed: Vec<Penalty> = check
            .block
            .iter()
            .filter(|(_, f)| negated_facts(f).is_none())
            .filter_map(|(_, f)| {
                let w: Vec<&str> = f.split_whitespace().collect();
                penalty_fact(&w).ok()
            })
            .collect();
        if let Some(negated) = negated_facts(fact) {
            for f in negated {
                if holds(&s, &before, &listed, f)? {
                    return Err(format!("\"{f}\" holds"));
                }
            }
            return Ok(());
        }
        if holds(&s, &before, &listed, fact)? {
            Ok(())
        } else {
            Err(format!("it does not hold: {s:?}"))
        }
    }
}

/// This Fall's `TRANSFER` orders of centres their giver owns (IR-G3).
fn transfers(game: &GameView<'_>) -> Vec<(crate::map::ProvinceId, Power, Power)> {
    game.variant_orders
        .iter()
        .filter_map(|v| match (&v.command, v.from) {
            (VariantCommand::Transfer { province, to }, Sender::Power(a))
                if game.position.owner_of(*province) == Some(a) =>
            {
                Some((*province, a, *to))
            }
            _ => None,
        })
        .collect()
}

/// A treaty as `RELATIONS:` writes it: `Austria-Italy AAT`, with `(from Spring 1903)`
/// while it is signed but not yet in force and `(lapsing)` under notice.
fn treaty_text(t: &Treaty, phase: Phase) -> String {
    let mut text = format!("{}-{} {}", t.a, t.b, t.kind);
    if !t.in_force(phase) {
        text.push_str(&format!(" (from Spring {})", t.from));
    }
    if t.lapsing.is_some() {
        text.push_str(" (lapsing)");
    }
    text
}

/// The imminent wars of `RELATIONS:`, holder then target, each pair once.
fn imminent_pairs(s: &IrState) -> Vec<(Power, Power)> {
    let mut imminent: Vec<(Power, Power)> =
        s.imminent.iter().map(|i| (i.holder, i.target)).collect();
    imminent.dedup();
    imminent
}

/// `RELATIONS: Austria-Italy AAT, England-Turkey war; imminent: Germany->England`. A
/// treaty signed but not yet in force says from when; one under notice says so.
fn relations_line(s: &IrState, phase: Phase) -> String {
    let mut items: Vec<((Power, Power), u8, String)> = Vec::new();
    for t in &s.treaties {
        items.push(((t.a, t.b), 0, treaty_text(t, phase)));
    }
    for (a, b) in &s.wars {
        items.push(((*a, *b), 1, format!("{a}-{b} war")));
    }
    items.sort();
    let mut line = if items.is_empty() {
        "RELATIONS: none".to_string()
    } else {
        let v: Vec<String> = items.into_iter().map(|(_, _, t)| t).collect();
        format!("RELATIONS: {}", v.join(", "))
    };
    let imminent = imminent_pairs(s);
    if !imminent.is_empty() {
        let v: Vec<String> = imminent.iter().map(|(z, x)| format!("{z}->{x}")).collect();
        line.push_str(&format!("; imminent: {}", v.join(", ")));
    }
    line
}

fn power(w: &str) -> Result<Power, String> {
    Power::from_name(w).ok_or_else(|| format!("no power called {w:?}"))
}

fn number<T: std::str::FromStr>(w: &str) -> Result<T, String> {
    w.parse().map_err(|_| format!("{w:?} is not a number"))
}

fn treaty_kind(w: &str) -> Result<TreatyKind, String> {
    match w.to_ascii_uppercase().as_str() {
        "MDT" => Ok(TreatyKind::Mdt),
        "AAT" | "ATT" => Ok(TreatyKind::Aat),
        _ => Err(format!("{w:?} is not MDT or AAT")),
    }
}

/// `S1903` → 1903.
fn spring_year(w: &str) -> Result<u16, String> {
    let y = w
        .strip_prefix('S')
        .or_else(|| w.strip_prefix('s'))
        .ok_or_else(|| format!("{w:?} is not a Spring (S1903)"))?;
    number(y)
}

/// `penalty Italy 2 until 1908 IR-E1 [victim Austria]`.
fn penalty_fact(w: &[&str]) -> Result<Penalty, String> {
    match w {
        ["penalty", a, n, "until", y, rule, rest @ ..] => Ok(Penalty {
            power: power(a)?,
            points: number(n)?,
            last_fall: number(y)?,
            rule: Rule::from_code(rule).ok_or_else(|| format!("no penalty rule {rule:?}"))?,
            victim: match rest {
                [] => None,
                ["victim", b] => Some(power(b)?),
                _ => return Err("a penalty ends with \"victim <power>\" or nothing".into()),
            },
        }),
        _ => Err("not a penalty".into()),
    }
}

/// The members of `claim coalition A B [C] decided Y`, and Y.
fn claim_fact(w: &[&str]) -> Result<(bool, Vec<Power>, Option<u16>), String> {
    let (coalition, rest) = match w {
        ["claim", "solo", rest @ ..] => (false, rest),
        ["claim", "coalition", rest @ ..] => (true, rest),
        _ => return Err("not a claim".into()),
    };
    let (names, decided) = match rest.iter().position(|x| *x == "decided") {
        Some(i) => (
            rest.get(..i).unwrap_or(&[]),
            Some(number(rest.get(i + 1).copied().unwrap_or(""))?),
        ),
        None => (rest, None),
    };
    let mut members = names
        .iter()
        .map(|n| power(n))
        .collect::<Result<Vec<_>, _>>()?;
    members.sort();
    Ok((coalition, members, decided))
}

/// Reads one `PRESTATE_VARIANT` fact (§7).
fn read_one(s: &mut IrState, phase: Phase, w: &[&str]) -> Result<(), String> {
    match w {
        ["treaty", kind, a, b, "from", from] => {
            let (a, b) = pair(power(a)?, power(b)?);
            s.remove_treaty(a, b);
            s.treaties.push(Treaty {
                a,
                b,
                kind: treaty_kind(kind)?,
                from: spring_year(from)?,
                lapsing: None,
            });
            Ok(())
        }
        ["lapsing", a, b, "by", by] => {
            let by = power(by)?;
            // The lapsing Spring is this one, or the next.
            let spring = if phase.season == Season::Spring && phase.kind != PhaseKind::Alliance {
                phase.year
            } else {
                phase.year + 1
            };
            let (a, b) = (power(a)?, power(b)?);
            let t = s
                .treaties
                .iter_mut()
                .find(|t| t.binds(a) && t.binds(b))
                .ok_or("no treaty of that pair")?;
            t.lapsing = Some(Lapsing {
                by: vec![by],
                spring,
            });
            Ok(())
        }
        ["war", a, b] => {
            s.wars.insert(pair(power(a)?, power(b)?));
            Ok(())
        }
        ["imminent", z, x] => {
            let (z, x) = (power(z)?, power(x)?);
            let via = s
                .treaties
                .iter()
                .filter(|t| t.binds(z) && t.kind == TreatyKind::Mdt)
                .map(|t| t.other(z))
                .filter(|b| s.at_war(x, *b))
                .min()
                .ok_or("no MDT partner of the holder is at war with the target")?;
            s.imminent.insert(Imminent {
                holder: z,
                target: x,
                via,
            });
            Ok(())
        }
        ["penalty", ..] => {
            s.penalties.push(penalty_fact(w)?);
            Ok(())
        }
        ["stage", a, n] => {
            s.stage.insert(power(a)?, number(n)?);
            Ok(())
        }
        ["first_shot", "fired"] => {
            s.first_shot_fired = true;
            Ok(())
        }
        ["first_shot", "unfired"] => {
            s.first_shot_fired = false;
            Ok(())
        }
        ["claim", ..] => {
            let (coalition, members, decided) = claim_fact(w)?;
            s.claims.push(Claim {
                filed: members.clone(),
                members,
                coalition,
                decided_at: decided.ok_or("a claim says when it is decided")?,
            });
            Ok(())
        }
        ["conference", y] => {
            s.conference = Some(number(y)?);
            Ok(())
        }
        _ => Err("the InternationalRelations rules have no such fact".into()),
    }
}

/// Whether one fact of §7 holds (`listed`: the block's own penalty facts).
fn holds(s: &IrState, before: &IrState, listed: &[Penalty], fact: &str) -> Result<bool, String> {
    let w: Vec<&str> = fact.split_whitespace().collect();
    let new = || s.penalties.iter().filter(|p| !before.penalties.contains(p));
    Ok(match w.as_slice() {
        ["treaty", kind, a, b, "from", from] => s.treaty(power(a)?, power(b)?).is_some_and(|t| {
            treaty_kind(kind).is_ok_and(|k| k == t.kind)
                && spring_year(from).is_ok_and(|y| y == t.from)
        }),
        ["treaty", a, b] => s.treaty(power(a)?, power(b)?).is_some(),
        ["lapsing", a, b, "by", by] => {
            let by = power(by)?;
            s.treaty(power(a)?, power(b)?)
                .and_then(|t| t.lapsing.as_ref())
                .is_some_and(|l| l.by.contains(&by))
        }
        ["war", "involving", a] => {
            let a = power(a)?;
            s.wars.iter().any(|(x, y)| *x == a || *y == a)
        }
        ["war", a, b] => s.at_war(power(a)?, power(b)?),
        ["wars"] => !s.wars.is_empty(),
        ["imminent", z, x] => !s.imminent_via(power(z)?, power(x)?).is_empty(),
        ["penalty", ..] => s.penalties.contains(&penalty_fact(&w)?),
        ["penalties"] => !s.penalties.is_empty(),
        ["new", "penalties"] => new().next().is_some(),
        ["other", "new", "penalties"] => new().any(|p| !listed.contains(p)),
        ["stage", a, n] => s.stage(power(a)?) == number::<u8>(n)?,
        ["first_shot", "fired"] => s.first_shot_fired,
        ["first_shot", "unfired"] => !s.first_shot_fired,
        ["claim", ..] => {
            let (coalition, members, decided) = claim_fact(&w)?;
            s.claims.iter().any(|c| {
                c.coalition == coalition
                    && c.members == members
                    && decided.is_none_or(|d| d == c.decided_at)
            })
        }
        ["conference", y] => s.conference == Some(number(y)?),
        _ => return Err("the InternationalRelations rules have no such fact".into()),
    })
}

#[cfg(test)]
mod tests;
