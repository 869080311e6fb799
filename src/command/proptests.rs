//! Properties: every generated command reads back as itself from its echo
//! (`parse(render(cmd)) == cmd`), and no input makes the parser panic.

use proptest::prelude::*;

use super::*;
use crate::map::{Location, Power};
use crate::rules::{Phase, PhaseKind, Season, UnitKind, UnitSpec};

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

fn unit_kind() -> impl Strategy<Value = UnitKind> {
    prop_oneof![Just(UnitKind::Army), Just(UnitKind::Fleet)]
}

fn unit() -> impl Strategy<Value = UnitSpec> {
    (prop::option::of(unit_kind()), location()).prop_map(|(k, l)| UnitSpec::new(k, l))
}

fn sea() -> impl Strategy<Value = crate::map::ProvinceId> {
    let seas: Vec<_> = map().province_ids().filter(|p| map().is_sea(*p)).collect();
    prop::sample::select(seas)
}

fn order() -> impl Strategy<Value = OrderCommand> {
    prop_oneof![
        unit().prop_map(|unit| OrderCommand::new(Order::Hold { unit })),
        (unit(), location(), any::<bool>()).prop_map(|(unit, dest, via_convoy)| {
            OrderCommand::new(Order::Move {
                unit,
                dest,
                via_convoy,
            })
        }),
        (unit(), location(), prop::collection::vec(sea(), 1..4)).prop_map(|(unit, dest, route)| {
            OrderCommand {
                order: Order::Move {
                    unit,
                    dest,
                    via_convoy: true,
                },
                route,
            }
        }),
        (unit(), unit())
            .prop_map(|(unit, target)| OrderCommand::new(Order::SupportHold { unit, target })),
        (unit(), unit(), location()).prop_map(|(unit, target, dest)| OrderCommand::new(
            Order::SupportMove { unit, target, dest }
        )),
        (unit(), unit(), location())
            .prop_map(|(unit, army, dest)| OrderCommand::new(Order::Convoy { unit, army, dest })),
        unit().prop_map(|unit| OrderCommand::new(Order::Disband { unit })),
        (unit_kind(), location()).prop_map(|(k, l)| OrderCommand::new(Order::Build {
            unit: UnitSpec::new(Some(k), l)
        })),
        unit().prop_map(|unit| OrderCommand::new(Order::Remove { unit })),
        Just(OrderCommand::new(Order::Waive)),
    ]
}

fn game() -> impl Strategy<Value = GameName> {
    "[a-z0-9][a-z0-9_-]{0,9}"
        .prop_filter("not a keyword", |s| {
            !["full", "from", "to", "lines", "exclstart"].contains(&s.as_str())
        })
        .prop_map(|s| GameName::new(&s).unwrap())
}

fn password() -> impl Strategy<Value = String> {
    "[A-Za-z0-9!#$%*+=?@._-]{1,12}"
}

fn date() -> impl Strategy<Value = Date> {
    (
        prop::option::of(1900u16..2100),
        1u8..=12,
        1u8..=31,
        prop::option::of((0u8..24, 0u8..60)),
    )
        .prop_filter_map("a real date", |(y, m, d, t)| Date::new(y, m, d, t))
}

fn player() -> impl Strategy<Value = PlayerCommand> {
    prop_oneof![
        Just(PlayerCommand::Help),
        Just(PlayerCommand::Version),
        prop::option::of(game()).prop_map(|game| PlayerCommand::List { game }),
        Just(PlayerCommand::ListFull),
        (any::<bool>(), 0u32..1000).prop_map(|(full, page)| PlayerCommand::ListPage { full, page }),
        game().prop_map(|game| PlayerCommand::Summary { game: Some(game) }),
        game().prop_map(|game| PlayerCommand::Export { game }),
        (
            game(),
            prop::option::of(date()),
            prop::option::of(date()),
            prop::option::of(0u32..100_000)
        )
            .prop_map(|(game, from, to, lines)| PlayerCommand::History {
                game: Some(game),
                from,
                to,
                lines,
                exclude: None,
            }),
        (
            game(),
            "[SF]19[0-9][0-9][MR]",
            prop::option::of("W19[0-9][0-9][AB]"),
            any::<bool>(),
            prop::option::of(0u32..100_000)
        )
            .prop_map(|(game, start, end, broad, lines)| PlayerCommand::History {
                game: Some(game),
                from: None,
                to: None,
                lines,
                exclude: Some(super::player::Exclusion { start, end, broad }),
            }),
        (
            game(),
            password(),
            prop::option::of("[a-z]{1,10}"),
            prop::collection::vec("[a-z]{1,8}", 0..3)
        )
            .prop_map(|(game, password, variant, options)| {
                let options = if variant.is_some() {
                    options
                } else {
                    Vec::new()
                };
                PlayerCommand::Create {
                    game,
                    password,
                    variant,
                    options,
                }
            }),
        (
            prop_oneof![
                power().prop_map(SignonAs::Power),
                Just(SignonAs::Join),
                Just(SignonAs::Master),
                Just(SignonAs::Observer),
                power().prop_map(SignonAs::Takeover)
            ],
            game(),
            password()
        )
            .prop_map(|(who, game, password)| PlayerCommand::Signon {
                who,
                game,
                password,
                code: None
            }),
        (game(), password()).prop_map(|(game, password)| PlayerCommand::Observe { game, password }),
        password().prop_map(|password| PlayerCommand::SetPassword { password }),
        "[a-z0-9]{1,5}(\\.[a-z0-9]{1,4})?@[a-z]{1,10}\\.org"
            .prop_map(|address| PlayerCommand::SetAddress { address }),
        Just(PlayerCommand::SetWait),
        Just(PlayerCommand::SetNoWait),
        (date(), prop::option::of(date()))
            .prop_map(|(from, to)| PlayerCommand::SetAbsence { from, to }),
        prop::option::of(date()).prop_map(|date| PlayerCommand::SetNoAbsence { date }),
        Just(PlayerCommand::SetNoConcede),
        powers(0).prop_map(|powers| PlayerCommand::SetDraw { powers }),
        Just(PlayerCommand::SetNoDraw),
        power().prop_map(|to| PlayerCommand::SetConcede { to }),
        powers(1).prop_map(|powers| PlayerCommand::SetPreference { powers }),
        Just(PlayerCommand::Resign),
        Just(PlayerCommand::Signoff),
        game().prop_map(|game| PlayerCommand::Unobserve { game }),
        "[A-Z2-9]{8}".prop_map(|code| PlayerCommand::Confirm { code }),
        Just(PlayerCommand::Clear),
    ]
}

