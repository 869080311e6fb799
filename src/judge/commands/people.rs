//! Players as people (issue 31): `WHOIS`, the reliability record of an address (counted
//! over every address of its person), the entry gates a SIGNON must pass, and the records
//! in the master's `LIST`. `REGISTER` and `I AM ALSO` are settings of an address
//! (`address`): they wait for its confirmation like the others.

use crate::bulletin::people;
use crate::game::{Game, Record};
use crate::store::{MAX_NAMESAKES, StoreError};

use super::super::refusal::{Refusal, SessionError};
use super::super::session::{Done, Session, Verdict};

impl Session<'_, '_> {
    /// Every address of the person at `address` (itself alone if it never registered or
    /// was linked).
    fn addresses_of(&self, address: &str) -> Result<Vec<String>, StoreError> {
        Ok(match self.tx.person_of(address)? {
            Some(p) => {
                let mut all = self.tx.addresses_of(p)?;
                if !all.iter().any(|a| a.eq_ignore_ascii_case(address)) {
                    all.push(address.to_string());
                }
                all
            }
            None => vec![address.to_string()],
        })
    }

    /// The reliability record of the person at `address`.
    pub(in crate::judge) fn record_of(&self, address: &str) -> Result<Record, StoreError> {
        let addresses = self.addresses_of(address)?;
        let seats = self.tx.seats_of(&addresses)?;
        Ok(Record::of(&seats, &addresses))
    }

    /// Whether the reply address passes `g`'s entry gates (njudge's `mail_access`); a game
    /// with none is not looked at.
    pub(in crate::judge) fn passes_gates(&self, g: &Game) -> Result<(), SessionError> {
        if g.settings().gates.is_open() {
            return Ok(());
        }
        let record = self.record_of(self.msg.reply_address())?;
        g.settings()
            .gates
            .admits(&record)
            .map_err(|r| Refusal::gate(g.name(), r).into())
    }

    /// `WHOIS address` or `WHOIS name`: the public fields of each person found, and their
    /// record. An address is never shown unless its owner made the field that holds it
    /// public.
    pub(in crate::judge) fn whois(&self, who: &str) -> Verdict {
        let mut more = Vec::new();
        if who.contains('@') {
            let profile = match self.tx.person_of(who)? {
                Some(p) => self.tx.profile(p)?,
                None => Vec::new(),
            };
            let record = self.record_of(who)?;
            if profile.is_empty() && record.seats == 0 && self.tx.person_of(who)?.is_none() {
                return Err(Refusal::Unknown(who.to_string()).into());
            }
            more.extend(people::whois(who, &profile, &record));
        } else {
            let found = self.tx.people_named(who)?;
            if found.is_empty() {
                return Err(Refusal::Unknown(who.to_string()).into());
            }
            for p in found.into_iter().take(MAX_NAMESAKES) {
                let profile = self.tx.profile(p)?;
                let addresses = self.tx.addresses_of(p)?;
                let seats = self.tx.seats_of(&addresses)?;
                let record = Record::of(&seats, &addresses);
                more.extend(people::whois(who, &profile, &record));
            }
        }
        Done::with_more(people::whois_echo(who), more)
    }

    /// The players' records, for the master's `LIST game`: each played seat's (or, while
    /// the game forms, each joiner's).
    pub(in crate::judge) fn records_for_master(&self, g: &Game) -> Result<Vec<String>, StoreError> {
        let mut out = vec![people::LIST_HEADING.to_string()];
        if g.players().is_empty() {
            for j in g.joiners() {
                let r = self.record_of(&j.seat.address)?;
                out.push(people::list_joiner_record(&j.seat.address, &r));
            }
        } else {
            for pl in g.players().iter().filter(|p| p.is_playing()) {
                let r = self.record_of(&pl.seat.address)?;
                out.push(people::list_record(pl.power, &pl.seat.address, &r));
            }
        }
        Ok(out)
    }
}
