//! The game as a value: what a transition counts (the judge writes a game only when it
//! changed, and lists standing orders only when they did), what is no part of its value,
//! the games set up outside the mail, and the helpers the game's other tests share.

use chrono::{DateTime, Duration, TimeZone, Utc};

use crate::command::Date;
use crate::game::{Arrangement, Game, NewGame, Player, Seat, Settings, Status};
use crate::map::{Map, Power};
use crate::rules::Position;
use crate::variant::Variant;

/// A seat at `address` (its password's hash is a label).
pub(in crate::game) fn seat(address: &str) -> Seat {
    Seat {
        address: address.to_string(),
        password_hash: format!("hash-of-{address}"),
    }
}

/// The address of `power`'s player in these tests.
pub(in crate::game) fn address(power: Power) -> String {
    format!("{}@x.test", power.code().to_lowercase())
}

/// The tests' clock.
pub(in crate::game) fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2027, 3, 1, 12, 0, 0)
        .single()
        .expect("time")
}

/// A date as a player writes it, `month`/`day` at `hour`:00 of 2027.
pub(in crate::game) fn date(month: u8, day: u8, hour: u8) -> Date {
    Date {
        year: Some(2027),
        month,
        day,
        time: Some((hour, 0)),
    }
}

pub(in crate::game) fn map() -> &'static Map {
    Map::standard().expect("map")
}

pub(in crate::game) fn standard() -> &'static dyn Variant {
    crate::variant::Registry::default().standard()
}

/// A forming game of the standard rules, mastered by gm@x.test.
pub(in crate::game) fn forming() -> Game {
    Game::new("g", standard(), seat("gm@x.test"), 1, map())
}

/// A running game at S1901M whose `players` are played (the others dummies), its deadline
/// three days from [`now`]; as loaded (no change counted).
pub(in crate::game) fn running(players: &[Power]) -> Game {
    let mut g = forming();
    g.seat_players(players.iter().map(|p| (*p, seat(&address(*p)))).collect());
    g.status = Status::Active;
    g.deadline = Some(now() + Duration::hours(72));
    g.since = Default::default();
    g
}

#[test]
fn a_game_loaded_has_no_change_and_each_transition_counts_one() {
    let mut g = running(&Power::ALL);
    assert!(!g.changed() && !g.unsaved() && !g.orders_changed());
    g.set_nmr(false);
    assert!(g.changed() && g.unsaved() && !g.orders_changed());
    g.mark_saved();
    assert!(g.changed(), "changed in this mail, though written");
    assert!(!g.unsaved());
    g.set_quiet(true);
    assert!(g.unsaved());
}

#[test]
fn a_refused_transition_counts_no_change() {
    let mut g = running(&Power::ALL);
    assert!(g.resume(now()).is_err());
    assert!(g.set_centres_to_win(0).is_err());
    assert!(g.set_deadline(date(1, 1, 12), now()).is_err());
    assert!(!g.changed());
}

#[test]
fn a_master_command_that_changes_nothing_is_counted() {
    let mut g = running(&Power::ALL);
    g.mark_changed();
    assert!(g.changed() && !g.orders_changed());
}

#[test]
fn what_happened_since_loading_is_no_part_of_the_game() {
    let g = running(&Power::ALL);
    let mut h = g.clone();
    h.mark_changed();
    assert_eq!(g, h, "the counts are bookkeeping");
    let json = serde_json::to_string(&h).expect("json");
    assert!(
        !json.contains("\"since\"") && !json.contains("changes"),
        "nothing of it is stored: {json}"
    );
    let back: Game = serde_json::from_str(&json).expect("read");
    assert!(!back.changed());
}

#[test]
fn a_created_game_forms_with_its_settings_and_its_masters_name() {
    let settings = Settings {
        nmr: false,
        ..Settings::default()
    };
    let g = Game::create(
        standard(),
        map(),
        NewGame {
            name: "new",
            master: seat("gm@x.test"),
            master_name: Some("Game Master"),
            seed: 9,
            settings,
            state: standard().new_state(),
            now: now(),
        },
    );
    assert!(g.is_forming());
    assert!(!g.settings().nmr);
    assert_eq!(g.created(), Some(now()));
    assert_eq!(g.name_of("GM@x.test"), Some("Game Master"));
    assert!(!g.changed(), "made, not changed: it is written once");
}

#[test]
fn an_arranged_game_runs_as_set_up() {
    let mut g = forming();
    let players: Vec<Player> = Power::ALL
        .into_iter()
        .map(|p| Player::new(p, seat(&address(p))))
        .collect();
    g.arrange(Arrangement {
        players,
        position: Position::standard_start(map()),
        variant_state: None,
        observers: vec!["o@x.test".into()],
        deadline: Some(now()),
    });
    assert!(g.is_active());
    assert_eq!(g.players().len(), 7);
    assert!(g.observes("O@X.test"));
    assert_eq!(g.deadline(), Some(now()));
}

#[test]
fn the_names_read_in_mails_are_kept_bounded_and_not_when_they_are_the_address() {
    let mut g = running(&Power::ALL);
    g.record_name("eng@x.test", Some("eng@x.test"));
    assert_eq!(g.name_of("eng@x.test"), None);
    g.record_name("eng@x.test", Some(&"n".repeat(200)));
    assert_eq!(g.name_of("ENG@x.test").map(str::len), Some(80));
    assert!(g.changed());
}
