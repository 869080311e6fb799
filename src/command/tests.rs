//! Message-level tests: framing, splitting, errors, context.

use super::*;

fn map() -> &'static Map {
    Map::standard().unwrap()
}

fn replies(text: &str) -> Vec<String> {
    parse_message(text, map())
        .iter()
        .map(|r| crate::bulletin::parsed_line(map(), r))
        .collect()
}

fn one(text: &str) -> String {
    let r = replies(text);
    assert_eq!(r.len(), 1, "{r:?}");
    r.into_iter().next().unwrap()
}

macro_rules! line {
    ($name:ident, $text:expr, $want:expr) => {
        #[test]
        fn $name() {
            assert_eq!(one($text), $want);
        }
    };
}

line!(hold_short, "a par h", "OK A Par H");
line!(hold_word, "Army Paris HOLDS", "OK A Par H");
line!(hold_stand, "F Brest stand", "OK F Bre H");
line!(move_dash, "A Par-Bur", "OK A Par - Bur");
line!(move_arrow, "A par -> bur", "OK A Par - Bur");
line!(move_words, "army paris moves to burgundy", "OK A Par - Bur");
line!(move_to, "A Par to Bur", "OK A Par - Bur");
line!(move_m, "A Par M Bur", "OK A Par - Bur");
line!(move_en_dash, "A Par \u{2013} Bur", "OK A Par - Bur");
line!(move_no_kind, "par - bur", "OK Par - Bur");
line!(move_coast, "F Mao - Spa(nc)", "OK F MAO - Spa/nc");
line!(
    move_coast_long,
    "F Mid-Atlantic Ocean - Spain (north coast)",
    "OK F MAO - Spa/nc"
);
line!(
    move_coast_slash_long,
    "F Gulf of Bothnia - St. Petersburg/south coast",
    "OK F BOT - StP/sc"
);
line!(move_alias, "F Gol - Tyn", "OK F LYO - TYS");
line!(
    move_via,
    "A Lon - Nwy via convoy",
    "OK A Lon - Nwy via convoy"
);
line!(move_route, "A lon-nth-nwy", "OK A Lon - NTH - Nwy");
// Issue 25: `Swe` and `Den` joined spell "Sweden"; a hyphen between two provinces is a
// move, as for every other pair.
line!(move_swe_den, "A Swe-Den", "OK A Swe - Den");
line!(move_swe_den_fleet, "F Swe-Den", "OK F Swe - Den");
line!(move_names_hyphen, "A Sweden-Denmark", "OK A Swe - Den");
line!(
    move_swe_den_then_hold,
    "A swe-den H",
    "ERROR SYNTAX: line 1: \"A swe-den H\": expected the end of the line after \"swe-den\", found \"H\""
);
line!(
    move_route_long,
    "A Tun - Tys - Lyo - Mar",
    "OK A Tun - TYS - LYO - Mar"
);
line!(support_hold, "A Mar S A Par", "OK A Mar S A Par");
line!(support_hold_h, "A Mar supports Par H", "OK A Mar S Par");
line!(
    support_move,
    "a mar s a par - bur",
    "OK A Mar S A Par - Bur"
);
line!(
    support_move_words,
    "Army Marseilles Supports Army Paris Moves To Burgundy",
    "OK A Mar S A Par - Bur"
);
line!(convoy, "F Nth C A Lon - Nwy", "OK F NTH C A Lon - Nwy");
line!(
    support_from_lyon,
    "F Gulf of Lyon S F Wes - Tys",
    "OK F LYO S F WES - TYS"
);
line!(
    convoy_words,
    "fleet north sea convoys army london to norway",
    "OK F NTH C A Lon - Nwy"
);
line!(convoy_t, "F nth t lon - nwy", "OK F NTH C Lon - Nwy");
line!(retreat_disband, "A Bur D", "OK A Bur D");
line!(retreat_disband_word, "A Bur DISBAND", "OK A Bur D");
line!(build_prefix, "BUILD A par", "OK Build A Par");
line!(build_b, "B F bre", "OK Build F Bre");
line!(build_plus, "+A par", "OK Build A Par");
line!(build_coast, "build f stp/nc", "OK Build F StP/nc");
line!(remove_prefix, "REMOVE F bre", "OK Remove F Bre");
line!(remove_r, "R F bre", "OK Remove F Bre");
line!(remove_minus, "-F bre", "OK Remove F Bre");
line!(disband_prefix, "D A Par", "OK A Par D");
line!(waive, "WAIVE", "OK Waive");
line!(bullet, "- A Par - Bur", "OK A Par - Bur");
line!(numbered, "2) F Nth C A Lon - Nwy", "OK F NTH C A Lon - Nwy");
line!(trailing_dot, "A Par - Bur.", "OK A Par - Bur");
line!(
    trailing_comment,
    "A Par - Bur // take Burgundy",
    "OK A Par - Bur"
);
line!(tabs, "A\tPar\t-\tBur", "OK A Par - Bur");
line!(nbsp, "A\u{a0}Par&nbsp;-&nbsp;Bur", "OK A Par - Bur");
line!(
    err_province,
    "A Par - Bru",
    "ERROR UNKNOWN-PROVINCE: line 1: \"A Par - Bru\": no province called \"Bru\"; did you mean Bur (Burgundy)?"
);
line!(
    err_coast,
    "F Mao - Por/nc",
    "ERROR NO-SUCH-COAST: line 1: \"F Mao - Por/nc\": Portugal has no north coast"
);
line!(
    err_bad_coast,
    "F Mao - Spa/xc",
    "ERROR BAD-COAST: line 1: \"F Mao - Spa/xc\": \"xc\" is not a coast; write nc, sc or ec (or north coast, south coast, east coast)"
);
line!(
    err_trailing,
    "A Par - Bur now",
    "ERROR SYNTAX: line 1: \"A Par - Bur now\": expected the end of the line after \"Bur\", found \"now\""
);
line!(
    err_after_unit,
    "A Par",
    "ERROR SYNTAX: line 1: \"A Par\": expected H, -, S, C or D (hold, move, support, convoy, disband) after \"Par\", found the end of the line"
);
line!(
    err_support_target,
    "A Mar S A Xyz",
    "ERROR UNKNOWN-PROVINCE: line 1: \"A Mar S A Xyz\": no province called \"Xyz\""
);
line!(
    err_unknown_command,
    "HLEP",
    "ERROR UNKNOWN-COMMAND: line 1: \"HLEP\": \"HLEP\" is not a command, and no province is called that; did you mean HELP?"
);
line!(
    err_set,
    "SET COLOUR blue",
    "ERROR UNKNOWN-SETTING: line 1: \"SET COLOUR blue\": \"COLOUR\" is not a setting. Players set PASSWORD, ADDRESS, WAIT, ABSENCE, DRAW, CONCEDE, PREFERENCE or MAP; the master DEADLINE, GRACE, PRESS and more (HELP lists them all)"
);
line!(
    err_endpress,
    "ENDPRESS",
    "ERROR NO-PRESS-OPEN: line 1: \"ENDPRESS\": ENDPRESS without a PRESS or BROADCAST before it"
);
line!(
    err_date,
    "SET DEADLINE Feb 30 2026",
    "ERROR BAD-DATE: line 1: \"SET DEADLINE Feb 30 2026\": cannot read the date \"Feb 30 2026\"; write it like 2026-12-01 23:00 or Dec 1 2026 23:00"
);

