//! The database as a file the operator handles: created readable by its owner only, looked
//! at without being changed (`dipjudge check`), and copied whole while a judge writes to it
//! (`dipjudge backup`, SQLite's online backup). Never reads or writes a game.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::backup::{Backup, StepResult};
use rusqlite::{Connection, OpenFlags};

use super::StoreError;
use super::migrations::LATEST;

/// What a look at a database file found, without changing it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DatabaseInfo {
    /// Its schema version (`PRAGMA user_version`).
    pub schema: i64,
    /// The games it holds (0 before the schema has a games table).
    pub games: u64,
    /// Its size in bytes (pages × page size, the WAL's committed pages included).
    pub bytes: u64,
}

impl DatabaseInfo {
    /// Whether this judge must migrate it before use (it does so when it opens it).
    pub fn needs_migration(&self) -> bool {
        self.schema < LATEST
    }
}

/// What `backup` made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackupReport {
    /// The copy, as `inspect` sees it.
    pub copy: DatabaseInfo,
    /// `PRAGMA integrity_check` of the copy: "ok" when sound (a copy that is not is
    /// removed, and `backup` fails).
    pub integrity: String,
}

/// Creates the database file at `path`, empty, readable and writable by its owner only,
/// unless it exists. SQLite gives the WAL and shared-memory files it makes beside a
/// database the database file's permissions, so this keeps all three private whatever the
/// process's umask (a judge's database holds every player's address and password hash).
/// A SQLite URI (`file:…`, which SQLite reads as one, e.g. a named in-memory database) or
/// `:memory:` names no file of that name: nothing is created for it.
pub(super) fn create_private(path: &Path) -> Result<(), StoreError> {
    use std::os::unix::fs::OpenOptionsExt;
    if path
        .to_str()
        .is_some_and(|p| p.starts_with("file:") || p == ":memory:" || p.is_empty())
    {
        return Ok(());
    }
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
    {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(StoreError::File {
            path: path.to_path_buf(),
            reason: e.to_string(),
        }),
    }
}

/// Opens `path` read-only: it must exist, and nothing about it is changed (no migration,
/// no journal mode set).
fn open_read_only(path: &Path) -> Result<Connection, StoreError> {
    if !path.is_file() {
        return Err(StoreError::File {
            path: path.to_path_buf(),
            reason: "there is no database file there".into(),
        });
    }
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(Duration::from_secs(5))?;
    Ok(conn)
}

/// The schema version, games and size of the database on `conn`.
fn info(conn: &Connection) -> Result<DatabaseInfo, StoreError> {
    let schema: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    let has_games: bool = conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'games')",
        [],
        |r| r.get(0),
    )?;
    let games: i64 = if has_games {
        conn.query_row("SELECT count(*) FROM games", [], |r| r.get(0))?
    } else {
        0
    };
    let pages: i64 = conn.query_row("PRAGMA page_count", [], |r| r.get(0))?;
    let page_size: i64 = conn.query_row("PRAGMA page_size", [], |r| r.get(0))?;
    Ok(DatabaseInfo {
        schema,
        games: u64::try_from(games).unwrap_or(0),
        bytes: u64::try_from(pages.saturating_mul(page_size)).unwrap_or(0),
    })
}

/// Looks at the database at `path` without changing it: its schema version (a version
/// newer than this judge's is [`StoreError::TooNew`]), its games, its size.
pub fn inspect(path: &Path) -> Result<DatabaseInfo, StoreError> {
    open_known(path).map(|(_, found)| found)
}

/// `path` opened read-only with what it holds, refused when a newer dipjudge wrote it.
fn open_known(path: &Path) -> Result<(Connection, DatabaseInfo), StoreError> {
    let conn = open_read_only(path)?;
    let found = info(&conn)?;
    if found.schema > LATEST {
        return Err(StoreError::TooNew {
            found: found.schema,
            known: LATEST,
        });
    }
    Ok((conn, found))
}

/// `src` copied into a new private file beside `dest` (`<dest>.partial-<pid>`) by
/// [`copy_into`], which checks it; the file is removed again when anything fails.
fn copy_beside(src: &Connection, dest: &Path) -> Result<(PathBuf, BackupReport), StoreError> {
    let partial = with_suffix(dest, &format!(".partial-{}", std::process::id()));
    let _ = std::fs::remove_file(&partial);
    create_private(&partial)?;
    match copy_into(src, &partial) {
        Ok(report) => Ok((partial, report)),
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            Err(e)
        }
    }
}

