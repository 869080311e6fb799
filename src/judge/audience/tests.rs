use chrono::TimeZone;

use super::*;

fn at(hour: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2027, 3, 1, hour, 0, 0).unwrap()
}

fn entry(hour: u32, readers: Option<Vec<Reader>>, public: bool) -> HistoryEntry {
    HistoryEntry {
        at: at(hour),
        phase: "S1901M".into(),
        subject: "s".into(),
        body: "b".into(),
        readers,
        signed: true,
        public,
        bulletin: false,
    }
}

fn settings(watch: ObserverLevel) -> Settings {
    Settings {
        watch: Some(watch),
        takeover_history: false,
        secrecy: Secrecy {
            finished: false,
            anonymous: false,
            reveal: true,
            addresses_shown: false,
        },
    }
}

const FRANCE: Viewer = Viewer::Power {
    power: Power::France,
    since: None,
};

/// A power's player from the start.
fn first(power: Power) -> Viewer {
    Viewer::Power { power, since: None }
}

fn reads(e: &HistoryEntry, v: Viewer, s: &Settings) -> bool {
    may_read(Item::Entry(e), v, s)
}

#[test]
fn press_to_the_observers_is_not_public() {
    // PRESS TO O from Germany: the observers and its sender read it, nobody outside.
    let to_o = entry(
        10,
        Some(vec![Reader::Observers, Reader::Power(Power::Germany)]),
        false,
    );
    let s = settings(ObserverLevel::Any);
    assert!(!reads(&to_o, Viewer::Outsider, &s));
    assert!(reads(&to_o, Viewer::Observer, &s));
    assert!(reads(&to_o, first(Power::Germany), &s));
    assert!(!reads(&to_o, FRANCE, &s));
    assert!(!reads(&to_o, Viewer::Master, &s));
    // A broadcast is public; a bulletin for everyone too.
    let broadcast = entry(
        10,
        Some(vec![
            Reader::Observers,
            Reader::Master,
            Reader::Power(Power::France),
        ]),
        true,
    );
    assert!(reads(&broadcast, Viewer::Outsider, &s));
    assert!(reads(&entry(10, None, false), Viewer::Outsider, &s));
}

#[test]
fn the_observer_setting_closes_the_history_to_observers_and_outsiders_alike() {
    let bulletin = entry(10, None, false);
    let mut grey = entry(10, Some(vec![Reader::Observers]), true);
    grey.signed = false;
    let none = settings(ObserverLevel::None);
    for v in [Viewer::Outsider, Viewer::Observer] {
        assert!(!reads(&bulletin, v, &none));
        assert!(history_closed(v, &none));
        assert!(!reads(&grey, v, &settings(ObserverLevel::White)));
        assert!(reads(&grey, v, &settings(ObserverLevel::Any)));
    }
    assert!(reads(&bulletin, FRANCE, &none));
    assert!(!history_closed(Viewer::Master, &none));
}

#[test]
fn a_newcomer_reads_the_earlier_private_press_only_if_the_master_allows_it() {
    let newcomer = Viewer::Power {
        power: Power::Italy,
        since: Some(at(12)),
    };
    let before = entry(
        10,
        Some(vec![
            Reader::Power(Power::Italy),
            Reader::Power(Power::France),
        ]),
        false,
    );
    let after = entry(13, before.readers.clone(), false);
    let broadcast = entry(10, Some(vec![Reader::Observers]), true);
    let mut s = settings(ObserverLevel::Any);
    assert!(
        !reads(&before, newcomer, &s),
        "the default: from the takeover on"
    );
    assert!(reads(&after, newcomer, &s));
    assert!(
        reads(&broadcast, newcomer, &s),
        "what was public stays public"
    );
    assert!(reads(&entry(10, None, false), newcomer, &s));
    s.takeover_history = true;
    assert!(reads(&before, newcomer, &s));
    // A power's first player reads all it received.
    assert!(reads(
        &before,
        first(Power::Italy),
        &settings(ObserverLevel::Any)
    ));
}

#[test]
fn a_game_that_hides_its_players_shows_them_to_its_master_only_until_it_reveals_them() {
    let mut s = settings(ObserverLevel::Any);
    // Addresses hidden by default while the game runs; who plays which power is not.
    assert!(!may_read(Item::Addresses, Viewer::Outsider, &s));
    assert!(!may_read(Item::Addresses, FRANCE, &s));
    assert!(may_read(Item::Addresses, Viewer::Master, &s));
    assert!(may_read(Item::Players, Viewer::Outsider, &s));
    s.secrecy.anonymous = true;
    assert!(!may_read(Item::Players, Viewer::Outsider, &s));
    assert!(!may_read(Item::Players, FRANCE, &s));
    assert!(may_read(Item::Players, Viewer::Master, &s));
    s.secrecy.finished = true;
    assert!(may_read(Item::Players, Viewer::Outsider, &s));
    assert!(may_read(Item::Addresses, Viewer::Outsider, &s));
    s.secrecy.reveal = false; // NOREVEAL: never.
    assert!(!may_read(Item::Players, Viewer::Outsider, &s));
    assert!(!may_read(Item::Addresses, Viewer::Observer, &s));
    assert!(may_read(Item::Players, Viewer::Master, &s));
}

#[test]
fn a_record_counts_only_the_games_that_show_their_players() {
    let seats = |anonymous, finished, reveal, shown| GameSeats {
        name: "g".into(),
        status: Some(if finished {
            crate::game::Status::Finished(crate::game::Ending::Terminated)
        } else {
            crate::game::Status::Active
        }),
        settings: crate::game::SeatSettings {
            anonymous,
            reveal,
            addresses_shown: shown,
        },
        tenures: Vec::new(),
    };
    let kept = record_games(
        None,
        vec![
            seats(false, false, true, false), // running, addresses hidden: out
            seats(false, false, true, true),  // running, SET ADDRESSES SHOWN: in
            seats(true, true, false, false),  // anonymous NOREVEAL, over: out
            seats(true, true, true, false),   // anonymous, over and revealed: in
            seats(false, true, true, false),  // over: in
        ],
    );
    assert_eq!(kept.len(), 3);
    // The master of a game reads its part of its players' records.
    let own = record_games(Some("G"), vec![seats(true, false, true, false)]);
    assert_eq!(own.len(), 1);
}