#[test]
fn several_orders_on_one_line() {
    assert_eq!(
        replies("A Par - Bur, A Mar - Spa; F Bre - Mao"),
        vec!["OK A Par - Bur", "OK A Mar - Spa", "OK F Bre - MAO"]
    );
}

#[test]
fn one_bad_order_on_a_shared_line_leaves_the_others() {
    let r = replies("A Par - Bur, A Mar - Spx");
    assert_eq!(r.len(), 2);
    assert_eq!(r[0], "OK A Par - Bur");
    assert!(r[1].starts_with("ERROR UNKNOWN-PROVINCE: line 1: \"A Mar - Spx\""));
}

#[test]
fn prose_with_commas_is_one_error() {
    let r = replies("Hello team, here are my orders");
    assert_eq!(r.len(), 1);
    assert!(r[0].starts_with("ERROR UNKNOWN-COMMAND"), "{}", r[0]);
}

#[test]
fn framing_skips_quotes_comments_and_stops_at_signature() {
    let text = "signon fgame pw\r\n> A Par - Bur\r\n// note to self\r\nA Par - Pic\r\n-- \r\nA Mar - Spa\r\n";
    assert_eq!(
        replies(text),
        vec!["OK SIGNON Fgame ********", "OK A Par - Pic"]
    );
}

