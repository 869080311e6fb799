//! The `dipjudge` command line: a thin shell over the library. Parses the arguments,
//! runs the subcommand, prints an error chain once, and exits 0 (fine), 1 (something
//! checked failed, e.g. a case) or 2 (could not run: unreadable file, bad arguments); `run`
//! and `process` say more (3 another judge on the database, 4 a database they cannot use,
//! 5 the web view cannot listen: README.md, "Exit statuses"), and `web` and `restore` use
//! the same 4.

mod cli;
mod cli_daemon;
mod cli_ops;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::main()
}
