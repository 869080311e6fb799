//! Passwords: argon2id hashes with salts from the judge's seed; never stored or echoed in
//! clear; a verified password remembered for the process as a keyed MAC only.

use std::collections::HashSet;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use blake2::Blake2bMac;
use blake2::digest::consts::U32;
use blake2::digest::{KeyInit, Mac};

/// How expensive a hash is. Every order mail verifies one password, so the cost bounds the
/// judge's throughput: the default (4 MiB, 1 pass, a few milliseconds) keeps a judge above
/// 100 mails a second on two cores while still making a stolen database slow to attack.
/// OWASP's minimum for login servers is 19 MiB and 2 passes; `judge.toml` can raise it.
/// Tests use the cheapest setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PasswordCost {
    pub memory_kib: u32,
    pub iterations: u32,
}

impl Default for PasswordCost {
    fn default() -> Self {
        PasswordCost {
            memory_kib: 4 * 1024,
            iterations: 1,
        }
    }
}

impl PasswordCost {
    /// The cheapest setting argon2 allows: for tests only.
    pub const TEST: PasswordCost = PasswordCost {
        memory_kib: 8,
        iterations: 1,
    };

    fn hasher(self) -> Option<Argon2<'static>> {
        let params = Params::new(self.memory_kib.max(8), self.iterations.max(1), 1, None).ok()?;
        Some(Argon2::new(Algorithm::Argon2id, Version::V0x13, params))
    }
}

/// The fewest characters a new password may have (CREATE, joining a game, SET PASSWORD):
/// a password is all that stands between a seat and anyone who knows the game's name.
pub const MIN_PASSWORD_CHARS: usize = 8;

/// Whether `password` is long enough to be chosen now ([`MIN_PASSWORD_CHARS`]); passwords
/// chosen before the minimum still sign on.
pub fn long_enough(password: &str) -> bool {
    password.chars().count() >= MIN_PASSWORD_CHARS
}

/// Hashes a password with a salt made from `salt_seed`.
pub fn hash(cost: PasswordCost, password: &str, salt_seed: u64) -> String {
    let mut rng = crate::sim::Rng::new(salt_seed);
    let bytes: Vec<u8> = (0..2).flat_map(|_| rng.next_u64().to_le_bytes()).collect();
    let hashed = SaltString::encode_b64(&bytes).ok().and_then(|salt| {
        cost.hasher()?
            .hash_password(password.as_bytes(), &salt)
            .ok()
            .map(|h| h.to_string())
    });
    // A hash that cannot be made is an impossible string: nothing will ever verify.
    hashed.unwrap_or_else(|| "!".to_string())
}

/// Whether `password` matches the stored hash (the parameters come from the hash itself).
pub fn verify(stored: &str, password: &str) -> bool {
    match PasswordHash::new(stored) {
        Ok(h) => Argon2::default()
            .verify_password(password.as_bytes(), &h)
            .is_ok(),
        Err(_) => false,
    }
}

/// Most (hash, password) pairs [`Verified`] remembers before it starts again.
const VERIFIED_CAPACITY: usize = 4096;

/// The passwords this process has verified, so a player's next mail with the same password
/// costs a MAC instead of an argon2 verify (every order mail carries a SIGNON; one argon2
/// verify at the default cost is ~3 ms of CPU, the largest part of handling an order mail).
///
/// Only successes are remembered, and only as a BLAKE2b MAC under a key drawn from the OS
/// when the process starts: no password or hash is kept in clear, the MACs are useless to
/// anyone without the key, and a wrong password always pays the full argon2 cost. The key
/// covers the stored hash, so a changed password (or a new game with the same one) misses.
/// Bounded: at [`VERIFIED_CAPACITY`] entries it is emptied and fills again.
pub struct Verified {
    key: Option<[u8; 32]>,
    entries: HashSet<[u8; 32]>,
    /// Passwords checked by this process, remembered or not (what the sign-on throttle
    /// bounds; the tests read it).
    checks: u64,
}

