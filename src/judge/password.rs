//! Passwords: argon2id hashes with salts from the judge's seed; never stored or echoed in
//! clear; a verified password remembered as a keyed MAC only (in the database under the
//! judge's secret, else in the process's memory).

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use blake2::Blake2bMac;
use blake2::digest::consts::U32;
use blake2::digest::{KeyInit, Mac};

use crate::store::{StoreError, Tx};

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

/// The judge's secret for the MACs of verified passwords (`<database>.secret`, made by the
/// operator's side of the judge, never kept in the database): under it, what a process
/// verified is remembered in the database and trusted by the next process (a `process`
/// run from cron does not pay argon2id for every seat on every pass). Shown as
/// `PasswordKey(..)`: it never reaches a log.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PasswordKey(pub [u8; 32]);

impl std::fmt::Debug for PasswordKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PasswordKey(..)")
    }
}

/// Most (hash, password) MACs [`Verified`] keeps in memory when it has no judge's secret
/// (then nothing is kept in the database); past it, a random one makes room, so a judge
/// with more seats than this still finds most of them (the old cache was emptied when
/// full, and beyond 4,096 seats every order mail paid argon2id again).
const MEMORY_CAPACITY: usize = 65_536;

/// A proof unused for this many days is forgotten (its seat pays one argon2id check when
/// it signs on again): a changed password's proofs, and finished games', do not pile up.
pub const PROOF_DAYS: i64 = 100;

/// The passwords this judge has verified, so a player's next mail with the same password
/// costs a MAC instead of an argon2 verify (every order mail carries a SIGNON; one argon2
/// verify at the default cost is ~3 ms of CPU, the largest part of handling an order mail).
///
/// Only successes are remembered, and only as a BLAKE2b MAC of (stored hash, password)
/// under a key no reader of the database has: no password or hash is kept in clear, the
/// MACs are useless without the key, and a wrong password always pays the full argon2 cost.
/// The MAC covers the stored hash, so a changed password (or a new game with the same one)
/// misses. With the judge's secret ([`PasswordKey`]) the MACs are kept in the database
/// (`password_proofs`, with the day each was last used; `docs/decisions.md` says why this
/// is safe); without one, in this process's memory under a key drawn from the OS, at most
/// [`MEMORY_CAPACITY`].
pub struct Verified {
    key: Option<[u8; 32]>,
    /// Whether the MACs go to the database (the key is the judge's secret).
    persistent: bool,
    /// Without the judge's secret: the MACs, and where each sits in `order`.
    memory: std::collections::HashMap<[u8; 32], usize>,
    order: Vec<[u8; 32]>,
    evict: crate::sim::Rng,
    /// Passwords checked by this process, remembered or not (what the sign-on throttle
    /// bounds; the tests read it).
    checks: u64,
    /// Of those, the ones argon2id decided (not remembered).
    argon2_checks: u64,
    /// The first store failure met while verifying in a transaction: that transaction must
    /// not commit ([`Verified::take_failure`]).
    failure: Option<StoreError>,
    /// The day of the mail being handled (a proof's last use; the judge reads no clock).
    today: chrono::NaiveDate,
}

impl Verified {
    /// A cache under `key` (in memory); `None` disables it (every check is an argon2
    /// verify).
    pub fn new(key: Option<[u8; 32]>) -> Self {
        let seed = key.map_or(0, |k| {
            k.iter()
                .take(8)
                .fold(0u64, |acc, b| (acc << 8) | u64::from(*b))
        });
        Verified {
            key,
            persistent: false,
            memory: std::collections::HashMap::new(),
            order: Vec::new(),
            evict: crate::sim::Rng::new(seed),
            checks: 0,
            argon2_checks: 0,
            failure: None,
            today: chrono::NaiveDate::MIN,
        }
    }

    /// Starts the checks of one transaction, at `now` (each proof keeps the day it was last
    /// used): a failure met in an earlier one is forgotten with it.
    pub fn begin(&mut self, now: chrono::DateTime<chrono::Utc>) {
        self.today = now.date_naive();
        self.failure = None;
    }

    /// A cache under the judge's secret, kept in the database.
    pub fn persistent(key: PasswordKey) -> Self {
        Verified {
            persistent: true,
            ..Verified::new(Some(key.0))
        }
    }

