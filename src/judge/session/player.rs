//! A player's commands, dispatched: HELP and VERSION are answered here; every other
//! command goes to its family's unit in `judge::commands` (sign-on and joining, seats,
//! votes, the schedule, records and listings, people) or, for a setting of the address,
//! to [`address`](super::address).

use crate::bulletin::{answers, listing};
use crate::command::PlayerCommand;

use super::super::confirm::AddressRequest;
use super::super::refusal::Refusal;
use super::{Done, Session, Verdict};

impl Session<'_, '_> {
    /// The game a command names, or (a bare `HISTORY`, `SUMMARY`, `WHOGAME` after SIGNON)
    /// the one the mail signed on to.
    fn named_or_signed_on(
        &self,
        game: Option<&crate::command::GameName>,
    ) -> Result<String, Refusal> {
        match (game, self.game.as_ref()) {
            (Some(name), _) => Ok(name.to_string()),
            (None, Some(g)) => Ok(g.name().to_string()),
            (None, None) => Err(Refusal::NotSignedOn),
        }
    }

    pub(super) fn player(&mut self, cmd: &PlayerCommand) -> Verdict {
        use PlayerCommand as P;
        match cmd {
            // In a game, its rule set's commands follow the judge's.
            P::Help => Done::with_more("HELP", listing::help(self.variant)),
            P::Version => Done::ok(answers::version()),
            // Records and listings (`commands::listings`).
            P::List { game: None } => self.list(),
            P::List { game: Some(name) } => self.list_game(name.as_str()),
            P::ListFull => self.list_full(),
            P::ListPage { full: false, page } => self.list_page(*page),
            P::ListPage { full: true, page } => self.list_full_page(*page),
            P::Map { game, phase } => self.map(game.as_str(), *phase),
            P::MapAll { game } => self.map_all(game.as_str()),
            P::Summary { game } => {
                let name = self.named_or_signed_on(game.as_ref())?;
                self.summary(&name)
            }
            P::WhoGame { game } => {
                let name = self.named_or_signed_on(game.as_ref())?;
                self.list_game(&name)
            }
            P::Export { game } => self.export(game.as_str()),
            P::History {
                game,
                from,
                to,
                lines,
                exclude,
            } => {
                let name = self.named_or_signed_on(game.as_ref())?;
                self.history(cmd, &name, (*from, *to), *lines, exclude)
            }
            // Settings of the address, confirmed by it (`address`); players as people
            // (issue 31): a profile and a link are settings of the address too.
            P::SetMap { on } => self.address_request(AddressRequest::Map(*on)),
            P::Register { fields, closed } => {
                self.address_request(AddressRequest::Register(fields.clone(), *closed))
            }
            P::AlsoAt { address } => self.address_request(AddressRequest::AlsoAt(address.clone())),
            P::Unobserve { game } => {
                self.address_request(AddressRequest::Unobserve(game.to_string()))
            }
            P::Observe { game, .. } => {
                self.address_request(AddressRequest::Observe(game.to_string()))
            }
            P::Confirm { code } => self.confirm(code),
            // A bare WHOIS (`GET DEDICATION`, `INFO PLAYER`): the sender's own record.
            P::Whois { who } if who.is_empty() => self.whois(&self.msg.from.clone()),
            P::Whois { who } => self.whois(who),
            // njudge's words done otherwise, and PHASE (`commands::settings`, `orders`).
            P::Njudge(w) => self.njudge_word(*w),
            P::Phase { phase } => self.phase(*phase),
            // Sign-on and joining (`commands::signon`).
            P::Create {
                game,
                password,
                variant,
                options,
            } => self.create(game.as_str(), password, variant.as_deref(), options),
            P::Signon {
                who,
                game,
                password,
                code,
            } => self.signon(*who, game.as_str(), password, code.as_deref()),
            P::SetPreference { powers } => self.preference(powers),
            P::Signoff => Done::ok("SIGNOFF"),
            // The seat (`commands::seats`), its votes (`commands::votes`), its absences
            // (`commands::schedule`) and its orders (`commands::orders`).
            P::SetPassword { password } => self.set_password(password),
            // njudge's bare SET ADDRESS: the address the mail came from.
            P::SetAddress { address } if address.is_empty() => {
                self.set_address(&self.msg.from.clone())
            }
            P::SetAddress { address } => self.set_address(address),
            P::SetWait => self.set_wait(true),
            P::SetNoWait => self.set_wait(false),
            P::Resign => self.resign(),
            P::SetDraw { powers } => self.draw_vote(powers),
            P::SetNoDraw => self.no_draw(),
            P::SetConcede { to } => self.concede(*to),
            P::SetNoConcede => self.no_concede(),
            P::SetAbsence { from, to } => self.absence(*from, *to),
            P::SetNoAbsence { date } => self.no_absence(*date),
            P::Clear => self.clear(),
        }
    }
}
