//! Who reads a press block and how it is signed, as the game's press settings say
//! (njudge's): each refusal, the master's press never refused, observers' press under
//! `SET OBSERVER`, and what observers read under `SET WATCH`.

use crate::command::{
    Attribution, ObserverLevel, PressHeader, PressKind, PressLevel, PressTo, Recipient,
};
use crate::game::tests::{map, running, standard};
use crate::game::{Game, PressRefusal, Reader, Sender, observer_press_route, press_route};
use crate::map::Power;

fn header(kind: PressKind, to: PressTo, attribution: Attribution) -> PressHeader {
    PressHeader {
        kind,
        postal: false,
        to,
        attribution,
        subject: None,
    }
}

fn to(powers: &[Power]) -> PressTo {
    PressTo::Only(powers.iter().map(|p| Recipient::Power(*p)).collect())
}

fn route(g: &Game, from: Sender, h: &PressHeader) -> Result<crate::game::PressRoute, PressRefusal> {
    press_route(g, map(), standard(), from, h)
}

const ENGLAND: Sender = Sender::Power(Power::England);

#[test]
fn a_broadcast_reaches_every_player_the_master_and_the_observers() {
    let g = running(&Power::ALL);
    let r = route(
        &g,
        ENGLAND,
        &header(PressKind::Broadcast, PressTo::All, Attribution::Default),
    )
    .expect("route");
    assert!(r.public && r.signed);
    assert!(
        !r.readers.contains(&Reader::Power(Power::England)),
        "not its author"
    );
    assert!(r.readers.contains(&Reader::Master) && r.readers.contains(&Reader::Observers));
    assert_eq!(r.readers.len(), 8);
}

#[test]
fn a_grey_broadcast_reaches_its_author_too() {
    let g = running(&Power::ALL);
    let r = route(
        &g,
        ENGLAND,
        &header(PressKind::Broadcast, PressTo::All, Attribution::Grey),
    )
    .expect("route");
    assert!(!r.signed && r.author_reads);
    assert!(r.readers.contains(&Reader::Power(Power::England)));
}

#[test]
fn the_press_level_refuses_what_it_does_not_allow() {
    let mut g = running(&Power::ALL);
    let partial = header(PressKind::Press, to(&[Power::France]), Attribution::Default);
    g.set_press(PressLevel::None);
    assert_eq!(route(&g, ENGLAND, &partial), Err(PressRefusal::NoPress));
    let master = header(
        PressKind::Press,
        PressTo::Only(vec![Recipient::Master]),
        Attribution::Default,
    );
    assert!(
        route(&g, ENGLAND, &master).is_ok(),
        "the master is always allowed"
    );
    assert!(
        route(&g, Sender::Master, &partial).is_ok(),
        "the master's press is never refused"
    );
    g.set_press(PressLevel::White);
    let grey = header(PressKind::Press, to(&[Power::France]), Attribution::Grey);
    assert_eq!(route(&g, ENGLAND, &grey), Err(PressRefusal::WhiteOnly));
    g.set_press(PressLevel::Grey);
    let white = header(PressKind::Press, to(&[Power::France]), Attribution::White);
    assert_eq!(route(&g, ENGLAND, &white), Err(PressRefusal::GreyOnly));
    g.set_press(PressLevel::WhiteGrey);
    g.set_partial(false);
    assert_eq!(route(&g, ENGLAND, &partial), Err(PressRefusal::NoPartial));
}

#[test]
fn partial_press_reaches_the_named_and_the_master_only_when_it_reads_all() {
    let mut g = running(&Power::ALL);
    let partial = header(PressKind::Press, to(&[Power::France]), Attribution::Default);
    let r = route(&g, ENGLAND, &partial).expect("route");
    assert_eq!(r.readers, vec![Reader::Power(Power::France)]);
    assert!(!r.public);
    g.set_master_reads_all_press(true);
    let r = route(&g, ENGLAND, &partial).expect("route");
    assert!(r.readers.contains(&Reader::Master));
    assert_eq!(r.named, vec![Reader::Power(Power::France)]);
}

#[test]
fn press_to_a_power_nobody_plays_or_to_nobody_is_refused() {
    let g = running(&[Power::England, Power::France]);
    let italy = header(PressKind::Press, to(&[Power::Italy]), Attribution::Default);
    assert_eq!(
        route(&g, ENGLAND, &italy),
        Err(PressRefusal::Unplayed(vec![Power::Italy]))
    );
    let official = header(PressKind::Official, PressTo::All, Attribution::Default);
    assert_eq!(
        route(&g, ENGLAND, &official),
        Err(PressRefusal::OfficialNeedsMaster)
    );
    let to_observers = header(
        PressKind::Press,
        PressTo::Only(vec![Recipient::Observers]),
        Attribution::Default,
    );
    assert_eq!(
        route(&g, ENGLAND, &to_observers),
        Err(PressRefusal::NoObservers),
        "nobody observes"
    );
}

#[test]
fn observers_send_as_set_observer_says_and_read_as_set_watch_says() {
    let mut g = running(&Power::ALL);
    g.add_observer("o@x.test");
    let broadcast = header(PressKind::Broadcast, PressTo::All, Attribution::Default);
    let grey = header(PressKind::Broadcast, PressTo::All, Attribution::Grey);
    assert!(observer_press_route(&g, &broadcast).is_ok());
    g.set_observer_press(ObserverLevel::White);
    assert_eq!(
        observer_press_route(&g, &grey),
        Err(PressRefusal::ObserverWhiteOnly)
    );
    let partial = header(PressKind::Press, to(&[Power::France]), Attribution::Default);
    assert_eq!(
        observer_press_route(&g, &partial),
        Err(PressRefusal::ObserverNoPartial)
    );
    g.set_observer_press(ObserverLevel::None);
    assert_eq!(
        observer_press_route(&g, &broadcast),
        Err(PressRefusal::NoObserverPress)
    );
    g.set_watch(ObserverLevel::White);
    let r = route(&g, ENGLAND, &grey).expect("grey broadcast");
    assert!(
        !r.readers.contains(&Reader::Observers),
        "observers read signed press only"
    );
    let to_observers = header(
        PressKind::Press,
        PressTo::Only(vec![Recipient::Observers]),
        Attribution::Grey,
    );
    assert_eq!(
        route(&g, ENGLAND, &to_observers),
        Err(PressRefusal::ObserversReadWhite)
    );
}

#[test]
fn grey_white_is_grey_unless_signed_and_white_grey_the_other_way() {
    // njudge: SET GREY/WHITE is grey by default with white allowed; SET WHITE/GREY is white
    // by default with grey allowed (issue 38: both read as WHITE/GREY).
    let mut g = running(&Power::ALL);
    let plain = header(PressKind::Press, to(&[Power::France]), Attribution::Default);
    let white = header(PressKind::Press, to(&[Power::France]), Attribution::White);
    let grey = header(PressKind::Press, to(&[Power::France]), Attribution::Grey);
    g.set_press(PressLevel::GreyWhite);
    assert_eq!(g.settings().press.level, PressLevel::GreyWhite);
    assert!(!route(&g, ENGLAND, &plain).expect("route").signed);
    assert!(route(&g, ENGLAND, &white).expect("route").signed);
    g.set_press(PressLevel::WhiteGrey);
    assert!(route(&g, ENGLAND, &plain).expect("route").signed);
    assert!(!route(&g, ENGLAND, &grey).expect("route").signed);
}
