//! Press policy: who may send press to whom, signed or anonymous. Every press decision goes
//! through [`press_route`] (variants will add their filters there, hook H19).

use serde::{Deserialize, Serialize};

use crate::command::{Attribution, PressHeader, PressKind, PressTo, Recipient};
use crate::map::{Map, Power};
use crate::variant::Variant;

use super::Game;

pub use crate::command::{ObserverLevel, PressLevel};

fn any_level() -> ObserverLevel {
    ObserverLevel::Any
}

/// The game's press settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PressPolicy {
    pub level: PressLevel,
    /// Partial press: private press to some powers only.
    pub partial: bool,
    /// What observers read (`SET WATCH`; `NONE`: the game takes no observers). Stored under
    /// its first name, `observers`, which `SET OBSERVER` set before that word took
    /// njudge's meaning: a game stored then keeps what it meant.
    #[serde(rename = "observers")]
    pub watch: ObserverLevel,
    /// What observers may send (`SET OBSERVER`, njudge's; its default `ANY`, a game stored
    /// before it too), always within the game's press rules.
    #[serde(default = "any_level")]
    pub observer_press: ObserverLevel,
}

impl Default for PressPolicy {
    fn default() -> Self {
        PressPolicy {
            level: PressLevel::WhiteGrey,
            partial: true,
            watch: ObserverLevel::Any,
            observer_press: ObserverLevel::Any,
        }
    }
}

/// Who writes a press block: a seat (a power or the master, signed on with its password),
/// or one of the game's observers (signed on with its observer password).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Author {
    Seat(Sender),
    Observer,
}

pub use crate::variant::{Reader, Sender};

/// Where a press block goes and how it is signed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PressRoute {
    /// Every reader, in a fixed order: the sender excluded, but for a grey broadcast.
    pub readers: Vec<Reader>,
    /// Whether the sender's name is shown.
    pub signed: bool,
    /// Whether this is public (a broadcast every player sees): public press goes into the
    /// game's history; partial press never does.
    pub public: bool,
    /// The named recipients, for the header line (`to England, France`).
    pub named: Vec<Reader>,
    /// Whether the author gets a copy too (an observer is one of `Reader::Observers`): only
    /// of a grey broadcast, which reaches its author like everyone else.
    pub author_reads: bool,
}

/// Why a press block was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PressRefusal {
    #[error(
        "this game allows no press between players; press to the master (PRESS TO M) is always allowed"
    )]
    NoPress,
    #[error("this game allows no partial press: send a BROADCAST or press to everyone")]
    NoPartial,
    #[error("this game allows only signed (white) press")]
    WhiteOnly,
    #[error("this game allows only anonymous (grey) press")]
    GreyOnly,
    #[error("only the master may send an OFFICIAL announcement")]
    OfficialNeedsMaster,
    #[error("the press names no one who could read it")]
    NoReaders,
    /// Press to a power nobody plays (abandoned, a dummy) would reach nobody.
    #[error(
        "nobody plays {} now (open for takeover): press to {} would reach nobody",
        crate::variant::list_powers(.0),
        if .0.len() == 1 { "it" } else { "them" }
    )]
    Unplayed(Vec<Power>),
    /// `SET OBSERVER NONE`.
    #[error(
        "this game allows no press from observers (SET OBSERVER NONE); press to the master (PRESS TO M) is always allowed"
    )]
    NoObserverPress,
    /// `SET OBSERVER WHITE` and a grey block.
    #[error("this game allows observers signed (white) press only (SET OBSERVER WHITE)")]
    ObserverWhiteOnly,
    /// `SET OBSERVER WHITE` and a block to some only.
    #[error(
        "this game allows observers broadcasts only (SET OBSERVER WHITE): no press to some powers or observers"
    )]
    ObserverNoPartial,
    /// Press to `O` in a game nobody observes.
    #[error("nobody observes this game now: press to O would reach nobody")]
    NoObservers,
    /// Grey press to `O` where observers read signed press only.
    #[error(
        "the observers of this game read signed (white) press only (SET WATCH WHITE): grey press to O would reach none of them"
    )]
    ObserversReadWhite,
    /// The game's rule set refuses it (H19).
    #[error("{0}")]
    Variant(crate::rules::VariantRefusal),
}

impl PressRefusal {
    pub fn code(&self) -> &'static str {
        match self {
            PressRefusal::NoPress => "NO-PRESS",
            PressRefusal::NoPartial => "NO-PARTIAL",
            PressRefusal::WhiteOnly => "WHITE-ONLY",
            PressRefusal::GreyOnly => "GREY-ONLY",
            PressRefusal::OfficialNeedsMaster => "NOT-MASTER",
            PressRefusal::NoReaders => "NO-READERS",
            PressRefusal::Unplayed(_) => "NOT-PLAYED",
            PressRefusal::NoObserverPress => "NO-OBSERVER-PRESS",
            PressRefusal::ObserverWhiteOnly => "WHITE-ONLY",
            PressRefusal::ObserverNoPartial => "NO-PARTIAL",
            PressRefusal::NoObservers | PressRefusal::ObserversReadWhite => "NO-OBSERVERS",
            PressRefusal::Variant(v) => v.code,
        }
    }
}

