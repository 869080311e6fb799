//! Golden files the integration tests share: what a test got compared with its file, or the
//! file rewritten (`UPDATE_GOLDEN=1`). Mailing the judge core is `desk.rs`.

use std::path::Path;

/// Compares `got` with the golden file at `path` (a difference or a missing file is added to
/// `failures`, with the lines around the first difference); `UPDATE_GOLDEN=1` rewrites the
/// file instead.
pub(crate) fn compare_golden(path: &Path, got: &str, failures: &mut Vec<String>) {
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(path, got).expect("write golden");
        return;
    }
    match std::fs::read_to_string(path) {
        Err(_) => failures.push(format!(
            "{}: missing (UPDATE_GOLDEN=1 writes it)",
            path.display()
        )),
        Ok(expected) if expected != got => {
            let line = expected
                .lines()
                .zip(got.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(expected.lines().count().min(got.lines().count()));
            let show = |s: &str| {
                s.lines()
                    .skip(line.saturating_sub(3))
                    .take(8)
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            failures.push(format!(
                "{} differs from line {}:\n--- expected\n{}\n--- got\n{}\n",
                path.display(),
                line + 1,
                show(&expected),
                show(got)
            ));
        }
        Ok(_) => {}
    }
}