fn phase() -> impl Strategy<Value = Phase> {
    (
        1901u16..2100,
        prop_oneof![
            Just((Season::Spring, PhaseKind::Movement)),
            Just((Season::Spring, PhaseKind::Retreat)),
            Just((Season::Fall, PhaseKind::Movement)),
            Just((Season::Fall, PhaseKind::Retreat)),
            Just((Season::Winter, PhaseKind::Adjustment)),
        ],
    )
        .prop_map(|(y, (s, k))| Phase::new(y, s, k))
}

fn master() -> impl Strategy<Value = MasterCommand> {
    prop_oneof![
        power().prop_map(|power| MasterCommand::Become { power }),
        prop::option::of(phase()).prop_map(|phase| MasterCommand::Process { phase }),
        Just(MasterCommand::ProcessNow),
        Just(MasterCommand::Preview),
        Just(MasterCommand::Pause),
        Just(MasterCommand::Resume),
        Just(MasterCommand::Terminate),
        date().prop_map(|date| MasterCommand::SetDeadline { date }),
        date().prop_map(|date| MasterCommand::SetGrace { date }),
        date().prop_map(|date| MasterCommand::SetStart { date }),
        Just(MasterCommand::SetNmr),
        Just(MasterCommand::SetNoNmr),
        prop_oneof![
            Just(PressLevel::None),
            Just(PressLevel::Grey),
            Just(PressLevel::White),
            Just(PressLevel::WhiteGrey),
            Just(PressLevel::GreyWhite)
        ]
        .prop_map(MasterCommand::SetPress),
        Just(MasterCommand::SetPartial),
        Just(MasterCommand::SetNoPartial),
        prop_oneof![
            Just(ObserverLevel::Any),
            Just(ObserverLevel::White),
            Just(ObserverLevel::None)
        ]
        .prop_map(MasterCommand::SetObserver),
        "[a-z]{1,12}".prop_map(|name| MasterCommand::SetVariant { name }),
        power().prop_map(|power| MasterCommand::Eject {
            who: EjectTarget::Power(power)
        }),
        "[a-z0-9]{1,5}@[a-z]{1,10}\\.org".prop_map(|a| MasterCommand::Eject {
            who: EjectTarget::Address(a)
        }),
        Just(MasterCommand::ForceBegin),
        power().prop_map(|power| MasterCommand::Approve { power }),
        power().prop_map(|power| MasterCommand::Reject { power }),
        any::<bool>().prop_map(MasterCommand::SetApproval),
        any::<u32>().prop_map(|count| MasterCommand::SetAbandon { count }),
        any::<u32>().prop_map(|hours| MasterCommand::SetTakeover { hours }),
        any::<u32>().prop_map(|count| MasterCommand::SetPlayers { count }),
        "[a-z0-9]{1,5}@[a-z]{1,10}\\.org".prop_map(|address| MasterCommand::Promote { address }),
        Just(MasterCommand::Unstart),
        powers(1).prop_map(|ps| MasterCommand::Declare(Declaration::Draw(ps))),
        power().prop_map(|p| MasterCommand::Declare(Declaration::Winner(p))),
        (
            prop_oneof![
                Just(ScheduleClass::Movement),
                Just(ScheduleClass::Retreat),
                Just(ScheduleClass::Adjustment)
            ],
            prop::option::of(prop::option::of(0u16..1440)),
            prop::option::of(0i64..10_000),
            prop::option::of(0i64..10_000),
            prop::option::of(prop::sample::select(vec![
                "-MTWTF-".to_string(),
                "SMTWTFS".to_string(),
                "smtwtfs".to_string()
            ])),
        )
            .prop_filter_map("a change", |(class, clock, next, delay, days)| {
                let change = ScheduleChange {
                    clock,
                    min: None,
                    next,
                    grace: delay.map(|d| d * 3),
                    delay,
                    days,
                };
                (change != ScheduleChange::default())
                    .then_some(MasterCommand::SetSchedule { class, change })
            }),
        prop::sample::select(vec!["Europe/Paris", "UTC", "America/New_York"]).prop_map(|z| {
            MasterCommand::SetZone {
                zone: z.to_string(),
            }
        }),
        "[A-Za-z0-9]{1,10}( [A-Za-z0-9,]{1,10}){0,3}"
            .prop_map(|text| MasterCommand::SetComment { text }),
        any::<bool>().prop_map(|listed| MasterCommand::SetListed { listed }),
        prop::option::of(password())
            .prop_map(|password| MasterCommand::SetJoinPassword { password }),
        (
            prop::collection::vec("[a-z0-9]{1,5}@[a-z]{1,10}\\.org", 1..4),
            any::<bool>()
        )
            .prop_map(|(mut addresses, invite)| {
                addresses.sort();
                addresses.dedup();
                MasterCommand::SetInvite { addresses, invite }
            }),
        any::<bool>().prop_map(|on| MasterCommand::SetAnonymous { on }),
        any::<bool>().prop_map(|on| MasterCommand::SetReveal { on }),
        any::<bool>().prop_map(|on| MasterCommand::SetQuiet { on }),
        any::<bool>().prop_map(MasterCommand::SetTakeoverHistory),
        any::<bool>().prop_map(|shown| MasterCommand::SetAddresses { shown }),
        (0u32..100).prop_map(|days| MasterCommand::SetMaxAbsence { days }),
        prop::option::of(prop_oneof![
            phase().prop_map(Turn::Phase),
            any::<u32>().prop_map(Turn::Number)
        ])
        .prop_map(|turn| MasterCommand::Rollback { turn }),
        any::<u32>().prop_map(|count| MasterCommand::SetCentres { count }),
    ]
}

