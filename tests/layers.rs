//! The layers as the imports have them: each of the library's top modules uses only the
//! ones before it in `src/lib.rs`'s layer table (and the README's "Where the code lives"
//! lists them in the same order), and within every folder no module reaches itself
//! through its siblings (no import cycle: `judge/export.rs` and `judge/pictures.rs`,
//! `judge/process.rs` and `judge/seats.rs`, `rules/hooks.rs` and `rules/order.rs` once
//! had one).
//!
//! The scan walks the module tree from `src/lib.rs` by its `mod` lines, leaves out test
//! code (`#[cfg(test)]` items and the files they name), comments and string literals, and
//! reads every `crate::…`, `super::…` and `self::…` path, braces expanded. A path is an
//! edge from the module whose file holds it to the deepest module the path names.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The edges between modules: (the module that names a path, the module it names).
type Edges = BTreeSet<(Vec<String>, Vec<String>)>;

/// One module of the crate: its path (`["judge", "session"]`) and the file it is read from.
struct Module {
    path: Vec<String>,
    file: PathBuf,
}

/// The text of a source file without comments, string and char literals (their quotes
/// kept, emptied), and without test code: `#[cfg(test)]` items. Returns the text and the
/// names of the modules declared under `#[cfg(test)]` (`mod tests;`).
fn code_of(text: &str) -> (String, Vec<String>) {
    let plain = strip_comments_and_literals(text);
    let mut out = String::new();
    let mut skipped = Vec::new();
    let mut rest = plain.as_str();
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(rest.get(..at).unwrap_or_default());
        let after = rest.get(at + "#[cfg(test)]".len()..).unwrap_or_default();
        // The item: up to its `;` when that comes before any `{`, else its braces.
        let semi = after.find(';');
        let brace = after.find('{');
        let end = match (semi, brace) {
            (Some(s), Some(b)) if s < b => s + 1,
            (Some(s), None) => s + 1,
            (_, Some(b)) => matching_brace(after, b).map_or(after.len(), |e| e + 1),
            (None, None) => after.len(),
        };
        let item = after.get(..end).unwrap_or_default();
        if let Some(name) = declared_module(item).filter(|_| !item.contains('{')) {
            skipped.push(name);
        }
        rest = after.get(end..).unwrap_or_default();
    }
    out.push_str(rest);
    (out, skipped)
}