impl Verified {
    /// A cache under `key`; `None` disables it (every check is an argon2 verify).
    pub fn new(key: Option<[u8; 32]>) -> Self {
        Verified {
            key,
            entries: HashSet::new(),
            checks: 0,
        }
    }

    /// A cache keyed with the OS's randomness, or a disabled one if there is none.
    pub fn from_os() -> Self {
        let mut key = [0u8; 32];
        let ok = getrandom::fill(&mut key).is_ok();
        if !ok {
            tracing::warn!("no OS randomness: every password check pays the full argon2 cost");
        }
        Verified::new(ok.then_some(key))
    }

    /// How many passwords this process has checked.
    pub fn checks(&self) -> u64 {
        self.checks
    }

    fn tag(&self, stored: &str, password: &str) -> Option<[u8; 32]> {
        let key = self.key.as_ref()?;
        let mut mac = <Blake2bMac<U32> as KeyInit>::new_from_slice(key).ok()?;
        // Length-prefixed, so no two (hash, password) pairs give the same input.
        mac.update(&(stored.len() as u64).to_le_bytes());
        mac.update(stored.as_bytes());
        mac.update(password.as_bytes());
        Some(mac.finalize().into_bytes().into())
    }

    /// Whether `password` matches the stored hash, as [`verify`] says.
    pub fn verify(&mut self, stored: &str, password: &str) -> bool {
        self.checks += 1;
        let tag = self.tag(stored, password);
        if tag.is_some_and(|t| self.entries.contains(&t)) {
            return true;
        }
        let ok = verify(stored, password);
        if ok && let Some(t) = tag {
            if self.entries.len() >= VERIFIED_CAPACITY {
                self.entries.clear();
            }
            self.entries.insert(t);
        }
        ok
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verified_passwords_are_remembered_and_wrong_ones_never() {
        let h = hash(PasswordCost::TEST, "secret", 7);
        let mut v = Verified::new(Some([9; 32]));
        assert!(!v.verify(&h, "wrong"));
        assert!(v.entries.is_empty(), "a failure is not remembered");
        assert!(v.verify(&h, "secret"));
        assert!(v.verify(&h, "secret"));
        assert_eq!(v.entries.len(), 1);
        assert!(!v.verify(&h, "Secret"));
        // Another hash of the same password (a changed password, another seat) is a miss
        // that argon2 decides.
        let other = hash(PasswordCost::TEST, "other", 8);
        assert!(!v.verify(&other, "secret"));
        assert!(v.verify(&other, "other"));
        assert_eq!(v.entries.len(), 2);
        // Length-prefixing: moving bytes between hash and password changes the tag.
        assert_ne!(v.tag("ab", "c"), v.tag("a", "bc"));
        // Disabled: always argon2, nothing kept.
        let mut off = Verified::new(None);
        assert!(off.verify(&h, "secret"));
        assert!(!off.verify(&h, "wrong"));
        assert!(off.entries.is_empty());
    }

    #[test]
    fn the_cache_is_bounded() {
        let h = hash(PasswordCost::TEST, "pw", 1);
        let mut v = Verified::new(Some([1; 32]));
        for i in 0..VERIFIED_CAPACITY {
            v.entries.insert(v.tag(&h, &format!("fake{i}")).unwrap());
        }
        assert!(v.verify(&h, "pw"));
        assert_eq!(v.entries.len(), 1, "emptied, then the new entry");
    }

    #[test]
    fn hash_and_verify() {
        let h = hash(PasswordCost::TEST, "secret", 7);
        assert!(h.starts_with("$argon2id$"), "{h}");
        assert!(!h.contains("secret"));
        assert!(verify(&h, "secret"));
        assert!(!verify(&h, "Secret"));
        assert!(!verify("garbage", "secret"));
        assert_ne!(h, hash(PasswordCost::TEST, "secret", 8), "salts differ");
    }
}
