//! Whole games by mail through the judge core: seven players and a master from CREATE to
//! the end, with press, retreats, builds, a late power, a grace expiry, a rollback, and an
//! end by draw; another ending in a solo. A leak scanner reads every mail each game sent.

use std::collections::BTreeMap;

use chrono::Duration;
use dipjudge::game::{Ending, Game, Status};
use dipjudge::judge::{Judge, PasswordCost};
use dipjudge::map::{Map, Power};
use dipjudge::rules::{Owner, PhaseKind, Rules, Standard};
use dipjudge::sim::{self, Rng};
use dipjudge::store::{QueuedMail, Store};

use crate::desk::{self, Desk};

const GM: &str = "gm@example.test";

/// Seven players, a master, a judge, a clock.
struct Table {
    table: desk::Table,
    /// Private press sent: (token, sender, readers).
    secrets: Vec<(String, Power, Vec<Power>)>,
}

fn addr(p: Power) -> String {
    format!("{}@example.test", p.name().to_lowercase())
}

impl Table {
    fn new(name: &str) -> Table {
        let now = desk::utc(2026, 11, 1, 9, 0);
        Table {
            table: desk::Table::new(Desk::new(name, now), name, GM, addr),
            secrets: Vec::new(),
        }
    }

    fn start(&mut self) {
        self.table.start();
        let g = self.game();
        for p in Power::ALL {
            assert_eq!(
                g.player(p).map(|pl| pl.seat.address.clone()),
                Some(addr(p)),
                "preferences honoured"
            );
        }
    }

    /// Every power that must order sends random legal orders (except `skip`), with some
    /// private press and a broadcast.
    fn orders(&mut self, rng: &mut Rng, skip: &[Power]) {
        let g = self.game();
        let pos = g.position().clone();
        let orders = match pos.phase.kind {
            PhaseKind::Movement => sim::movement_orders(self.map, &pos, rng),
            PhaseKind::Retreat => sim::retreat_orders(&pos, rng),
            PhaseKind::Adjustment => sim::adjustment_orders(self.map, &Standard, &pos, rng),
            PhaseKind::Own(_) => Vec::new(),
        };
        let mut by_power: BTreeMap<Power, Vec<String>> = BTreeMap::new();
        for o in &orders {
            by_power
                .entry(o.power)
                .or_default()
                .push(o.order.display(self.map));
        }
        // Players order every unit: the ones the generator left out hold.
        if pos.phase.kind == PhaseKind::Movement {
            for u in &pos.units {
                let Owner::Power(p) = u.owner else { continue };
                let ordered = orders.iter().any(|o| {
                    o.order
                        .unit()
                        .is_some_and(|s| s.province() == u.location.province)
                });
                if !ordered {
                    by_power
                        .entry(p)
                        .or_default()
                        .push(format!("{} H", u.display(self.map)));
                }
            }
        }
        for p in g.powers_to_order(self.map, &dipjudge::variant::Standard) {
            if skip.contains(&p) {
                continue;
            }
            let mut lines = by_power.get(&p).cloned().unwrap_or_default().join("\n");
            if pos.phase.kind == PhaseKind::Adjustment {
                // Players make their removals themselves; a power with nothing to build
                // or that builds nothing waives.
                let count = Standard.adjustment_count(&pos, p);
                let given = by_power.get(&p).map(Vec::len).unwrap_or(0) as i32;
                if count < 0 {
                    let named: Vec<String> = by_power.get(&p).cloned().unwrap_or_default();
                    let mut extra: Vec<String> = pos
                        .units
                        .iter()
                        .filter(|u| u.owner == Owner::Power(p))
                        .map(|u| format!("REMOVE {}", u.display(self.map)))
                        .filter(|r| {
                            !named
                                .iter()
                                .any(|n| n.eq_ignore_ascii_case(r) || n.ends_with(&r[7..]))
                        })
                        .take((-count - given).max(0) as usize)
                        .collect();
                    let mut all = named;
                    all.append(&mut extra);
                    lines = all.join("\n");
                } else if lines.is_empty() {
                    lines = "WAIVE".into();
                }
            }
            // Private press to one or two others, with a token the leak scanner follows.
            let others: Vec<Power> = Power::ALL.into_iter().filter(|q| *q != p).collect();
            let a = others[rng.below(others.len())];
            let b = others[rng.below(others.len())];
            let mut readers = vec![a, b];
            readers.sort();
            readers.dedup();
            let token = format!("SECRET-{}-{}-{}", p.code(), pos.phase, self.secrets.len());
            self.secrets.push((token.clone(), p, readers.clone()));
            let to: String = readers.iter().map(|r| r.initial()).collect();
            let grey = if rng.below(2) == 0 { " GREY" } else { "" };
            let r = self.as_power(
                p,
                &format!("{lines}\nPRESS TO {to}{grey}\n{token}\nENDPRESS\n"),
            );
            assert!(!r.contains("ERROR"), "{p} {}: {r}", pos.phase);
        }
    }