#[test]
fn signoff_stops_reading() {
    assert_eq!(
        replies("A Par H\nSIGN OFF\nA Mar H"),
        vec!["OK A Par H", "OK SIGNOFF"]
    );
}

#[test]
fn second_signon_is_refused() {
    let r = replies("signon fgame a\nsignon egame b");
    assert_eq!(r[0], "OK SIGNON Fgame ********");
    assert!(r[1].starts_with("ERROR SECOND-SIGNON: line 2"));
}

#[test]
fn press_block_is_counted_and_not_parsed() {
    let text = "press to ef grey\nA Par - Bur? No way.\n// dropped\n\nLove, F\nendpress\nA Par H";
    assert_eq!(
        replies(text),
        vec!["OK PRESS TO England France GREY (3 lines)", "OK A Par H"]
    );
    let r = parse_message(text, map());
    let Ok(Command::Press(p)) = &r[0].outcome else {
        panic!()
    };
    assert_eq!(p.body, vec!["A Par - Bur? No way.", "", "Love, F"]);
}

#[test]
fn unterminated_press_runs_to_the_end() {
    assert_eq!(
        replies("broadcast\nhi all\n-- \nme"),
        vec!["OK BROADCAST (3 lines; no ENDBROADCAST before the end of the message)"]
    );
}

/// Issue 25: press is press. Inside a press block a signature separator or a phone's
/// sign-off is press text; the press and the orders after ENDPRESS are read. Outside
/// press it still ends the mail.
#[test]
fn a_signature_inside_press_is_press_text() {
    let text = "press to e\nSee you in the Channel.\n--\nAnna\nSent from my iPhone\nendpress\nA Par - Bur\n-- \nA Mar - Spa";
    assert_eq!(
        replies(text),
        vec!["OK PRESS TO England (4 lines)", "OK A Par - Bur"]
    );
    let r = parse_message(text, map());
    let Ok(Command::Press(p)) = &r[0].outcome else {
        panic!("{r:?}")
    };
    assert_eq!(
        p.body,
        vec![
            "See you in the Channel.",
            "--",
            "Anna",
            "Sent from my iPhone"
        ]
    );
    assert!(p.closed);
    assert_eq!(
        replies("A Par H\nSent from my iPhone\nA Mar H"),
        vec!["OK A Par H"]
    );
}

/// Issue 38: the signature separator is read from the raw line (`-- ` keeps its blank) and
/// a sign-off from the line in lower case, the one lower-cased copy framing makes of each
/// line; a sign-off quoted under `>` is quoted text, skipped as the rest of the quote, and
/// orders below it are read. An order whose first word is mistyped and whose arrow is a
/// typographic dash is still an order, not prose (framing sees the dash as `-` once the line
/// is normalised), so it is reported with a suggestion, not skipped as a greeting.
#[test]
fn sign_offs_and_typographic_arrows_after_normalising() {
    assert_eq!(
        replies("A Par H\nSENT FROM MY IPHONE\nA Mar H"),
        vec!["OK A Par H"]
    );
    assert_eq!(
        replies("A Par H\n> Sent from my iPhone\nA Mar H"),
        vec!["OK A Par H", "OK A Mar H"]
    );
    for dash in ["\u{2013}", "\u{2014}", "\u{2212}"] {
        let r = replies(&format!("Hello,\nPrais {dash} Bur\nA Mar H"));
        assert_eq!(r.len(), 2, "{dash}: {r:?}");
        assert!(
            r[0].starts_with("ERROR UNKNOWN-") && r[0].contains("did you mean"),
            "{dash}: {r:?}"
        );
        assert_eq!(r[1], "OK A Mar H");
    }
}