fn command() -> impl Strategy<Value = Command> {
    prop_oneof![
        order().prop_map(Command::Order),
        player().prop_map(Command::Player),
        master().prop_map(Command::Master),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn parse_of_render_is_identity(cmd in command()) {
        let text = cmd.render(map());
        let back = parse_command(&text, map(), &ParseContext::default());
        prop_assert_eq!(back, Ok(cmd), "echo: {}", text);
    }

    #[test]
    fn render_survives_mail_noise(cmd in command(), lower in any::<bool>()) {
        // Letter case and blanks do not matter; a tab and CRLF line end are blanks.
        let text = cmd.render(map());
        let noisy = if lower { text.to_lowercase() } else { text.clone() };
        let noisy = format!("\t{}\r\n", noisy.replace(' ', "  "));
        let results = parse_message(&noisy, map());
        prop_assert_eq!(results.len(), 1, "echo: {}", text);
        let got = results.into_iter().next().map(|r| r.outcome);
        // Passwords and press subjects keep their case; everything else reads the same.
        if !lower {
            prop_assert_eq!(got, Some(Ok(cmd)), "echo: {}", text);
        } else {
            prop_assert!(matches!(got, Some(Ok(_))), "echo: {}", text);
        }
    }

    #[test]
    fn retreats_read_back_in_a_retreat_phase(u in unit(), dest in location()) {
        let cx = ParseContext { phase: Some(PhaseKind::Retreat), ..ParseContext::default() };
        let cmd = Command::Order(OrderCommand::new(Order::Retreat { unit: u, dest }));
        let back = parse_command(&cmd.render(map()), map(), &cx);
        prop_assert_eq!(back, Ok(cmd));
    }

    #[test]
    fn no_input_panics(text in "\\PC{0,300}") {
        let _ = parse_message(&text, map());
    }

    #[test]
    fn no_order_like_input_panics(words in prop::collection::vec(
        prop_oneof![
            Just("A"), Just("F"), Just("-"), Just("S"), Just("C"), Just("H"), Just("Par"),
            Just("Bur"), Just("StP/nc"), Just("(sc)"), Just("via"), Just("convoy"),
            Just("="), Just("England"), Just("SET"), Just("PRESS"),
            Just("TO"), Just(","), Just("ENDPRESS"), Just("\n"), Just("-- \n"), Just("2026-01-01"),
        ],
        0..40,
    )) {
        let _ = parse_message(&words.join(" "), map());
    }
}
