//! Draw and concession votes (one a player, in a duplex game), the ending they agree, and
//! the master's DECLARE.

use crate::command::Declaration;
use crate::game::tests::{map, running, standard};
use crate::game::{Ending, Refused, SeatRefusal};
use crate::map::Power;

#[test]
fn a_draw_vote_names_every_power_in_the_game() {
    let mut g = running(&Power::ALL);
    let all = Power::ALL.to_vec();
    assert_eq!(
        g.vote_draw(map(), standard(), Power::England, &[Power::France]),
        Err(Refused::DrawRefused {
            asked: vec![Power::France],
            draw: all.clone()
        })
    );
    assert_eq!(g.vote_draw(map(), standard(), Power::England, &[]), Ok(all));
    assert_eq!(g.withdraw_draw(Power::England), Ok(true));
    assert_eq!(g.withdraw_draw(Power::England), Ok(false));
}

#[test]
fn only_a_played_seat_of_a_running_game_votes() {
    let mut g = running(&[Power::England, Power::France]);
    assert_eq!(
        g.vote_draw(map(), standard(), Power::Italy, &[]),
        Err(Refused::OutOfGame("Italy".into())),
        "a dummy has no vote"
    );
    assert_eq!(
        g.withdraw_concession(Power::Italy),
        Err(SeatRefusal::NobodyPlays {
            power: Power::Italy,
            game: "g".into()
        }
        .into())
    );
    g.finish(Ending::Terminated);
    assert_eq!(
        g.concede(map(), standard(), Power::England, Power::France),
        Err(Refused::NotActive("g".into()))
    );
}

#[test]
fn the_played_powers_agree_a_draw_or_a_concession() {
    let mut g = running(&[Power::England, Power::France, Power::Italy]);
    assert_eq!(
        g.concede(map(), standard(), Power::England, Power::Germany),
        Err(Refused::OutOfGame("Germany".into())),
        "a dummy is not in the draw"
    );
    let others = g
        .concede(map(), standard(), Power::England, Power::France)
        .expect("concede");
    assert_eq!(others, vec![Power::Italy]);
    assert_eq!(g.agreed_ending(map(), standard()), None);
    g.concede(map(), standard(), Power::Italy, Power::France)
        .expect("concede");
    assert_eq!(
        g.agreed_ending(map(), standard()),
        Some(Ending::Concession(Power::France))
    );
}

#[test]
fn the_master_declares_among_the_powers_in_the_game() {
    let g = running(&Power::ALL);
    let (ending, declared) = g
        .declared_ending(
            map(),
            standard(),
            &Declaration::Draw(vec![Power::Turkey, Power::Austria]),
        )
        .expect("draw");
    assert_eq!(ending, Ending::Draw(vec![Power::Austria, Power::Turkey]));
    assert_eq!(
        declared,
        Declaration::Draw(vec![Power::Austria, Power::Turkey])
    );
    let mut g = running(&Power::ALL);
    g.finish(Ending::Terminated);
    assert_eq!(
        g.declared_ending(map(), standard(), &Declaration::Winner(Power::England)),
        Err(Refused::NotActive("g".into()))
    );
}
