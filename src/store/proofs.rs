//! Proofs of verified passwords (migration 11): keyed MACs the judge made of (stored hash,
//! password) when argon2id said yes, each with the day it was last used. The key is not in
//! the database (`judge::password`), so a copy of the database cannot test a guess with
//! them. A proof unused for long is forgotten.

use chrono::NaiveDate;
use rusqlite::{OptionalExtension, params};

use super::{StoreError, Tx};

fn day(d: NaiveDate) -> String {
    d.format("%Y-%m-%d").to_string()
}

impl Tx<'_> {
    /// Whether `tag` is a kept proof; a proof found is marked used on `today` (one write a
    /// proof a day at most).
    pub fn password_proof(&self, tag: &[u8; 32], today: NaiveDate) -> Result<bool, StoreError> {
        let used: Option<String> = self
            .query_row(
                "SELECT used_on FROM password_proofs WHERE tag = ?1",
                params![tag.as_slice()],
                |r| r.get(0),
            )
            .optional()?;
        let Some(used) = used else {
            return Ok(false);
        };
        let today = day(today);
        if used < today {
            self.execute(
                "UPDATE password_proofs SET used_on = ?2 WHERE tag = ?1",
                params![tag.as_slice(), today],
            )?;
        }
        Ok(true)
    }

    /// Keeps a proof, used on `today`.
    pub fn keep_password_proof(&self, tag: &[u8; 32], today: NaiveDate) -> Result<(), StoreError> {
        self.execute(
            "INSERT INTO password_proofs (tag, used_on) VALUES (?1, ?2)
             ON CONFLICT(tag) DO UPDATE SET used_on = excluded.used_on",
            params![tag.as_slice(), day(today)],
        )?;
        Ok(())
    }

    /// Forgets the proofs last used before `day`; returns how many.
    pub fn forget_password_proofs(&self, before: NaiveDate) -> Result<usize, StoreError> {
        Ok(self.execute(
            "DELETE FROM password_proofs WHERE used_on < ?1",
            params![day(before)],
        )?)
    }

    /// How many proofs are kept (tests, the benchmark).
    pub fn password_proof_count(&self) -> Result<u64, StoreError> {
        let n: i64 = self.query_row("SELECT count(*) FROM password_proofs", [], |r| r.get(0))?;
        Ok(u64::try_from(n).unwrap_or(0))
    }
}
