//! Integration tests: one binary, a table of contents, one module per feature.

/// Case files: the DATC v3.0 and our own cases, run as `dipjudge adjudicate` runs them.
mod cases;
/// The `dipjudge` binary itself: exit codes and output of its subcommands.
mod cli;
/// The daemon against the real servers: a full game by IMAP and SMTP, SIGKILL at random
/// points, a server restart under the live daemon, bad mail (same switch as `servers`).
mod daemon;
/// Whole games by mail through the judge core, with a leak scanner.
mod game;
/// Golden mail tests: numbered input mails and clock ticks in, every mail out and the final
/// state compared byte for byte (`tests/golden/<scenario>/`).
mod golden;
/// The command language: grammar/examples golden files and fuzz crashers.
mod grammar;
/// A message far over the size cap.
mod oversize;
/// The mail transports against real Dovecot and Postfix on 127.0.0.1
/// (`scripts/mail-servers.sh start`; required when `DIPJUDGE_MAIL_SERVERS=1`).
mod servers;