/// Issue 38: a greeting or a closing written between two commands is refused (it might be
/// a mistyped order), but as a sentence of prose, with no "did you mean": the German closing
/// drew "did you mean MAO". A single word may still be a misspelt name.
#[test]
fn prose_between_commands_gets_no_suggestion() {
    for prose in [
        "Mit freundlichen Grüßen",
        "Viele Grüße aus Wien",
        "Bien cordialement, Anne",
        "Un saluto da Roma",
        "Met vriendelijke groet",
        "Med vänliga hälsningar",
        "Thanks for your support!",
    ] {
        let r = replies(&format!("A Par H\n{prose}\nA Mar H"));
        assert_eq!(r.len(), 3, "{prose}: {r:?}");
        assert!(
            r[1].starts_with("ERROR UNKNOWN-COMMAND: line 2:") && !r[1].contains("did you mean"),
            "{prose}: {r:?}"
        );
        assert_eq!(r[2], "OK A Mar H");
    }
    let r = replies("A Par H\nBru\nA Mar H");
    assert!(r[1].contains("did you mean Bre (Brest)"), "{r:?}");
}

/// Issue 25: Outlook's reply header (`From:` then `Sent:`), as its HTML form reads once
/// converted to text, ends the mail as the plain form's line of underscores does; inside
/// press too (the quoted original is not the sender's press). A `From:` line alone is a
/// line like any other.
#[test]
fn a_reply_header_ends_the_mail() {
    let text = "A Ven - Tyr\nGiulia\nFrom: DIP Judge <judge@example.test>\nSent: Monday, January 5, 2026 9:00 AM\nTo: Giulia <italy@example.test>\nSubject: DIP:roma - S1901M Reminder\nA Rom H";
    // The name after the last order is a signature: skipped, not refused.
    assert_eq!(replies(text), vec!["OK A Ven - Tyr"]);
    let plain =
        "A Ven - Tyr\n________________________________\nFrom: DIP Judge\nSent: Monday\nA Rom H";
    assert_eq!(replies(plain), vec!["OK A Ven - Tyr"]);
    let dated = "A Ven - Tyr\nfrom: judge@example.test\ndate: 5 Jan 2026\nA Rom H";
    assert_eq!(replies(dated), vec!["OK A Ven - Tyr"]);
    let press = "press to f\nhello\nFrom: DIP Judge\nSent: Monday\nsecret original";
    let r = parse_message(press, map());
    let Ok(Command::Press(p)) = &r[0].outcome else {
        panic!("{r:?}")
    };
    assert_eq!(p.body, vec!["hello"]);
    // A `From:` line alone ends nothing (before the first command it is skipped as a
    // greeting; between commands it is refused as any line that is none).
    assert_eq!(replies("From: me\nA Rom H"), vec!["OK A Rom H"]);
    let between = replies("A Ven H\nFrom: me\nA Rom H");
    assert_eq!(between.len(), 3, "{between:?}");
    assert_eq!(between[2], "OK A Rom H");
}

/// The Outlook HTML reply fixture (`fixtures/mail/outlook-html-reply.eml`) through the
/// MIME layer and the parser: the SIGNON and three orders, nothing of the quoted original
/// (and the name under the orders is a signature, skipped).
#[test]
fn outlooks_html_reply_is_read_up_to_its_original() {
    let path = format!(
        "{}/fixtures/mail/outlook-html-reply.eml",
        env!("CARGO_MANIFEST_DIR")
    );
    let env = crate::mail::Envelope::parse(&std::fs::read(path).unwrap()).unwrap();
    let r = replies(&env.text);
    assert_eq!(
        r,
        [
            "OK SIGNON Iroma ********",
            "OK A Ven - Tyr",
            "OK A Rom - Apu",
            "OK F Nap - ION",
        ]
    );
}