/// Decides who reads a press block. The master is a reader of private press only when
/// the game says so (`master_reads_all_press`); press to the master reaches only the master.
/// The game's rule set has the last word (H19), once the readers are known.
pub fn press_route(
    game: &Game,
    map: &Map,
    variant: &dyn Variant,
    from: Sender,
    header: &PressHeader,
) -> Result<PressRoute, PressRefusal> {
    let route = standard_press_route(game, Author::Seat(from), header)?;
    let powers: Vec<Power> = route
        .readers
        .iter()
        .filter_map(|a| match a {
            Reader::Power(p) => Some(*p),
            _ => None,
        })
        .collect();
    let parts = game.view_parts();
    variant
        .press_allowed(
            &game.view(map, &parts),
            &game.variant_state,
            from,
            &powers,
            route.public,
        )
        .map_err(PressRefusal::Variant)?;
    Ok(route)
}

/// Decides who reads an observer's press block (njudge's `SET OBSERVER`): press to the
/// master alone always; else nothing under `NONE`, signed broadcasts only under `WHITE`
/// (signed even where players' press is grey only), and as a player may under `ANY`; always
/// within the game's press rules (a no-press game takes none). A rule set's press rules
/// (H19) are about powers: an observer is none, and its press is not put to them.
pub fn observer_press_route(game: &Game, header: &PressHeader) -> Result<PressRoute, PressRefusal> {
    standard_press_route(game, Author::Observer, header)
}

/// The standard game's press routing (njudge's rules).
fn standard_press_route(
    game: &Game,
    author: Author,
    header: &PressHeader,
) -> Result<PressRoute, PressRefusal> {
    let r = Routing::new(game, author);
    if header.kind == PressKind::Official {
        return r.official();
    }
    // Press to the master alone: always allowed, always signed.
    if header.is_to_master_only() {
        return Ok(r.to_master_only());
    }
    let policy = r.policy;
    if r.by_observer && policy.observer_press == ObserverLevel::None {
        return Err(PressRefusal::NoObserverPress);
    }
    if policy.level == PressLevel::None && !r.by_master {
        return Err(PressRefusal::NoPress);
    }
    let signed = r.signed(header)? || r.by_master;
    let (mut readers, public, named) = match r.to_powers(header) {
        None => {
            let mut readers: Vec<Reader> = r.players.iter().map(|p| Reader::Power(*p)).collect();
            readers.push(Reader::Master);
            if r.observers_see(signed) {
                readers.push(Reader::Observers);
            }
            (readers, true, Vec::new())
        }
        Some(list) => {
            let (readers, named) = r.partial(header, &list, signed)?;
            (readers, false, named)
        }
    };
    // A grey broadcast reaches its author like everyone else: were it missing from one
    // mailbox only, whoever did not get it would be its author.
    if !public || signed {
        readers.retain(|a| r.not_sender(a));
    }
    readers.sort();
    readers.dedup();
    if readers.is_empty() {
        return Err(PressRefusal::NoReaders);
    }
    Ok(PressRoute {
        readers,
        signed,
        public,
        named,
        author_reads: public && !signed,
    })
}

/// What the standard routing reads of the game and of the press's author, once.
struct Routing<'g> {
    game: &'g Game,
    policy: PressPolicy,
    /// The seat that sends (None: an observer).
    from: Option<Sender>,
    /// The master's press is never refused.
    by_master: bool,
    /// An observer's press is checked as a player's and then by `SET OBSERVER`.
    by_observer: bool,
    /// njudge: under `SET OBSERVER WHITE` an observer's press is signed, even in a game
    /// whose players' press is grey only.
    observer_white: bool,
    /// The powers someone plays.
    players: Vec<Power>,
}

