//! The province name table: codes, full names and aliases, and "did you mean" suggestions.

use super::ProvinceId;

/// Normalised names (lowercase, blanks, `.`, `-` and `'` removed) to provinces, sorted for
/// binary search.
#[derive(Debug, Default)]
pub(super) struct NameTable {
    entries: Vec<(String, ProvinceId)>,
}

/// The form every name is compared in: lowercase ASCII letters and digits only, so
/// `St. Petersburg`, `st petersburg` and `StPetersburg` are the same key.
pub(crate) fn normalise(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

impl NameTable {
    pub(super) fn insert(&mut self, name: &str, id: ProvinceId) {
        self.entries.push((normalise(name), id));
    }

    pub(super) fn finish(&mut self) {
        self.entries.sort();
        self.entries.dedup();
    }

    pub(super) fn find(&self, text: &str) -> Option<ProvinceId> {
        let key = normalise(text);
        if key.is_empty() {
            return None;
        }
        self.entries
            .binary_search_by(|(k, _)| k.as_str().cmp(&key))
            .ok()
            .and_then(|i| self.entries.get(i))
            .map(|(_, id)| *id)
    }

    /// Provinces whose code or name is within a small edit distance of `text`, best first,
    /// at most three, each named once.
    pub(super) fn suggest(&self, text: &str) -> Vec<ProvinceId> {
        let key = normalise(text);
        // No name is longer than 40 letters: a longer word is not a misspelt province, and
        // comparing it would cost time on junk lines.
        if key.is_empty() || key.len() > 40 {
            return Vec::new();
        }
        let limit = if key.len() <= 4 { 1 } else { 2 + key.len() / 8 };
        let mut scored: Vec<(usize, ProvinceId)> = self
            .entries
            .iter()
            .filter_map(|(k, id)| {
                // The distance is at least the difference in length.
                if k.len().abs_diff(key.len()) > limit {
                    return None;
                }
                let d = edit_distance(&key, k);
                (d <= limit).then_some((d, *id))
            })
            .collect();
        // A prefix of a long name ("bulg", "constan") is a good guess too.
        if key.len() >= 3 {
            for (k, id) in &self.entries {
                if k.len() > key.len() && k.starts_with(&key) {
                    scored.push((1, *id));
                }
            }
        }
        scored.sort();
        let mut out: Vec<ProvinceId> = Vec::new();
        for (_, id) in scored {
            if !out.contains(&id) {
                out.push(id);
            }
            if out.len() == 3 {
                break;
            }
        }
        out
    }
}

/// Levenshtein distance with adjacent transpositions (optimal string alignment), on chars.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    let at = |i: usize, j: usize| i * w + j;
    for i in 0..=a.len() {
        if let Some(x) = d.get_mut(at(i, 0)) {
            *x = i;
        }
    }
    for j in 0..=b.len() {
        if let Some(x) = d.get_mut(at(0, j)) {
            *x = j;
        }
    }
    for (i, ca) in a.iter().enumerate() {
        for (j, cb) in b.iter().enumerate() {
            let (i1, j1) = (i + 1, j + 1);
            let cost = usize::from(ca != cb);
            let get = |i: usize, j: usize| d.get(at(i, j)).copied().unwrap_or(usize::MAX / 2);
            let mut v = (get(i, j1) + 1).min(get(i1, j) + 1).min(get(i, j) + cost);
            if i > 0 && j > 0 && a.get(i) == b.get(j - 1) && a.get(i - 1) == b.get(j) {
                v = v.min(get(i - 1, j - 1) + 1);
            }
            if let Some(x) = d.get_mut(at(i1, j1)) {
                *x = v;
            }
        }
    }
    d.get(at(a.len(), b.len())).copied().unwrap_or(0)
}

/// Splits `stp/nc`, `stp(nc)`, `stp (north coast)`, `St Petersburg north coast` into the
/// province part and the coast part.
pub(super) fn split_coast(text: &str) -> Option<(&str, &str)> {
    let text = text.trim();
    if let Some((p, c)) = text.split_once('/') {
        return Some((p.trim(), c.trim()));
    }
    if let Some((p, rest)) = text.split_once('(') {
        let c = rest.trim_end().strip_suffix(')')?;
        return Some((p.trim(), c.trim()));
    }
    // "... north coast" / "... nc" as the last one or two words.
    let lower = text.to_ascii_lowercase();
    for suffix in [
        " north coast",
        " south coast",
        " east coast",
        " nc",
        " sc",
        " ec",
    ] {
        if lower.ends_with(suffix) {
            let cut = text.len() - suffix.len();
            return Some((text.get(..cut)?.trim(), text.get(cut..)?.trim()));
        }
    }
    None
}