    fn results(&mut self, phase: &str) -> Vec<QueuedMail> {
        let subject = format!("DIP:{} - {phase} Results", self.name);
        self.mails()
            .into_iter()
            .filter(|m| m.subject == subject)
            .collect()
    }

    /// Every mail that carries a private press token went only to its readers (and the
    /// sender's reply never carried it back to others).
    fn scan_for_leaks(&mut self) {
        let mails = self.mails();
        let mut leaks = Vec::new();
        for (token, sender, readers) in &self.secrets {
            for m in mails.iter().filter(|m| m.body.contains(token.as_str())) {
                let allowed = readers.iter().any(|r| addr(*r) == m.recipient);
                if !allowed {
                    leaks.push(format!(
                        "{token} (from {sender} to {readers:?}) reached {} in {:?}",
                        m.recipient, m.subject
                    ));
                }
            }
        }
        assert!(leaks.is_empty(), "press leaked:\n{}", leaks.join("\n"));
        // And it did reach every reader, once (replies aside: HISTORY shows it again).
        assert!(!self.secrets.is_empty());
        for (token, _, readers) in &self.secrets {
            for r in readers {
                let n = mails
                    .iter()
                    .filter(|m| {
                        m.recipient == addr(*r)
                            && m.kind == dipjudge::store::MailKind::Generated
                            && m.body.contains(token.as_str())
                    })
                    .count();
                assert_eq!(n, 1, "{token} reached {r} {n} times");
            }
        }
        // Partial press never enters the history observers can read.
        let name = self.name.clone();
        let history = self.judge.history(&name).expect("history");
        for (token, _, _) in &self.secrets {
            assert!(
                !history.iter().any(|h| h.body.contains(token.as_str())),
                "{token} in HISTORY"
            );
        }
    }

    /// Processes the current phase: everything is in, so a tick after the delay does it.
    fn process_early(&mut self) {
        let at = self.now + Duration::minutes(11);
        self.tick(at);
    }
}

desk::wraps!(Table, table: desk::Table);