impl<'g> Routing<'g> {
    fn new(game: &'g Game, author: Author) -> Routing<'g> {
        let policy = game.settings.press;
        let from = match author {
            Author::Seat(s) => Some(s),
            Author::Observer => None,
        };
        let by_observer = author == Author::Observer;
        Routing {
            game,
            policy,
            from,
            by_master: from == Some(Sender::Master),
            by_observer,
            observer_white: by_observer && policy.observer_press == ObserverLevel::White,
            players: game
                .players
                .iter()
                .filter(|p| p.is_playing())
                .map(|p| p.power)
                .collect(),
        }
    }

    /// Whether the observers read press that is `signed` (or grey), as `SET WATCH` says.
    fn observers_see(&self, signed: bool) -> bool {
        match self.policy.watch {
            ObserverLevel::Any => true,
            ObserverLevel::White => signed,
            ObserverLevel::None => false,
        }
    }

    /// Whether `a` is someone other than the author.
    fn not_sender(&self, a: &Reader) -> bool {
        match (self.from, a) {
            (Some(Sender::Power(p)), Reader::Power(q)) => p != *q,
            (Some(Sender::Master), Reader::Master) => false,
            _ => true,
        }
    }

    /// Official press: the master's only, to every player (and the observers who watch).
    fn official(&self) -> Result<PressRoute, PressRefusal> {
        if !self.by_master {
            return Err(PressRefusal::OfficialNeedsMaster);
        }
        let mut readers: Vec<Reader> = self.players.iter().map(|p| Reader::Power(*p)).collect();
        if self.observers_see(true) {
            readers.push(Reader::Observers);
        }
        Ok(PressRoute {
            readers,
            signed: true,
            public: true,
            named: Vec::new(),
            author_reads: false,
        })
    }

    /// Press to the master alone.
    fn to_master_only(&self) -> PressRoute {
        PressRoute {
            readers: if self.by_master {
                Vec::new()
            } else {
                vec![Reader::Master]
            },
            signed: true,
            public: false,
            named: vec![Reader::Master],
            author_reads: false,
        }
    }

    /// Whether the press is signed, as its header asks and the game's press level allows.
    fn signed(&self, header: &PressHeader) -> Result<bool, PressRefusal> {
        Ok(match (header.attribution, self.policy.level) {
            (Attribution::Grey, _) if self.observer_white => {
                return Err(PressRefusal::ObserverWhiteOnly);
            }
            (_, _) if self.observer_white => true,
            (Attribution::Grey, PressLevel::White) => return Err(PressRefusal::WhiteOnly),
            (Attribution::White, PressLevel::Grey) => return Err(PressRefusal::GreyOnly),
            (Attribution::Grey, _) => false,
            (Attribution::White, _) => true,
            (Attribution::Default, PressLevel::Grey | PressLevel::GreyWhite) => false,
            (Attribution::Default, _) => true,
        })
    }

    /// The powers partial press names (None: a broadcast).
    fn to_powers(&self, header: &PressHeader) -> Option<Vec<Power>> {
        match (&header.to, header.kind) {
            (_, PressKind::Broadcast) | (PressTo::All, _) => None,
            (PressTo::Only(rs), _) => Some(
                rs.iter()
                    .filter_map(|r| match r {
                        Recipient::Power(p) => Some(*p),
                        Recipient::Master | Recipient::Observers => None,
                    })
                    .collect(),
            ),
            (PressTo::AllBut(rs), _) => Some(
                self.players
                    .iter()
                    .copied()
                    .filter(|p| !rs.contains(&Recipient::Power(*p)))
                    .collect(),
            ),
        }
    }

    /// Partial press to `list`: its readers and the readers it names, or why it is
    /// refused.
    fn partial(
        &self,
        header: &PressHeader,
        list: &[Power],
        signed: bool,
    ) -> Result<(Vec<Reader>, Vec<Reader>), PressRefusal> {
        let (game, policy) = (self.game, self.policy);
        let includes_master = match &header.to {
            PressTo::Only(rs) => rs.contains(&Recipient::Master),
            _ => true,
        };
        // `PRESS TO O`: the observers (njudge's), by name only; `TO ALL BUT` never reaches
        // them.
        let includes_observers =
            matches!(&header.to, PressTo::Only(rs) if rs.contains(&Recipient::Observers));
        if self.observer_white {
            return Err(PressRefusal::ObserverNoPartial);
        }
        if !policy.partial && !self.by_master {
            return Err(PressRefusal::NoPartial);
        }
        let unplayed: Vec<Power> = list
            .iter()
            .copied()
            .filter(|p| !game.is_played(*p) && Some(Sender::Power(*p)) != self.from)
            .collect();
        if !unplayed.is_empty() && matches!(header.to, PressTo::Only(_)) {
            return Err(PressRefusal::Unplayed(unplayed));
        }
        if includes_observers {
            if game.observers.is_empty() || policy.watch == ObserverLevel::None {
                return Err(PressRefusal::NoObservers);
            }
            if !self.observers_see(signed) {
                return Err(PressRefusal::ObserversReadWhite);
            }
        }
        let mut named: Vec<Reader> = list.iter().map(|p| Reader::Power(*p)).collect();
        if includes_master {
            named.push(Reader::Master);
        }
        if includes_observers {
            named.push(Reader::Observers);
        }
        let mut readers = named.clone();
        if game.settings.master_reads_all_press && !readers.contains(&Reader::Master) {
            readers.push(Reader::Master);
        }
        Ok((readers, named))
    }
}

#[cfg(test)]
mod tests;
