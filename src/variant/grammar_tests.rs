//! Every rule set's commands read back as themselves from their echo
//! (`parse(render(cmd)) == cmd`), in a game of that rule set and with no game known, and
//! lines of rule-set words never make the parser panic.

use proptest::prelude::*;

use crate::command::{
    Command, OwnCommand, ParseContext, RuleCommand, parse_command, parse_message_with,
};
use crate::map::{Coast, Location, Map, Power, ProvinceId};
use crate::rules::{UnitKind, UnitSpec};

use super::formal::FormalCommand;
use super::ir::{IrCommand, TreatyKind};
use super::surrender::SurrenderCommand;
use super::survive::{Ballot, SurviveCommand};
use super::{Formal, InternationalRelations, Registry, Surrender, Survive, Variant};

fn map() -> &'static Map {
    Map::standard().unwrap()
}

fn power() -> impl Strategy<Value = Power> {
    prop::sample::select(Power::ALL.to_vec())
}

fn powers(min: usize) -> impl Strategy<Value = Vec<Power>> {
    prop::sample::subsequence(Power::ALL.to_vec(), min..=7).prop_shuffle()
}

fn location() -> impl Strategy<Value = Location> {
    prop::sample::select(map().locations())
}

fn province() -> impl Strategy<Value = ProvinceId> {
    prop::sample::select(map().province_ids().collect::<Vec<_>>())
}

fn unit_kind() -> impl Strategy<Value = UnitKind> {
    prop_oneof![Just(UnitKind::Army), Just(UnitKind::Fleet)]
}

fn unit() -> impl Strategy<Value = UnitSpec> {
    (prop::option::of(unit_kind()), location()).prop_map(|(k, l)| UnitSpec::new(k, l))
}

fn coast() -> impl Strategy<Value = Coast> {
    prop_oneof![Just(Coast::North), Just(Coast::South), Just(Coast::East)]
}

fn treaty() -> impl Strategy<Value = TreatyKind> {
    prop_oneof![Just(TreatyKind::Mdt), Just(TreatyKind::Aat)]
}

fn surrender() -> impl Strategy<Value = SurrenderCommand> {
    prop_oneof![
        power().prop_map(|to| SurrenderCommand::OfferSurrender { to }),
        Just(SurrenderCommand::WithdrawSurrender),
        power().prop_map(|from| SurrenderCommand::AcceptSurrender { from }),
        power().prop_map(|from| SurrenderCommand::DeclineSurrender { from }),
        (unit(), power(), unit_kind(), prop::option::of(coast())).prop_map(
            |(unit, power, kind, coast)| SurrenderCommand::HoldExchange {
                unit,
                power,
                kind,
                coast
            }
        ),
        province().prop_map(|province| SurrenderCommand::DeclineExchange { province }),
        Just(SurrenderCommand::DeclineExchanges),
        Just(SurrenderCommand::AllowExchanges),
    ]
}

fn survive() -> impl Strategy<Value = SurviveCommand> {
    prop_oneof![
        prop_oneof![
            Just(Ballot::Withdraw),
            power().prop_map(Ballot::All),
            prop::collection::vec((power(), 1u32..100), 1..5).prop_map(Ballot::Split)
        ]
        .prop_map(SurviveCommand::Vote),
        power().prop_map(|power| SurviveCommand::Jury { power }),
    ]
}

fn formal() -> impl Strategy<Value = FormalCommand> {
    prop_oneof![
        power().prop_map(|on| FormalCommand::DeclareWar { on }),
        Just(FormalCommand::Surrender),
        (unit(), prop::option::of(province())).prop_map(|(u, p)| FormalCommand::Soi {
            unit: Some(u),
            province: p
        }),
        province().prop_map(|p| FormalCommand::Soi {
            unit: None,
            province: Some(p)
        }),
        (unit(), unit(), province()).prop_map(|(unit, target, province)| {
            FormalCommand::SupportSoi {
                unit,
                target,
                province,
            }
        }),
        province().prop_map(|province| FormalCommand::UndoSoi { province }),
    ]
}

