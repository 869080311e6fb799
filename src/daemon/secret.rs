//! The judge's secret: 32 bytes from the OS kept in `<database>.secret` (mode 600, made
//! at the first start), beside the database and never in it. Under it the judge keeps the
//! MACs of passwords it verified in the database (`judge::password`), so that a `process`
//! run from cron does not pay argon2id for every seat on every pass, while a copy of the
//! database alone (a backup) still cannot test a guess faster than argon2id allows.
//! Deleting the file only costs each seat one argon2id check at its next mail.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::judge::PasswordKey;

/// Where the secret of the judge on `database` is kept.
pub fn path_for(database: &Path) -> PathBuf {
    let mut name = database.as_os_str().to_owned();
    name.push(".secret");
    PathBuf::from(name)
}

fn parse(text: &str) -> Option<[u8; 32]> {
    let hex = text.trim();
    if hex.len() != 64 || !hex.is_ascii() {
        return None;
    }
    let mut key = [0u8; 32];
    for (i, b) in key.iter_mut().enumerate() {
        *b = u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(key)
}

/// The secret of the judge on `database`: read, or made now (mode 600, never replaced).
pub fn load_or_create(database: &Path) -> anyhow::Result<PasswordKey> {
    let path = path_for(database);
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            return parse(&text).map(PasswordKey).with_context(|| {
                format!(
                    "{} is not a judge's secret (64 hexadecimal digits); remove it to have a new one made",
                    path.display()
                )
            });
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| format!("while reading {}", path.display())),
    }
    let mut key = [0u8; 32];
    getrandom::fill(&mut key).map_err(|e| anyhow::anyhow!("no randomness from the OS: {e}"))?;
    let hex: String = key.iter().map(|b| format!("{b:02x}")).collect();
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(&path) {
        Ok(mut f) => {
            f.write_all(format!("{hex}\n").as_bytes())
                .and_then(|()| f.sync_all())
                .with_context(|| format!("while writing {}", path.display()))?;
            Ok(PasswordKey(key))
        }
        // Another process made it meanwhile: its secret is the judge's.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("while reading {}", path.display()))?;
            parse(&text)
                .map(PasswordKey)
                .with_context(|| format!("{} is not a judge's secret", path.display()))
        }
        Err(e) => Err(e).with_context(|| format!("while creating {}", path.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_secret_is_made_once_private_and_read_back() {
        let dir = std::env::temp_dir().join(format!("dipjudge-secret-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let db = dir.join("judge.db");
        let _ = std::fs::remove_file(path_for(&db));
        let made = load_or_create(&db).unwrap();
        let again = load_or_create(&db).unwrap();
        assert_eq!(made, again);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(path_for(&db))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        std::fs::write(path_for(&db), "not hex\n").unwrap();
        let err = load_or_create(&db).unwrap_err().to_string();
        assert!(err.contains("is not a judge's secret"), "{err}");
        assert_eq!(format!("{made:?}"), "PasswordKey(..)");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
