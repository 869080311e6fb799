//! Passwords: argon2id hashes with salts from the judge's seed; never stored or echoed in
//! clear.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

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

#[cfg(test)]
mod tests {
    use super::*;

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
