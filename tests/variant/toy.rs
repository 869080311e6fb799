//! A toy rule set, the whole of it in this module: its state, its commands and grammar,
//! its phases, its adjudication rules and its hooks, each hook H1–H20 overridden and
//! recording that it was asked. Adding it to a judge is this module and one registry line
//! (`Registry::default().with(Entry { name: "Toy", aliases: &["plaything"], variant:
//! Some(&TOY) })` in `tests/variant.rs`), and nothing else: no file of `src/` names it.

use std::collections::BTreeSet;
use std::sync::Mutex;

use dipjudge::command::parts::{PResult, cut, end_of_line, expect, keyword, power};
use dipjudge::command::{Grammar, OwnCommand, PlayerCommand, RuleCommand};
use dipjudge::game::Ending;
use dipjudge::map::{Map, Power, ProvinceId};
use dipjudge::rules::{
    CalendarPoint, MoveContext, Order, OrderCheck, OrderResult, OwnPhase, Owner, Phase, PhaseKind,
    PhaseOutcome, Position, PowerOrder, PseudoMove, Refusal, Rewrite, Rules, Season, Standard,
    Step, Strength, Then, Unit, UnitId, VariantRefusal, Warning,
};
use dipjudge::variant::{
    Applied, CommandContext, GameEnd, GameView, Line, OrderStatus, Reader, Readiness, RuleSet,
    Secret, Sender, Slot, Taken,
};
use serde::{Deserialize, Serialize};

/// Every hook the toy was asked, by the name of its method.
static CALLS: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());

fn called(hook: &'static str) {
    if let Ok(mut c) = CALLS.lock() {
        c.insert(hook);
    }
}

/// The hooks asked so far.
pub fn calls() -> BTreeSet<&'static str> {
    CALLS.lock().map(|c| c.clone()).unwrap_or_default()
}

/// The toy's state: a tax (a setting) and the power its council names. Decoded once when
/// a game is loaded; each hook reads it as this type.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ToyState {
    pub tax: u32,
    pub named: Option<Power>,
}

pub struct Toy;
pub static TOY: Toy = Toy;

/// The toy's own commands: `YIELD TO <power>` (immediate), `BALLOT <power>` (kept with the
/// orders; also read from press to the master) and `VERDICT <power>` (the master's, while
/// its council sits).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ToyCommand {
    Yield { to: Power },
    Ballot { power: Power },
    Verdict { power: Power },
}

impl OwnCommand for ToyCommand {
    fn render(&self, _map: &Map) -> String {
        match self {
            ToyCommand::Yield { to } => format!("YIELD TO {to}"),
            ToyCommand::Ballot { power } => format!("BALLOT {power}"),
            ToyCommand::Verdict { power } => format!("VERDICT {power}"),
        }
    }

    fn taken_first(&self) -> bool {
        called("taken_first");
        matches!(self, ToyCommand::Yield { .. })
    }
}

/// The toy's grammar, written with the shared parser's parts.
struct ToyGrammar;

impl Grammar for ToyGrammar {
    fn keywords(&self) -> &[&'static str] {
        &["yield", "ballot", "verdict"]
    }

    fn command<'a>(&self, _map: &Map, line: &'a str) -> PResult<'a, RuleCommand> {
        called("command");
        let (r, command) = if let Ok((r, _)) = keyword("yield to")(line) {
            let (r, to) = cut(expect("a power", power)(r))?;
            (r, ToyCommand::Yield { to })
        } else if let Ok((r, _)) = keyword("ballot")(line) {
            let (r, power) = cut(expect("a power", power)(r))?;
            (r, ToyCommand::Ballot { power })
        } else {
            let (r, _) = keyword("verdict")(line)?;
            let (r, power) = cut(expect("a power", power)(r))?;
            (r, ToyCommand::Verdict { power })
        };
        let (r, _) = cut(end_of_line(r))?;
        Ok((r, RuleCommand::new(command)))
    }

    fn in_press_to_master(&self, line: &str) -> bool {
        called("in_press_to_master");
        keyword("ballot")(line).is_ok()
    }

    fn help(&self) -> &'static str {
        called("help");
        "\nToy (this game's rules)\n  YIELD TO power   give up at once\n"
    }
}

/// The toy's own phase before the first Spring (`G1901`).
pub const GATHERING: OwnPhase = OwnPhase {
    name: "Gathering",
    letter: 'G',
    letter_first: true,
    season: Season::Spring,
    before: true,
    length: (1, 1),
    then: Then::Movement,
};