#[test]
fn a_full_game_to_a_draw() {
    let mut t = Table::new("full");
    t.start();
    let seed = std::env::var("GAME_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(6);
    let mut rng = Rng::new(seed);
    let mut seen_retreat = false;
    let mut seen_builds = false;
    let mut rolled_back = false;
    loop {
        let g = t.game();
        let phase = g.position().phase;
        let label = phase.to_string();
        if *g.status() != Status::Active {
            panic!("game stopped at {label}: {:?}", g.status());
        }
        match label.as_str() {
            // A late power: Italy misses the deadline, gets its notice, orders in grace.
            "S1902M" => {
                t.orders(&mut rng, &[Power::Italy]);
                let deadline = g.deadline().expect("deadline");
                t.tick(deadline);
                let late = t.mails().into_iter().any(|m| {
                    m.recipient == addr(Power::Italy) && m.subject.ends_with("S1902M Late Notice")
                });
                assert!(late, "Italy was told it is late");
                assert!(
                    t.results("S1902M").is_empty(),
                    "not processed while Italy is missing"
                );
                t.now = deadline + Duration::hours(2);
                t.orders(
                    &mut rng,
                    &[
                        Power::Austria,
                        Power::England,
                        Power::France,
                        Power::Germany,
                        Power::Russia,
                        Power::Turkey,
                    ],
                );
                t.tick(deadline + Duration::hours(3));
                assert_eq!(
                    t.results("S1902M").len(),
                    8,
                    "processed once Italy's orders were in"
                );
            }
            // A grace expiry in an NMR game: Austria never orders; its units hold.
            "F1902M" => {
                t.orders(&mut rng, &[Power::Austria]);
                let deadline = g.deadline().expect("deadline");
                t.tick(deadline);
                t.tick(deadline + Duration::hours(g.settings().deadlines.grace_hours));
                let r = t.results("F1902M");
                assert_eq!(r.len(), 8, "processed at the end of grace");
                assert!(r[0].body.contains("Austria: "), "{}", r[0].body);
                assert!(r[0].body.contains("No Order Processed"), "{}", r[0].body);
            }
            // A rollback: the master rolls S1903M back once and it is played again.
            "F1903M" if !rolled_back => {
                rolled_back = true;
                let r = t.as_master("ROLLBACK S1903M");
                assert!(r.contains("OK ROLLBACK S1903M"), "{r}");
                assert_eq!(t.game().position().phase.to_string(), "S1903M");
                continue;
            }
            _ => {
                t.orders(&mut rng, &[]);
                t.process_early();
            }
        }
        let after = t.game();
        assert_ne!(after.position().phase, phase, "{label} was processed");
        seen_retreat |= phase.kind == PhaseKind::Retreat;
        seen_builds |= phase.kind == PhaseKind::Adjustment
            && t.results(&label)
                .first()
                .is_some_and(|m| m.body.contains("Builds "));
        if after.position().phase.year == 1904 {
            break;
        }
    }
    assert!(seen_retreat, "the game had a retreat phase");
    assert!(seen_builds, "the game had builds");
    assert!(rolled_back);
    assert_eq!(
        t.results("S1903M").len(),
        16,
        "S1903M was processed twice (before and after the rollback)"
    );

    // A draw: every surviving power sets DRAW.
    let survivors = t.game().surviving_powers();
    for (i, p) in survivors.iter().enumerate() {
        let r = t.as_power(*p, "SET DRAW");
        assert!(r.contains("OK SET DRAW"), "{r}");
        let g = t.game();
        if i + 1 < survivors.len() {
            assert_eq!(*g.status(), Status::Active);
        } else {
            assert_eq!(
                *g.status(),
                Status::Finished(Ending::Draw(survivors.clone()))
            );
        }
    }
    let over = t
        .mails()
        .into_iter()
        .filter(|m| m.subject == "DIP:full - Game over")
        .count();
    assert_eq!(over, 8, "everyone is told");
    // No more orders are taken.
    let r = t.as_power(survivors[0], "A Par H");
    assert!(r.contains("ERROR"), "{r}");
    t.scan_for_leaks();
}

#[test]
fn a_game_ends_in_a_solo() {
    let mut t = Table::new("solo");
    t.start();
    // The master lowers the bar, as masters of short games do.
    let r = t.as_master("SET CENTERS 6");
    assert!(r.contains("OK SET CENTRES 6"), "{r}");
    let mut rng = Rng::new(11);
    for _ in 0..60 {
        let g = t.game();
        if let Status::Finished(e) = g.status() {
            let Ending::Solo(winner) = e else {
                panic!("ended otherwise: {e:?}");
            };
            assert!(g.position().centre_count(*winner) >= 6);
            let over: Vec<_> = t
                .mails()
                .into_iter()
                .filter(|m| m.subject == "DIP:solo - Game over")
                .collect();
            assert_eq!(over.len(), 8);
            assert!(
                over[0].body.contains("has won a solo victory"),
                "{}",
                over[0].body
            );
            assert!(g.deadline().is_none());
            t.scan_for_leaks();
            return;
        }
        t.orders(&mut rng, &[]);
        t.process_early();
    }
    panic!("no solo in 60 phases");
}

#[test]
fn a_nonmr_game_waits_and_declares_the_power_abandoned() {
    let mut t = Table::new("wait");
    t.start();
    t.as_master("SET NONMR");
    let mut rng = Rng::new(3);
    t.orders(&mut rng, &[Power::Turkey]);
    let g = t.game();
    let deadline = g.deadline().expect("deadline");
    t.tick(deadline);
    t.tick(deadline + Duration::hours(g.settings().deadlines.grace_hours));
    let g = t.game();
    assert_eq!(g.position().phase.to_string(), "S1901M", "not processed");
    assert!(g.player(Power::Turkey).is_some_and(|p| !p.is_playing()));
    assert!(
        t.mails()
            .iter()
            .any(|m| m.subject == "DIP:wait - S1901M Abandoned")
    );
    // The master processes by hand: Turkey's units hold.
    let r = t.as_master("PROCESS");
    assert!(
        r.contains("ERROR ORDERS-MISSING") && r.contains("Turkey"),
        "{r}"
    );
    let r = t.as_master("PROCESS!");
    assert!(r.contains("OK PROCESS!"), "{r}");
    let g = t.game();
    assert_eq!(g.position().phase.to_string(), "F1901M");
    assert!(
        g.position()
            .units
            .iter()
            .filter(|u| u.owner == Owner::Power(Power::Turkey))
            .count()
            == 3
    );
}

/// A judge with one running game of `variant` installed: seven players at
/// `<power>@example.test` (password `pw`, those in `resigned` resigned), the master at GM,
/// in `position` with the rule set's `state`.
fn installed_game(
    name: &str,
    variant: &dyn dipjudge::variant::Variant,
    position: dipjudge::rules::Position,
    state: dipjudge::variant::VariantState,
    resigned: &[Power],
) -> Judge {
    use dipjudge::game::{Player, Seat};
    use dipjudge::judge::hash_password;
    let map = Map::standard().expect("map");
    let mut judge = desk::judge(desk::config());
    let hash = hash_password(PasswordCost::TEST, "pw", 1);
    let seat = |address: &str| Seat {
        address: address.to_string(),
        password_hash: hash.clone(),
    };
    let mut g = Game::new(name, variant, seat(GM), 7, map);
    g.arrange(dipjudge::game::Arrangement {
        players: Power::ALL
            .into_iter()
            .map(|p| {
                let mut pl = Player::new(p, seat(&addr(p)));
                if resigned.contains(&p) {
                    pl.status = dipjudge::game::SeatStatus::Abandoned(
                        dipjudge::game::Abandonment::Resigned,
                    );
                }
                pl
            })
            .collect(),
        position,
        variant_state: Some(state),
        observers: Vec::new(),
        deadline: Some(desk::utc(2026, 12, 1, 0, 0)),
    });
    judge.install_game(&g).expect("install");
    judge
}

/// SUR-9.2: in a Surrender game draws follow the judge's normal rules, and a client is a
/// surviving power like any other: the draw needs its vote and includes it.
#[test]
fn a_surrender_draw_includes_the_client_states() {
    use dipjudge::rules::{Phase, Position, Season};
    use dipjudge::variant::{Surrender, Variant};

    let map = Map::standard().expect("map");
    // Russia, Turkey and their client Austria are the survivors.
    let mut position = Position::empty(map, Phase::new(1907, Season::Spring, PhaseKind::Movement));
    for (power, centres) in [
        (
            Power::Russia,
            &["mos", "stp", "war", "sev", "bud", "rum"][..],
        ),
        (
            Power::Turkey,
            &["ank", "con", "smy", "bul", "gre", "ser"][..],
        ),
        (Power::Austria, &["vie", "tri"][..]),
    ] {
        for c in centres {
            let id = map.find_province(c).expect("centre");
            position.owners[id.index()] = Some(power);
        }
    }
    let mut judge = installed_game("sd", &Surrender, position, Surrender.new_state(), &[]);
    let now = desk::utc(2026, 11, 20, 9, 0);
    let mut n = 0;
    let mut mail = |judge: &mut Judge, p: Power, body: &str| {
        n += 1;
        let text = format!("SIGNON {}sd pw\n{body}", p.initial());
        desk::send(judge, &format!("<sd-{n}@test>"), &addr(p), &text, now)
    };
    let r = mail(&mut judge, Power::Austria, "SURRENDER TO Russia");
    assert!(r.contains("OK SURRENDER TO Russia"), "{r}");
    let r = mail(
        &mut judge,
        Power::Russia,
        "ACCEPT SURRENDER OF Austria\nSET DRAW",
    );
    assert!(r.contains("OK ACCEPT SURRENDER FROM Austria"), "{r}");
    mail(&mut judge, Power::Turkey, "SET DRAW");
    let g = judge.game("sd").expect("load").expect("game");
    assert_eq!(*g.status(), Status::Active, "the client has not voted yet");
    mail(&mut judge, Power::Austria, "SET DRAW");
    let g = judge.game("sd").expect("load").expect("game");
    assert_eq!(
        *g.status(),
        Status::Finished(Ending::Draw(vec![
            Power::Austria,
            Power::Russia,
            Power::Turkey
        ]))
    );
}

/// SRV-5b.3(b): a jury that ties at its deadline is held again for the master, who alone is
/// told of the tie; the master's choice among the tied candidates ends the game, any other
/// name is refused (SRV-E9), and no juror votes after the deadline.
#[test]
fn a_survive_jury_tie_waits_for_the_master() {
    use dipjudge::rules::{Phase, Position, Season};
    use dipjudge::variant::{Survive, VariantState};

    let map = Map::standard().expect("map");
    let mut position =
        Position::empty(map, Phase::new(1910, Season::Winter, PhaseKind::Adjustment));
    let centres: Vec<_> = map.supply_centres().collect();
    for (i, c) in centres.iter().enumerate() {
        position.owners[c.index()] = Some(if i % 2 == 0 {
            Power::England
        } else {
            Power::France
        });
    }
    // Five outcasts, two of whom resigned: three jurors, an odd jury.
    let state = serde_json::from_str::<VariantState>(
        r#"{"outcasts": {
            "Austria": {"year": 1902, "cause": "Vote"},
            "Italy": {"year": 1904, "cause": "Vote"},
            "Turkey": {"year": 1905, "cause": "Force"},
            "Germany": {"year": 1906, "cause": "Vote"},
            "Russia": {"year": 1908, "cause": "Vote"}}}"#,
    )
    .expect("state");
    let mut judge = installed_game(
        "jt",
        &Survive,
        position,
        state,
        &[Power::Germany, Power::Russia],
    );
    let now = desk::utc(2026, 11, 20, 9, 0);
    let mut n = 0;
    let mut mail = |judge: &mut Judge, who: &str, from: &str, body: &str| {
        n += 1;
        let text = format!("SIGNON {who}jt pw\n{body}");
        desk::send(judge, &format!("<jt-{n}@test>"), from, &text, now)
    };
    mail(&mut judge, "E", &addr(Power::England), "VOTE France 17");
    mail(&mut judge, "F", &addr(Power::France), "VOTE England 17");
    let r = mail(&mut judge, "M", GM, "PROCESS!");
    assert!(r.contains("OK PROCESS!"), "{r}");
    let g = judge.game("jt").expect("load").expect("game");
    assert_eq!(g.position().phase.to_string(), "W1910J");
    mail(&mut judge, "A", &addr(Power::Austria), "JURY England");
    mail(&mut judge, "I", &addr(Power::Italy), "JURY France");
    // The jury deadline: one each, Turkey silent; the master (odd jury) has no vote.
    mail(&mut judge, "M", GM, "PROCESS!");
    let g = judge.game("jt").expect("load").expect("game");
    assert_eq!(
        g.position().phase.to_string(),
        "W1910J",
        "held again for the master"
    );
    assert_eq!(*g.status(), Status::Active);
    let mails = judge.all_mail().expect("mail");
    let tie = "SURVIVE: the jury is tied between England and France; send JURY <power> to choose the winner.";
    let told: Vec<&str> = mails
        .iter()
        .filter(|m| m.body.contains(tie))
        .map(|m| m.recipient.as_str())
        .collect();
    assert_eq!(told, vec![GM], "only the master is told of the tie");
    let r = mail(&mut judge, "T", &addr(Power::Turkey), "JURY France");
    assert!(
        r.contains("ERROR SRV-E9"),
        "no juror votes after the deadline: {r}"
    );
    let r = mail(&mut judge, "M", GM, "JURY Germany");
    assert!(
        r.contains("ERROR SRV-E9: line 2: \"JURY Germany\": Germany is not one of the tied candidates (England and France)."),
        "{r}"
    );
    let r = mail(&mut judge, "M", GM, "JURY France\nPROCESS");
    assert!(r.contains("OK JURY France"), "{r}");
    assert!(
        r.contains("OK PROCESS"),
        "the master's choice is all the phase waited for: {r}"
    );
    let g = judge.game("jt").expect("load").expect("game");
    assert_eq!(*g.status(), Status::Finished(Ending::Solo(Power::France)));
    let last = judge
        .all_mail()
        .expect("mail")
        .into_iter()
        .rev()
        .find(|m| m.recipient == addr(Power::England) && m.subject.ends_with("W1910J Results"))
        .map(|m| m.body)
        .expect("the jury's results");
    assert!(last.contains("SURVIVE: the jury chooses France."), "{last}");
    assert!(!last.contains("JURY"), "no jury vote is published: {last}");
}