fn ir() -> impl Strategy<Value = IrCommand> {
    prop_oneof![
        (treaty(), power()).prop_map(|(kind, with)| IrCommand::EnterTreaty { kind, with }),
        (treaty(), power()).prop_map(|(kind, with)| IrCommand::WithdrawTreaty { kind, with }),
        (prop::option::of(treaty()), power())
            .prop_map(|(kind, with)| IrCommand::Abrogate { kind, with }),
        (power(), unit(), location()).prop_map(|(power, unit, dest)| IrCommand::PermitMove {
            power,
            unit,
            dest
        }),
        (power(), province())
            .prop_map(|(power, province)| IrCommand::PermitInto { power, province }),
        (province(), power()).prop_map(|(province, to)| IrCommand::Transfer { province, to }),
        Just(IrCommand::ClaimSolo),
        powers(1).prop_map(|with| IrCommand::ClaimCoalition { with }),
    ]
}

/// Reads `cmd`'s echo in a game of `variant` and with no game known: both give `cmd`.
fn reads_back<C: OwnCommand>(variant: &dyn Variant, cmd: C) -> Result<(), TestCaseError> {
    let registry = Registry::default();
    let text = cmd.render(map());
    let want = Ok(Command::Variant(RuleCommand::new(cmd)));
    for grammar in [registry.grammar_for(variant), registry.any_grammar()] {
        let cx = ParseContext {
            phase: None,
            grammar: Some(&grammar),
        };
        prop_assert_eq!(&parse_command(&text, map(), &cx), &want, "echo: {}", text);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn surrender_commands_read_back(cmd in surrender()) {
        reads_back(&Surrender, cmd)?;
    }

    #[test]
    fn survive_commands_read_back(cmd in survive()) {
        reads_back(&Survive, cmd)?;
    }

    #[test]
    fn formal_commands_read_back(cmd in formal()) {
        reads_back(&Formal, cmd)?;
    }

    #[test]
    fn ir_commands_read_back(cmd in ir()) {
        reads_back(&InternationalRelations, cmd)?;
    }

    #[test]
    fn no_rule_set_words_make_the_parser_panic(words in prop::collection::vec(
        prop_oneof![
            Just("A"), Just("F"), Just("-"), Just("S"), Just("Par"), Just("Bur"),
            Just("StP/nc"), Just("(sc)"), Just("SOI"), Just("HX"), Just("="), Just("England"),
            Just("VOTE"), Just("JURY"), Just("DWO"), Just("SUR"), Just("WITHDRAW"),
            Just("PERMIT"), Just("CLAIM"), Just("WITH"), Just("PRESS TO M\n"), Just(","),
            Just("ENDPRESS"), Just("\n"), Just("2"),
        ],
        0..40,
    )) {
        let registry = Registry::default();
        let grammar = registry.any_grammar();
        let cx = ParseContext { phase: None, grammar: Some(&grammar) };
        let _ = parse_message_with(&words.join(" "), map(), &cx);
    }
}

/// A mail body's replies as `dipjudge parse` prints them, with every rule set's commands.
fn replies(text: &str) -> Vec<String> {
    let registry = Registry::default();
    let grammar = registry.any_grammar();
    let cx = ParseContext {
        phase: None,
        grammar: Some(&grammar),
    };
    parse_message_with(text, map(), &cx)
        .iter()
        .map(|r| crate::bulletin::parsed_line(map(), r))
        .collect()
}

macro_rules! line {
    ($name:ident, $text:expr, $want:expr) => {
        #[test]
        fn $name() {
            assert_eq!(replies($text), vec![$want.to_string()]);
        }
    };
}

line!(
    hold_exchange,
    "Fleet London Hold Exchange = England Army",
    "OK F Lon HOLD EXCHANGE England A"
);
line!(
    hold_exchange_dashes,
    "Fleet \u{2013} London \u{2013} Hold Exchange = England - Army",
    "OK F Lon HOLD EXCHANGE England A"
);
line!(
    hold_exchange_short,
    "F Lon H EXCH ENG F",
    "OK F Lon HOLD EXCHANGE England F"
);
line!(
    hold_exchange_hx,
    "A Par HX france F/sc",
    "OK A Par HOLD EXCHANGE France F/sc"
);
line!(soi_in_place, "A Bur SOI", "OK A Bur SOI");
line!(soi_adjacent, "A Bur SOI Bel", "OK A Bur SOI Bel");
line!(
    support_soi,
    "A Mar S A Bur SOI Bel",
    "OK A Mar S A Bur SOI Bel"
);
line!(
    err_vote,
    "VOTE Frnace 2",
    "ERROR SRV-E7: line 1: cannot read the ballot \"VOTE Frnace 2\". Ballot not recorded."
);
line!(
    err_vote_with_commas,
    "VOTE France 2, Germny 1",
    "ERROR SRV-E7: line 1: cannot read the ballot \"VOTE France 2, Germny 1\". Ballot not recorded."
);
line!(
    err_dwo,
    "DWO Frnace",
    "ERROR FD-E3: line 1: \"DWO Frnace\": Frnace is not a power still in this game."
);
line!(
    err_enter,
    "ENTER MDT WITH Atlantis",
    "ERROR IR-X2: line 1: \"ENTER MDT WITH Atlantis\": Atlantis is not another power in this game."
);
line!(
    err_withdraw,
    "WITHDRAW XYZ",
    "ERROR SYNTAX: line 1: \"WITHDRAW XYZ\": expected SURRENDER after \"WITHDRAW\", found \"XYZ\""
);

/// H19: `VOTE` lines in press to the master are ballots in a Survive game (and with no game
/// known), press in any other.
#[test]
fn ballots_are_read_out_of_press_to_the_master() {
    let text = "press to m\nHere is my vote.\nVOTE France 2, Germany 1\nendpress";
    assert_eq!(
        replies(text),
        vec!["OK PRESS TO M (1 line)", "OK VOTE France 2, Germany 1"]
    );
    let registry = Registry::default();
    let survive = registry.grammar_for(&Survive);
    let cx = ParseContext {
        phase: None,
        grammar: Some(&survive),
    };
    assert_eq!(parse_message_with(text, map(), &cx).len(), 2);
    for other in [&Formal as &dyn Variant, &super::Standard] {
        let grammar = registry.grammar_for(other);
        let cx = ParseContext {
            phase: None,
            grammar: Some(&grammar),
        };
        assert_eq!(
            parse_message_with(text, map(), &cx).len(),
            1,
            "{}",
            other.name()
        );
    }
    assert_eq!(
        parse_message_with(text, map(), &ParseContext::default()).len(),
        1,
        "the shared language alone reads no ballots"
    );
}

/// A rule set's command in a game of another rule set is read as that rule set's (and the
/// game's rule set refuses it by name); a line two rule sets read is the game's own.
#[test]
fn a_line_goes_to_the_game_s_own_rule_set_first() {
    let registry = Registry::default();
    let read = |v: &dyn Variant, text: &str| {
        let grammar = registry.grammar_for(v);
        let cx = ParseContext {
            phase: None,
            grammar: Some(&grammar),
        };
        parse_command(text, map(), &cx)
    };
    let Ok(Command::Variant(c)) = read(&super::Standard, "DWO France") else {
        panic!("read as Formal's");
    };
    assert_eq!(
        c.get::<FormalCommand>(),
        Some(&FormalCommand::DeclareWar { on: Power::France })
    );
    let Ok(Command::Variant(c)) = read(&Formal, "SURRENDER") else {
        panic!("read");
    };
    assert_eq!(c.get::<FormalCommand>(), Some(&FormalCommand::Surrender));
    let Ok(Command::Variant(c)) = read(&Formal, "SUR England") else {
        panic!("read");
    };
    assert!(c.get::<SurrenderCommand>().is_some());
    // Where no rule set reads a line, the game's own error is given.
    let e = read(&InternationalRelations, "WITHDRAW XYZ").expect_err("refused");
    assert_eq!(
        e.to_string(),
        "expected MDT or AAT after \"WITHDRAW\", found \"XYZ\""
    );
}

/// No province name followed by a rule set's word of an order written after a unit reads
/// as another province.
#[test]
fn no_province_name_swallows_a_rule_set_keyword() {
    let m = map();
    for k in ["soi", "hx", "exch", "exchange", "sphere"] {
        for p in m.province_ids() {
            for name in [m.code(p).to_string(), m.province(p).name.clone()] {
                let joined = format!("{name} {k}");
                assert_eq!(m.find_province(&joined), None, "{joined}");
            }
        }
    }
}
