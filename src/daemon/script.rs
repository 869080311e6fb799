//! A scripted short game (1901–1902: press, a dislodgement and its retreat, builds) for
//! `dipjudge demo`, the server tests and the mail benchmark. Only mail bodies: who sends
//! them and how they travel is the caller's business.
//!
//! Powers are assigned by the judge, so orders are written per power; the caller finds
//! out which player holds which power (from the "Game Starting" mail) and signs each body
//! on with that player's password via [`signed`].

use crate::map::Power;

/// Orders for one phase, per power; the master sends `PROCESS!` after them (powers with
/// no orders take the civil-disorder defaults).
pub struct ScriptPhase {
    /// The phase, as the judge names it (`S1901M`).
    pub phase: &'static str,
    /// Each power's mail body (orders, press), without the SIGNON line.
    pub orders: &'static [(Power, &'static str)],
}

/// The game: Germany dislodges France from Burgundy in the autumn, France retreats, both
/// build; England sends press to France. Powers not listed hold (no orders).
pub const SHORT_GAME: &[ScriptPhase] = &[
    ScriptPhase {
        phase: "S1901M",
        orders: &[
            (
                Power::England,
                "F Lon - NTH\nF Edi - NWG\nA Lvp - Yor\nPRESS TO F\nShall we split the Channel?\nENDPRESS\n",
            ),
            (Power::France, "A Par - Bur\nA Mar - Spa\nF Bre - MAO\n"),
            (Power::Germany, "A Mun - Ruh\nA Ber - Mun\nF Kie - Den\n"),
            (Power::Austria, "A Vie - Gal\nA Bud - Ser\nF Tri - Alb\n"),
            (Power::Russia, "A War - Gal\nF Sev - Bla\n"),
            (Power::Turkey, "F Ank - Bla\nA Con - Bul\n"),
        ],
    },
    ScriptPhase {
        phase: "F1901M",
        orders: &[
            (Power::England, "F NTH - Nwy\n"),
            (Power::France, "A Bur H\nA Spa - Por\nF MAO H\n"),
            (
                Power::Germany,
                "A Ruh - Bur\nA Mun S A Ruh - Bur\nF Den H\n",
            ),
            (Power::Turkey, "A Bul - Gre\n"),
        ],
    },
    ScriptPhase {
        phase: "F1901R",
        orders: &[(Power::France, "A Bur - Gas\n")],
    },
    ScriptPhase {
        phase: "W1901A",
        orders: &[
            (Power::Germany, "BUILD A Ber\n"),
            (Power::France, "BUILD F Bre\n"),
            (Power::England, "BUILD F Lon\n"),
        ],
    },
    ScriptPhase {
        phase: "S1902M",
        orders: &[
            (Power::France, "A Gas - Mar\nF Bre - ENG\n"),
            (Power::Germany, "A Bur - Par\nA Mun - Ruh\n"),
        ],
    },
    ScriptPhase {
        phase: "F1902M",
        orders: &[(Power::England, "F Nwy H\nF Lon H\n")],
    },
    ScriptPhase {
        phase: "W1902A",
        orders: &[],
    },
];

/// The password of player `i` (0-based) in scripted games.
pub fn player_password(i: usize) -> String {
    format!("password{i}")
}

/// The master's password in scripted games.
pub const MASTER_PASSWORD: &str = "gmpass-01";

/// `CREATE ?game password`.
pub fn create(game: &str) -> String {
    format!("CREATE ?{game} {MASTER_PASSWORD}\n")
}

/// Player `i` joins.
pub fn join(game: &str, i: usize) -> String {
    format!("SIGNON ?{game} {}\n", player_password(i))
}

/// `body` signed on as `power` by player `i`.
pub fn signed(game: &str, power: Power, i: usize, body: &str) -> String {
    format!(
        "SIGNON {}{game} {}\n{body}",
        power.initial(),
        player_password(i)
    )
}

/// The master processes the current phase.
pub fn process(game: &str) -> String {
    format!("SIGNON M{game} {MASTER_PASSWORD}\nPROCESS!\n")
}

/// The seats announced in the judge's "Game Starting" mail: its `  England:  address`
/// lines.
pub fn seats_in_start_mail(body: &str) -> Vec<(Power, String)> {
    body.lines()
        .filter_map(|line| {
            let (name, addr) = line.trim().split_once(':')?;
            let power = Power::from_name(name.trim())?;
            // `Anna <anna@example.org>` or a bare address.
            let addr = addr.trim();
            let addr = match (addr.rfind('<'), addr.strip_suffix('>')) {
                (Some(i), Some(inner)) => inner.get(i + 1..).unwrap_or(addr),
                _ => addr,
            };
            // A copy that hides an address writes njudge's `someone@somewhere`.
            (addr.contains('@') && addr != crate::bulletin::settings::SOMEONE)
                .then(|| (power, addr.to_ascii_lowercase()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_are_read_from_the_start_mail() {
        let body = "Game 'demo' has started. The powers are:\n\n  Austria:  p6@example.test\n  England:  P1@example.test\n\nThe first phase is Movement for Spring of 1901.\n";
        assert_eq!(
            seats_in_start_mail(body),
            vec![
                (Power::Austria, "p6@example.test".to_string()),
                (Power::England, "p1@example.test".to_string())
            ]
        );
    }
}