/// HISTORY by audience, with the leak scanner over every mail of the game: each power reads
/// the bulletins and the press it received (its private press, never another's), the master
/// what it received, anyone else what observers may read under the observer setting now:
/// grey broadcasts go when the master takes observers to white press only, and everything
/// once the master's SET WATCH NONE closes the game to them (the words were SET OBSERVER's
/// before it took njudge's meaning, what observers send: issue 31).
#[test]
fn history_by_audience_with_observers_barred() {
    let mut t = Table::new("closed");
    t.start();
    let outsider = "outsider@example.test";
    let mut rng = Rng::new(5);
    let white = "BROADCAST-WHITE-FROM-ENGLAND";
    let grey = "BROADCAST-GREY-FROM-FRANCE";
    let official = "OFFICIAL-FROM-THE-MASTER";
    let r = t.as_power(Power::England, &format!("BROADCAST\n{white}\nENDPRESS"));
    assert!(r.contains("OK BROADCAST"), "{r}");
    let r = t.as_power(Power::France, &format!("BROADCAST GREY\n{grey}\nENDPRESS"));
    assert!(!r.contains("ERROR"), "{r}");
    let r = t.as_master(&format!("OFFICIAL Notice\n{official}\nENDPRESS"));
    assert!(!r.contains("ERROR"), "{r}");
    t.orders(&mut rng, &[]);
    t.process_early();
    let name = t.name.clone();
    let history = |t: &mut Table, who: Option<Power>| match who {
        Some(p) => t.as_power(p, &format!("HISTORY {name}")),
        None => t.mail(outsider, &format!("HISTORY {name}")),
    };
    // Observers welcome: an outsider reads the results and every broadcast.
    let r = history(&mut t, None);
    for token in [white, grey, official, "S1901M Results"] {
        assert!(r.contains(token), "{token} not in {r}");
    }
    // Each power reads its own private press and the broadcasts (the scanner below checks
    // that nobody reads another's).
    for p in Power::ALL {
        let r = history(&mut t, Some(p));
        assert!(
            r.contains(white) && r.contains(grey) && r.contains(official),
            "{r}"
        );
        for (token, sender, readers) in t.secrets.clone() {
            if readers.contains(&p) {
                assert!(r.contains(&token), "{p} misses {token} from {sender}: {r}");
            }
        }
    }
    let r = t.as_master(&format!("HISTORY {name}"));
    assert!(r.contains(white) && r.contains(official), "{r}");
    // White press only for observers: the grey broadcast is gone for outsiders.
    let r = t.as_master("SET WATCH WHITE");
    assert!(r.contains("OK SET WATCH WHITE"), "{r}");
    let r = history(&mut t, None);
    assert!(
        r.contains(white) && r.contains(official) && !r.contains(grey),
        "{r}"
    );
    // No observers: an outsider reads nothing; the players and the master read on.
    let r = t.as_master("SET WATCH NONE");
    assert!(r.contains("OK SET WATCH NONE"), "{r}");
    let r = history(&mut t, None);
    assert!(
        r.starts_with(&format!(
            "ERROR NO-OBSERVERS: line 1: \"HISTORY {name}\": {name} takes no observers"
        )),
        "{r}"
    );
    let after_none = "BROADCAST-AFTER-WATCH-NONE";
    let r = t.as_power(Power::Italy, &format!("BROADCAST\n{after_none}\nENDPRESS"));
    assert!(r.contains("OK BROADCAST"), "{r}");
    t.orders(&mut rng, &[]);
    t.process_early();
    let r = history(&mut t, None);
    assert!(r.starts_with("ERROR NO-OBSERVERS"), "{r}");
    let r = history(&mut t, Some(Power::Turkey));
    assert!(
        r.contains(after_none) && r.contains("F1901M Results"),
        "{r}"
    );
    assert!(t.judge.history(&name).expect("history").is_empty());
    // Observers are welcome again: what they were never sent stays theirs never to read.
    t.as_master("SET WATCH ANY");
    let r = history(&mut t, None);
    assert!(r.contains(white) && r.contains("F1901M Results"), "{r}");
    assert!(
        !r.contains(after_none),
        "sent while observers were barred: {r}"
    );
    // The leak scanner over every mail of the game: private press reached its readers only,
    // HISTORY replies included; the outsider never read a broadcast it may not.
    t.scan_for_leaks();
    let outsider_mail: Vec<QueuedMail> = t
        .mails()
        .into_iter()
        .filter(|m| m.recipient == outsider)
        .collect();
    assert!(outsider_mail.iter().all(|m| !m.body.contains(after_none)));
}

