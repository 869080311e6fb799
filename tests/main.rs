//! Integration tests: a table of contents, one module per feature.

/// The mail transports against real Dovecot and Postfix on 127.0.0.1
/// (`scripts/mail-servers.sh start`; required when `DIPJUDGE_MAIL_SERVERS=1`).
mod servers;
