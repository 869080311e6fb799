//! Reading board folders from disk: the only I/O of the board module, done once at
//! start-up (the daemon and the command line call [`load_all`] before they serve
//! anything). Everything after is pure ([`super::load_boards`]).

use std::path::Path;

use super::toml_file::{self, BOARD_TOML};
use super::{BoardError, BoardFolder, BoardSet, load_boards, shipped_folders};

/// The largest file a board folder may hold (a large njudge map is about 20 KB).
pub const BOARD_FILE_LIMIT: u64 = 1 << 20;

/// Reads one file of a board folder, at most [`BOARD_FILE_LIMIT`] bytes of UTF-8.
fn read_text(path: &Path, shown: &str) -> Result<String, BoardError> {
    let meta = std::fs::metadata(path)
        .map_err(|e| BoardError::file(shown, format!("cannot be read: {e}")))?;
    if !meta.is_file() {
        return Err(BoardError::file(shown, "is not a file"));
    }
    if meta.len() > BOARD_FILE_LIMIT {
        return Err(BoardError::file(
            shown,
            format!(
                "is {} bytes, more than a board file may be ({BOARD_FILE_LIMIT})",
                meta.len()
            ),
        ));
    }
    let bytes =
        std::fs::read(path).map_err(|e| BoardError::file(shown, format!("cannot be read: {e}")))?;
    String::from_utf8(bytes).map_err(|e| {
        BoardError::file(
            shown,
            format!("is not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
        )
    })
}

/// The board folders under `dir` (each subfolder holding a `board.toml`), read as texts,
/// sorted by name; and for each folder that cannot be read, why. Hidden folders and plain
/// files are passed over. A folder's files are read as its `board.toml` names them,
/// relative to the folder.
pub fn read_folders(dir: &Path) -> (Vec<BoardFolder>, Vec<(String, BoardError)>) {
    let mut folders = Vec::new();
    let mut errors = Vec::new();
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            errors.push((
                dir.display().to_string(),
                BoardError::file(&dir.display().to_string(), format!("cannot be read: {e}")),
            ));
            return (folders, errors);
        }
    };
    let mut paths: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    paths.sort();
    for path in paths {
        let Some(name) = path
            .file_name()
            .and_then(|n| n.to_str())
            .map(str::to_string)
        else {
            continue;
        };
        if name.starts_with('.') {
            continue;
        }
        let toml_text = match read_text(&path.join(BOARD_TOML), BOARD_TOML) {
            Ok(t) => t,
            Err(e) => {
                errors.push((name, e));
                continue;
            }
        };
        let mut folder = BoardFolder {
            name: name.clone(),
            files: Default::default(),
        };
        // A board.toml that does not read is refused by the loader with its line; the
        // folder is passed on with it alone. A file it names that is missing is the
        // loader's to report; one that is there but cannot be read is this folder's error.
        let mut failed = None;
        if let Ok(spec) = toml_file::parse(&toml_text) {
            for file in spec.data_files() {
                let at = path.join(&file);
                if !at.exists() {
                    continue;
                }
                match read_text(&at, &file) {
                    Ok(text) => {
                        folder.files.insert(file, text);
                    }
                    Err(e) => {
                        failed = Some(e);
                        break;
                    }
                }
            }
        }
        if let Some(e) = failed {
            errors.push((name, e));
            continue;
        }
        folder.files.insert(BOARD_TOML.to_string(), toml_text);
        folders.push(folder);
    }
    (folders, errors)
}

/// Every board the judge knows: the shipped ones, then the folders under `dir` (an
/// operator's `boards/` beside `judge.toml`), checked. A folder that cannot be read or
/// does not load is in [`BoardSet::errors`] with its file and line; the others load.
pub fn load_all(dir: Option<&Path>) -> BoardSet {
    let mut folders = shipped_folders();
    let mut read_errors = Vec::new();
    if let Some(dir) = dir {
        let (mine, errors) = read_folders(dir);
        // The repository's own `boards/` holds the shipped boards as they are compiled in:
        // those copies are the same boards, not rivals.
        let shipped = folders.clone();
        folders.extend(mine.into_iter().filter(|f| !shipped.contains(f)));
        read_errors = errors;
    }
    let mut set = load_boards(&folders);
    set.errors.extend(read_errors);
    set.errors.sort_by(|a, b| a.0.cmp(&b.0));
    set
}
