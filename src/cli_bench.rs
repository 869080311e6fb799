//! `dipjudge bench-mail`: the daemon's throughput and memory through real mail servers.

use std::process::ExitCode;

/// Arguments of `bench-mail`.
#[derive(Debug, clap::Args)]
pub struct BenchMailArgs {
    /// Games live during the measurement.
    #[arg(long, default_value_t = 50)]
    pub games: usize,
}

pub fn bench_mail(_args: &BenchMailArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("bench-mail is not written yet")
}
