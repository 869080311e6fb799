//! The variant platform, proved with a toy rule set that overrides every hook H1–H20
//! (`shared/rules/README.md` §3) and plays a short game by mail through the judge: each
//! hook is called where the spec says, does what it says, and its lines reach only their
//! readers (the leak scanner reads every mail of the game against the toy's secrets).

use std::collections::BTreeSet;
use std::sync::Mutex;

use chrono::{DateTime, Duration, TimeZone, Utc};
use dipjudge::command::{PlayerCommand, VariantCommand};
use dipjudge::game::{Ending, Game, Status};
use dipjudge::judge::{Judge, JudgeConfig, PasswordCost};
use dipjudge::map::{Map, Power, ProvinceId};
use dipjudge::rules::{
    MoveContext, Order, OrderResult, Owner, Phase, PhaseKind, PhaseOutcome, Position, PowerOrder,
    PseudoMove, Refusal, Rewrite, Rules, Standard, Step, Strength, Unit, UnitId, VariantRefusal,
    Warning,
};
use dipjudge::store::{QueuedMail, Store};
use dipjudge::variant::{
    Applied, CommandContext, Entry, GameEnd, GameView, Line, OrderStatus, Reader, Registry, Secret,
    Sender, Slot, StateError, Taken, Variant, VariantState,
};
use serde::{Deserialize, Serialize};

/// Every hook the toy was asked, by the name of its method.
static CALLS: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());

