//! Integration tests: one binary, a table of contents, one module per feature.

/// Case files: the DATC v3.0 and our own cases, run as `dipjudge adjudicate` runs them.
mod cases;
/// The `dipjudge` binary itself: exit codes and output of its subcommands.
mod cli;
