//! Duplex games (njudge's `SET PLAYERS n`): fewer players than powers, each player holding
//! several powers: how many players a game waits for, how the powers are shared out by
//! preference, and which powers one player holds.
//!
//! A player's powers are the played seats at one address: each power keeps a seat of its
//! own (address and password, a tenure each), and the judge treats them as one player where
//! njudge does (`docs/decisions.md`, "Duplex games"): a sign-on to any of them speaks for
//! all of them, a setting of the seat (password, address, wait, draw, concession) is made
//! for all of them, a resignation leaves all of them, and a takeover of one takes the other
//! powers the same player left. Missed phases and abandonment for them stay per power.
//!
//! Only a duplex game groups seats this way: in a game of one player a power, two powers at
//! one address stay two seats, as before.

use crate::map::{Map, Power};
use crate::rules::{Order, Owner};

use super::{Game, Joiner, Refused, Seat, SeatStatus, Status};

/// The fewest players a duplex game may have.
pub const MIN_PLAYERS: usize = 2;

impl Game {
    /// How many players the game waits for before it starts: the master's `SET PLAYERS n`,
    /// else one per power.
    pub fn players_wanted(&self) -> usize {
        self.settings
            .players
            .map_or(Power::ALL.len(), |n| n.clamp(MIN_PLAYERS, Power::ALL.len()))
    }

    /// Whether the game is a duplex game: fewer players than powers, each holding several.
    pub fn is_duplex(&self) -> bool {
        self.players_wanted() < Power::ALL.len()
    }

    /// `SET PLAYERS n`, before the start: 2 to the number of powers (as many as there are
    /// powers makes the game an ordinary one again), and not fewer than have joined.
    pub fn set_players(&mut self, n: usize) -> Result<(), Refused> {
        if self.status != Status::Forming {
            return Err(Refused::PlayersFixed(self.name.clone()));
        }
        let most = Power::ALL.len();
        if !(MIN_PLAYERS..=most).contains(&n) {
            return Err(Refused::PlayersOutOfRange(most));
        }
        if self.joiners.len() > n {
            return Err(Refused::PlayersJoined {
                joined: self.joiners.len(),
                game: self.name.clone(),
            });
        }
        self.settings.players = (n < most).then_some(n);
        self.touch();
        Ok(())
    }

    /// The powers the player of `power` holds now, `power` first: in a duplex game every
    /// played power at the same address; otherwise `power` alone.
    pub fn held_with(&self, power: Power) -> Vec<Power> {
        let Some(address) = self
            .player(power)
            .filter(|p| p.is_playing())
            .map(|p| p.seat.address.as_str())
        else {
            return vec![power];
        };
        if !self.is_duplex() || address.is_empty() {
            return vec![power];
        }
        let mut out = vec![power];
        out.extend(
            self.players
                .iter()
                .filter(|p| {
                    p.power != power
                        && p.is_playing()
                        && p.seat.address.eq_ignore_ascii_case(address)
                })
                .map(|p| p.power),
        );
        out
    }

    /// The other powers the last player of the abandoned `power` left with it, in a duplex
    /// game: abandoned seats whose last address is the same, no takeover waiting for them.
    /// A takeover of `power` takes them too (njudge).
    pub fn left_with(&self, power: Power) -> Vec<Power> {
        let Some(address) = self
            .player(power)
            .filter(|p| matches!(p.status, SeatStatus::Abandoned(_)))
            .and_then(|p| p.last_address())
        else {
            return Vec::new();
        };
        if !self.is_duplex() || address.is_empty() {
            return Vec::new();
        }
        self.players
            .iter()
            .filter(|p| {
                p.power != power
                    && matches!(p.status, SeatStatus::Abandoned(_))
                    && p.claim.is_none()
                    && p.last_address()
                        .is_some_and(|a| a.eq_ignore_ascii_case(address))
            })
            .map(|p| p.power)
            .collect()
    }

    /// The powers an address plays now (letter case ignored), in the order of the powers:
    /// several in a duplex game. What the start mail and the listings read to say who
    /// holds what.
    pub fn powers_held_by(&self, address: &str) -> Vec<Power> {
        self.players
            .iter()
            .filter(|p| p.is_playing() && p.seat.address.eq_ignore_ascii_case(address))
            .map(|p| p.power)
            .collect()
    }