/// The toy's own phase after a Winter (`W1901K`), where its council sits.
pub const COUNCIL: OwnPhase = OwnPhase {
    name: "Council",
    letter: 'K',
    letter_first: false,
    season: Season::Winter,
    before: false,
    length: (1, 1),
    then: Then::AfterWinter,
};

pub fn province(code: &str) -> ProvinceId {
    Map::standard()
        .expect("map")
        .find_province(code)
        .expect("province")
}

fn moves_to(order: &Order, code: &str) -> bool {
    matches!(order, Order::Move { dest, .. } if dest.province == province(code))
}

/// The toy's adjudication rules (H3–H15): each records that it was asked.
struct ToyRules;

impl Rules for ToyRules {
    fn check_order(
        &self,
        _: &Map,
        _: &Position,
        po: &PowerOrder,
        standard: Option<&Refusal>,
    ) -> OrderCheck {
        called("check_order");
        match standard {
            // Its own code in place of the generic one.
            Some(Refusal::NoUnit(_)) => OrderCheck::Refused(Refusal::Variant(VariantRefusal::new(
                "TOY-E6",
                "there is no such unit in the toy game",
            ))),
            Some(_) => OrderCheck::Stands,
            None if moves_to(&po.order, "bur") => OrderCheck::Refused(Refusal::Variant(
                VariantRefusal::new("TOY-E5", "nobody may enter Burgundy"),
            )),
            None if moves_to(&po.order, "pic") => OrderCheck::Warned(Warning {
                code: "TOY-W1",
                sentence: "Picardy is muddy".into(),
            }),
            None => OrderCheck::Stands,
        }
    }

    fn rewrite(&self, _: &Map, _: &Position, po: &PowerOrder, given: bool) -> Option<Rewrite> {
        called("rewrite");
        let unit = po.order.unit()?;
        (given && po.power == Power::England && unit.province() == province("lon")).then(|| {
            Rewrite {
                order: Order::Hold { unit },
                show_given: false,
                note: "toy: kept at home".into(),
            }
        })
    }

    fn strength(&self, unit: &Unit) -> Strength {
        called("strength");
        if unit.owner == Owner::Power(Power::Italy) {
            Strength::new(3, 1)
        } else {
            Strength::ONE
        }
    }

    fn support_value(&self, supporter: &Unit) -> Strength {
        called("support_value");
        Standard.support_value(supporter)
    }

    fn may_not_dislodge(&self, ctx: &MoveContext<'_>) -> bool {
        called("may_not_dislodge");
        Standard.may_not_dislodge(ctx)
    }

    fn may_not_cut(&self, attacker: &Unit, supporter: &Unit) -> bool {
        called("may_not_cut");
        Standard.may_not_cut(attacker, supporter)
    }

    fn support_excluded(&self, supporter: &Unit, ctx: &MoveContext<'_>) -> bool {
        called("support_excluded");
        Standard.support_excluded(supporter, ctx)
    }

    fn pseudo_moves(&self, _: &Map, _: &Position, _: &[PowerOrder]) -> Vec<PseudoMove> {
        called("pseudo_moves");
        // Russia claims Silesia with strength 2: a move there with one support bounces.
        vec![PseudoMove {
            owner: Owner::Power(Power::Russia),
            province: province("sil"),
            strength: Strength::new(2, 1),
        }]
    }

    fn retreat_allowed(
        &self,
        map: &Map,
        position: &Position,
        unit: &Unit,
        to: dipjudge::map::Location,
    ) -> bool {
        called("retreat_allowed");
        to.province != province("adr") && Standard.retreat_allowed(map, position, unit, to)
    }

    fn void_retreat(
        &self,
        map: &Map,
        position: &Position,
        unit: &Unit,
        to: dipjudge::map::Location,
    ) -> Option<String> {
        called("void_retreat");
        Standard.void_retreat(map, position, unit, to)
    }

    fn disband_instead_of_retreat(&self, unit: &Unit) -> bool {
        called("disband_instead_of_retreat");
        Standard.disband_instead_of_retreat(unit)
    }

    fn update_ownership(&self, map: &Map, position: &mut Position) {
        called("update_ownership");
        Standard.update_ownership(map, position)
    }

    fn adjustment_count(&self, position: &Position, power: Power) -> i32 {
        called("adjustment_count");
        Standard.adjustment_count(position, power)
    }

