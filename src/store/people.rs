//! Players as people (issue 31): the profiles registered (`REGISTER` … `END`), the
//! addresses that belong to each person (`I AM ALSO`), and the games' seats a person's
//! reliability record is counted from.

use chrono::{DateTime, Utc};
use rusqlite::{OptionalExtension, params};

use super::{StoreError, Tx, ts};
use crate::game::GameSeats;

/// A person: who registered, by id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PersonId(pub i64);

/// The most people `WHOIS name` finds.
pub const MAX_NAMESAKES: usize = 5;

impl Tx<'_> {
    /// Keeps which addresses held a seat of `game` (its tenures) for [`Tx::seats_of`]:
    /// called with each save of the game.
    pub(super) fn keep_tenure_addresses(&self, game: &crate::game::Game) -> Result<(), StoreError> {
        self.execute(
            "DELETE FROM tenure_addresses WHERE game = ?1",
            params![game.name()],
        )?;
        let mut st = self.tx.prepare_cached(
            "INSERT OR IGNORE INTO tenure_addresses (address, game) VALUES (lower(?1), ?2)",
        )?;
        for t in game.tenures() {
            st.execute(params![t.address, game.name()])?;
        }
        Ok(())
    }

    /// The person an address belongs to, if it registered or was linked.
    pub fn person_of(&self, address: &str) -> Result<Option<PersonId>, StoreError> {
        Ok(self
            .query_row(
                "SELECT person FROM person_addresses WHERE address = ?1",
                params![address],
                |r| r.get(0),
            )
            .optional()?
            .map(PersonId))
    }

    /// A person's addresses, in the order they were linked.
    pub fn addresses_of(&self, person: PersonId) -> Result<Vec<String>, StoreError> {
        let mut st = self.tx.prepare_cached(
            "SELECT address FROM person_addresses WHERE person = ?1 ORDER BY linked_at, address",
        )?;
        let rows = st.query_map(params![person.0], |r| r.get::<_, String>(0))?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// A person's profile: the fields as registered, in order (empty: linked, never
    /// registered).
    pub fn profile(&self, person: PersonId) -> Result<Vec<(String, String)>, StoreError> {
        let json: Option<String> = self
            .query_row(
                "SELECT profile FROM people WHERE id = ?1",
                params![person.0],
                |r| r.get(0),
            )
            .optional()?;
        Ok(json
            .and_then(|j| serde_json::from_str(&j).ok())
            .unwrap_or_default())
    }

    /// Records `fields` as the profile of the person at `address` (a new person if the
    /// address has none yet); a second registration replaces the profile.
    pub fn register(
        &self,
        address: &str,
        fields: &[(String, String)],
        at: DateTime<Utc>,
    ) -> Result<PersonId, StoreError> {
        let json = serde_json::to_string(fields).unwrap_or_else(|_| "[]".into());
        if let Some(p) = self.person_of(address)? {
            self.execute(
                "UPDATE people SET profile = ?1, updated_at = ?2 WHERE id = ?3",
                params![json, ts(at), p.0],
            )?;
            return Ok(p);
        }
        self.new_person(address, &json, at)
    }

    fn new_person(
        &self,
        address: &str,
        profile: &str,
        at: DateTime<Utc>,
    ) -> Result<PersonId, StoreError> {
        self.execute(
            "INSERT INTO people (profile, registered_at, updated_at) VALUES (?1, ?2, ?2)",
            params![profile, ts(at)],
        )?;
        let id = PersonId(self.tx.last_insert_rowid());
        self.execute(
            "INSERT INTO person_addresses (address, person, linked_at) VALUES (?1, ?2, ?3)",
            params![address, id.0, ts(at)],
        )?;
        Ok(id)
    }

    /// Links `also` to the person at `address` (made, with no profile, if `address` has
    /// none): `also` and every address of its own person join them. A person left with no
    /// address is forgotten; the profile kept is `address`'s (its own, if it has one; else
    /// the one `also` brought).
    pub fn link_address(
        &self,
        address: &str,
        also: &str,
        at: DateTime<Utc>,
    ) -> Result<PersonId, StoreError> {
        let person = match self.person_of(address)? {
            Some(p) => p,
            None => self.new_person(address, "[]", at)?,
        };
        match self.person_of(also)? {
            Some(old) if old == person => {}
            Some(old) => {
                if self.profile(person)?.is_empty() {
                    self.execute(
                        "UPDATE people SET profile = (SELECT profile FROM people WHERE id = ?1)
                         WHERE id = ?2",
                        params![old.0, person.0],
                    )?;
                }
                self.execute(
                    "UPDATE person_addresses SET person = ?1 WHERE person = ?2",
                    params![person.0, old.0],
                )?;
                self.execute("DELETE FROM people WHERE id = ?1", params![old.0])?;
            }
            None => {
                self.execute(
                    "INSERT INTO person_addresses (address, person, linked_at) VALUES (?1, ?2, ?3)",
                    params![also, person.0, ts(at)],
                )?;
            }
        }
        Ok(person)
    }

    /// The people whose registered `Name` is `name` (letter case and outer blanks
    /// ignored), at most [`MAX_NAMESAKES`].
    pub fn people_named(&self, name: &str) -> Result<Vec<PersonId>, StoreError> {
        let mut st = self.tx.prepare_cached(
            "SELECT id FROM people WHERE EXISTS (
                 SELECT 1 FROM json_each(people.profile) f
                 WHERE lower(json_extract(f.value, '$[0]')) = 'name'
                   AND lower(trim(json_extract(f.value, '$[1]'))) = lower(trim(?1)))
             ORDER BY id LIMIT ?2",
        )?;
        let limit = i64::try_from(MAX_NAMESAKES).unwrap_or(5);
        let rows = st.query_map(params![name, limit], |r| r.get::<_, i64>(0))?;
        Ok(rows
            .map(|r| r.map(PersonId))
            .collect::<Result<Vec<_>, _>>()?)
    }

    /// The seats of every game in which one of `addresses` held a seat, as the reliability
    /// record reads them ([`GameSeats`]): the games `tenure_addresses` names for them (kept
    /// with each save), not every stored game. A game whose state cannot be read (it will
    /// be suspended when it is played) counts for nothing.
    pub fn seats_of(&self, addresses: &[String]) -> Result<Vec<GameSeats>, StoreError> {
        let mut out = Vec::new();
        let mut st = self.tx.prepare_cached(
            "SELECT name, state FROM games WHERE suspended IS NULL
             AND name IN (SELECT game FROM tenure_addresses WHERE address = ?1)
             ORDER BY name",
        )?;
        let mut seen = std::collections::BTreeSet::new();
        for address in addresses {
            let needle = address.to_ascii_lowercase();
            let rows = st.query_map(params![needle], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
            })?;
            for row in rows {
                let (name, json) = row?;
                if !seen.insert(name.to_ascii_lowercase()) {
                    continue;
                }
                if let Ok(g) = serde_json::from_str::<GameSeats>(&json) {
                    out.push(g);
                }
            }
        }
        Ok(out)
    }
}
