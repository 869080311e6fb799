//! Joining `board.toml` with the map data, and the checks every board passes before the
//! judge uses it: a home centre for every power, victory within the centres (njudge's
//! Empire and Root Z ask for half or less: two powers may reach it at once), a border for
//! every province, a fleet border for every coast, units where they may stand, gateways
//! and railways along real borders. Borders are kept once per pair, so they are symmetric
//! by construction; each reader refuses one-way data with its file and line.

use std::collections::BTreeMap;

use super::toml_file::{BOARD_TOML, BoardSpec};
use super::{
    Board, BoardError, BoardProvince, Centre, FirstPhase, Geography, Place, PowerIndex,
    ProvinceIndex, normalise,
};
use crate::map::{Terrain, UnitKindData};

/// Names (normalised) to the areas they name, refusing a name given to two areas.
#[derive(Debug, Default)]
pub(crate) struct Names {
    map: BTreeMap<String, usize>,
}

impl Names {
    /// Adds `name` for area `area`; `Err(other)` when it already names another area.
    pub fn insert(&mut self, name: &str, area: usize) -> Result<(), usize> {
        let key = normalise(name);
        if key.is_empty() {
            return Ok(());
        }
        match self.map.get(&key) {
            Some(other) if *other != area => Err(*other),
            _ => {
                self.map.insert(key, area);
                Ok(())
            }
        }
    }

    pub fn find(&self, name: &str) -> Option<usize> {
        self.map.get(&normalise(name)).copied()
    }
}

/// A province index from a position in a list already bounded by `MAX_PROVINCES`.
pub(crate) fn province_index(i: usize) -> Option<ProvinceIndex> {
    u16::try_from(i).ok().map(ProvinceIndex)
}

/// Whether a unit of `kind` may stand at `place` of `p`; the sentence saying why not.
pub(crate) fn unit_may_stand(
    p: &BoardProvince,
    kind: UnitKindData,
    place: Place,
) -> Result<(), String> {
    if p.impassable {
        return Err(format!("{} is impassable", p.name));
    }
    match kind {
        UnitKindData::Army if p.terrain == Terrain::Sea => {
            Err(format!("an army cannot stand in {}, a sea", p.name))
        }
        UnitKindData::Army if place.coast.is_some() => {
            Err(format!("an army in {} stands on no coast", p.name))
        }
        UnitKindData::Fleet if p.terrain == Terrain::Land => {
            Err(format!("a fleet cannot stand in {}, inland", p.name))
        }
        UnitKindData::Fleet if !p.coasts.is_empty() && place.coast.is_none() => Err(format!(
            "a fleet in {} must stand on one of its coasts ({})",
            p.name,
            p.coasts
                .iter()
                .map(|c| c.code())
                .collect::<Vec<_>>()
                .join(", ")
        )),
        _ => match place.coast {
            Some(c) if !p.coasts.contains(&c) => {
                Err(format!("{} has no {} coast", p.name, c.code()))
            }
            _ => Ok(()),
        },
    }
}

/// The home centres as owners: what a board starts with unless its data says otherwise.
pub(crate) fn home_owners(provinces: &[BoardProvince]) -> Vec<(ProvinceIndex, PowerIndex)> {
    provinces
        .iter()
        .enumerate()
        .filter_map(|(i, p)| match p.centre {
            Centre::Home(w) => province_index(i).map(|i| (i, w)),
            _ => None,
        })
        .collect()
}

