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
                edit_distance_within(&key, k, limit).map(|d| (d, *id))
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

/// Levenshtein distance with adjacent transpositions (optimal string alignment), on chars,
/// when it is at most `limit`; `None` when it is more.
///
/// The work is bounded by the limit, which matters on junk lines (every unknown word is
/// compared with every command word and province name): words whose lengths differ by more
/// than the limit are not compared, and the table stops at two rows in a row whose every
/// entry is over the limit (a row's entries are at least the smaller of the previous row's
/// minimum and the one before's plus one, so no later row comes back under it).
pub(crate) fn edit_distance_within(a: &str, b: &str, limit: usize) -> Option<usize> {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) > limit {
        return None;
    }
    // Three rows of the table: the one before the previous, the previous, the one filled.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut row: Vec<usize> = vec![0; b.len() + 1];
    let mut prev_min = 0;
    let far = usize::MAX / 2;
    for (i, ca) in a.iter().enumerate() {
        let mut row_min = i + 1;
        if let Some(x) = row.first_mut() {
            *x = i + 1;
        }
        for (j, cb) in b.iter().enumerate() {
            let up = prev.get(j + 1).copied().unwrap_or(far);
            let left = row.get(j).copied().unwrap_or(far);
            let diag = prev.get(j).copied().unwrap_or(far);
            let mut v = (up + 1).min(left + 1).min(diag + usize::from(ca != cb));
            if i > 0 && j > 0 && a.get(i - 1) == Some(cb) && b.get(j - 1) == Some(ca) {
                v = v.min(before.get(j - 1).copied().unwrap_or(far) + 1);
            }
            if let Some(x) = row.get_mut(j + 1) {
                *x = v;
            }
            row_min = row_min.min(v);
        }
        if row_min > limit && prev_min > limit {
            return None;
        }
        prev_min = row_min;
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut row);
    }
    prev.last().copied().filter(|distance| *distance <= limit)
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