/// The index of the `}` that closes the `{` at `open`.
fn matching_brace(text: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in text.char_indices().skip_while(|(i, _)| *i < open) {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Removes `//` and `/* */` comments and empties string and char literals (raw strings
/// included), so that words in them are not read as paths.
fn strip_comments_and_literals(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    while i < chars.len() {
        let c = at(i);
        if c == '/' && at(i + 1) == '/' {
            while i < chars.len() && at(i) != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            i += 2;
            while i < chars.len() && !(at(i) == '*' && at(i + 1) == '/') {
                i += 1;
            }
            i += 2;
        } else if c == 'r' && (at(i + 1) == '"' || (at(i + 1) == '#' && at(i + 2) == '"'))
            || c == 'r' && at(i + 1) == '#' && at(i + 2) == '#'
        {
            // A raw string: r"…", r#"…"#, r##"…"##.
            let mut hashes = 0;
            let mut j = i + 1;
            while at(j) == '#' {
                hashes += 1;
                j += 1;
            }
            j += 1;
            loop {
                if j >= chars.len() {
                    break;
                }
                if at(j) == '"' && (1..=hashes).all(|k| at(j + k) == '#') {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && at(i) != '"' {
                if at(i) == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\''
            && (at(i + 2) == '\''
                || (at(i + 1) == '\\' && (at(i + 3) == '\'' || at(i + 4) == '\'')))
        {
            // A char literal ('a', '\n', '\''); a lifetime ('a) is left alone.
            let mut j = i + 1;
            if at(j) == '\\' {
                j += 1;
            }
            j += 1;
            while j < chars.len() && at(j) != '\'' {
                j += 1;
            }
            out.push_str("' '");
            i = j + 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// The name a `mod name;` (or `pub mod name;`, `pub(crate) mod name {`) item declares.
fn declared_module(item: &str) -> Option<String> {
    let words: Vec<&str> = item
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    let i = words.iter().position(|w| *w == "mod")?;
    words.get(i + 1).map(|w| (*w).to_string())
}

/// The modules a file declares with `mod name;` (a file of its own, not inline).
fn child_modules(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for stmt in code.split(';') {
        let tail = stmt.rsplit(['{', '}']).next().unwrap_or_default();
        let words: Vec<&str> = tail.split_whitespace().collect();
        if let [.., m, name] = words.as_slice()
            && *m == "mod"
            && name.chars().all(|c| c.is_alphanumeric() || c == '_')
        {
            out.push((*name).to_string());
        }
    }
    out
}

/// Every module of the crate, from `src/lib.rs` down its `mod` lines; test modules left
/// out.
fn modules(src: &Path) -> Vec<Module> {
    let mut out = Vec::new();
    let mut todo = vec![(Vec::<String>::new(), src.join("lib.rs"), src.to_path_buf())];
    while let Some((path, file, dir)) = todo.pop() {
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file:?}: {e}"));
        let (code, tests) = code_of(&text);
        for name in child_modules(&code) {
            if tests.contains(&name) {
                continue;
            }
            let flat = dir.join(format!("{name}.rs"));
            let (child_file, child_dir) = if flat.exists() {
                (flat, dir.join(&name))
            } else {
                (dir.join(&name).join("mod.rs"), dir.join(&name))
            };
            let mut child = path.clone();
            child.push(name);
            todo.push((child, child_file, child_dir));
        }
        out.push(Module { path, file });
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// The paths a text names (`crate::a::b`, `super::{c, d::e}`, `self::f`), each as written
/// from its first word, braces expanded.
fn paths(code: &str) -> Vec<Vec<String>> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let starts_word = i == 0
            || !chars
                .get(i - 1)
                .is_some_and(|c| c.is_alphanumeric() || *c == '_' || *c == ':');
        let rest: String = chars.iter().skip(i).take(7).collect();
        if starts_word
            && ["crate::", "super::", "self::"]
                .iter()
                .any(|p| rest.starts_with(p))
        {
            let (found, end) = read_path(&chars, i);
            out.extend(found);
            i = end.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

/// Reads the path that starts at `i` (its braces expanded); returns the paths and where
/// the path ends.
fn read_path(chars: &[char], mut i: usize) -> (Vec<Vec<String>>, usize) {
    let mut prefix: Vec<String> = Vec::new();
    loop {
        let start = i;
        while chars
            .get(i)
            .is_some_and(|c| c.is_alphanumeric() || *c == '_')
        {
            i += 1;
        }
        if i > start {
            prefix.push(chars[start..i].iter().collect());
        }
        if chars.get(i) == Some(&':') && chars.get(i + 1) == Some(&':') {
            i += 2;
            if chars.get(i) == Some(&'{') {
                // A group: each comma-separated part is a path after the prefix.
                let mut out = Vec::new();
                i += 1;
                loop {
                    while chars.get(i).is_some_and(|c| c.is_whitespace() || *c == ',') {
                        i += 1;
                    }
                    match chars.get(i) {
                        None => return (out, i),
                        Some('}') => return (out, i + 1),
                        _ => {}
                    }
                    let (parts, end) = read_path(chars, i);
                    for p in parts {
                        let mut full = prefix.clone();
                        full.extend(p.into_iter().filter(|w| w != "self"));
                        out.push(full);
                    }
                    if parts_end_is_stuck(chars, i, end) {
                        i = end + 1;
                    } else {
                        i = end;
                    }
                    // Skip `as name` and anything up to the next `,` or `}`.
                    while chars.get(i).is_some_and(|c| *c != ',' && *c != '}') {
                        i += 1;
                    }
                }
            }
            continue;
        }
        return (vec![prefix], i);
    }
}

/// Whether a part read nothing (a `*`, say): the reader must step over it.
fn parts_end_is_stuck(_chars: &[char], start: usize, end: usize) -> bool {
    end == start
}

/// The module a path names, from the module `from` whose file holds it (`is_file_root`:
/// the file is the module's own, `mod.rs` or `name.rs`): the deepest module of `known`
/// the path leads into. None for a path outside the crate's modules.
fn target(from: &[String], path: &[String], known: &BTreeSet<Vec<String>>) -> Option<Vec<String>> {
    let mut base: Vec<String> = from.to_vec();
    let mut words = path.iter().peekable();
    match words.next().map(String::as_str) {
        Some("crate") => base.clear(),
        Some("self") => {}
        Some("super") => {
            base.pop()?;
            while words.peek().is_some_and(|w| *w == "super") {
                words.next();
                base.pop()?;
            }
        }
        _ => return None,
    }
    let mut deepest = None;
    for w in words {
        base.push(w.clone());
        if known.contains(&base) {
            deepest = Some(base.clone());
        } else {
            break;
        }
    }
    deepest
}

/// The edges between modules: from the module whose file names a path to the module it
/// names.
fn edges(src: &Path) -> (Vec<Module>, Edges) {
    let modules = modules(src);
    let known: BTreeSet<Vec<String>> = modules.iter().map(|m| m.path.clone()).collect();
    let mut out = BTreeSet::new();
    for m in &modules {
        let text = std::fs::read_to_string(&m.file).expect("a source file");
        let (code, _) = code_of(&text);
        for p in paths(&code) {
            if let Some(t) = target(&m.path, &p, &known)
                && t != m.path
            {
                out.insert((m.path.clone(), t));
            }
        }
    }
    (modules, out)
}

/// The library's layers, lowest first, as `src/lib.rs`'s table lists them.
fn lib_layers(src: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
    text.lines()
        .filter_map(|l| l.strip_prefix("//! | [`"))
        .filter_map(|l| l.split('`').next())
        .map(str::to_string)
        .collect()
}

#[test]
fn each_layer_uses_only_the_layers_before_it_in_the_table() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = root.join("src");
    let layers = lib_layers(&src);
    let (modules, edges) = edges(&src);
    // The scan sees what it looks for (a check that cannot fail is no check).
    assert!(modules.len() > 100, "{} modules read", modules.len());
    assert!(
        edges.contains(&(vec!["judge".into()], vec!["store".into()])),
        "the judge's use of the store is read"
    );
    let tops: BTreeSet<String> = modules
        .iter()
        .filter_map(|m| m.path.first().cloned())
        .collect();
    let listed: BTreeSet<String> = layers.iter().cloned().collect();
    assert_eq!(
        tops, listed,
        "src/lib.rs's layer table lists every top module of the library, once"
    );
    let rank: BTreeMap<&str, usize> = layers
        .iter()
        .enumerate()
        .map(|(i, l)| (l.as_str(), i))
        .collect();
    let mut wrong = BTreeSet::new();
    for (from, to) in &edges {
        let (Some(a), Some(b)) = (from.first(), to.first()) else {
            continue;
        };
        if a != b && rank.get(a.as_str()) < rank.get(b.as_str()) {
            wrong.insert(format!(
                "{} uses {} (a later layer)",
                from.join("::"),
                to.join("::")
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layer table of src/lib.rs:\n{}",
        wrong.into_iter().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn the_readme_lists_the_layers_in_the_order_of_lib_rs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let layers = lib_layers(&root.join("src"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let at = readme
        .find("## Where the code lives")
        .expect("the README's section on the code");
    let rows: Vec<String> = readme
        .get(at..)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.strip_prefix("| `src/"))
        .filter_map(|l| l.split(['/', '`', '.']).next())
        .map(str::to_string)
        .filter(|m| layers.contains(m))
        .collect();
    let mut seen: Vec<String> = Vec::new();
    for r in rows {
        if !seen.contains(&r) {
            seen.push(r);
        }
    }
    assert_eq!(
        seen, layers,
        "the README's \"Where the code lives\" lists the layers in src/lib.rs's order"
    );
}

/// The strongly connected sets of more than one module among `nodes` (Tarjan's).
fn cycles(nodes: &[Vec<String>], edges: &Edges) -> Vec<Vec<Vec<String>>> {
    struct State<'a> {
        next: usize,
        index: BTreeMap<&'a [String], usize>,
        low: BTreeMap<&'a [String], usize>,
        stack: Vec<&'a [String]>,
        out: Vec<Vec<Vec<String>>>,
    }
    fn visit<'a>(
        v: &'a [String],
        succ: &BTreeMap<&'a [String], Vec<&'a [String]>>,
        s: &mut State<'a>,
    ) {
        s.index.insert(v, s.next);
        s.low.insert(v, s.next);
        s.next += 1;
        s.stack.push(v);
        for w in succ.get(v).into_iter().flatten() {
            if !s.index.contains_key(w) {
                visit(w, succ, s);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(lw);
            } else if s.stack.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = s.stack.pop() {
                comp.push(w.to_vec());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                s.out.push(comp);
            }
        }
    }
    let mut succ: BTreeMap<&[String], Vec<&[String]>> = BTreeMap::new();
    for (a, b) in edges {
        if let (Some(x), Some(y)) = (
            nodes.iter().find(|n| *n == a),
            nodes.iter().find(|n| *n == b),
        ) {
            succ.entry(x.as_slice()).or_default().push(y.as_slice());
        }
    }
    let mut s = State {
        next: 0,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        out: Vec::new(),
    };
    for n in nodes {
        if !s.index.contains_key(n.as_slice()) {
            visit(n, &succ, &mut s);
        }
    }
    s.out
}

#[test]
fn no_module_reaches_itself_through_its_siblings() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (modules, edges) = edges(&root.join("src"));
    // Within each folder, the sibling modules: an edge between two siblings stands for any
    // path from inside one (its files and folders) into the other.
    let mut parents: BTreeMap<Vec<String>, Vec<Vec<String>>> = BTreeMap::new();
    for m in &modules {
        if let Some((_, parent)) = m.path.split_last() {
            parents
                .entry(parent.to_vec())
                .or_default()
                .push(m.path.clone());
        }
    }
    let mut found = Vec::new();
    for (parent, children) in &parents {
        let lift = |p: &Vec<String>| -> Option<Vec<String>> {
            (p.len() > parent.len() && p.starts_with(parent)).then(|| p[..=parent.len()].to_vec())
        };
        let sibling_edges: Edges = edges
            .iter()
            .filter_map(|(a, b)| Some((lift(a)?, lift(b)?)))
            .filter(|(a, b)| a != b)
            .collect();
        for c in cycles(children, &sibling_edges) {
            found.push(
                c.iter()
                    .map(|m| m.join("::"))
                    .collect::<Vec<_>>()
                    .join(" ↔ "),
            );
        }
    }
    assert!(
        found.is_empty(),
        "modules that import each other (through their siblings):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scan_reads_paths_and_finds_a_cycle() {
    let code = "use super::{a::{self, B}, c};\nuse crate::x::y::Z; // crate::not::this\nlet s = \"crate::nor::this\";\nfn f() { self::d::g() }";
    let (code, _) = code_of(code);
    let found = paths(&code);
    let words = |p: &[&str]| p.iter().map(|w| w.to_string()).collect::<Vec<_>>();
    for p in [
        words(&["super", "a"]),
        words(&["super", "a", "B"]),
        words(&["super", "c"]),
        words(&["crate", "x", "y", "Z"]),
        words(&["self", "d", "g"]),
    ] {
        assert!(found.contains(&p), "{p:?} in {found:?}");
    }
    assert!(!found.iter().any(|p| p.contains(&"not".to_string())));
    assert!(!found.iter().any(|p| p.contains(&"nor".to_string())));
    let (code, tests) =
        code_of("mod a;\n#[cfg(test)]\nmod tests;\n#[cfg(test)]\nmod t { use crate::z; }\n");
    assert_eq!(child_modules(&code), ["a"]);
    assert_eq!(tests, ["tests"]);
    assert!(paths(&code).is_empty());
    let n = |s: &str| vec![s.to_string()];
    let nodes = [n("a"), n("b"), n("c")];
    let edges: BTreeSet<_> = [(n("a"), n("b")), (n("b"), n("a")), (n("b"), n("c"))]
        .into_iter()
        .collect();
    assert_eq!(cycles(&nodes, &edges), vec![vec![n("a"), n("b")]]);
}