/// The pictures of the mail attachments of `m`, drawn again as the daemon does when it
/// sends `m`: (file name, bytes).
fn pictures_of(t: &mut Table, m: &QueuedMail) -> Vec<(String, Vec<u8>)> {
    t.judge
        .mail_pictures(m)
        .expect("pictures")
        .into_iter()
        .map(|p| (p.filename, p.bytes.to_vec()))
        .collect()
}

/// The reply to the last mail sent to the judge.
fn last_reply(t: &mut Table) -> QueuedMail {
    let key = t.last_key();
    t.mails()
        .into_iter()
        .rev()
        .find(|m| m.in_reply_to.as_deref() == Some(key.as_str()))
        .expect("a reply")
}

/// The size of a PNG (its header), checking it is one.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    let p = resvg::tiny_skia::Pixmap::decode_png(bytes).expect("a PNG");
    (p.width(), p.height())
}

/// Issue 29: each MAP line of a mail gets its picture, in the reply's order; SUMMARY
/// carries the centre chart, and so does the game-over mail of a reader who wants maps;
/// MAP game ALL of a finished game is one animated GIF with a frame per processed phase.
/// Pictures are drawn again from what the judge kept, the same bytes for every copy, and
/// after a restart.
#[test]
fn maps_by_mail_a_chart_and_the_whole_game_animated() {
    let path = std::env::temp_dir().join(format!(
        "dipjudge-pictures-{}-{}.db",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("time")
            .as_nanos()
    ));
    let config = desk::config;
    let mut t = Table::new("pics");
    t.judge = Judge::new(Store::open(&path).expect("store"), config()).expect("judge");
    t.start();
    // France wants maps (the judge's default here is none), signed on: its address proves
    // itself by its seat's password.
    let r = t.as_power(Power::France, "SET MAP ON");
    assert!(r.contains("OK SET MAP ON"), "{r}");
    let mut rng = Rng::new(3);
    while t.game().position().phase.year < 1903 {
        t.orders(&mut rng, &[]);
        t.process_early();
    }
    // Every results copy France got carries its phase's picture; the others none.
    let results: Vec<QueuedMail> = t
        .mails()
        .into_iter()
        .filter(|m| m.subject.ends_with("S1901M Results"))
        .collect();
    assert_eq!(results.len(), 8);
    let mut s1901m = Vec::new();
    for m in &results {
        let got = pictures_of(&mut t, m);
        if m.recipient == addr(Power::France) {
            assert_eq!(got.len(), 1, "{got:?}");
            assert_eq!(got[0].0, "pics-S1901M.png");
            assert!(got[0].1.len() <= 120 * 1024, "{} bytes", got[0].1.len());
            assert_eq!(png_size(&got[0].1), (1152, 1001));
            s1901m = got[0].1.clone();
        } else {
            assert!(got.is_empty(), "{}", m.recipient);
        }
    }

    // Three MAP lines, three pictures in their order; MAP ALL waits for the game's end.
    let open = t.game().position().phase.to_string();
    let r = t.as_power(
        Power::England,
        "MAP pics S1901M\nMAP pics F1901M\nMAP pics\nMAP pics ALL",
    );
    assert!(
        r.contains("OK MAP pics S1901M (the picture is attached)"),
        "{r}"
    );
    assert!(
        r.contains("OK MAP pics F1901M (the picture is attached)"),
        "{r}"
    );
    assert!(
        r.contains(&format!("OK MAP pics {open} (the picture is attached)")),
        "{r}"
    );
    assert!(r.contains("ERROR NOT-FINISHED"), "{r}");
    let reply = last_reply(&mut t);
    let got = pictures_of(&mut t, &reply);
    let names: Vec<&str> = got.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "pics-S1901M.png",
            "pics-F1901M.png",
            &format!("pics-{open}.png")
        ]
    );
    assert_eq!(got[0].1, s1901m, "the same picture, the same bytes");
    assert_ne!(got[0].1, got[1].1);
    for (name, bytes) in &got {
        assert!(bytes.len() <= 120 * 1024, "{name}: {} bytes", bytes.len());
        assert_eq!(png_size(bytes), (1152, 1001), "{name}");
    }

    // SUMMARY: the centre chart.
    let r = t.as_power(Power::Italy, "SUMMARY pics");
    assert!(
        r.contains("OK SUMMARY pics (the centre chart is attached)"),
        "{r}"
    );
    let summary = last_reply(&mut t);
    let chart = pictures_of(&mut t, &summary);
    assert_eq!(chart.len(), 1);
    assert_eq!(chart[0].0, "pics-centres.png");
    assert!(chart[0].1.len() <= 120 * 1024);
    assert_eq!(png_size(&chart[0].1), (960, 540));

    // A restart: a new judge over the same database draws the queued mails' pictures
    // again, byte for byte.
    t.judge = Judge::new(Store::open(&path).expect("store"), config()).expect("judge");
    assert_eq!(pictures_of(&mut t, &reply), got);
    assert_eq!(pictures_of(&mut t, &summary), chart);

    // The end: France's game-over copy carries the chart.
    let r = t.as_master("TERMINATE");
    assert!(r.contains("OK TERMINATE"), "{r}");
    let over: Vec<QueuedMail> = t
        .mails()
        .into_iter()
        .filter(|m| m.subject == "DIP:pics - Game over")
        .collect();
    assert_eq!(over.len(), 8);
    for m in &over {
        let got = pictures_of(&mut t, m);
        let want = usize::from(m.recipient == addr(Power::France));
        assert_eq!(got.len(), want, "{}", m.recipient);
        if want == 1 {
            assert_eq!(got[0].0, "pics-centres.png");
        }
    }

    // MAP ALL: one GIF, a frame a processed phase.
    let processed = t.game().turn() as usize;
    let r = t.as_power(Power::Turkey, "MAP pics ALL");
    assert!(
        r.contains("OK MAP pics ALL (an animation of its phases is attached)"),
        "{r}"
    );
    let all = last_reply(&mut t);
    let got = pictures_of(&mut t, &all);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].0, "pics-all.gif");
    let mut decoder = gif::DecodeOptions::new()
        .read_info(got[0].1.as_slice())
        .expect("a GIF");
    assert_eq!((decoder.width(), decoder.height()), (1152, 1001));
    let mut frames = 0;
    while decoder.read_next_frame().expect("a frame").is_some() {
        frames += 1;
    }
    assert!(processed >= 6, "{processed} phases");
    assert_eq!(frames, processed);
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}