    fn build_sites(&self, map: &Map, position: &Position, power: Power) -> Vec<ProvinceId> {
        called("build_sites");
        Standard.build_sites(map, position, power)
    }

    fn civil_disorder_removals(
        &self,
        _: &Map,
        _: &Position,
        _: Power,
        candidates: &[Unit],
        count: usize,
    ) -> Option<Vec<UnitId>> {
        called("civil_disorder_removals");
        // Armies go first (the standard rule would take the fleet).
        let mut armies: Vec<&Unit> = candidates
            .iter()
            .filter(|u| u.kind == dipjudge::rules::UnitKind::Army)
            .collect();
        armies.truncate(count);
        Some(armies.into_iter().map(|u| u.id).collect())
    }

    fn may_disband(&self, _: &Map, _: &Position, unit: &Unit) -> bool {
        called("may_disband");
        unit.owner == Owner::Power(Power::Germany)
    }
}

fn refusal(code: &'static str, sentence: &str) -> VariantRefusal {
    VariantRefusal::new(code, sentence)
}

fn has_ballot(game: &GameView<'_>, power: Power) -> bool {
    game.commands::<ToyCommand>()
        .any(|(from, c)| from == Sender::Power(power) && matches!(c, ToyCommand::Ballot { .. }))
}

impl RuleSet for Toy {
    type State = ToyState;
    type Command = ToyCommand;