#[test]
fn phase_context_decides_retreat_and_removal() {
    let cx = ParseContext {
        phase: Some(PhaseKind::Retreat),
        ..ParseContext::default()
    };
    let r = parse_command("A Bur - Gas", map(), &cx).unwrap();
    assert!(matches!(
        r,
        Command::Order(OrderCommand {
            order: Order::Retreat { .. },
            ..
        })
    ));
    let cx = ParseContext {
        phase: Some(PhaseKind::Adjustment),
        ..ParseContext::default()
    };
    let r = parse_command("disband a par", map(), &cx).unwrap();
    assert!(matches!(
        r,
        Command::Order(OrderCommand {
            order: Order::Remove { .. },
            ..
        })
    ));
}

#[test]
fn no_province_name_swallows_an_order_keyword() {
    // Province names are matched longest-first over several words; no province followed by
    // an order keyword may read as another province.
    let keywords = [
        "h", "s", "c", "d", "r", "m", "t", "to", "hold", "holds", "stand", "support", "supports",
        "convoy", "convoys", "move", "moves", "via", "by", "disband", "remove", "build", "a", "f",
        "army", "fleet", "and",
    ];
    let m = map();
    for p in m.province_ids() {
        for name in [m.code(p).to_string(), m.province(p).name.clone()] {
            for k in keywords.iter().filter(|k| k.len() > 1) {
                let joined = format!("{name} {k}");
                assert_eq!(m.find_province(&joined), None, "{joined}");
            }
        }
    }
}

#[test]
fn a_bad_press_header_swallows_only_a_real_block() {
    // With an ENDPRESS after it, the block is press even though its header is wrong.
    let r = replies("press to xyz\nA Par - Bur\nendpress\nA Mar H");
    assert_eq!(r.len(), 2);
    assert!(r[0].starts_with("ERROR UNKNOWN-POWER: line 1"));
    assert_eq!(r[1], "OK A Mar H");
    // Without one, it is one bad line and the orders after it are read.
    let r = replies("Press releases are boring\nA Par - Bur");
    assert_eq!(r.len(), 2);
    assert!(r[0].starts_with("ERROR SYNTAX: line 1"), "{}", r[0]);
    assert_eq!(r[1], "OK A Par - Bur");
}

/// SET ADDRESS takes only an address mail can be sent to (the mail fuzz target found one
/// with U+FFFD in its domain: accepted, then every mail to the seat failed to render).
#[test]
fn set_address_refuses_what_cannot_be_mailed() {
    assert_eq!(
        one("SET ADDRESS player@example.org"),
        "OK SET ADDRESS player@example.org"
    );
    for bad in [
        "SET ADDRESS player@example\u{fffd}\u{fffd}.org",
        "SET ADDRESS player..x@example.org",
        "SET ADDRESS @example.org",
        "SET ADDRESS player@",
        "SET ADDRESS player",
    ] {
        let reply = one(bad);
        assert!(
            reply.starts_with("ERROR") && reply.contains("an e-mail address"),
            "{bad}: {reply}"
        );
    }
}

/// njudge's REGISTER block (issue 31): one command, its fields as given, up to END.
#[test]
fn a_register_block_is_one_command_with_its_fields() {
    let map = map();
    let text = "REGISTER\nName:   Ann Example\nTimezone:  Europe/Paris\n\nFavourite colour: teal\nsomething without a colon\nEND\nWHOIS ann@example.test\nI am also ann@work.example\nIAMALSO ann@home.example\n";
    let lines = parse_message(text, map);
    let got: Vec<_> = lines.iter().map(|l| (l.line, l.outcome.clone())).collect();
    assert_eq!(
        got,
        vec![
            (
                1,
                Ok(Command::Player(PlayerCommand::Register {
                    fields: vec![
                        ("Name".into(), "Ann Example".into()),
                        ("Timezone".into(), "Europe/Paris".into()),
                        ("Favourite colour".into(), "teal".into()),
                        ("Note".into(), "something without a colon".into()),
                    ],
                    closed: true,
                }))
            ),
            (
                8,
                Ok(Command::Player(PlayerCommand::Whois {
                    who: "ann@example.test".into()
                }))
            ),
            (
                9,
                Ok(Command::Player(PlayerCommand::AlsoAt {
                    address: "ann@work.example".into()
                }))
            ),
            (
                10,
                Ok(Command::Player(PlayerCommand::AlsoAt {
                    address: "ann@home.example".into()
                }))
            ),
        ]
    );
}