/// Copies the database at `source` into a new file `dest` while other connections (a
/// running judge) may be writing to it, with SQLite's online backup: the copy is the
/// database as one transaction left it, never half of one. It is written beside `dest`
/// under a temporary name, made a single file (no WAL), checked with
/// `PRAGMA integrity_check`, made readable by its owner only and then renamed to `dest`,
/// so `dest` is either a sound copy or absent. `dest` must not exist.
pub fn backup(source: &Path, dest: &Path) -> Result<BackupReport, StoreError> {
    let file_error = |reason: String| StoreError::File {
        path: dest.to_path_buf(),
        reason,
    };
    if dest.exists() {
        return Err(file_error(
            "it exists already; a backup never overwrites a file".into(),
        ));
    }
    let src = open_read_only(source)?;
    let (partial, report) = copy_beside(&src, dest)?;
    if let Err(e) = std::fs::rename(&partial, dest) {
        let _ = std::fs::remove_file(&partial);
        return Err(file_error(e.to_string()));
    }
    Ok(report)
}

/// The online backup of `src` into the new file `path`, checked.
fn copy_into(src: &Connection, path: &Path) -> Result<BackupReport, StoreError> {
    let mut dst = Connection::open(path)?;
    {
        let backup = Backup::new(src, &mut dst)?;
        // Every page in one step: the step reads the source in one read transaction, so a
        // judge writing meanwhile never makes the copy start over (in WAL mode it does not
        // wait for the copy either). Busy or locked: the step is tried again.
        let mut waits = 0u32;
        loop {
            match backup.step(-1)? {
                StepResult::Done => break,
                StepResult::More => {}
                StepResult::Busy | StepResult::Locked => {
                    waits += 1;
                    if waits > 600 {
                        return Err(StoreError::File {
                            path: path.to_path_buf(),
                            reason: "the database stayed busy for a minute".into(),
                        });
                    }
                    std::thread::sleep(Duration::from_millis(100));
                }
                _ => {}
            }
        }
    }
    // A backup is one file: the copy's header still says WAL, so make it a rollback
    // journal database (nothing beside it to lose or forget).
    dst.pragma_update(None, "journal_mode", "DELETE")?;
    let integrity: String = dst.query_row("PRAGMA integrity_check", [], |r| r.get(0))?;
    let copy = info(&dst)?;
    drop(dst);
    if integrity != "ok" {
        return Err(StoreError::File {
            path: path.to_path_buf(),
            reason: format!("the copy fails its integrity check: {integrity}"),
        });
    }
    Ok(BackupReport { copy, integrity })
}

/// What `restore` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RestoreReport {
    /// The database now in place, as `inspect` sees it.
    pub restored: DatabaseInfo,
    /// `PRAGMA integrity_check` of the backup before it was put in place ("ok").
    pub integrity: String,
    /// Where the database it replaced was kept (with its WAL beside it), if there was one.
    pub replaced: Option<PathBuf>,
}

/// `path` with `suffix` added to its name.
fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Puts the backup `from` in place as the database `database`, which no judge may be
/// using (the caller holds its lock). The backup must pass `PRAGMA integrity_check` and
/// be no newer than this judge. It is copied with SQLite's backup (so a backup still in
/// WAL mode loses nothing) into a private file beside `database`, given the owner and
/// group of the database it replaces, and renamed over it; the
/// database it replaces is kept as `<database>.replaced-<stamp>` with its WAL and
/// shared-memory files renamed alike, so the pair stays readable.
pub fn restore(from: &Path, database: &Path, stamp: &str) -> Result<RestoreReport, StoreError> {
    let (src, _) = open_known(from)?;
    let integrity: String = src.query_row("PRAGMA integrity_check", [], |r| r.get(0))?;
    if integrity != "ok" {
        return Err(StoreError::File {
            path: from.to_path_buf(),
            reason: format!("the backup fails its integrity check: {integrity}"),
        });
    }
    let copied = copy_beside(&src, database);
    drop(src);
    let (partial, copied) = copied?;
    // The judge's own user must be able to open what root restores: the copy gets the
    // owner and group of the database it replaces (when this process may give them).
    if let Ok(meta) = std::fs::metadata(database) {
        use std::os::unix::fs::MetadataExt;
        let _ = std::os::unix::fs::chown(&partial, Some(meta.uid()), Some(meta.gid()));
    }
    let move_file = |from: &Path, to: &Path| {
        std::fs::rename(from, to).map_err(|e| StoreError::File {
            path: from.to_path_buf(),
            reason: format!("cannot move it to {}: {e}", to.display()),
        })
    };
    let replaced = if database.exists() {
        let kept = with_suffix(database, &format!(".replaced-{stamp}"));
        for suffix in ["-wal", "-shm"] {
            let side = with_suffix(database, suffix);
            if side.exists() {
                move_file(&side, &with_suffix(&kept, suffix))?;
            }
        }
        move_file(database, &kept)?;
        Some(kept)
    } else {
        None
    };
    move_file(&partial, database)?;
    Ok(RestoreReport {
        restored: copied.copy,
        integrity,
        replaced,
    })
}