fn called(hook: &'static str) {
    if let Ok(mut c) = CALLS.lock() {
        c.insert(hook);
    }
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct ToyState {
    tax: u32,
    jury: Option<Power>,
}

struct Toy;
static TOY: Toy = Toy;

fn province(code: &str) -> ProvinceId {
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
    fn validate(&self, _: &Map, _: &Position, po: &PowerOrder) -> Result<(), Refusal> {
        called("validate");
        if moves_to(&po.order, "bur") {
            return Err(Refusal::Variant(VariantRefusal::new(
                "TOY-E5",
                "nobody may enter Burgundy",
            )));
        }
        Ok(())
    }

    fn replace_refusal(
        &self,
        _: &Map,
        _: &Position,
        _: &PowerOrder,
        refusal: &Refusal,
    ) -> Option<Refusal> {
        called("replace_refusal");
        matches!(refusal, Refusal::NoUnit(_)).then(|| {
            Refusal::Variant(VariantRefusal::new(
                "TOY-E6",
                "there is no such unit in the toy game",
            ))
        })
    }

    fn warning(&self, _: &Map, _: &Position, po: &PowerOrder) -> Option<Warning> {
        called("warning");
        moves_to(&po.order, "pic").then(|| Warning {
            code: "TOY-W1",
            sentence: "Picardy is muddy".into(),
        })
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
    game.variant_orders
        .iter()
        .any(|v| v.from == Sender::Power(power) && v.slot == Slot::Named("ballot".into()))
}

impl Variant for Toy {
    fn name(&self) -> &'static str {
        "Toy"
    }

    fn new_state(&self) -> VariantState {
        called("new_state");
        let mut s = VariantState::default();
        s.set(&ToyState::default());
        s
    }

    fn apply_setting(
        &self,
        state: &mut VariantState,
        key: &str,
        value: &str,
    ) -> Result<(), String> {
        called("apply_setting");
        match (key, value.parse::<u32>()) {
            ("toy_tax", Ok(n)) => {
                state.update(|s: &mut ToyState| s.tax = n);
                Ok(())
            }
            ("toy_tax", Err(_)) => Err(format!("toy_tax takes a number, not \"{value}\"")),
            _ => Err(format!("the toy has no setting called \"{key}\"")),
        }
    }

    fn check_state(&self, state: &VariantState) -> Result<(), StateError> {
        called("check_state");
        state.read::<ToyState>().map(|_| ())
    }

    fn take_command(
        &self,
        cx: &CommandContext<'_>,
        _state: &VariantState,
        command: &VariantCommand,
    ) -> Result<Taken, VariantRefusal> {
        called("take_command");
        match (command, cx.sender) {
            (VariantCommand::OfferSurrender { .. }, Sender::Power(_)) => Ok(Taken::Immediate),
            (VariantCommand::OfferSurrender { .. }, Sender::Master) => {
                Err(refusal("TOY-E2", "only a power may surrender"))
            }
            (VariantCommand::Vote(b), Sender::Power(_)) => Ok(Taken::Order {
                slot: Slot::Named("ballot".into()),
                echo: Some(format!("ballot recorded: {b:?}")),
            }),
            (VariantCommand::Jury { .. }, Sender::Master)
                if cx.game.position.phase.kind == PhaseKind::Jury =>
            {
                Ok(Taken::Immediate)
            }
            (VariantCommand::Jury { .. }, _) => Err(refusal("TOY-E1", "no jury is sitting")),
            _ => Err(refusal("NOT-IN-VARIANT", "the toy has no such command")),
        }
    }

    fn processed_first(&self, command: &VariantCommand) -> bool {
        called("processed_first");
        matches!(command, VariantCommand::OfferSurrender { .. })
    }

    fn allows_player_command(
        &self,
        _cx: &CommandContext<'_>,
        _state: &VariantState,
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
        state: &mut VariantState,
        command: &VariantCommand,
    ) -> Result<Applied, VariantRefusal> {
        called("apply_now");
        match (command, cx.sender) {
            (VariantCommand::OfferSurrender { to }, Sender::Power(from)) => Ok(Applied {
                echo: None,
                lines: vec![
                    Line::public(format!("TOY: {from} offers its surrender to {to}.")),
                    Line::to(
                        Reader::Power(*to),
                        format!("TOY: a word for {to} alone: kiwi-{to}."),
                    ),
                ],
                refused: None,
            }),
            (VariantCommand::Jury { power }, _) => {
                state.update(|s: &mut ToyState| s.jury = Some(*power));
                Ok(Applied {
                    echo: Some(format!("the jury names {power}")),
                    lines: vec![Line::public(format!("TOY: the jury names {power}."))],
                    refused: None,
                })
            }
            _ => Err(refusal("NOT-IN-VARIANT", "not immediate")),
        }
    }

    fn rules(&self, _game: &GameView<'_>, _state: &VariantState) -> Box<dyn Rules> {
        called("rules");
        Box::new(ToyRules)
    }

    fn before_resolution(&self, game: &GameView<'_>, _state: &mut VariantState) -> Vec<Line> {
        called("before_resolution");
        vec![Line::public(format!(
            "TOY: {} is about to be resolved.",
            game.position.phase
        ))]
    }

    fn step(
        &self,
        game: &GameView<'_>,
        _state: &mut VariantState,
        step: Step<'_>,
        position: &mut Position,
    ) -> Vec<Line> {
        called("step");
        match step {
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

    fn summary(
        &self,
        _game: &GameView<'_>,
        state: &VariantState,
        _outcome: &PhaseOutcome,
    ) -> Vec<Line> {
        called("summary");
        let s: ToyState = state.get();
        vec![Line::public(format!("TOY: tax {}.", s.tax))]
    }

    fn game_result(&self, game: &GameView<'_>, state: &VariantState) -> Option<GameEnd> {
        called("game_result");
        let s: ToyState = state.get();
        (game.position.phase.year > 1901).then(|| GameEnd {
            ending: Ending::Concession(s.jury.unwrap_or(Power::France)),
            lines: Some(vec![Line::public("TOY: the toy game is over.")]),
        })
    }

    fn draw_powers(&self, game: &GameView<'_>, _state: &VariantState) -> Vec<Power> {
        called("draw_powers");
        dipjudge::variant::surviving_powers(game.position)
    }

    fn waits_for_master(&self, _game: &GameView<'_>, state: &VariantState) -> bool {
        called("waits_for_master");
        let _: ToyState = state.get();
        false
    }

    fn processes_early(&self, _game: &GameView<'_>, state: &VariantState) -> bool {
        called("processes_early");
        let _: ToyState = state.get();
        true
    }

    fn first_phase(&self, _state: &VariantState) -> Phase {
        called("first_phase");
        Phase::alliance(1901)
    }

    fn must_hold(&self, _state: &VariantState, phase: Phase, _position: &Position) -> bool {
        called("must_hold");
        phase.kind == PhaseKind::Adjustment
    }

    fn inserted_after(
        &self,
        _state: &VariantState,
        phase: Phase,
        _position: &Position,
    ) -> Option<Phase> {
        called("inserted_after");
        (phase.kind == PhaseKind::Adjustment).then(|| Phase::jury(phase.year))
    }

    fn order_status(
        &self,
        game: &GameView<'_>,
        _state: &VariantState,
        power: Power,
        standard: Option<OrderStatus>,
    ) -> Option<OrderStatus> {
        called("order_status");
        match standard {
            Some(OrderStatus::Received)
                if power == Power::Italy
                    && game.position.phase.kind == PhaseKind::Movement
                    && !has_ballot(game, power) =>
            {
                Some(OrderStatus::Incomplete)
            }
            s => s,
        }
    }

    fn press_allowed(
        &self,
        _game: &GameView<'_>,
        _state: &VariantState,
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

    fn reads_ballots_in_press(&self) -> bool {
        called("reads_ballots_in_press");
        true
    }

    fn help(&self) -> &'static str {
        called("help");
        "\nToy (this game's rules)\n  SURRENDER TO power   give up at once\n"
    }

    fn result_line(&self, map: &Map, result: &OrderResult) -> Option<String> {
        called("result_line");
        (result.owner == Owner::Power(Power::Turkey))
            .then(|| format!("{} (as the toy says)", result.order.display(map)))
    }

    fn not_public(&self, _state: &VariantState) -> Vec<Secret> {
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

// ---- the table --------------------------------------------------------------------------

const GM: &str = "gm@example.test";
const GAME: &str = "toy";

fn addr(p: Power) -> String {
    format!("{}@toy.test", p.name().to_lowercase())
}

struct Table {
    judge: Judge,
    now: DateTime<Utc>,
    sent: u32,
}

impl Table {
    fn new() -> Table {
        let config = JudgeConfig {
            password_cost: PasswordCost::TEST,
            variants: Registry::default()
                .with(Entry {
                    name: "Toy",
                    aliases: &["plaything"],
                    variant: Some(&TOY),
                })
                // A rule set the registry names but this judge does not run.
                .with(Entry {
                    name: "Unfinished",
                    aliases: &["wip"],
                    variant: None,
                }),
            ..JudgeConfig::default()
        };
        Table {
            judge: Judge::new(Store::open_in_memory().expect("store"), config).expect("judge"),
            now: Utc
                .with_ymd_and_hms(2026, 11, 1, 9, 0, 0)
                .single()
                .expect("time"),
            sent: 0,
        }
    }

    /// Mails `body` from `from`; returns the reply.
    fn mail(&mut self, from: &str, body: &str) -> String {
        self.sent += 1;
        self.now += Duration::minutes(1);
        let key = format!("<toy-{}@test>", self.sent);
        crate::support::send(&mut self.judge, &key, from, body, self.now)
    }

    fn as_power(&mut self, p: Power, lines: &str) -> String {
        let body = format!(
            "SIGNON {}{GAME} password-{}\n{lines}",
            p.initial(),
            p.code()
        );
        self.mail(&addr(p), &body)
    }

    fn as_master(&mut self, lines: &str) -> String {
        self.mail(GM, &format!("SIGNON M{GAME} gmpass-01\n{lines}"))
    }

    fn game(&mut self) -> Game {
        self.judge.game(GAME).expect("load").expect("game")
    }

    fn mails(&mut self) -> Vec<QueuedMail> {
        self.judge.all_mail().expect("mail")
    }

    /// The mail with this subject to this address (the last one).
    fn mail_to(&mut self, to: &str, subject: &str) -> Option<String> {
        self.mails()
            .into_iter()
            .rev()
            .find(|m| m.recipient == to && m.subject == subject)
            .map(|m| m.body)
    }

    fn results(&mut self, to: &str, phase: &str) -> String {
        let subject = format!("DIP:{GAME} - {phase} Results");
        self.mail_to(to, &subject)
            .unwrap_or_else(|| panic!("no {subject} for {to}"))
    }

    /// Processes the current phase as the master (missing orders take their defaults).
    fn process(&mut self) {
        let r = self.as_master("PROCESS!");
        assert!(r.contains("OK PROCESS!"), "{r}");
    }
}

fn in_order(text: &str, lines: &[&str]) {
    let mut at = 0;
    for l in lines {
        match text.get(at..).and_then(|rest| rest.find(l)) {
            Some(i) => at += i + l.len(),
            None => panic!("{l:?} missing (or out of order) in:\n{text}"),
        }
    }
}

#[test]
fn a_toy_rule_set_overrides_every_hook_and_plays_by_mail() {
    let mut t = Table::new();

    // CREATE takes a registered rule set by any of its names, with its settings (H1 setup).
    let r = t.mail(GM, "CREATE ?bad gmpass-01 plaything toy_tax=lots");
    assert!(
        r.contains("ERROR BAD-SETTING: line 1: \"CREATE ?bad ******** ******** ********\": ******** takes a number, not \"********\""),
        "{r}"
    );
    let r = t.mail(GM, "CREATE ?other gmpass-01 wip");
    assert!(
        r.contains("ERROR NO-VARIANT: line 1: \"CREATE ?other ******** ********\": this judge does not run the Unfinished rules yet; it runs Standard, "),
        "{r}"
    );
    assert!(r.contains(", Toy"), "the test's rule set is listed: {r}");
    let r = t.mail(GM, "CREATE ?other gmpass-01 chaos");
    assert!(r.contains("ERROR NO-VARIANT"), "{r}");
    // Every word after the game may be a password: the rule set's name too.
    assert!(r.contains("there are no rules called \"********\""), "{r}");
    let r = t.mail(GM, &format!("CREATE ?{GAME} gmpass-01 Toy toy_tax=3"));
    assert!(r.contains("OK CREATE ?toy, Toy rules"), "{r}");
    // SET VARIANT changes a forming game's rule set, its state afresh.
    let r = t.mail(GM, "CREATE ?spare gmpass-01");
    assert!(r.contains("OK CREATE ?spare (you are"), "{r}");
    let r = t.mail(GM, "SIGNON Mspare gmpass-01\nSET VARIANT plaything");
    assert!(r.contains("OK SET VARIANT plaything"), "{r}");
    assert!(
        r.contains("spare will be played with the Toy rules."),
        "{r}"
    );
    let spare = t.judge.game("spare").expect("load").expect("game");
    assert_eq!(spare.variant, "Toy");
    assert_eq!(spare.variant_state.get::<ToyState>().tax, 0);
    let r = t.mail(GM, "SIGNON Mspare gmpass-01\nSET VARIANT Unfinished");
    assert!(
        r.contains("ERROR NO-VARIANT: line 2: \"SET VARIANT Unfinished\": this judge does not run the Unfinished rules yet"),
        "{r}"
    );
    let g = t.game();
    assert_eq!(g.variant, "Toy");
    assert_eq!(g.variant_state.get::<ToyState>().tax, 3);
    for p in Power::ALL {
        let r = t.mail(
            &addr(p),
            &format!(
                "SIGNON ?{GAME} password-{}\nSET PREFERENCE {}",
                p.code(),
                p.name()
            ),
        );
        assert!(!r.contains("ERROR"), "{r}");
    }
    let g = t.game();
    assert_eq!(g.status, Status::Active);
    // H18: the toy's first phase.
    assert_eq!(g.position.phase, Phase::alliance(1901));
    let r = t.as_master("SET VARIANT standard");
    assert!(r.contains("ERROR GAME-STARTED"), "{r}");

    // H1 + H2: an immediate command, answered at once and mailed to its readers.
    let r = t.as_power(Power::France, "SURRENDER TO Germany");
    assert!(r.contains("OK SURRENDER TO Germany"), "{r}");
    let subject = format!("DIP:{GAME} - A1901 Announcement");
    let to_germany = t
        .mail_to(&addr(Power::Germany), &subject)
        .expect("Germany's copy");
    assert!(to_germany.contains("TOY: France offers its surrender to Germany."));
    assert!(to_germany.contains("kiwi-Germany"));
    let to_england = t
        .mail_to(&addr(Power::England), &subject)
        .expect("England's copy");
    assert!(to_england.contains("TOY: France offers its surrender to Germany."));
    assert!(!to_england.contains("kiwi"));
    let to_master = t.mail_to(GM, &subject).expect("the master's copy");
    assert!(to_master.contains("kiwi-Germany"));
    // H1 refusals carry the rule set's codes.
    let r = t.as_master("SURRENDER TO Germany");
    assert!(
        r.contains("ERROR TOY-E2: line 2: \"SURRENDER TO Germany\": only a power may surrender"),
        "{r}"
    );
    let r = t.as_power(Power::England, "HELP");
    in_order(
        &r,
        &[
            "OK HELP",
            "Master",
            "Toy (this game's rules)",
            "give up at once",
        ],
    );
    let r = t.as_power(Power::England, "JURY France\nSET DRAW");
    assert!(
        r.contains("ERROR TOY-E1: line 2: \"JURY France\": no jury is sitting"),
        "{r}"
    );
    assert!(
        r.contains("ERROR TOY-E3: line 3: \"SET DRAW\": there are no draws"),
        "{r}"
    );
    // A concession the toy allows: the powers whose agreement it needs are asked (H17).
    let r = t.as_power(Power::England, "SET CONCEDE France");
    assert!(r.contains("OK SET CONCEDE France"), "{r}");
    // H19: press the toy forbids, and press it allows.
    let r = t.as_power(Power::Russia, "PRESS TO T\nHello neighbour.\nENDPRESS");
    assert!(r.contains("ERROR TOY-E4"), "{r}");
    let r = t.as_power(Power::Russia, "BROADCAST\nHello all.\nENDPRESS");
    assert!(r.contains("OK BROADCAST"), "{r}");

    // The alliance phase processes into a results bulletin in the six parts (H20).
    t.process();
    let a1901 = t.results(&addr(Power::Germany), "A1901");
    in_order(
        &a1901,
        &[
            "TOY: France offers its surrender to Germany.",
            "kiwi-Germany",
            "TOY: A1901 is about to be resolved.",
            "TOY: resolved A1901.",
            "TOY: S1901M opens.",
            "TOY: tax 3.",
        ],
    );
    let a1901_england = t.results(&addr(Power::England), "A1901");
    assert!(a1901_england.contains("TOY: France offers its surrender to Germany."));
    assert!(!a1901_england.contains("kiwi"));
    assert_eq!(t.game().position.phase, Phase::FIRST);

    // Spring 1901: H3 (validate, replace_refusal, warning), H18 order status, ballots
    // read from press to the master (H19), H4 rewrite.
    let r = t.as_power(Power::France, "A Par - Bur\nA Par - Pic\nA Mar H\nF Bre H");
    assert!(
        r.contains("ERROR TOY-E5: line 2: \"A Par - Bur\": nobody may enter Burgundy"),
        "{r}"
    );
    assert!(r.contains("OK A Par - Pic"), "{r}");
    assert!(
        r.contains("WARNING TOY-W1: line 3: \"A Par - Pic\": Picardy is muddy"),
        "{r}"
    );
    // Germany's fleet attacks its own supporting army (H8, H9 asked; nothing cut).
    let r = t.as_power(
        Power::Germany,
        "A Mun - Sil\nA Ber S A Mun - Sil\nF Kie - Ber\nA Ruh H",
    );
    assert!(
        r.contains("ERROR TOY-E6: line 5: \"A Ruh H\": there is no such unit"),
        "{r}"
    );
    t.as_power(Power::England, "F Lon - NTH\nF Edi H\nA Lvp H");
    let r = t.as_power(Power::Austria, "A Vie - Tyr\nF Tri H\nA Bud S F Tri");
    assert!(!r.contains("ERROR"), "{r}");
    t.as_power(
        Power::Turkey,
        "F Ank - Con\nA Con - Bul\nA Smy S F Ank - Con",
    );
    t.as_power(Power::Italy, "A Ven - Tri\nF Nap - Ion\nA Rom H");
    let list = t.as_power(Power::Italy, &format!("LIST {GAME}"));
    assert!(
        list.contains("Italy") && list.contains("orders incomplete"),
        "{list}"
    );
    let r = t.as_power(
        Power::Italy,
        "PRESS TO M\nMy ballot:\nVOTE Austria\nENDPRESS",
    );
    assert!(r.contains("OK ballot recorded"), "{r}");
    let list = t.as_power(Power::Italy, &format!("LIST {GAME}"));
    let italy = list
        .lines()
        .find(|l| l.trim_start().starts_with("Italy"))
        .unwrap_or_default()
        .to_string();
    assert!(italy.contains("orders received"), "{list}");
    t.process();
    let s1901 = t.results(GM, "S1901M");
    in_order(
        &s1901,
        &[
            "TOY: S1901M is about to be resolved.",
            "England: F Lon H (toy: kept at home)",
            "Germany: Army Munich -> Silesia.  (*bounce*)",
            "Italy: Army Venice -> Trieste.",
            "Turkey: A Con - Bul (as the toy says)",
            "TOY: resolved S1901M.",
            "TOY: S1901R opens.",
            "TOY: tax 3.",
        ],
    );
    let g = t.game();
    assert_eq!(
        g.position.phase.kind,
        PhaseKind::Retreat,
        "H6: Italy's 3 beat 2"
    );

    // Spring retreats: H13.
    let r = t.as_power(Power::Austria, "F Tri - Adr\nF Tri - Alb");
    assert!(r.contains("ERROR BAD-RETREAT: line 2"), "{r}");
    assert!(r.contains("OK F Tri - Alb"), "{r}");
    t.process();
    let s1901r = t.results(GM, "S1901R");
    in_order(
        &s1901r,
        &[
            "TOY: resolved S1901R.",
            "TOY: the army in Rome rebels.",
            "TOY: F1901M opens.",
        ],
    );
    // H12: the neutral army takes no orders and holds.
    let r = t.as_power(Power::Italy, "A Rom H\nA Tri H\nVOTE Austria");
    assert!(r.contains("ERROR NEUTRAL-UNIT: line 2"), "{r}");
    // A supported attack on Italy's army (H10 asked): Italy's 3 holds against 2.
    let r = t.as_power(Power::Austria, "A Tyr - Tri\nA Bud S A Tyr - Tri\nF Alb H");
    assert!(!r.contains("ERROR"), "{r}");
    t.process();
    let f1901 = t.results(GM, "F1901M");
    assert!(
        f1901.contains("Austria: Army Tyrolia -> Trieste.  (*bounce*)"),
        "{f1901}"
    );
    in_order(
        &f1901,
        &[
            "TOY: resolved F1901M.",
            "TOY: the centres change hands.",
            "TOY: W1901A opens.",
        ],
    );
    let g = t.game();
    assert_eq!(
        g.position.owner_of(province("tri")),
        Some(Power::Italy),
        "H14"
    );

    // Winter: H15 (a voluntary disband; the toy's civil-disorder choice), H18 (a jury phase
    // of the toy's own after the Winter).
    let r = t.as_power(Power::Germany, "REMOVE A Ber");
    assert!(r.contains("OK"), "{r}");
    assert!(!r.contains("ERROR"), "{r}");
    let r = t.as_power(Power::Italy, "BUILD A Ven");
    assert!(r.contains("OK Build A Ven"), "{r}");
    t.process();
    let w1901 = t.results(GM, "W1901A");
    in_order(
        &w1901,
        &[
            "Austria: Removes the army in Budapest.",
            "Germany: Removes the army in Berlin.",
            "Italy: Builds an army in Venice.",
            "TOY: mango for the master.",
            "TOY: W1901J opens.",
        ],
    );
    let w1901_public = t.results(&addr(Power::France), "W1901A");
    assert!(!w1901_public.contains("mango"));
    let g = t.game();
    assert_eq!(g.position.phase, Phase::jury(1901));
    assert!(
        g.position.unit_in(province("ber")).is_none(),
        "Germany disbanded"
    );
    assert!(
        g.position.unit_in(province("bud")).is_none(),
        "the toy's civil disorder takes the first army, not the farthest unit:\n{w1901}"
    );
    assert!(g.position.unit_in(province("tyr")).is_some());
    assert!(
        g.position.unit_in(province("alb")).is_some(),
        "the fleet stays"
    );
    assert!(g.position.unit_in(province("ven")).is_some(), "Italy built");

    // The jury phase: the master's immediate command, then the end (H17).
    let r = t.as_master("JURY France");
    assert!(r.contains("OK the jury names France"), "{r}");
    t.process();
    let jury = t.results(&addr(Power::England), "W1901J");
    in_order(
        &jury,
        &[
            "TOY: the jury names France.",
            "TOY: W1901J is about to be resolved.",
            "TOY: tax 3.",
            "TOY: the toy game is over.",
        ],
    );
    let g = t.game();
    assert_eq!(
        g.status,
        Status::Finished(Ending::Concession(Power::France))
    );

    // The leak scanner: every mail of the game against the toy's secrets (H20).
    let state = g.variant_state.clone();
    let secrets = TOY.not_public(&state);
    let mut leaks = Vec::new();
    for m in t.mails() {
        for s in &secrets {
            if !m.body.contains(s.text.as_str()) {
                continue;
            }
            let reader = if m.recipient == GM {
                Reader::Master
            } else {
                match Power::ALL.into_iter().find(|p| addr(*p) == m.recipient) {
                    Some(p) => Reader::Power(p),
                    None => Reader::Observers,
                }
            };
            if reader != Reader::Master && !s.readers.contains(&reader) {
                leaks.push(format!(
                    "{} reached {} in {:?}",
                    s.text, m.recipient, m.subject
                ));
            }
        }
    }
    assert!(leaks.is_empty(), "leaked:\n{}", leaks.join("\n"));

    // Every hook was asked.
    let calls = CALLS.lock().expect("calls").clone();
    let every = [
        "new_state",
        "apply_setting",
        "check_state",
        "take_command",
        "allows_player_command",
        "processed_first",
        "apply_now",
        "rules",
        "validate",
        "replace_refusal",
        "warning",
        "rewrite",
        "before_resolution",
        "strength",
        "support_value",
        "may_not_dislodge",
        "may_not_cut",
        "support_excluded",
        "pseudo_moves",
        "retreat_allowed",
        "void_retreat",
        "disband_instead_of_retreat",
        "update_ownership",
        "adjustment_count",
        "build_sites",
        "civil_disorder_removals",
        "may_disband",
        "step",
        "summary",
        "game_result",
        "draw_powers",
        "waits_for_master",
        "processes_early",
        "first_phase",
        "inserted_after",
        "order_status",
        "press_allowed",
        "reads_ballots_in_press",
        "help",
        "result_line",
        "not_public",
    ];
    let missing: Vec<&str> = every.into_iter().filter(|h| !calls.contains(h)).collect();
    assert!(missing.is_empty(), "hooks never asked: {missing:?}");
}

/// H18's veto: a Winter the standard calendar skips (nobody builds or removes) is held when
/// the rule set says so, and the season's end waits for it.
#[test]
fn a_rule_set_holds_a_winter_the_standard_game_skips() {
    let map = Map::standard().expect("map");
    let mut fall = Position::standard_start(map);
    fall.phase = Phase::new(1901, dipjudge::rules::Season::Fall, PhaseKind::Movement);
    let view = GameView::bare(map, &fall);
    let standard = dipjudge::variant::process_phase(
        &dipjudge::variant::Standard,
        &mut VariantState::default(),
        &view,
    );
    assert_eq!(standard.outcome.next.phase, Phase::FIRST.next_spring());
    let mut state = TOY.new_state();
    let toy = dipjudge::variant::process_phase(&TOY, &mut state, &view);
    assert_eq!(
        toy.outcome.next.phase,
        Phase::new(1901, dipjudge::rules::Season::Winter, PhaseKind::Adjustment)
    );
    assert!(CALLS.lock().expect("calls").contains("must_hold"));
    // The season ends with the Winter, not before it.
    assert!(
        !toy.after.iter().any(|l| l.text.contains("mango")),
        "FallEnds waits for the held Winter"
    );
}

/// A database written before the variant platform (`fixtures/store/v2-before-variants.sql`:
/// game `sample` in F1901M, France has two orders standing) opens, and its game plays on
/// under the standard rules: no rule-set state, units without an identity, and the old
/// snapshot still rolls back.
#[test]
fn a_game_saved_before_the_variant_platform_loads_and_plays_on() {
    let dir = std::env::temp_dir().join(format!("dipjudge-v2-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("judge.db");
    let _ = std::fs::remove_file(&path);
    let sql = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/store/v2-before-variants.sql"),
    )
    .expect("fixture");
    rusqlite::Connection::open(&path)
        .expect("sqlite")
        .execute_batch(&sql)
        .expect("the old schema loads");
    let config = JudgeConfig {
        password_cost: PasswordCost::TEST,
        ..JudgeConfig::default()
    };
    let mut judge = Judge::new(Store::open(&path).expect("store opens"), config).expect("judge");
    let g = judge.game("sample").expect("load").expect("game");
    assert_eq!(g.variant, "Standard");
    assert!(g.variant_state.is_empty());
    assert!(g.variant_orders.is_empty());
    assert_eq!(
        g.position.phase,
        Phase::new(1901, dipjudge::rules::Season::Fall, PhaseKind::Movement)
    );
    let now = Utc
        .with_ymd_and_hms(2026, 1, 6, 9, 0, 0)
        .single()
        .expect("time");
    let mut n = 0;
    let mut mail = |judge: &mut Judge, from: &str, body: &str| {
        n += 1;
        crate::support::send(judge, &format!("<v2-{n}@test>"), from, body, now)
    };
    // France corrects one order (its first army holds); England orders; the master
    // processes.
    let map = Map::standard().expect("map");
    let army = g
        .position
        .units
        .iter()
        .find(|u| {
            u.owner == Owner::Power(Power::France) && u.kind == dipjudge::rules::UnitKind::Army
        })
        .expect("a French army");
    let hold = format!("A {} H", map.display_code(army.location.province));
    let hold_long = format!("France: Army {} HOLD.", map.location_name(army.location));
    let r = mail(
        &mut judge,
        "player1@example.test",
        &format!("SIGNON Fsample pw0\n{hold}"),
    );
    assert!(r.contains(&format!("OK {hold}")), "{r}");
    assert!(r.contains("Orders standing for France"), "{r}");
    let r = mail(
        &mut judge,
        "player7@example.test",
        "SIGNON Esample pw6\nCLEAR",
    );
    assert!(r.contains("OK CLEAR"), "{r}");
    let r = mail(
        &mut judge,
        "master@example.test",
        "SIGNON Msample gmpass\nPROCESS!",
    );
    assert!(r.contains("OK PROCESS!"), "{r}");
    let results = judge
        .all_mail()
        .expect("mail")
        .into_iter()
        .rev()
        .find(|m| m.subject.ends_with("F1901M Results") && m.recipient == "player1@example.test")
        .map(|m| m.body)
        .expect("the Fall results");
    assert!(results.contains(&hold_long), "{results}");
    let g = judge.game("sample").expect("load").expect("game");
    assert!(
        g.position.phase > Phase::new(1901, dipjudge::rules::Season::Fall, PhaseKind::Movement)
    );
    assert!(
        g.position.units.iter().all(|u| u.id.is_assigned()),
        "units have an identity now"
    );
    // The snapshot written by the old judge rolls back.
    let r = mail(
        &mut judge,
        "master@example.test",
        "SIGNON Msample gmpass\nROLLBACK F1901M",
    );
    assert!(r.contains("OK ROLLBACK"), "{r}");
    let g = judge.game("sample").expect("load").expect("game");
    assert_eq!(
        g.position.phase,
        Phase::new(1901, dipjudge::rules::Season::Fall, PhaseKind::Movement)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
