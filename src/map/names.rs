//! The province name table: codes, full names and aliases, and "did you mean" suggestions.

use super::ProvinceId;

/// Normalised names (lowercase, blanks, `.`, `-` and `'` removed) to provinces, sorted for
/// binary search.
#[derive(Debug, Default)]
pub(super) struct NameTable {
    entries: Vec<(String, ProvinceId)>,
    /// Each entry's [`char_classes`], for ruling names out before comparing them.
    classes: Vec<(usize, u64)>,
    /// Places on the board that are no province (Switzerland): each name and alias
    /// (normalised) with the place's full name, sorted.
    impassable: Vec<(String, String)>,
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

    /// Names `name` (and its aliases, by further calls) as a place no unit may enter.
    pub(super) fn insert_impassable(&mut self, name: &str, full_name: &str) {
        self.impassable
            .push((normalise(name), full_name.to_string()));
    }

    /// Sorts the table for lookups. A name that would read as two places (two provinces,
    /// or a province and an impassable place) is an error naming it: the map's data is
    /// broken.
    pub(super) fn finish(&mut self) -> Result<(), String> {
        self.entries.sort();
        self.entries.dedup();
        self.impassable.sort();
        self.impassable.dedup();
        for w in self.entries.windows(2) {
            if let [(a, _), (b, _)] = w
                && a == b
            {
                return Err(a.clone());
            }
        }
        for w in self.impassable.windows(2) {
            if let [(a, _), (b, _)] = w
                && a == b
            {
                return Err(a.clone());
            }
        }
        if let Some((k, _)) = self.impassable.iter().find(|(k, _)| self.find(k).is_some()) {
            return Err(k.clone());
        }
        self.classes = self.entries.iter().map(|(k, _)| char_classes(k)).collect();
        Ok(())
    }

    /// The full name of the impassable place called `text` (`swi`, `Switzerland`).
    pub(super) fn impassable(&self, text: &str) -> Option<&str> {
        let key = normalise(text);
        self.impassable
            .binary_search_by(|(k, _)| k.as_str().cmp(&key))
            .ok()
            .and_then(|i| self.impassable.get(i))
            .map(|(_, name)| name.as_str())
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
        let key_classes = char_classes(&key);
        let mut scored: Vec<(usize, ProvinceId)> = self
            .entries
            .iter()
            .zip(&self.classes)
            .filter_map(|((k, id), classes)| {
                // The distance is at least the difference in length.
                if k.len().abs_diff(key.len()) > limit || far_apart(key_classes, *classes, limit) {
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
/// than the limit are not compared, nor words of which one has more characters the other
/// lacks than the limit, and the table stops at two rows in a row whose every
/// entry is over the limit (a row's entries are at least the smaller of the previous row's
/// minimum and the one before's plus one, so no later row comes back under it).
pub(crate) fn edit_distance_within(a: &str, b: &str, limit: usize) -> Option<usize> {
    let (na, nb) = (a.chars().count(), b.chars().count());
    if na.abs_diff(nb) > limit {
        return None;
    }
    if na <= SHORT_WORD && nb <= SHORT_WORD {
        // Every name and command word is short: the words and the table's rows live on
        // the stack (this runs once per name for each unknown word of a mail).
        let mut ca = ['\0'; SHORT_WORD];
        let mut cb = ['\0'; SHORT_WORD];
        let fill = |to: &mut [char], from: &str| {
            let mut seen = 0u64;
            for (x, c) in to.iter_mut().zip(from.chars()) {
                *x = c;
                seen |= 1 << (u32::from(c) % 64);
            }
            seen
        };
        let (seen_a, seen_b) = (fill(&mut ca, a), fill(&mut cb, b));
        if far_apart((na, seen_a), (nb, seen_b), limit) {
            return None;
        }
        let [mut r0, mut r1, mut r2] = [[0usize; SHORT_WORD + 1]; 3];
        return osa_within(
            ca.get(..na).unwrap_or_default(),
            cb.get(..nb).unwrap_or_default(),
            limit,
            [&mut r0, &mut r1, &mut r2],
        );
    }
    let ca: Vec<char> = a.chars().collect();
    let cb: Vec<char> = b.chars().collect();
    let [mut r0, mut r1, mut r2] = [vec![0usize; nb + 1], vec![0; nb + 1], vec![0; nb + 1]];
    osa_within(&ca, &cb, limit, [&mut r0, &mut r1, &mut r2])
}

/// A word's length in characters and the classes of the characters it has (a bit for each
/// character's code modulo 64), for [`far_apart`].
pub(crate) fn char_classes(word: &str) -> (usize, u64) {
    word.chars().fold((0, 0), |(n, seen), c| {
        (n + 1, seen | 1 << (u32::from(c) % 64))
    })
}

/// Whether two words, given their [`char_classes`], are surely more than `limit` edits
/// apart: their lengths differ by more, or one has more classes of characters the other
/// lacks (each such character costs an edit of its own). Cheaper than the table of
/// [`edit_distance_within`], which says the same of such words.
pub(crate) fn far_apart(a: (usize, u64), b: (usize, u64), limit: usize) -> bool {
    let lacking = (a.1 & !b.1).count_ones().max((b.1 & !a.1).count_ones());
    a.0.abs_diff(b.0) > limit || lacking as usize > limit
}

/// The longest word [`edit_distance_within`] compares without allocating.
const SHORT_WORD: usize = 48;

/// The table of [`edit_distance_within`] over `a` and `b`, in three rows of at least
/// `b.len() + 1` entries each: the one before the previous, the previous, the one filled.
fn osa_within(a: &[char], b: &[char], limit: usize, rows: [&mut [usize]; 3]) -> Option<usize> {
    let [mut before, mut prev, mut row] = rows;
    for (j, x) in prev.iter_mut().take(b.len() + 1).enumerate() {
        *x = j;
    }
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
    prev.get(b.len())
        .copied()
        .filter(|distance| *distance <= limit)
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