/// A block without END runs to the end of the mail (or a signature); its sizes are bounded.
#[test]
fn a_register_block_is_bounded_and_ends_at_a_signature() {
    let map = map();
    let mut text = String::from("register\n");
    for n in 0..100 {
        text.push_str(&format!("Field{n}: {}\n", "x".repeat(1000)));
    }
    text.push_str("-- \nLIST\n");
    let lines = parse_message(&text, map);
    assert_eq!(lines.len(), 1);
    match &lines[0].outcome {
        Ok(Command::Player(PlayerCommand::Register { fields, closed })) => {
            assert!(!closed);
            assert_eq!(fields.len(), player::MAX_REGISTER_FIELDS);
            assert!(
                fields
                    .iter()
                    .all(|(_, v)| v.chars().count() == player::MAX_FIELD_VALUE)
            );
        }
        other => panic!("{other:?}"),
    }
}

/// Issue 38: a word spelt with power initials (plus M and O) was read letter by letter, and
/// `PRESS TO ROME` went to Russia, the observers, the master and England. A press list reads
/// a word as initials only when it is nothing else players write and its letters are
/// distinct and in the board's order; otherwise the header is refused and nothing is sent.
#[test]
fn issue_38_a_word_is_not_a_list_of_initials() {
    // What njudge's players write still reads.
    for (text, want) in [
        ("PRESS TO FGR", "PRESS TO France Germany Russia"),
        ("PRESS TO E,F", "PRESS TO England France"),
        ("PRESS TO ENGLAND FRANCE", "PRESS TO England France"),
        ("PRESS TO M", "PRESS TO M"),
        ("PRESS TO GO", "PRESS TO Germany O"),
        ("PRESS TO French, M", "PRESS TO France M"),
        ("PRESS TO E F G", "PRESS TO England France Germany"),
        ("PRESS TO G E", "PRESS TO Germany England"),
        ("PRESS TO ALL BUT RO", "PRESS TO ALL BUT Russia O"),
        ("PRESS TO ALL EXCEPT G", "PRESS TO ALL BUT Germany"),
        ("PRESS TO Master", "PRESS TO M"),
        ("PRESS TO Observers and F", "PRESS TO O France"),
    ] {
        let r = one(&format!("{text}\nhello\nENDPRESS"));
        assert_eq!(r, format!("OK {want} (1 line)"), "{text}");
    }
    // Words that are something else are refused, with the block: nothing is sent, and the
    // press text is not read as orders, ENDPRESS or not.
    for (text, says) in [
        (
            "PRESS TO ROME",
            "\"ROME\" is a province (Rome), not a list of powers",
        ),
        (
            "PRESS TO aeg",
            "\"aeg\" is a province (Aegean Sea), not a list of powers",
        ),
        (
            "PRESS TO E FROM G",
            "\"FROM\" is a word, not a list of powers",
        ),
        ("PRESS TO E TO F", "\"TO\" is a word, not a list of powers"),
        (
            "PRESS TO GREAT",
            "\"GREAT\" is not in the board's order: as initials it would be Germany, Russia, England, Austria, Turkey; written in order, AEGRT",
        ),
        (
            "PRESS TO frg",
            "\"frg\" is not in the board's order: as initials it would be France, Russia, Germany; written in order, FGR",
        ),
        ("PRESS TO FEE", "\"FEE\" repeats a letter"),
        (
            "PRESS TO GM",
            "\"GM\" may mean the game master or Germany and the master",
        ),
        ("PRESS GREY TO TEAM", "\"TEAM\" is not in the board's order"),
    ] {
        for end in ["\nENDPRESS\nA Mar H", ""] {
            let r = replies(&format!("{text}\nA Par - Bur{end}"));
            assert!(
                r[0].starts_with("ERROR UNCLEAR-RECIPIENTS: line 1") && r[0].contains(says),
                "{text}: {}",
                r[0]
            );
            assert!(r[0].contains("nothing was sent"), "{}", r[0]);
            let want: Vec<String> = if end.is_empty() {
                Vec::new()
            } else {
                vec!["OK A Mar H".into()]
            };
            assert_eq!(r.get(1..), Some(want.as_slice()), "{text}{end}");
        }
    }
}

