#!/usr/bin/env bash
# The project's one test command: install and start the real mail servers (Dovecot and
# Postfix on 127.0.0.1, see scripts/mail-servers.sh) from an empty mail store, run every
# test with them required (DIPJUDGE_MAIL_SERVERS=1 makes the server tests fail, not skip,
# if they are missing), then stop the servers whatever happened. Chromium and its driver are
# installed from Debian when missing, and the web view's browser test runs with them
# (DIPJUDGE_BROWSER=1: it fails, not skips, without them). Formatting and clippy
# (warnings are errors) are checked first. Exits with cargo's status.
set -euo pipefail
cd "$(dirname "$0")/.."

if command -v rustup >/dev/null; then
  rustup component add clippy rustfmt >/dev/null 2>&1 || true
fi
cargo fmt --all -- --check
cargo clippy --all-targets -- -D warnings

scripts/mail-servers.sh install
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    chromium chromium-driver
fi
scripts/mail-servers.sh clean
trap 'scripts/mail-servers.sh stop || true' EXIT
scripts/mail-servers.sh start

status=0
DIPJUDGE_MAIL_SERVERS=1 DIPJUDGE_BROWSER=1 cargo test --all-targets || status=$?
# The real-server tests again with IMAP IDLE forced off (the daemon and the test clients
# poll): push delivery and polling must both work.
DIPJUDGE_MAIL_SERVERS=1 DIPJUDGE_IMAP_IDLE=0 cargo test --test integration -- servers:: daemon:: \
  || status=$?
exit "$status"
