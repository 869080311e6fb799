//! Orders taken as the rules read them (a refusal changes nothing), an adjustment set
//! replaced by a mail's first order, CLEAR, and who the phase waits for.

use crate::game::Refused;
use crate::game::tests::{map, running, standard};
use crate::map::Power;
use crate::rules::{Order, Owner, UnitSpec};

fn hold(g: &crate::game::Game, power: Power) -> Vec<Order> {
    g.position()
        .units
        .iter()
        .filter(|u| u.owner == Owner::Power(power))
        .map(|u| Order::Hold {
            unit: UnitSpec::new(Some(u.kind), u.location),
        })
        .collect()
}

#[test]
fn an_order_is_taken_as_the_rules_read_it() {
    let mut g = running(&Power::ALL);
    let order = hold(&g, Power::England)[0];
    let taken = g
        .give_order(map(), standard(), Power::England, order)
        .expect("taken");
    assert_eq!(taken.order.power, Power::England);
    assert_eq!(g.orders_of(Power::England).len(), 1);
    assert!(g.orders_changed());
    assert_eq!(g.submitted(), &[Power::England]);
}

#[test]
fn an_order_for_a_unit_of_another_power_or_out_of_turn_is_refused() {
    let mut g = running(&Power::ALL);
    let french = hold(&g, Power::France)[0];
    assert!(matches!(
        g.give_order(map(), standard(), Power::England, french),
        Err(Refused::Order(_))
    ));
    assert!(!g.changed(), "a refused order changes nothing");
    g.pause().expect("pause");
    assert_eq!(
        g.give_order(map(), standard(), Power::France, french),
        Err(Refused::NotTakingOrders("g".into()))
    );
}

#[test]
fn every_order_in_and_clear_takes_them_back() {
    let mut g = running(&Power::ALL);
    assert!(!g.all_in(map(), standard()));
    for p in Power::ALL {
        for o in hold(&g, p) {
            g.give_order(map(), standard(), p, o).expect("hold");
        }
    }
    assert!(g.all_in(map(), standard()));
    assert!(g.ready(map(), standard()));
    g.note_all_in(map(), standard(), crate::game::tests::now());
    assert!(g.all_in_since().is_some());
    g.clear_orders_of(Power::England);
    assert!(g.orders_of(Power::England).is_empty());
    assert_eq!(g.all_in_since(), None);
    assert_eq!(g.missing_powers(map(), standard()), vec![Power::England]);
}

#[test]
fn set_wait_holds_the_phase_for_the_played_seat_only() {
    let mut g = running(&[Power::England]);
    for o in hold(&g, Power::England) {
        g.give_order(map(), standard(), Power::England, o)
            .expect("hold");
    }
    g.set_wait(Power::England, true).expect("wait");
    assert!(!g.ready(map(), standard()));
    assert_eq!(g.waiting_powers(map(), standard()), vec![Power::England]);
    assert!(matches!(
        g.set_wait(Power::France, true),
        Err(Refused::Seat(crate::game::SeatRefusal::NobodyPlays { .. }))
    ));
}