    /// How many players play now: the distinct addresses of the played seats (in a
    /// duplex game, several powers are one player).
    pub fn player_count(&self) -> usize {
        let mut seen: Vec<String> = Vec::new();
        for p in self.players.iter().filter(|p| p.is_playing()) {
            let a = p.seat.address.to_ascii_lowercase();
            if !self.is_duplex() || !seen.contains(&a) {
                seen.push(a);
            }
        }
        seen.len()
    }

    /// The power an order given while signed on as `signed` is for: in a duplex game, the
    /// power of the player's that owns the unit ordered (or, for a build, whose home centre
    /// it is in); else, and when the order names no unit of theirs, `signed`.
    pub fn order_power(&self, map: &Map, signed: Power, order: &Order) -> Power {
        let held = self.held_with(signed);
        if held.len() < 2 {
            return signed;
        }
        let Some(province) = order.unit().map(|u| u.location.province) else {
            return signed;
        };
        let on_board = self
            .position
            .units
            .iter()
            .chain(self.position.dislodged.iter().map(|d| &d.unit))
            .filter(|u| u.location.province == province)
            .find_map(|u| match u.owner {
                Owner::Power(p) if held.contains(&p) => Some(p),
                _ => None,
            });
        let owner = match (on_board, order) {
            (Some(p), _) => Some(p),
            (None, Order::Build { .. }) => held
                .iter()
                .copied()
                .find(|p| map.home_centres(*p).any(|c| c == province)),
            _ => None,
        };
        owner.unwrap_or(signed)
    }
}

/// Shares the powers out among the joiners of a duplex game for `players` players, as njudge
/// does (its `mail_igame`): round by round, each joiner gets one power a round, the powers
/// of a round going to the joiners so that the sum of their ranks in the joiners' preference
/// lists is least (ties: the joiner who signed on first gets the better choice); powers a
/// joiner did not list rank after the listed ones, in an order drawn from the seed. When a
/// round has fewer powers left than joiners, joiners drawn from the seed sit it out. Each
/// joiner gets at most as many powers as a full game of `players` gives its best served
/// player (a game its master began short leaves the rest as dummies). Deterministic for a
/// seed; the result is by power.
pub fn assign_duplex(joiners: &[Joiner], players: usize, seed: u64) -> Vec<(Power, Seat)> {
    let mut rng = crate::sim::Rng::new(seed);
    let rankings: Vec<Vec<Power>> = joiners
        .iter()
        .map(|j| {
            let mut ranking: Vec<Power> = Vec::new();
            for p in &j.preferences {
                if !ranking.contains(p) {
                    ranking.push(*p);
                }
            }
            let mut rest: Vec<Power> = Power::ALL
                .into_iter()
                .filter(|p| !ranking.contains(p))
                .collect();
            while !rest.is_empty() {
                ranking.push(rest.remove(rng.below(rest.len())));
            }
            ranking
        })
        .collect();
    let rounds = Power::ALL.len().div_ceil(players.max(1));
    let mut free: Vec<Power> = Power::ALL.to_vec();
    let mut out: Vec<(Power, Seat)> = Vec::new();
    for _ in 0..rounds {
        if free.is_empty() {
            break;
        }
        let mut taking: Vec<usize> = (0..joiners.len()).collect();
        while taking.len() > free.len() {
            taking.remove(rng.below(taking.len()));
        }
        let ranks: Vec<&[Power]> = taking
            .iter()
            .filter_map(|i| rankings.get(*i).map(Vec::as_slice))
            .collect();
        let chosen = least_rank_assignment(&ranks, &free);
        for (k, power) in chosen.into_iter().enumerate() {
            let Some(j) = taking.get(k).and_then(|i| joiners.get(*i)) else {
                continue;
            };
            free.retain(|p| *p != power);
            out.push((power, j.seat.clone()));
        }
    }
    out.sort_by_key(|(p, _)| *p);
    out
}

