//! Press policy: who may send press to whom, signed or anonymous. Every press decision goes
//! through [`press_route`] (variants will add their filters there, hook H19).

use serde::{Deserialize, Serialize};

use crate::command::{Attribution, PressHeader, PressKind, PressTo, Recipient};
use crate::map::{Map, Power};
use crate::variant::Variant;

use super::Game;

/// What press a game allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PressLevel {
    /// No press between players (press to the master is always allowed).
    None,
    /// Signed press only.
    White,
    /// Anonymous press only.
    Grey,
    /// Both; signed unless the sender says GREY.
    WhiteGrey,
}

/// Who may observe.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ObserverLevel {
    /// Anyone may observe and receives broadcasts and results.
    Any,
    /// Observers receive results and white (signed) broadcasts only.
    White,
    /// No observers.
    None,
}

/// The game's press settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PressPolicy {
    pub level: PressLevel,
    /// Partial press: private press to some powers only.
    pub partial: bool,
    pub observers: ObserverLevel,
}

impl Default for PressPolicy {
    fn default() -> Self {
        PressPolicy {
            level: PressLevel::WhiteGrey,
            partial: true,
            observers: ObserverLevel::Any,
        }
    }
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
    let route = standard_press_route(game, from, header)?;
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

/// The standard game's press routing (njudge's rules).
fn standard_press_route(
    game: &Game,
    from: Sender,
    header: &PressHeader,
) -> Result<PressRoute, PressRefusal> {
    let policy = game.settings.press;
    let players: Vec<Power> = game
        .players
        .iter()
        .filter(|p| p.is_playing())
        .map(|p| p.power)
        .collect();
    let observers_see = |signed: bool| match policy.observers {
        ObserverLevel::Any => true,
        ObserverLevel::White => signed,
        ObserverLevel::None => false,
    };
    let not_sender = |a: &Reader| match (from, a) {
        (Sender::Power(p), Reader::Power(q)) => p != *q,
        (Sender::Master, Reader::Master) => false,
        _ => true,
    };

    if header.kind == PressKind::Official {
        if from != Sender::Master {
            return Err(PressRefusal::OfficialNeedsMaster);
        }
        let mut readers: Vec<Reader> = players.iter().map(|p| Reader::Power(*p)).collect();
        if observers_see(true) {
            readers.push(Reader::Observers);
        }
        return Ok(PressRoute {
            readers,
            signed: true,
            public: true,
            named: Vec::new(),
        });
    }

    // Press to the master alone: always allowed, always signed.
    if header.is_to_master_only() {
        return Ok(PressRoute {
            readers: if from == Sender::Master {
                Vec::new()
            } else {
                vec![Reader::Master]
            },
            signed: true,
            public: false,
            named: vec![Reader::Master],
        });
    }

    if policy.level == PressLevel::None && from != Sender::Master {
        return Err(PressRefusal::NoPress);
    }
    let signed = match (header.attribution, policy.level) {
        (Attribution::Grey, PressLevel::White) => return Err(PressRefusal::WhiteOnly),
        (Attribution::White, PressLevel::Grey) => return Err(PressRefusal::GreyOnly),
        (Attribution::Grey, _) => false,
        (Attribution::White, _) => true,
        (Attribution::Default, PressLevel::Grey) => false,
        (Attribution::Default, _) => true,
    };
    let signed = signed || from == Sender::Master;

    let to_powers: Option<Vec<Power>> = match (&header.to, header.kind) {
        (_, PressKind::Broadcast) | (PressTo::All, _) => None,
        (PressTo::Only(rs), _) => Some(
            rs.iter()
                .filter_map(|r| match r {
                    Recipient::Power(p) => Some(*p),
                    Recipient::Master => None,
                })
                .collect(),
        ),
        (PressTo::AllBut(rs), _) => Some(
            players
                .iter()
                .copied()
                .filter(|p| !rs.contains(&Recipient::Power(*p)))
                .collect(),
        ),
    };
    let includes_master = match &header.to {
        PressTo::Only(rs) => rs.contains(&Recipient::Master),
        _ => true,
    };
    let (mut readers, public, named) = match to_powers {
        None => {
            let mut r: Vec<Reader> = players.iter().map(|p| Reader::Power(*p)).collect();
            r.push(Reader::Master);
            if observers_see(signed) {
                r.push(Reader::Observers);
            }
            (r, true, Vec::new())
        }
        Some(list) => {
            if !policy.partial && from != Sender::Master {
                return Err(PressRefusal::NoPartial);
            }
            let unplayed: Vec<Power> = list
                .iter()
                .copied()
                .filter(|p| !game.is_played(*p) && Sender::Power(*p) != from)
                .collect();
            if !unplayed.is_empty() && matches!(header.to, PressTo::Only(_)) {
                return Err(PressRefusal::Unplayed(unplayed));
            }
            let mut named: Vec<Reader> = list.iter().map(|p| Reader::Power(*p)).collect();
            if includes_master {
                named.push(Reader::Master);
            }
            let mut r = named.clone();
            if game.settings.master_reads_all_press && !r.contains(&Reader::Master) {
                r.push(Reader::Master);
            }
            (r, false, named)
        }
    };
    // A grey broadcast reaches its author like everyone else: were it missing from one
    // mailbox only, whoever did not get it would be its author.
    if !public || signed {
        readers.retain(not_sender);
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
    })
}
