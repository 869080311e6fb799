//! What Shell Shock keeps per unit, as sorted lists: a game has a few dozen units, and a
//! phase looks each one up several times, so a sorted list searched by halves is quicker
//! than a tree. Stored as the maps and sets they replace (`{"12":18}`, `[3,7]`), so a
//! stored game reads the same either way.

use std::collections::{BTreeMap, BTreeSet};

use serde::de::{Deserialize, Deserializer};
use serde::ser::{Serialize, Serializer};

use crate::rules::UnitId;

/// A value per unit identity, in identity order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitMap<V>(Vec<(UnitId, V)>);

impl<V> Default for UnitMap<V> {
    fn default() -> Self {
        UnitMap(Vec::new())
    }
}

impl<V> UnitMap<V> {
    fn at(&self, id: UnitId) -> Result<usize, usize> {
        self.0.binary_search_by_key(&id, |(k, _)| *k)
    }

    pub fn get(&self, id: &UnitId) -> Option<&V> {
        let i = self.at(*id).ok()?;
        self.0.get(i).map(|(_, v)| v)
    }

    pub fn contains_key(&self, id: &UnitId) -> bool {
        self.at(*id).is_ok()
    }

    /// Sets the unit's value; the value it had, if any.
    pub fn insert(&mut self, id: UnitId, value: V) -> Option<V> {
        match self.at(id) {
            Ok(i) => self.0.get_mut(i).map(|(_, v)| std::mem::replace(v, value)),
            Err(i) => {
                self.0.insert(i, (id, value));
                None
            }
        }
    }

    pub fn remove(&mut self, id: &UnitId) -> Option<V> {
        let i = self.at(*id).ok()?;
        Some(self.0.remove(i).1)
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&UnitId, &V)> {
        self.0.iter().map(|(k, v)| (k, v))
    }
}

impl<V> FromIterator<(UnitId, V)> for UnitMap<V> {
    /// As a map collects: a unit given twice keeps its last value.
    fn from_iter<I: IntoIterator<Item = (UnitId, V)>>(iter: I) -> Self {
        let mut v: Vec<(UnitId, V)> = iter.into_iter().collect();
        if v.is_sorted_by(|a, b| a.0 < b.0) {
            return UnitMap(v);
        }
        v.sort_by_key(|(k, _)| *k);
        let mut out: Vec<(UnitId, V)> = Vec::with_capacity(v.len());
        for (k, x) in v {
            match out.last_mut() {
                Some(last) if last.0 == k => last.1 = x,
                _ => out.push((k, x)),
            }
        }
        UnitMap(out)
    }
}

impl<V: Serialize> Serialize for UnitMap<V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for UnitMap<V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let m = BTreeMap::<UnitId, V>::deserialize(d)?;
        Ok(UnitMap(m.into_iter().collect()))
    }
}

/// A set of unit identities, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UnitSet(Vec<UnitId>);

impl UnitSet {
    pub fn contains(&self, id: &UnitId) -> bool {
        self.0.binary_search(id).is_ok()
    }
}

impl FromIterator<UnitId> for UnitSet {
    fn from_iter<I: IntoIterator<Item = UnitId>>(iter: I) -> Self {
        let mut v: Vec<UnitId> = iter.into_iter().collect();
        v.sort_unstable();
        v.dedup();
        UnitSet(v)
    }
}

impl Serialize for UnitSet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(&self.0)
    }
}

impl<'de> Deserialize<'de> for UnitSet {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let set = BTreeSet::<UnitId>::deserialize(d)?;
        Ok(UnitSet(set.into_iter().collect()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Stored exactly as the maps and sets they replace, and read back from them.
    #[test]
    fn stored_as_the_map_and_set_it_replaces() {
        let pairs = [(UnitId(12), 18), (UnitId(2), 5), (UnitId(30), -1)];
        let tree: BTreeMap<UnitId, i32> = pairs.into_iter().collect();
        let list: UnitMap<i32> = pairs.into_iter().collect();
        assert_eq!(
            serde_json::to_value(&list).unwrap(),
            serde_json::to_value(&tree).unwrap()
        );
        assert_eq!(
            serde_json::to_string(&list).unwrap(),
            serde_json::to_string(&tree).unwrap()
        );
        let back: UnitMap<i32> =
            serde_json::from_str(&serde_json::to_string(&tree).unwrap()).unwrap();
        assert_eq!(back, list);
        let ids = [UnitId(9), UnitId(3), UnitId(3)];
        let set: BTreeSet<UnitId> = ids.into_iter().collect();
        let listed: UnitSet = ids.into_iter().collect();
        assert_eq!(
            serde_json::to_string(&listed).unwrap(),
            serde_json::to_string(&set).unwrap()
        );
        let back: UnitSet = serde_json::from_str("[3,9]").unwrap();
        assert_eq!(back, listed);
    }

    #[test]
    fn insert_get_remove() {
        let mut m = UnitMap::default();
        assert_eq!(m.insert(UnitId(5), 'a'), None);
        assert_eq!(m.insert(UnitId(1), 'b'), None);
        assert_eq!(m.insert(UnitId(5), 'c'), Some('a'));
        assert_eq!(m.get(&UnitId(5)), Some(&'c'));
        assert_eq!(m.len(), 2);
        assert_eq!(m.remove(&UnitId(1)), Some('b'));
        assert!(!m.contains_key(&UnitId(1)));
        assert_eq!(m.iter().collect::<Vec<_>>(), vec![(&UnitId(5), &'c')]);
    }
}
