#!/usr/bin/env bash
# Real mail servers for dipjudge's integration tests: Dovecot (IMAP, LMTP) and Postfix (SMTP),
# listening on 127.0.0.1 only, configured from files this script writes under one data dir.
# Everything of a stack lives in that dir (configs, Postfix's queue, mailboxes, logs, the test
# CA), so several stacks run side by side on one machine, each on its own ports.
#
#   scripts/mail-servers.sh install   apt-get the packages (idempotent; no daemon auto-starts)
#   scripts/mail-servers.sh start     write configs + a test CA, start Dovecot then Postfix
#   scripts/mail-servers.sh stop      stop both (a no-op when they are not running)
#   scripts/mail-servers.sh status    say what runs; exit 0 only when both answer
#   scripts/mail-servers.sh clean     stop, then delete every mailbox, queued mail and log
#
# The data dir is $DIPJUDGE_MAIL_DIR (default /var/tmp/dipjudge-mail). Ports, in this order:
# each DIPJUDGE_<NAME>_PORT variable that is set (NAME: SMTP, SMTPS, IMAP, IMAPS, LMTP, AUTH,
# OAUTH);
# else the ports the stack was first started on (kept in $DATA/ports.env); else, with
# DIPJUDGE_MAIL_PORTS=free, ports no one listens on, chosen at start; else the fixed ones:
# SMTP 2525 (STARTTLS), SMTPS 4465, IMAP 1143 (STARTTLS), IMAPS 1993, LMTP 2424, auth 2426,
# OAuth 2427.
# $DATA/ports.env holds the ports as DIPJUDGE_<NAME>_PORT=N lines, for the tests to read.
# Every *@example.test user exists, all with the password below; nothing leaves the machine.
# XOAUTH2 and OAUTHBEARER logins (IMAP, and SMTP through Postfix's SASL from this Dovecot) are
# checked at a token endpoint on 127.0.0.1, on the OAUTH port, that the XOAUTH2 tests run
# themselves (mail::oauth::test_server): no server of the stack listens there.
# The CA certificate that clients must trust is $DATA/tls/ca.pem.
# Needs root (apt-get; the servers drop to the mail and postfix users). No systemd needed.
set -euo pipefail

DATA=${DIPJUDGE_MAIL_DIR:-/var/tmp/dipjudge-mail}
PORT_NAMES=(SMTP SMTPS IMAP IMAPS LMTP AUTH OAUTH)
declare -A FIXED_PORT=([SMTP]=2525 [SMTPS]=4465 [IMAP]=1143 [IMAPS]=1993 [LMTP]=2424 [AUTH]=2426 [OAUTH]=2427)
PORTS_FILE=$DATA/ports.env
PASSWORD=${DIPJUDGE_MAIL_PASSWORD:-dipjudge-test-password}
PACKAGES=(dovecot-imapd dovecot-lmtpd postfix openssl ca-certificates libssl-dev pkg-config)
DOVECOT_CONF=$DATA/dovecot/dovecot.conf
# Postfix runs as a second instance from its own config dir (`postfix -c`), with its own
# queue and data dirs: /etc/postfix and /var/spool/postfix are never touched.
POSTFIX_DIR=$DATA/postfix
POSTFIX_QUEUE=$DATA/spool
POSTFIX_DATA=$DATA/postfix-data
# Held while ports are chosen and the servers bind them, so two stacks starting at once
# never pick the same port.
PORTS_LOCK=/var/tmp/dipjudge-mail-ports.lock

