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

/// Returns early (with a note) when the servers are not expected; otherwise holds the
/// servers shared until the test ends ([`servers::SERVERS`] for reading), so no test that
/// stops and starts them runs meanwhile. `needs_servers!(exclusive)` holds them alone: for
/// a test that stops them. Every test that talks to the servers starts with one of the two
/// (a test that did not was once refused by a Postfix another test had stopped).
macro_rules! needs_servers {
    () => {
        if !crate::servers_expected() {
            eprintln!("note: DIPJUDGE_MAIL_SERVERS is not 1: skipping a real-server test");
            return;
        }
        let _servers_shared = crate::servers::SERVERS
            .read()
            .unwrap_or_else(|e| e.into_inner());
    };
    (exclusive) => {
        if !crate::servers_expected() {
            eprintln!("note: DIPJUDGE_MAIL_SERVERS is not 1: skipping a real-server test");
            return;
        }
        let _servers_alone = crate::servers::SERVERS
            .write()
            .unwrap_or_else(|e| e.into_inner());
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

/// One of the test servers' ports: `DIPJUDGE_<NAME>_PORT` (`scripts/test.sh` exports them
/// for the stack it started on free ports), else the stack's `ports.env`
/// (`scripts/mail-servers.sh start` writes it), else the script's fixed port.
fn mail_port(name: &str, fixed: u16) -> u16 {
    let var = format!("DIPJUDGE_{name}_PORT");
    if let Some(port) = std::env::var(&var).ok().and_then(|v| v.trim().parse().ok()) {
        return port;
    }
    std::fs::read_to_string(mail_data_dir().join("ports.env"))
        .ok()
        .and_then(|text| {
            text.lines()
                .filter_map(|l| l.split_once('='))
                .find(|(k, _)| k.trim() == var)
                .and_then(|(_, v)| v.trim().parse().ok())
        })
        .unwrap_or(fixed)
}

/// Postfix's submission port (STARTTLS).
pub(crate) fn smtp_port() -> u16 {
    mail_port("SMTP", 2525)
}

/// Postfix's SMTPS port (TLS from the first byte).
pub(crate) fn smtps_port() -> u16 {
    mail_port("SMTPS", 4465)
}

/// Dovecot's IMAP port (STARTTLS).
pub(crate) fn imap_port() -> u16 {
    mail_port("IMAP", 1143)
}

/// Dovecot's IMAPS port (TLS from the first byte).
pub(crate) fn imaps_port() -> u16 {
    mail_port("IMAPS", 1993)
}

/// Where Dovecot's oauth2 passdb asks about tokens: the XOAUTH2 tests' own token endpoint
/// listens here (no server of the stack does).
pub(crate) fn oauth_port() -> u16 {
    mail_port("OAUTH", 2427)
}

/// Attacks from outside the session (issue 37), each named after the defect it closes:
/// forged delivery reports, strangers locking a seat's owner out, masking exactly the
/// secrets, a greedy web client, addresses no seat may have, invitations and confirmations
/// abused, games created by throwaway addresses.
mod attacks;
/// Secrets and authority under attack: passwords never shown, sign-ons throttled per seat,
/// subscriptions confirmed by their address, bounded replies to unproven senders.
mod authority;
/// Boards as data (issue 40): the shipped boards, the standard board equal to the standard
/// map, an operator's folders in njudge's format and broken ones, the schematic picture.
mod boards;
/// Case files: the DATC v3.0 and our own cases, run as `dipjudge adjudicate` runs them.
mod cases;
/// The `dipjudge` binary itself: exit codes and output of its subcommands.
mod cli;
/// The binary on the Maildir default, killed and raced: the short game with SIGKILLs at
/// random points, a kill while sending, three `process` passes at once on one database.
mod crash;
/// The daemon against the real servers: a full game by IMAP and SMTP, SIGKILL at random
/// points, a server restart under the live daemon, bad mail, a seat whose address
/// the SMTP server refuses (same switch as `servers`).
mod daemon;
/// The judge's desk the mail tests share: an in-memory judge, its clock and Message-IDs,
/// a mail in and its reply out, a standard game created and seated by mail.
mod desk;
/// Duplex games by mail (issue 31): njudge's Bug91 sequence starts a game of four players
/// by preference; one player orders for two powers, votes once, resigns both.
mod duplex;
/// `dipjudge export` and `EXPORT game`: the record game as JSON, read back (its phases, its
/// orders, nothing private; the mailed record is the command line's), and a finished game's
/// players revealed.
mod export;
/// Anomaly tests (SQLite's model): a game row that cannot be read, a panicking rule-set
/// hook, a mail that panics or kills the judge, a full disk, a store error at each write of
/// a phase's processing and of a mail's handling. Nothing by halves, nothing else stops.
mod faults;
/// The `mail` and `cases` fuzz targets' checks on the inputs kept under `fixtures/fuzz/`.
mod fuzz_replay;
/// Whole games by mail through the judge core, with a leak scanner; the pictures of a game by
/// mail (MAP, MAP ALL, the centre chart).
mod game;
/// Golden mail tests: numbered input mails and clock ticks in, every mail out and the final
/// state compared byte for byte (`tests/golden/<scenario>/`).
mod golden;
/// The command language: grammar/examples golden files and fuzz crashers.
mod grammar;
/// Hostile and careless mail through the daemon: absurd subjects and ids within the RFCs,
/// the loop guard, SET ADDRESS to addresses the mailer can send to, the text cap at a line.
mod hostile;
/// The layers as the imports have them: each top module uses only those before it in
/// `src/lib.rs`'s table (the README's in the same order); no import cycle in any folder.
mod layers;
/// Golden games through the real binary on the Maildir default, with a leak scanner.
mod maildir_golden;
/// njudge's regression inputs mailed in order: every line understood, the duplex game
/// starts with four players (issue 31).
mod njudge_inputs;
/// njudge's command words (issue 38): every index entry read in its role, the settings by
/// another name, the words done otherwise, PHASE, BECOME's copy.
mod njudge_words;
/// Observers' press as njudge's (issue 31): SET OBSERVER, the observer's password, PRESS TO
/// O; what observers read is SET WATCH.
mod observers;
/// The judge as an operator runs it: `check`, `backup` while `run` handles mail and the
/// restore drill, private database files, a database newer than the binary, `run`'s exit
/// statuses, logs for a file or the journal, the systemd unit, a clone that stands alone.
mod operator;
/// A message far over the size cap.
mod oversize;
/// Players as people (issue 31): njudge's REGISTER blocks, WHOIS and its public fields,
/// I AM ALSO confirmed by both addresses.
mod people;
/// The picture of a phase: golden SVGs of adjudicated phases and of each rule set's own marks,
/// their PNGs sampled and size-checked.
mod picture;
/// What the rules keep secret stays secret from every reader: Survive ballots, HISTORY by
/// audience.
mod privacy;
/// The proof model (issue 37): who a mail speaks for, the attacks on it replayed and
/// shown failing.
mod proof;
/// Quoted replies in nine languages and six ways of quoting (issue 38): only the orders above
/// the quote change; greetings and closings draw no error; a quoted SIGNON joins nobody; a
/// typographic apostrophe in a password; a results listing pasted back.
mod quoting;
/// Orders as judges print them and players write them, through `dipjudge parse` (issue 38):
/// results listings pasted back, players' forms, every name of njudge's standard map.
mod reading;
/// Where the words live: the judge and the game write no sentence of their own;
/// `src/bulletin/` is the one renderer of what people read.
mod renderer;
/// Upgrades: a database made by each schema version the project shipped is migrated and
/// plays on (`tests/schemas/`).
mod schemas;
/// A scratch judge on the Maildir default: its directory, inbox, outbox and games.
mod scratch;
/// Seats changing hands by mail: resignations and ejections told, dropped powers that stall
/// nothing, takeovers (at once or approved), FORCE BEGIN and dummies, draws among the played
/// powers, NONMR waiting, quiet games, bouncing seats, tenures in SUMMARY.
mod seats;
/// The mail transports against real Dovecot and Postfix on 127.0.0.1
/// (`scripts/mail-servers.sh start`; required when `DIPJUDGE_MAIL_SERVERS=1`).
mod servers;
/// njudge's readings and the hazards of the session set right (issue 38): LIST after
/// SIGNON, draw votes each phase, UNSTART, PHASE, schedules that do what a master means.
mod session_njudge;
/// A game the way its master wants it (issue 28): a schedule in the game's zone, absences,
/// anonymous games under a leak scanner, private games, LIST with every setting.
mod settings;
/// Golden files compared (or rewritten) for the golden and picture tests.
mod support;
/// The variant platform: a toy rule set (its own command, phase and state) overriding every
/// hook plays a game by mail; a scan shows no rule set's name or keyword in the core.
mod variant;
/// The web view over HTTP on 127.0.0.1:0: the game list, a game and its phases, private
/// pages by the mails' tokens, escaping, methods, headers, the rate limit.
mod web;
/// The web view in headless Chromium (`DIPJUDGE_BROWSER=1`; skipped otherwise).
mod web_browser;
/// The leak scanner over every page of the golden Survive, Formal and International
/// Relations games for every reader.
mod web_leaks;