/// Issue 38: a mistyped SET word drew a 37-item list and no suggestion; it gets the closest
/// setting and a short list.
#[test]
fn issue_38_a_mistyped_setting_gets_a_suggestion() {
    // The echo masks what may be a password (issue 37: a line within an edit of a
    // sign-on or password keyword, SET PASWORD and SET JION PASSWORD, is masked after it).
    for (text, echo, near) in [
        ("SET DEADLIN 2026-12-01", None, Some("DEADLINE")),
        (
            "SET PASWORD secret",
            Some("SET PASWORD ********"),
            Some("PASSWORD"),
        ),
        ("set adress me@example.org", None, Some("ADDRESS")),
        (
            "SET JION PASSWORD x",
            Some("SET JION PASSWORD ********"),
            Some("JOIN PASSWORD"),
        ),
        ("SET PREFERANCE EFG", None, Some("PREFERENCE")),
        ("SET COLOUR blue", None, None),
    ] {
        let r = one(text);
        let word = text.split(' ').nth(1).unwrap();
        let echo = echo.unwrap_or(text);
        let mut want =
            format!("ERROR UNKNOWN-SETTING: line 1: \"{echo}\": \"{word}\" is not a setting");
        match near {
            Some(s) => want += &format!("; did you mean SET {s}?"),
            None => want += ".",
        }
        want += " Players set PASSWORD, ADDRESS, WAIT, ABSENCE, DRAW, CONCEDE, PREFERENCE or MAP; the master DEADLINE, GRACE, PRESS and more (HELP lists them all)";
        assert_eq!(r, want, "{text}");
    }
    assert!(one("SET").starts_with("ERROR SYNTAX"), "{}", one("SET"));
}

/// Issue 38: njudge's `SET COMMENT BEGIN` took "BEGIN" as the comment and read the lines
/// after it as commands (an order among them was applied). The lines up to SIGNOFF, or the
/// end of the mail, are the comment.
#[test]
fn issue_38_set_comment_begin_reads_the_lines_after_it_as_the_comment() {
    assert_eq!(
        replies(
            "SET COMMENT BEGIN\nFriendly club game,\n\nA Par - Bur is welcome\nSIGNOFF\nA Mar H"
        ),
        vec![
            "OK SET COMMENT Friendly club game, A Par - Bur is welcome".to_string(),
            "OK SIGNOFF".to_string(),
        ]
    );
    // To the end of the mail, and to a signature.
    assert_eq!(
        replies("set comment begin\nGunboat, no press\n-- \nAnn"),
        vec!["OK SET COMMENT Gunboat, no press".to_string()]
    );
    // SIGNOFF right after it clears the comment.
    assert_eq!(
        replies("SET COMMENT BEGIN\nSIGNOFF"),
        vec!["OK SET COMMENT".to_string(), "OK SIGNOFF".to_string()]
    );
    // Too long for the comment: refused, and still no line of it is read as a command.
    let r = replies(&format!(
        "SET COMMENT BEGIN\n{}\nA Par - Bur",
        "x".repeat(50)
    ));
    assert_eq!(r.len(), 1, "{r:?}");
    assert!(
        r[0].starts_with("ERROR SYNTAX: line 1") && r[0].contains("at most 60 characters"),
        "{}",
        r[0]
    );
    // The one-line form is unchanged.
    assert_eq!(one("SET COMMENT Friday club"), "OK SET COMMENT Friday club");
}