    /// A cache keyed with the OS's randomness (in memory), or a disabled one if there is
    /// none.
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

    /// How many of those argon2id decided (not remembered: the costly ones).
    pub fn argon2_checks(&self) -> u64 {
        self.argon2_checks
    }

    /// The store failure met while verifying since the last call, if any: the transaction
    /// the checks ran in must be rolled back (a statement that failed may have ended it).
    pub fn take_failure(&mut self) -> Option<StoreError> {
        self.failure.take()
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

    /// Whether `password` matches the stored hash, as [`verify`] says, remembering a
    /// success (in `tx`'s database with the judge's secret). A store failure counts as a
    /// miss and is kept for [`Verified::take_failure`].
    pub fn verify(&mut self, tx: &Tx<'_>, stored: &str, password: &str) -> bool {
        self.checks += 1;
        let tag = self.tag(stored, password);
        if let Some(t) = tag
            && self.failure.is_none()
            && self.remembers(tx, &t)
        {
            return true;
        }
        self.argon2_checks += 1;
        let ok = verify(stored, password);
        if ok && let Some(t) = tag {
            self.remember(tx, t);
        }
        ok
    }

    fn remembers(&mut self, tx: &Tx<'_>, tag: &[u8; 32]) -> bool {
        if !self.persistent {
            return self.memory.contains_key(tag);
        }
        match tx.password_proof(tag, self.today) {
            Ok(found) => found,
            Err(e) => {
                self.failure.get_or_insert(e);
                false
            }
        }
    }

    fn remember(&mut self, tx: &Tx<'_>, tag: [u8; 32]) {
        if self.persistent {
            if self.failure.is_none()
                && let Err(e) = tx.keep_password_proof(&tag, self.today)
            {
                self.failure = Some(e);
            }
            return;
        }
        if self.memory.contains_key(&tag) {
            return;
        }
        if self.order.len() >= MEMORY_CAPACITY {
            let i = self.evict.below(self.order.len());
            let last = self.order.len() - 1;
            self.order.swap(i, last);
            if let Some(gone) = self.order.pop() {
                self.memory.remove(&gone);
            }
            if let Some(moved) = self.order.get(i) {
                self.memory.insert(*moved, i);
            }
        }
        self.memory.insert(tag, self.order.len());
        self.order.push(tag);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    /// Runs `f` in a transaction of `store` (which must succeed).
    fn within<T>(store: &mut Store, f: impl FnOnce(&Tx<'_>) -> T) -> T {
        store
            .transaction(|tx| Ok::<_, StoreError>(f(tx)))
            .expect("transaction")
    }

    #[test]
    fn verified_passwords_are_remembered_and_wrong_ones_never() {
        let mut store = Store::open_in_memory().unwrap();
        let h = hash(PasswordCost::TEST, "secret", 7);
        let mut v = Verified::new(Some([9; 32]));
        within(&mut store, |tx| {
            assert!(!v.verify(tx, &h, "wrong"));
            assert!(v.memory.is_empty(), "a failure is not remembered");
            assert!(v.verify(tx, &h, "secret"));
            assert!(v.verify(tx, &h, "secret"));
            assert_eq!(v.memory.len(), 1);
            assert!(!v.verify(tx, &h, "Secret"));
            // Another hash of the same password (a changed password, another seat) is a
            // miss that argon2 decides.
            let other = hash(PasswordCost::TEST, "other", 8);
            assert!(!v.verify(tx, &other, "secret"));
            assert!(v.verify(tx, &other, "other"));
            assert_eq!(v.memory.len(), 2);
            assert_eq!((v.checks(), v.argon2_checks()), (6, 5));
            // Nothing went to the database without the judge's secret.
            assert_eq!(tx.password_proof_count().unwrap(), 0);
        });
        // Length-prefixing: moving bytes between hash and password changes the tag.
        assert_ne!(v.tag("ab", "c"), v.tag("a", "bc"));
        // Disabled: always argon2, nothing kept.
        let mut off = Verified::new(None);
        within(&mut store, |tx| {
            assert!(off.verify(tx, &h, "secret"));
            assert!(!off.verify(tx, &h, "wrong"));
        });
        assert!(off.memory.is_empty());
        assert_eq!(off.argon2_checks(), 2);
    }

    #[test]
    fn past_its_capacity_the_memory_forgets_one_at_random_not_everything() {
        let mut store = Store::open_in_memory().unwrap();
        let h = hash(PasswordCost::TEST, "pw", 1);
        let mut v = Verified::new(Some([1; 32]));
        let extra = 1000;
        let tags: Vec<[u8; 32]> = (0..MEMORY_CAPACITY + extra)
            .map(|i| v.tag(&h, &format!("fake{i}")).unwrap())
            .collect();
        within(&mut store, |tx| {
            for t in &tags {
                v.remember(tx, *t);
            }
        });
        assert_eq!(v.memory.len(), MEMORY_CAPACITY);
        assert_eq!(v.order.len(), MEMORY_CAPACITY);
        // Every index points at its own entry.
        for (i, t) in v.order.iter().enumerate() {
            assert_eq!(v.memory.get(t), Some(&i));
        }
        // Of the first entries, only about `extra` in `MEMORY_CAPACITY` are gone.
        let kept = tags
            .iter()
            .take(extra)
            .filter(|t| v.memory.contains_key(*t))
            .count();
        assert!(kept > extra * 9 / 10, "{kept} of {extra} kept");
    }

    #[test]
    fn under_the_judges_secret_a_proof_outlives_the_process_and_only_that_key_reads_it() {
        let mut store = Store::open_in_memory().unwrap();
        let h = hash(PasswordCost::TEST, "secret", 7);
        let day = |d: u32| {
            chrono::TimeZone::with_ymd_and_hms(&chrono::Utc, 2026, 3, d, 12, 0, 0).unwrap()
        };
        let key = PasswordKey([5; 32]);
        let mut first = Verified::persistent(key);
        first.begin(day(1));
        within(&mut store, |tx| {
            assert!(!first.verify(tx, &h, "wrong"));
            assert!(first.verify(tx, &h, "secret"));
            assert_eq!(tx.password_proof_count().unwrap(), 1, "only the success");
        });
        assert_eq!(first.argon2_checks(), 2);
        assert!(
            first.memory.is_empty(),
            "kept in the database, not in memory"
        );
        // The next process (cron's next `process`) trusts the proof: no argon2.
        let mut next = Verified::persistent(key);
        next.begin(day(2));
        within(&mut store, |tx| {
            assert!(next.verify(tx, &h, "secret"));
            assert!(!next.verify(tx, &h, "wrong"));
        });
        assert_eq!((next.checks(), next.argon2_checks()), (2, 1));
        // Another key (the database copied without its secret) reads nothing from it.
        let mut thief = Verified::persistent(PasswordKey([6; 32]));
        thief.begin(day(2));
        within(&mut store, |tx| assert!(thief.verify(tx, &h, "secret")));
        assert_eq!(thief.argon2_checks(), 1);
        within(&mut store, |tx| {
            assert_eq!(tx.password_proof_count().unwrap(), 2);
            // Used on day 2 (both): nothing before day 2 goes; before day 3 both go.
            let d2 = day(2).date_naive();
            assert_eq!(tx.forget_password_proofs(d2).unwrap(), 0);
            let d3 = day(3).date_naive();
            assert_eq!(tx.forget_password_proofs(d3).unwrap(), 2);
        });
        // Forgotten: argon2 decides again, and the proof is kept again.
        within(&mut store, |tx| assert!(next.verify(tx, &h, "secret")));
        assert_eq!(next.argon2_checks(), 2);
    }

    #[test]
    fn a_proof_that_cannot_be_kept_fails_the_transaction() {
        let mut store = Store::open_in_memory().unwrap();
        let h = hash(PasswordCost::TEST, "secret", 7);
        let mut v = Verified::persistent(PasswordKey([5; 32]));
        // The proof's write fails; the commit after it would not.
        store.set_write_faults(Some(crate::store::WriteFaults::new(1, false)));
        within(&mut store, |tx| {
            // argon2 still decides: the mail is answered as it should be...
            assert!(v.verify(tx, &h, "secret"));
        });
        // ...but its transaction must not stand.
        assert!(v.take_failure().is_some());
        v.begin(chrono::Utc::now());
        assert!(v.take_failure().is_none(), "a new transaction starts clean");
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