log() { printf 'mail-servers: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

need_root() {
    [[ $(id -u) -eq 0 ]] || die "must run as root (it installs packages; the servers drop privileges)"
}

# True when something answers on 127.0.0.1:$1.
port_answers() {
    (exec 5<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# Sets SMTP_PORT, SMTPS_PORT, ... from the environment, the stack's ports.env, a free choice
# (with `free`, under DIPJUDGE_MAIL_PORTS=free) or the fixed ports, in that order.
resolve_ports() {
    local choose=${1:-} name var saved
    declare -A kept=()
    if [[ -r $PORTS_FILE ]]; then
        while IFS='=' read -r var saved; do
            [[ $saved =~ ^[0-9]+$ && $var =~ ^DIPJUDGE_([A-Z]+)_PORT$ ]] && kept[${BASH_REMATCH[1]}]=$saved
        done <"$PORTS_FILE"
    fi
    local low=32768 taken=" "
    read -r low _ </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || true
    ((low > 11000)) || low=32768
    for name in "${PORT_NAMES[@]}"; do
        var=DIPJUDGE_${name}_PORT
        local port=${!var:-${kept[$name]:-}}
        if [[ -z $port && $choose == free && ${DIPJUDGE_MAIL_PORTS:-} == free ]]; then
            # Below the kernel's ephemeral range, so no outgoing connection holds it.
            local tries
            for ((tries = 0; tries < 200; tries++)); do
                port=$((10000 + (RANDOM * 32768 + RANDOM) % (low - 10000)))
                if [[ $taken != *" $port "* ]] && ! port_answers "$port"; then break; fi
                port=""
            done
            [[ -n $port ]] || die "found no free port for $name"
        fi
        port=${port:-${FIXED_PORT[$name]}}
        taken+="$port "
        printf -v "${name}_PORT" '%s' "$port"
    done
}

write_ports_file() {
    local name var
    {
        for name in "${PORT_NAMES[@]}"; do
            var=${name}_PORT
            printf 'DIPJUDGE_%s_PORT=%s\n' "$name" "${!var}"
        done
    } >"$PORTS_FILE.tmp"
    mv "$PORTS_FILE.tmp" "$PORTS_FILE"
    chmod 644 "$PORTS_FILE"
}

installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

cmd_install() {
    need_root
    local missing=() p
    for p in "${PACKAGES[@]}"; do installed "$p" || missing+=("$p"); done
    if [[ ${#missing[@]} -eq 0 ]]; then
        log "already installed: ${PACKAGES[*]}"
        return 0
    fi
    log "installing: ${missing[*]}"
    # Keep package scripts from starting the distribution's daemons on ports 25/143/993.
    local made_policy=0
    if [[ ! -e /usr/sbin/policy-rc.d ]]; then
        printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
        chmod 755 /usr/sbin/policy-rc.d
        made_policy=1
    fi
    # "No configuration": the package writes no main.cf; `start` writes its own.
    debconf-set-selections <<'SEL'
postfix postfix/main_mailer_type select No configuration
postfix postfix/mailname string example.test
SEL
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
    if [[ $made_policy -eq 1 ]]; then rm -f /usr/sbin/policy-rc.d; fi
}

# A test CA and a certificate for localhost signed by it (rustls and OpenSSL both accept this
# shape; a bare self-signed leaf is refused by some verifiers).
make_certs() {
    local d=$DATA/tls
    [[ -s $d/server.pem && -s $d/ca.pem ]] && return 0
    mkdir -p "$d"
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj '/CN=dipjudge test CA' \
        -keyout "$d/ca.key" -out "$d/ca.pem" \
        -addext 'basicConstraints=critical,CA:TRUE' -addext 'keyUsage=critical,keyCertSign,cRLSign' \
        >/dev/null 2>&1
    openssl req -new -newkey rsa:2048 -nodes -subj '/CN=localhost' \
        -keyout "$d/server.key" -out "$d/server.csr" >/dev/null 2>&1
    printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\nkeyUsage=digitalSignature,keyEncipherment\n' >"$d/server.ext"
    openssl x509 -req -in "$d/server.csr" -CA "$d/ca.pem" -CAkey "$d/ca.key" -CAcreateserial \
        -days 3650 -extfile "$d/server.ext" -out "$d/server.pem" >/dev/null 2>&1
    chmod 600 "$d/ca.key" "$d/server.key"
    chmod 644 "$d/ca.pem" "$d/server.pem"
}

write_dovecot_conf() {
    mkdir -p "$DATA/dovecot" "$DATA/run" "$DATA/state" "$DATA/log" "$DATA/mail"
    chown mail:mail "$DATA/mail"
    local dh=""
    [[ -r /usr/share/dovecot/dh.pem ]] && dh="ssl_dh = </usr/share/dovecot/dh.pem"
    cat >"$DOVECOT_CONF" <<CONF
# Written by scripts/mail-servers.sh: a test Dovecot on 127.0.0.1, not /etc/dovecot.
protocols = imap lmtp
listen = 127.0.0.1
base_dir = $DATA/run/dovecot
state_dir = $DATA/state
log_path = $DATA/log/dovecot.log
info_log_path = $DATA/log/dovecot.log
ssl = yes
ssl_cert = <$DATA/tls/server.pem
ssl_key = <$DATA/tls/server.key
$dh
disable_plaintext_auth = no
auth_mechanisms = plain login xoauth2 oauthbearer
auth_username_format = %Lu
# Mail is stored as Debian's "mail" user: Dovecot refuses uid 0.
first_valid_uid = 8
last_valid_uid = 8
mail_location = maildir:$DATA/mail/%d/%n
mail_max_userip_connections = 200
protocol imap {
  mail_max_userip_connections = 200
}
namespace inbox {
  inbox = yes
  separator = /
}
lda_mailbox_autocreate = yes
# XOAUTH2 and OAUTHBEARER logins (issue 39) are checked by the oauth2 passdb, which asks the
# tests' token endpoint (RFC 7662 introspection: POST token=...) whether the token is active
# and whose it is; PLAIN and LOGIN go on to the static password below. Postfix's SASL comes
# from this Dovecot's auth service, so SMTP offers AUTH XOAUTH2 too. No auth cache: a revoked
# or expired token is refused at once.
passdb {
  driver = oauth2
  mechanisms = xoauth2 oauthbearer
  args = $DATA/dovecot/dovecot-oauth2.conf.ext
}
passdb {
  driver = static
  args = password=$PASSWORD
}
userdb {
  driver = static
  args = uid=mail gid=mail home=$DATA/mail/%d/%n allow_all_users=yes
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $IMAP_PORT
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = $IMAPS_PORT
    ssl = yes
  }
}
service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = $LMTP_PORT
  }
}
# No authentication penalty: every test client comes from 127.0.0.1, so the refused logins
# that some tests make on purpose (a wrong password, a revoked or another mailbox's token)
# would delay every other test's login by 2 to 15 s (Dovecot's anvil penalty per IP, which
# Postfix's SASL requests get too). auth_failure_delay still slows each refused login.
service anvil {
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
service auth {
  inet_listener {
    address = 127.0.0.1
    port = $AUTH_PORT
  }
}
CONF
    cat >"$DATA/dovecot/dovecot-oauth2.conf.ext" <<CONF
# Written by scripts/mail-servers.sh: tokens are introspected at the XOAUTH2 tests' endpoint.
introspection_mode = post
introspection_url = http://127.0.0.1:$OAUTH_PORT/introspect
force_introspection = yes
username_attribute = username
active_attribute = active
active_value = true
timeout_msecs = 5000
CONF
}

write_postfix_conf() {
    mkdir -p "$POSTFIX_DIR" "$POSTFIX_QUEUE" "$POSTFIX_DATA"
    # The queue dir belongs to root (Postfix makes its subdirs); the data dir to postfix.
    chown root:root "$POSTFIX_QUEUE"
    chown postfix "$POSTFIX_DATA"
    cat >"$POSTFIX_DIR/main.cf" <<CONF
# Written by scripts/mail-servers.sh: a test Postfix on 127.0.0.1 delivering *@example.test
# into Dovecot over LMTP; every other destination is an error, so nothing leaves the machine.
# A stack of its own: started with \`postfix -c $POSTFIX_DIR\`, its queue and data here too.
compatibility_level = 3.6
queue_directory = $POSTFIX_QUEUE
data_directory = $POSTFIX_DATA
myhostname = mail.example.test
mydomain = example.test
myorigin = example.test
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
virtual_mailbox_domains = example.test
virtual_transport = lmtp:inet:127.0.0.1:$LMTP_PORT
default_transport = error:nothing leaves this test machine
relay_transport = error:nothing leaves this test machine
local_transport = error:no local delivery on this test machine
alias_maps =
alias_database =
biff = no
# Mail from loopback gets no Message-ID or Date added: it arrives as a client sent it.
local_header_rewrite_clients =
smtpd_sasl_type = dovecot
smtpd_sasl_path = inet:127.0.0.1:$AUTH_PORT
smtpd_sasl_auth_enable = yes
smtpd_tls_cert_file = $DATA/tls/server.pem
smtpd_tls_key_file = $DATA/tls/server.key
smtpd_tls_security_level = may
smtpd_relay_restrictions = permit_mynetworks permit_sasl_authenticated reject_unauth_destination
message_size_limit = 26214400
maillog_file = $DATA/log/postfix.log
service_throttle_time = 1s
# A delivery deferred while Dovecot restarts (the restart test) is retried within seconds,
# not after Postfix's default five minutes.
queue_run_delay = 1s
minimal_backoff_time = 1s
maximal_backoff_time = 5s
CONF
    cat >"$POSTFIX_DIR/master.cf" <<CONF
# Written by scripts/mail-servers.sh. Loopback listeners only; no chroot.
127.0.0.1:$SMTP_PORT  inet  n - n - - smtpd
127.0.0.1:$SMTPS_PORT inet  n - n - - smtpd -o smtpd_tls_wrappermode=yes -o smtpd_tls_security_level=encrypt
pickup     unix  n - n 60   1 pickup
cleanup    unix  n - n -    0 cleanup
qmgr       unix  n - n 300  1 qmgr
tlsmgr     unix  - - n 1000? 1 tlsmgr
rewrite    unix  - - n -    - trivial-rewrite
bounce     unix  - - n -    0 bounce
defer      unix  - - n -    0 bounce
trace      unix  - - n -    0 bounce
verify     unix  - - n -    1 verify
flush      unix  n - n 1000? 0 flush
proxymap   unix  - - n -    - proxymap
proxywrite unix  - - n -    1 proxymap
smtp       unix  - - n -    - smtp
relay      unix  - - n -    - smtp
showq      unix  n - n -    - showq
error      unix  - - n -    - error
retry      unix  - - n -    - error
discard    unix  - - n -    - discard
lmtp       unix  - - n -    - lmtp
anvil      unix  - - n -    1 anvil
scache     unix  - - n -    1 scache
postlog    unix-dgram n - n - 1 postlogd
CONF
    touch "$DATA/log/postfix.log"
}

# ---- issue 36: faults for the outbox tests (one block: keep it whole when moving it) ----
# Postfix refuses mail for now from two envelope senders, at every RCPT: a judge whose
# address is tempfail-judge@example.test meets an SMTP server answering 450 (an outage of
# 4xx refusals), one whose address is dropped-judge@example.test is answered 421 and
# disconnected. With any other address the same server takes its mail: a test "ends the
# outage" by restarting its judge with its usual address. Called after write_postfix_conf.
write_fault_maps() {
    mkdir -p "$POSTFIX_DIR"
    cat >"$POSTFIX_DIR/sender_access" <<'MAP'
tempfail-judge@example.test 450 4.7.1 Try again later (dipjudge fault test)
dropped-judge@example.test 421 4.7.0 Closing the connection (dipjudge fault test)
MAP
    printf '# The outbox fault tests (scripts/mail-servers.sh, issue 36 block).\nsmtpd_sender_restrictions = check_sender_access texthash:%s\n' \
        "$POSTFIX_DIR/sender_access" >>"$POSTFIX_DIR/main.cf"
}
# ---- end of the issue 36 block ----

# A real IMAP login (exercises Dovecot auth), in plain bash.
imap_login_ok() {
    local line ok=1
    exec 3<>"/dev/tcp/127.0.0.1/$IMAP_PORT" || return 1
    if read -r -t 2 line <&3 && [[ $line == '* OK'* ]]; then
        printf 'a1 LOGIN probe@example.test %s\r\n' "$PASSWORD" >&3
        while read -r -t 2 line <&3; do
            case $line in
                'a1 OK'*) ok=0; break ;;
                a1*) break ;;
            esac
        done
        printf 'a2 LOGOUT\r\n' >&3
    fi
    exec 3<&- 3>&- || true
    return $ok
}

# A real EHLO that must list AUTH (smtpd got its SASL mechanisms from Dovecot).
smtp_ehlo_ok() {
    local line ok=1 auth=0
    exec 4<>"/dev/tcp/127.0.0.1/$SMTP_PORT" || return 1
    if read -r -t 2 line <&4 && [[ $line == 220* ]]; then
        printf 'EHLO probe.example.test\r\n' >&4
        while read -r -t 2 line <&4; do
            [[ $line == 250[-\ ]AUTH* ]] && auth=1
            if [[ $line == '250 '* ]]; then [[ $auth -eq 1 ]] && ok=0; break; fi
            [[ $line == 250-* ]] || break
        done
        printf 'QUIT\r\n' >&4
    fi
    exec 4<&- 4>&- || true
    return $ok
}

wait_for() {
    local what=$1 check=$2 tries=${3:-100}
    local i
    for ((i = 0; i < tries; i++)); do
        if $check 2>/dev/null; then return 0; fi
        sleep 0.1
    done
    die "$what did not become ready; see $DATA/log/"
}

dovecot_running() {
    [[ -f $DATA/run/dovecot/master.pid ]] && kill -0 "$(cat "$DATA/run/dovecot/master.pid")" 2>/dev/null
}

postfix_running() {
    [[ -f $POSTFIX_DIR/main.cf ]] && postfix -c "$POSTFIX_DIR" status >/dev/null 2>&1
}

# Dies when one of `ports` answers though the server meant for it is not running here.
ports_unused() {
    local port
    for port in "$@"; do
        port_answers "$port" &&
            die "127.0.0.1:$port is taken by another program (another stack? give this one its own DIPJUDGE_MAIL_DIR with DIPJUDGE_MAIL_PORTS=free)"
    done
    return 0
}

cmd_start() {
    need_root
    command -v dovecot >/dev/null && command -v postfix >/dev/null ||
        die "dovecot or postfix is missing: run '$0 install' first"
    mkdir -p "$DATA"
    chmod 755 "$DATA"
    exec 8>"$PORTS_LOCK"
    flock 8
    resolve_ports free
    dovecot_running || ports_unused "$IMAP_PORT" "$IMAPS_PORT" "$LMTP_PORT" "$AUTH_PORT"
    postfix_running || ports_unused "$SMTP_PORT" "$SMTPS_PORT"
    write_ports_file
    make_certs
    write_dovecot_conf
    write_postfix_conf
    write_fault_maps
    if ! dovecot_running; then
        # 8>&-: the daemons must not inherit the ports lock and hold it for their lifetime.
        dovecot -c "$DOVECOT_CONF" </dev/null >>"$DATA/log/dovecot.out" 2>&1 8>&-
    fi
    wait_for "Dovecot (IMAP login)" imap_login_ok
    if ! postfix_running; then
        postfix -c "$POSTFIX_DIR" check >>"$DATA/log/postfix.out" 2>&1 8>&- || true
        postfix -c "$POSTFIX_DIR" start </dev/null >>"$DATA/log/postfix.out" 2>&1 8>&-
    fi
    wait_for "Postfix (EHLO with AUTH)" smtp_ehlo_ok
    exec 8>&-
    log "running: SMTP 127.0.0.1:$SMTP_PORT, SMTPS :$SMTPS_PORT, IMAP :$IMAP_PORT, IMAPS :$IMAPS_PORT, LMTP :$LMTP_PORT; CA $DATA/tls/ca.pem; ports in $PORTS_FILE"
}

cmd_stop() {
    need_root
    resolve_ports
    if postfix_running; then
        postfix -c "$POSTFIX_DIR" stop </dev/null >>"$DATA/log/postfix.out" 2>&1 || true
    fi
    # postfix stop returns before its master has exited: wait for the port to close, so no
    # delivery agent is still handing mail to the Dovecot about to stop.
    local i
    for ((i = 0; i < 100; i++)); do
        port_answers "$SMTP_PORT" || break
        sleep 0.1
    done
    if dovecot_running; then
        local pid session
        pid=$(cat "$DATA/run/dovecot/master.pid")
        # The master is a session leader; its imap processes can outlive it and keep client
        # connections open, which is not what a stopped server looks like. End the whole
        # session: exactly the processes this Dovecot started.
        session=$(ps -o pid= -s "$pid" 2>/dev/null | tr -s ' \n' ' ' || true)
        kill "$pid" 2>/dev/null || true
        for ((i = 0; i < 100; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        # shellcheck disable=SC2086
        [[ -n ${session// /} ]] && kill $session 2>/dev/null || true
    fi
    log "stopped"
}

cmd_status() {
    local rc=0
    resolve_ports
    if dovecot_running && imap_login_ok; then log "Dovecot: running (IMAP login works)"; else log "Dovecot: not running"; rc=1; fi
    if postfix_running && smtp_ehlo_ok; then log "Postfix: running (EHLO works)"; else log "Postfix: not running"; rc=1; fi
    return $rc
}

# Every test run uses fresh addresses, so old mailboxes only pile up: with 13,000 of them,
# bench-mail ran at 90-100 msgs/s, and at 116-131 right after a clean (single runs on a
# shared machine). The test command starts from an empty store.
cmd_clean() {
    need_root
    cmd_stop
    # Only this stack's: its mailboxes, its Postfix queue (the servers are stopped), its logs.
    rm -rf "${DATA:?}/mail" "${DATA:?}/log" "${POSTFIX_QUEUE:?}"
    log "cleaned $DATA: no mailboxes, no queued mail, no logs"
}

case ${1:-} in
    install) cmd_install ;;
    start) cmd_start ;;
    stop) cmd_stop ;;
    status) cmd_status ;;
    clean) cmd_clean ;;
    *) die "usage: $0 install|start|stop|status|clean" ;;
esac