/// `board.toml` and the map data (read from `data_file` and its siblings) made one board,
/// checked.
pub(super) fn assemble(
    spec: BoardSpec,
    geography: Geography,
    data_file: &str,
) -> Result<Board, BoardError> {
    let first_phase = match (spec.first_phase, geography.first_phase) {
        (Some((ours, line)), Some(seed)) if ours != seed => {
            return Err(BoardError::at(
                BOARD_TOML,
                line,
                format!(
                    "the board starts in {} but its seed in {}",
                    ours.code(),
                    seed.code()
                ),
            ));
        }
        (Some((ours, _)), _) => ours,
        (None, Some(seed)) => seed,
        (None, None) => FirstPhase::Movement { year: 1901 },
    };
    let mut owners = geography
        .owners
        .unwrap_or_else(|| home_owners(&geography.provinces));
    owners.sort();
    let board = Board {
        name: spec.name,
        title: spec.title,
        credit: spec.credit,
        victory: spec.victory,
        first_phase,
        powers: spec.powers,
        rules: spec.rules,
        provinces: geography.provinces,
        borders: geography.borders,
        units: geography.units,
        owners,
        gateways: geography.gateways,
        railways: geography.railways,
        hong_kong: geography.hong_kong,
        centre_order: geography.centre_order,
    };
    check(&board, data_file)?;
    Ok(board)
}

/// The checks of a whole board (each reader has checked its own lines).
fn check(board: &Board, data_file: &str) -> Result<(), BoardError> {
    let fail = |file: &str, reason: String| Err(BoardError::file(file, reason));
    let centres = board.supply_centres().count();
    if centres == 0 {
        return fail(data_file, "the board has no supply centre".into());
    }
    if usize::from(board.victory) > centres {
        return fail(
            BOARD_TOML,
            format!(
                "victory is {} centres but the board has only {centres}",
                board.victory
            ),
        );
    }
    for (w, power) in board.power_indices().zip(&board.powers) {
        if board.home_centres(w).next().is_none() {
            return fail(data_file, format!("{} has no home centre", power.name));
        }
    }
    for id in board.province_indices() {
        let Some(p) = board.province(id) else {
            continue;
        };
        let has_border = !board.neighbours(id).is_empty();
        if p.impassable {
            if has_border {
                return fail(
                    data_file,
                    format!("{} is impassable but has borders", p.name),
                );
            }
            continue;
        }
        if !has_border {
            return fail(data_file, format!("{} has no border", p.name));
        }
        if p.terrain == Terrain::Land && !p.coasts.is_empty() {
            return fail(data_file, format!("{} is inland but has coasts", p.name));
        }
        // Every place a fleet may stand has a fleet border.
        if p.terrain != Terrain::Land {
            let places: Vec<Place> = if p.coasts.is_empty() {
                vec![Place::province(id)]
            } else {
                p.coasts
                    .iter()
                    .map(|c| Place {
                        province: id,
                        coast: Some(*c),
                    })
                    .collect()
            };
            for place in places {
                if !board
                    .borders
                    .fleet
                    .iter()
                    .any(|(a, b)| *a == place || *b == place)
                {
                    return fail(
                        data_file,
                        format!("no fleet can reach {}", board.place_code(place)),
                    );
                }
            }
        }
    }
    for (id, w) in &board.owners {
        if !board
            .province(*id)
            .is_some_and(BoardProvince::is_supply_centre)
            || board.power(*w).is_none()
        {
            return fail(
                data_file,
                format!(
                    "{} is owned at the start but is no supply centre",
                    board.place_code(Place::province(*id))
                ),
            );
        }
    }
    for g in &board.gateways {
        let (a, b) = g.between;
        if !board.neighbours(a).contains(&b) {
            return fail(
                data_file,
                format!(
                    "the gateway {} joins {} and {}, which do not border each other",
                    g.name,
                    board.place_code(Place::province(a)),
                    board.place_code(Place::province(b))
                ),
            );
        }
    }
    for r in &board.railways {
        for pair in r.route.windows(2) {
            if let [a, b] = pair
                && !board.borders.army.contains(&((*a).min(*b), (*a).max(*b)))
            {
                return fail(
                    data_file,
                    format!(
                        "the railway {} runs from {} to {}, which armies cannot cross",
                        r.name,
                        board.place_code(Place::province(*a)),
                        board.place_code(Place::province(*b))
                    ),
                );
            }
        }
    }
    Ok(())
}
