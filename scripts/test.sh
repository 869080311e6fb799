#!/usr/bin/env bash
# The project's one test command: every test, in one go. Exits with cargo's status.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --all-targets