    fn name(&self) -> &'static str {
        "Toy"
    }

    fn grammar(&self) -> &'static dyn Grammar {
        called("grammar");
        &ToyGrammar
    }

    fn phases(&self) -> &'static [OwnPhase] {
        called("phases");
        &[GATHERING, COUNCIL]
    }

    fn apply_setting(&self, s: &mut ToyState, key: &str, value: &str) -> Result<(), String> {
        called("apply_setting");
        match (key, value.parse::<u32>()) {
            ("toy_tax", Ok(n)) => {
                s.tax = n;
                Ok(())
            }
            ("toy_tax", Err(_)) => Err(format!("toy_tax takes a number, not \"{value}\"")),
            _ => Err(format!("the toy has no setting called \"{key}\"")),
        }
    }

    fn take_command(
        &self,
        cx: &CommandContext<'_>,
        _s: &ToyState,
        command: &ToyCommand,
    ) -> Result<Taken, VariantRefusal> {
        called("take_command");
        match (command, cx.sender) {
            (ToyCommand::Yield { .. }, Sender::Power(_)) => Ok(Taken::Immediate),
            (ToyCommand::Yield { .. }, Sender::Master) => {
                Err(refusal("TOY-E2", "only a power may yield"))
            }
            (ToyCommand::Ballot { power }, Sender::Power(_)) => Ok(Taken::Order {
                slot: Slot::Named("ballot".into()),
                echo: Some(format!("ballot recorded: {power}")),
            }),
            (ToyCommand::Verdict { .. }, Sender::Master)
                if cx.game.position.phase.kind.is(&COUNCIL) =>
            {
                Ok(Taken::Immediate)
            }
            (ToyCommand::Verdict { .. }, _) => Err(refusal("TOY-E1", "no council is sitting")),
            _ => Err(refusal("NOT-IN-VARIANT", "the toy has no such command")),
        }
    }

    fn allows_player_command(
        &self,
        _cx: &CommandContext<'_>,
        _s: &ToyState,
        command: &PlayerCommand,
    ) -> Result<(), VariantRefusal> {
        called("allows_player_command");
        match command {
            PlayerCommand::SetDraw { .. } => {
                Err(refusal("TOY-E3", "there are no draws in the toy game"))
            }
            _ => Ok(()),
        }
    }

    fn apply_now(
        &self,
        cx: &CommandContext<'_>,
        s: &mut ToyState,
        command: &ToyCommand,
    ) -> Result<Applied, VariantRefusal> {
        called("apply_now");
        match (command, cx.sender) {
            (ToyCommand::Yield { to }, Sender::Power(from)) => Ok(Applied {
                echo: None,
                lines: vec![
                    Line::public(format!("TOY: {from} yields to {to}.")),
                    Line::to(
                        Reader::Power(*to),
                        format!("TOY: a word for {to} alone: kiwi-{to}."),
                    ),
                ],
                refused: None,
            }),
            (ToyCommand::Verdict { power }, _) => {
                s.named = Some(*power);
                Ok(Applied {
                    echo: Some(format!("the council names {power}")),
                    lines: vec![Line::public(format!("TOY: the council names {power}."))],
                    refused: None,
                })
            }
            _ => Err(refusal("NOT-IN-VARIANT", "not immediate")),
        }
    }

    fn rules(&self, _game: &GameView<'_>, _s: &ToyState) -> Box<dyn Rules> {
        called("rules");
        Box::new(ToyRules)
    }

    fn step(
        &self,
        game: &GameView<'_>,
        _s: &mut ToyState,
        step: Step<'_>,
        position: &mut Position,
    ) -> Vec<Line> {
        called("step");
        match step {
            Step::Begins => vec![Line::public(format!(
                "TOY: {} is about to be resolved.",
                game.position.phase
            ))],
            Step::Resolved { .. } => vec![Line::public(format!(
                "TOY: resolved {}.",
                game.position.phase
            ))],
            Step::SpringEnds => {
                // H12: the army in Rome becomes an armed neutral.
                let rome = province("rom");
                match position
                    .units
                    .iter_mut()
                    .find(|u| u.location.province == rome)
                {
                    Some(u) => {
                        u.owner = Owner::Neutral;
                        vec![Line::public("TOY: the army in Rome rebels.")]
                    }
                    None => Vec::new(),
                }
            }
            Step::OwnershipUpdated => vec![Line::public("TOY: the centres change hands.")],
            Step::FallEnds => vec![Line::to(Reader::Master, "TOY: mango for the master.")],
            Step::Opens(p) => vec![Line::public(format!("TOY: {p} opens."))],
        }
    }

    fn summary(&self, _game: &GameView<'_>, s: &ToyState, _outcome: &PhaseOutcome) -> Vec<Line> {
        called("summary");
        vec![Line::public(format!("TOY: tax {}.", s.tax))]
    }

    fn game_result(&self, game: &GameView<'_>, s: &ToyState) -> Option<GameEnd> {
        called("game_result");
        (game.position.phase.year > 1901).then(|| GameEnd {
            ending: Ending::Concession(s.named.unwrap_or(Power::France)),
            lines: Some(vec![Line::public("TOY: the toy game is over.")]),
        })
    }

    fn draw_powers(&self, game: &GameView<'_>, _s: &ToyState) -> Vec<Power> {
        called("draw_powers");
        dipjudge::variant::surviving_powers(game.position)
    }

    /// Its gathering opens the game; every Winter is held; its council sits after each.
    fn calendar(&self, _s: &ToyState, at: CalendarPoint<'_>) -> Option<Phase> {
        called("calendar");
        match at {
            CalendarPoint::Start => Some(Phase::own(1901, &GATHERING)),
            CalendarPoint::Skipping { winter, .. } => Some(winter),
            CalendarPoint::After { phase, .. } => {
                (phase.kind == PhaseKind::Adjustment).then(|| Phase::own(phase.year, &COUNCIL))
            }
        }
    }

    /// Italy owes a ballot with its movement orders.
    fn readiness(&self, game: &GameView<'_>, _s: &ToyState, standard: Readiness) -> Readiness {
        called("readiness");
        let mut out = standard;
        if standard.status(Power::Italy) == Some(OrderStatus::Received)
            && game.position.phase.kind == PhaseKind::Movement
            && !has_ballot(game, Power::Italy)
        {
            out.set(Power::Italy, Some(OrderStatus::Incomplete));
        }
        out
    }

    fn press_allowed(
        &self,
        _game: &GameView<'_>,
        _s: &ToyState,
        from: Sender,
        to: &[Power],
        broadcast: bool,
    ) -> Result<(), VariantRefusal> {
        called("press_allowed");
        if from == Sender::Power(Power::Russia) && !broadcast && to.contains(&Power::Turkey) {
            return Err(refusal("TOY-E4", "Russia may not whisper to Turkey"));
        }
        Ok(())
    }

    fn result_line(&self, map: &Map, result: &OrderResult) -> Option<String> {
        called("result_line");
        (result.owner == Owner::Power(Power::Turkey))
            .then(|| format!("{} (as the toy says)", result.order.display(map)))
    }

    fn not_public(&self, _s: &ToyState) -> Vec<Secret> {
        called("not_public");
        vec![
            Secret {
                text: "kiwi-Germany".into(),
                readers: vec![Reader::Power(Power::Germany)],
            },
            Secret {
                text: "mango".into(),
                readers: vec![Reader::Master],
            },
        ]
    }
}
