#!/usr/bin/env bash
# The project's one test command. Checks formatting and clippy (warnings are errors), installs
# what the tests need from Debian when missing (Dovecot and Postfix with OpenSSL, see
# scripts/mail-servers.sh; Chromium; systemd's tools for `systemd-analyze verify`), then runs
# every test with the real mail servers, the browser and systemd-analyze required:
# DIPJUDGE_MAIL_SERVERS=1, DIPJUDGE_BROWSER=1 and DIPJUDGE_SYSTEMD=1 make those tests fail,
# not skip, when what they need is missing.
#
# A run owns nothing machine-wide: its mail servers run from a directory of their own
# (mktemp under /var/tmp, holding their configs, queue, mailboxes, logs and test CA, and the
# tests' temporary files) on ports chosen free at start and exported to the tests as
# DIPJUDGE_SMTP_PORT, DIPJUDGE_SMTPS_PORT, DIPJUDGE_IMAP_PORT, DIPJUDGE_IMAPS_PORT and
# DIPJUDGE_OAUTH_PORT (where the XOAUTH2 tests run the token endpoint Dovecot asks), so
# two runs at once on one machine do not disturb each other. The servers are stopped
# whatever happens; the directory is removed after a run that passed and kept (its path
# printed) after one that failed. Exits with cargo's status.
set -euo pipefail
cd "$(dirname "$0")/.."

# Runs a command as root, keeping the variables that name this run's mail servers.
as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  else
    sudo --preserve-env=DIPJUDGE_MAIL_DIR,DIPJUDGE_MAIL_PORTS,DEBIAN_FRONTEND "$@"
  fi
}

if command -v rustup >/dev/null; then
  rustup component add clippy rustfmt >/dev/null 2>&1 || true
fi
cargo fmt --all -- --check
cargo clippy --all-targets -- -D warnings

as_root scripts/mail-servers.sh install
missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v systemd-analyze >/dev/null || missing+=(systemd)
if [ ${#missing[@]} -gt 0 ]; then
  # Keep package scripts from starting daemons (systemd's own units, say) on this machine.
  made_policy=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' | as_root tee /usr/sbin/policy-rc.d >/dev/null
    as_root chmod 755 /usr/sbin/policy-rc.d
    made_policy=1
  fi
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get update -q
  as_root apt-get install -y -q --no-install-recommends \
    "${missing[@]}"
  if [ "$made_policy" -eq 1 ]; then as_root rm -f /usr/sbin/policy-rc.d; fi
fi

RUN_DIR=$(mktemp -d /var/tmp/dipjudge-test.XXXXXX)
chmod 755 "$RUN_DIR"
mkdir "$RUN_DIR/tmp"
export DIPJUDGE_MAIL_DIR=$RUN_DIR/mail DIPJUDGE_MAIL_PORTS=free TMPDIR=$RUN_DIR/tmp
status=1
finish() {
  as_root scripts/mail-servers.sh stop || true
  if [ "$status" -eq 0 ]; then
    as_root rm -rf "$RUN_DIR"
  else
    echo "test.sh: this run's servers' logs and the tests' files are kept in $RUN_DIR" >&2
  fi
}
trap finish EXIT
as_root scripts/mail-servers.sh start
set -a
# shellcheck disable=SC1091
. "$DIPJUDGE_MAIL_DIR/ports.env"
set +a

status=0
DIPJUDGE_MAIL_SERVERS=1 DIPJUDGE_BROWSER=1 DIPJUDGE_SYSTEMD=1 cargo test --all-targets || status=$?
# The real-server tests again with IMAP IDLE forced off (the daemon and the test clients
# poll): push delivery and polling must both work.
DIPJUDGE_MAIL_SERVERS=1 DIPJUDGE_IMAP_IDLE=0 cargo test --test integration -- servers:: daemon:: \
  || status=$?
exit "$status"
