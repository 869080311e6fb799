//! Integration tests: one binary, a table of contents, one module per feature.

use std::path::PathBuf;

/// The test servers' one password (every `*@example.test` user has it).
pub(crate) const MAIL_PASSWORD: &str = "dipjudge-test-password";

/// Whether the real mail servers are expected (`scripts/test.sh` sets
/// `DIPJUDGE_MAIL_SERVERS=1`); then the server tests fail, not skip, without them.
pub(crate) fn servers_expected() -> bool {
    std::env::var("DIPJUDGE_MAIL_SERVERS").is_ok_and(|v| v == "1")
}

/// Whether the IMAP clients may use IDLE (`DIPJUDGE_IMAP_IDLE=0` forces polling:
/// `scripts/test.sh` runs the real-server tests both ways).
pub(crate) fn imap_idle() -> bool {
    std::env::var("DIPJUDGE_IMAP_IDLE").map_or(true, |v| v != "0")
}

/// Returns early (with a note) when the servers are not expected.
macro_rules! needs_servers {
    () => {
        if !crate::servers_expected() {
            eprintln!("note: DIPJUDGE_MAIL_SERVERS is not 1: skipping a real-server test");
            return;
        }
    };
}

/// Where `scripts/mail-servers.sh` keeps the servers' data.
pub(crate) fn mail_data_dir() -> PathBuf {
    std::env::var_os("DIPJUDGE_MAIL_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/var/tmp/dipjudge-mail"))
}

/// The test CA that signed the servers' certificate.
pub(crate) fn mail_ca() -> PathBuf {
    mail_data_dir().join("tls/ca.pem")
}

/// Case files: the DATC v3.0 and our own cases, run as `dipjudge adjudicate` runs them.
mod cases;
/// The `dipjudge` binary itself: exit codes and output of its subcommands.
mod cli;
/// The daemon against the real servers: a full game by IMAP and SMTP, SIGKILL at random
/// points, a server restart under the live daemon, bad mail (same switch as `servers`).
mod daemon;
/// The `mail` and `cases` fuzz targets' checks on the inputs kept under `fixtures/fuzz/`.
mod fuzz_replay;
/// Whole games by mail through the judge core, with a leak scanner.
mod game;
/// Golden mail tests: numbered input mails and clock ticks in, every mail out and the final
/// state compared byte for byte (`tests/golden/<scenario>/`).
mod golden;
/// The command language: grammar/examples golden files and fuzz crashers.
mod grammar;
/// Golden games through the real binary on the Maildir default, with a leak scanner.
mod maildir_golden;
/// A message far over the size cap.
mod oversize;
/// The picture of a phase: golden SVGs of adjudicated phases and of each rule set's own marks,
/// their PNGs sampled.
mod picture;
/// The mail transports against real Dovecot and Postfix on 127.0.0.1
/// (`scripts/mail-servers.sh start`; required when `DIPJUDGE_MAIL_SERVERS=1`).
mod servers;
/// Helpers the tests share (mailing the judge core).
mod support;
/// The variant platform: a toy rule set (its own command, phase and state) overriding every
/// hook plays a game by mail; a scan shows no rule set's name or keyword in the core.
mod variant;
