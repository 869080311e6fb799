#!/usr/bin/env bash
# Makes tests/schemas/v<N>.db with the dipjudge of an old commit: builds that commit in a
# worktree of its own, plays the start of a game by mail through its own `inject` and
# `process` on the Maildir default, and keeps the database it wrote. tests/schemas.rs opens
# each with today's dipjudge, which migrates it and plays on.
#
#   tests/schemas/make.sh COMMIT NAME [WORKTREE [TARGET]]
#
# The game, `oldgame`: the master creates it, seven players join (passwords
# `password-<i>`, the master's `master-password`), Spring 1901 is ordered and processed,
# and Fall 1901 orders are in but not processed. A fixed seed and clock make it the same
# every time, games, snapshots, history and all, but for the Message-IDs `inject` makes up
# from the time and its process id (the judge's mail goes to the Maildir outbox; nothing
# leaves the machine).
#
# WORKTREE (default: $TMPDIR/dipjudge-old-schemas) and its TARGET take several gigabytes
# once a few old commits are built; remove it afterwards with
# `git worktree remove --force WORKTREE`.
set -euo pipefail

commit=$1
name=$2
worktree=${3:-${TMPDIR:-/tmp}/dipjudge-old-schemas}
target=${4:-$worktree/target}
repo=$(cd "$(dirname "$0")/../.." && pwd)
out=$repo/tests/schemas/$name.db

if [[ ! -d $worktree ]]; then
    git -C "$repo" worktree add --detach "$worktree" "$commit"
else
    git -C "$worktree" checkout --quiet --detach "$commit"
fi
(cd "$worktree" && CARGO_TARGET_DIR=$target nice -n 19 cargo build --quiet --bin dipjudge)
bin=$target/debug/dipjudge

play=$(mktemp -d)
trap 'rm -rf "$play"' EXIT
cat >"$play/judge.toml" <<TOML
[judge]
name = "DIP"
address = "judge@example.test"
database = "judge.db"
seed = 1901
password_cost = "test"

[inbound]
kind = "maildir"
path = "inbox"

[outbound]
kind = "maildir"
path = "outbox"
TOML

start=$(date -u -d 2026-01-05T12:00:00Z +%s)
at() { date -u -d "@$((start + 60 * $1))" +%Y-%m-%dT%H:%M:%SZ; }
minute=0
mail() { # mail FROM BODY: one mail in, one pass at the next minute
    minute=$((minute + 1))
    printf '%b' "$2" | "$bin" inject --config "$play/judge.toml" --from "$1" - >/dev/null
    "$bin" process --config "$play/judge.toml" --now "$(at $minute)" >/dev/null
}
player() { printf 'player%d@example.test' "$1"; }

mail master@example.test 'CREATE ?oldgame master-password\n'
for i in 0 1 2 3 4 5 6; do
    mail "$(player $i)" "SIGNON ?oldgame password-$i\n"
done

# Who plays whom: the "  England:  player3@example.test" lines of the start mail.
declare -A seat
while read -r power addr; do
    seat[$power]=$addr
done < <(grep -h -E '^ +(Austria|England|France|Germany|Italy|Russia|Turkey): +player[0-9]@' \
    "$play"/outbox/new/* "$play"/outbox/cur/* 2>/dev/null | sed -E 's/^ +([A-Za-z]+): +(.*)$/\1 \2/' | tr -d '\r' | sort -u)
[[ ${#seat[@]} -eq 7 ]] || { echo "make.sh: the game did not start with seven players" >&2; exit 1; }
orders() { # orders POWER LETTER BODY
    local addr=${seat[$1]} i
    i=${addr#player}; i=${i%%@*}
    mail "$addr" "SIGNON $2oldgame password-$i\n$3"
}

orders England E 'F Lon - NTH\nF Edi - NWG\nA Lvp - Yor\n'
orders France F 'A Par - Bur\nA Mar - Spa\nF Bre - MAO\n'
orders Germany G 'A Mun - Ruh\nA Ber - Kie\nF Kie - Den\n'
orders Austria A 'A Vie - Gal\nA Bud - Ser\nF Tri - Alb\n'
orders Italy I 'A Ven - Pie\nA Rom - Ven\nF Nap - ION\n'
orders Russia R 'A War - Gal\nF Sev - BLA\nA Mos - Ukr\nF StP/sc - BOT\n'
orders Turkey T 'F Ank - BLA\nA Con - Bul\nA Smy - Con\n'
mail master@example.test 'SIGNON Moldgame master-password\nPROCESS!\n'
# Fall 1901: orders in, not processed (the upgraded judge plays on from here).
orders France F 'A Bur - Bel\nA Spa - Por\nF MAO - Spa/sc\n'
orders Germany G 'A Ruh - Hol\nF Den H\nA Kie - Ber\n'

# The database alone, its WAL checkpointed into it when the last connection closed.
[[ ! -s $play/judge.db-wal ]] || { echo "make.sh: judge.db-wal left behind" >&2; exit 1; }
cp "$play/judge.db" "$out"
echo "$out: $(sqlite3 "$out" 'PRAGMA user_version' 2>/dev/null || echo '?') ($(git -C "$worktree" log -1 --format='%h %ad' --date=short))"
