//! The `dipjudge` command line: a thin shell over the library. Parses the arguments,
//! runs the subcommand, prints an error chain once, and exits 0 (fine), 1 (something
//! checked failed, e.g. a case) or 2 (could not run: unreadable file, bad arguments).

mod cli;
mod cli_daemon;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::main()
}
