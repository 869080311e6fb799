//! The picture's colours: one per power (its units, arrows and centre dots) with a lighter
//! tint for the centres it owns, and the board's own colours.
//!
//! The seven power colours are the Okabe–Ito palette (Okabe and Ito, *Color Universal
//! Design*, 2002), chosen because its eight colours stay apart for the common kinds of
//! colour blindness; each is matched to the power's traditional colour where one is close:
//!
//! | power | units, arrows | owned centre (45 % white) |
//! | --- | --- | --- |
//! | Austria | vermillion `#D55E00` | `#E8A673` |
//! | England | reddish purple `#CC79A7` | `#E3B5CF` |
//! | France | sky blue `#56B4E9` | `#A2D6F3` |
//! | Germany | near black `#3A3A3A` | `#939393` |
//! | Italy | bluish green `#009E73` | `#73CAB2` |
//! | Russia | blue `#0072B2` | `#73B1D5` |
//! | Turkey | yellow `#F0E442` | `#F7F097` |
//!
//! France and Russia share a hue but not a lightness (and never a border); the sea is a
//! greyed pale blue so that it reads apart from both. Neutral units are light grey,
//! impassable land a warm grey, failures red (`#E00000`, drawn with a white halo).

use crate::map::Power;

/// A power's two colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PowerColours {
    /// Units, order arrows and centre dots.
    pub unit: &'static str,
    /// The fill of a supply centre the power owns.
    pub land: &'static str,
}

/// The colours of a power.
pub(crate) fn power(p: Power) -> PowerColours {
    let (unit, land) = match p {
        Power::Austria => ("#D55E00", "#E8A673"),
        Power::England => ("#CC79A7", "#E3B5CF"),
        Power::France => ("#56B4E9", "#A2D6F3"),
        Power::Germany => ("#3A3A3A", "#939393"),
        Power::Italy => ("#009E73", "#73CAB2"),
        Power::Russia => ("#0072B2", "#73B1D5"),
        Power::Turkey => ("#F0E442", "#F7F097"),
    };
    PowerColours { unit, land }
}

/// Sea areas, and the water no sea outline covers (the backdrop).
pub(crate) const SEA: &str = "#C4D7E4";
/// The lines between sea areas.
pub(crate) const SEA_EDGE: &str = "#8FAFC6";
/// Land that is no owned centre.
pub(crate) const LAND: &str = "#EFE6CC";
/// The areas no unit may enter (Switzerland, Ireland, ...).
pub(crate) const IMPASSABLE: &str = "#C9C4BA";
/// Borders between land provinces.
pub(crate) const BORDER: &str = "#5A5245";
/// A unit of no power (H12).
pub(crate) const NEUTRAL: &str = "#B4B4B4";
/// Outlines of units and arrows, and text.
pub(crate) const INK: &str = "#1A1A1A";
/// Failure marks: a bounce's cross, a cut support, a dislodged unit's edge.
pub(crate) const FAIL: &str = "#E00000";
/// An unowned centre's dot.
pub(crate) const UNOWNED_DOT: &str = "#FFFFFF";
/// The title band.
pub(crate) const BAND: &str = "#FAF8F2";
/// Relation lines (marks): a treaty, a war, a client relation.
pub(crate) const TREATY: &str = "#1B7F3B";
pub(crate) const WAR: &str = "#C00000";
pub(crate) const CLIENT: &str = "#5B3FA0";
