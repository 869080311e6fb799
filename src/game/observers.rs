//! A game's observers: who observes (an address, confirmed by it), and the password each is
//! mailed to send press with (`SIGNON Ogame password`, njudge's).

use super::{Game, Seat};

impl Game {
    /// Whether `address` observes the game.
    pub fn observes(&self, address: &str) -> bool {
        self.observers
            .iter()
            .any(|o| o.eq_ignore_ascii_case(address))
    }

    /// Adds `address` to the observers (once).
    pub fn add_observer(&mut self, address: &str) {
        if !self.observes(address) {
            self.observers.push(address.to_string());
        }
        self.touch();
    }

    /// Ends `address`'s subscription, and its password with it; whether it observed.
    pub fn remove_observer(&mut self, address: &str) -> bool {
        let before = self.observers.len();
        self.observers.retain(|o| !o.eq_ignore_ascii_case(address));
        self.observer_seats
            .retain(|s| !s.address.eq_ignore_ascii_case(address));
        let removed = self.observers.len() != before;
        if removed {
            self.touch();
        }
        removed
    }

    /// The password seat of observer `address`: None unless it observes and was given one.
    pub fn observer_seat(&self, address: &str) -> Option<&Seat> {
        if !self.observes(address) {
            return None;
        }
        self.observer_seats
            .iter()
            .find(|s| s.address.eq_ignore_ascii_case(address))
    }

    /// Gives observer `address` the password whose hash is `password_hash` (the one before
    /// it no longer counts).
    pub fn set_observer_password(&mut self, address: &str, password_hash: String) {
        self.observer_seats
            .retain(|s| !s.address.eq_ignore_ascii_case(address));
        self.observer_seats.push(Seat {
            address: address.to_string(),
            password_hash,
        });
        self.touch();
    }
}

#[cfg(test)]
mod tests {
    use crate::game::{Game, Seat};
    use crate::map::Map;

    fn game() -> Game {
        let map = Map::standard().expect("map");
        let variant = crate::variant::Registry::default().standard();
        let master = Seat {
            address: "gm@example.org".into(),
            password_hash: String::new(),
        };
        Game::new("watched", variant, master, 1, map)
    }

    #[test]
    fn a_password_counts_only_while_its_address_observes() {
        let mut g = game();
        g.set_observer_password("ann@example.org", "hash".into());
        assert!(g.observer_seat("ann@example.org").is_none());
        g.add_observer("Ann@Example.org");
        assert!(g.observer_seat("ann@example.org").is_some());
        assert!(g.remove_observer("ann@example.org"));
        assert!(g.observer_seat("ann@example.org").is_none());
        assert!(g.observer_seats.is_empty());
        assert!(!g.remove_observer("ann@example.org"));
    }
}