/// One power of `free` to each ranking, different powers, with the least sum of ranks; of
/// equal sums the first found, trying the first ranking's choices first, best first.
/// (At most seven rankings and seven powers: a search through them is quick.)
fn least_rank_assignment(rankings: &[&[Power]], free: &[Power]) -> Vec<Power> {
    struct Search<'a> {
        rankings: &'a [&'a [Power]],
        free: &'a [Power],
        current: Vec<Power>,
        best: Option<(usize, Vec<Power>)>,
    }
    impl Search<'_> {
        fn go(&mut self, cost: usize) {
            if self.best.as_ref().is_some_and(|(b, _)| cost >= *b) {
                return;
            }
            let k = self.current.len();
            let Some(ranking) = self.rankings.get(k) else {
                self.best = Some((cost, self.current.clone()));
                return;
            };
            for (rank, p) in ranking.iter().enumerate() {
                if self.free.contains(p) && !self.current.contains(p) {
                    self.current.push(*p);
                    self.go(cost + rank);
                    self.current.pop();
                }
            }
        }
    }
    let mut s = Search {
        rankings,
        free,
        current: Vec::new(),
        best: None,
    };
    s.go(0);
    s.best.map(|(_, v)| v).unwrap_or_default()
}

#[cfg(test)]
#[cfg(test)]
mod tests {
    use super::*;

    fn joiner(address: &str, prefs: &str) -> Joiner {
        Joiner {
            seat: Seat {
                address: address.to_string(),
                password_hash: String::new(),
            },
            preferences: prefs
                .chars()
                .filter_map(|c| {
                    Power::ALL
                        .into_iter()
                        .find(|p| p.name().starts_with(c.to_ascii_uppercase()))
                })
                .collect(),
        }
    }

    fn holders(assigned: &[(Power, Seat)], address: &str) -> Vec<Power> {
        assigned
            .iter()
            .filter(|(_, s)| s.address == address)
            .map(|(p, _)| *p)
            .collect()
    }

    #[test]
    fn every_power_goes_to_someone_as_evenly_as_possible() {
        for players in 2..=7 {
            let joiners: Vec<Joiner> = (0..players)
                .map(|i| joiner(&format!("p{i}@x"), ""))
                .collect();
            for seed in 0..50 {
                let a = assign_duplex(&joiners, players, seed);
                assert_eq!(a.len(), 7, "{players} players, seed {seed}");
                let counts: Vec<usize> = joiners
                    .iter()
                    .map(|j| holders(&a, &j.seat.address).len())
                    .collect();
                let (lo, hi) = (counts.iter().min(), counts.iter().max());
                assert!(hi.zip(lo).is_some_and(|(h, l)| h - l <= 1), "{counts:?}");
            }
        }
    }

    #[test]
    fn first_choices_are_given_when_they_do_not_clash() {
        let joiners = vec![
            joiner("p1", "FRIGATE"),
            joiner("p2", "IGATEFR"),
            joiner("p3", "ATEFRIG"),
            joiner("p4", "EFRIGAT"),
        ];
        for seed in 0..20 {
            let a = assign_duplex(&joiners, 4, seed);
            assert!(holders(&a, "p1").contains(&Power::France));
            assert!(holders(&a, "p2").contains(&Power::Italy));
            assert!(holders(&a, "p3").contains(&Power::Austria));
            assert!(holders(&a, "p4").contains(&Power::England));
        }
    }

    #[test]
    fn a_clash_goes_to_the_least_total_rank_then_the_first_to_sign_on() {
        // Both want France first; p2's second choice is Germany, p1's is Austria: either way
        // costs one rank; p1 signed on first and keeps France.
        let joiners = vec![joiner("p1", "FA"), joiner("p2", "FG")];
        for seed in 0..20 {
            let a = assign_duplex(&joiners, 2, seed);
            assert!(holders(&a, "p1").contains(&Power::France));
            assert!(holders(&a, "p2").contains(&Power::Germany));
        }
    }

    #[test]
    fn a_game_begun_short_leaves_dummies() {
        let joiners = vec![joiner("p1", ""), joiner("p2", "")];
        let a = assign_duplex(&joiners, 4, 3);
        assert_eq!(a.len(), 4);
        assert_eq!(holders(&a, "p1").len(), 2);
    }
}
