//! Schema migrations: an ordered list of (version, SQL) steps, each applied in its own
//! transaction together with the version bump.

use rusqlite::Connection;

use super::StoreError;

/// The steps, in order. Never edit a step that has shipped; add a new one.
pub(crate) const STEPS: &[(i64, &str)] = &[
    (
        1,
        "CREATE TABLE config (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
     CREATE TABLE messages (
         key TEXT PRIMARY KEY,
         received_at TEXT NOT NULL,
         sender TEXT NOT NULL
     ) STRICT;
     CREATE TABLE games (
         name TEXT PRIMARY KEY COLLATE NOCASE,
         state TEXT NOT NULL,
         status TEXT NOT NULL,
         next_event TEXT
     ) STRICT;
     CREATE INDEX games_next_event ON games (next_event) WHERE next_event IS NOT NULL;
     CREATE TABLE snapshots (
         game TEXT NOT NULL,
         seq INTEGER NOT NULL,
         phase TEXT NOT NULL,
         state TEXT NOT NULL,
         PRIMARY KEY (game, seq)
     ) STRICT;
     CREATE TABLE outbox (
         id INTEGER PRIMARY KEY,
         game TEXT,
         audience TEXT NOT NULL,
         recipient TEXT NOT NULL,
         subject TEXT NOT NULL,
         body TEXT NOT NULL,
         kind TEXT NOT NULL,
         in_reply_to TEXT,
         created_at TEXT NOT NULL,
         status TEXT NOT NULL DEFAULT 'queued',
         attempts INTEGER NOT NULL DEFAULT 0,
         last_error TEXT,
         sent_at TEXT
     ) STRICT;
     CREATE INDEX outbox_queued ON outbox (id) WHERE status = 'queued';
     CREATE TABLE history (
         id INTEGER PRIMARY KEY,
         game TEXT NOT NULL,
         at TEXT NOT NULL,
         phase TEXT NOT NULL,
         subject TEXT NOT NULL,
         body TEXT NOT NULL
     ) STRICT;
     CREATE INDEX history_game ON history (game, id);",
    ),
    (
        2,
        // The outcome of a message the judge did not handle (NULL: handled), so a silenced
        // bounce is recorded once like any other message; replies sent recently are read
        // back at start-up by the per-address rate limiter.
        "ALTER TABLE messages ADD COLUMN outcome TEXT;
     CREATE INDEX outbox_replies_sent ON outbox (sent_at)
         WHERE kind = 'replied' AND status = 'sent';",
    ),
    (
        3,
        // Pictures of phases: the SVG drawn when a phase is processed, the PNG rendered
        // from it once, when first wanted, and attached to every copy that wants one; the
        // picture an outbox row carries; each address's choice of maps (`SET MAP ON|OFF`;
        // no row: the judge's default).
        "CREATE TABLE pictures (
         game TEXT NOT NULL COLLATE NOCASE,
         phase TEXT NOT NULL,
         svg TEXT NOT NULL,
         png BLOB,
         PRIMARY KEY (game, phase)
     ) STRICT;
     ALTER TABLE outbox ADD COLUMN picture TEXT;
     CREATE TABLE map_choices (
         address TEXT PRIMARY KEY COLLATE NOCASE,
         maps INTEGER NOT NULL
     ) STRICT;",
    ),
    (
        4,
        // Against guessing, forged addresses and floods (issue 24): each wrong password
        // checked for a seat (`master` or a power's name), kept for an hour; the wrong
        // sign-ons of a seat its owner has not been told of yet (checked, and refused
        // unchecked while it was locked), since the first of them. Who
        // received each entry of a game's history (NULL: everyone who follows the game, a
        // bulletin; else the readers of press: power names, `master`, `observers`), and
        // whether it was signed (a grey broadcast is not: observers who take white press
        // only do not read it; the grey broadcasts kept before are found by their subject).
        // The addresses that answered a confirmation; the confirmation each other address
        // was sent, with what waits for it (the judge's own text: OBSERVE, SET MAP, ...) and
        // how many wrong codes it was sent. The games each address created in the last day.
        "CREATE TABLE signon_failures (
         game TEXT NOT NULL COLLATE NOCASE,
         seat TEXT NOT NULL,
         at TEXT NOT NULL
     ) STRICT;
     CREATE INDEX signon_failures_seat ON signon_failures (game, seat, at);
     CREATE TABLE wrong_signons (
         game TEXT NOT NULL COLLATE NOCASE,
         seat TEXT NOT NULL,
         since TEXT NOT NULL,
         checked INTEGER NOT NULL,
         refused INTEGER NOT NULL,
         PRIMARY KEY (game, seat)
     ) STRICT;
     ALTER TABLE history ADD COLUMN readers TEXT;
     ALTER TABLE history ADD COLUMN signed INTEGER NOT NULL DEFAULT 1;
     UPDATE history SET signed = 0 WHERE subject LIKE '% Broadcast from someone';
     CREATE TABLE proven_addresses (
         address TEXT PRIMARY KEY COLLATE NOCASE,
         at TEXT NOT NULL
     ) STRICT;
     CREATE TABLE confirmations (
         address TEXT PRIMARY KEY COLLATE NOCASE,
         code TEXT NOT NULL,
         requests TEXT NOT NULL,
         created_at TEXT NOT NULL,
         wrong INTEGER NOT NULL DEFAULT 0
     ) STRICT;
     CREATE TABLE game_creations (
         address TEXT NOT NULL COLLATE NOCASE,
         at TEXT NOT NULL
     ) STRICT;
     CREATE INDEX game_creations_address ON game_creations (address, at);",
    ),
    (
        5,
        // Failure isolation and dedupe by sender and content (issue 25):
        // - a game the judge cannot read or process is suspended (`suspended` holds why; no
        //   deadline runs while it is set), and its master's address is kept beside the
        //   state, so the master can be told even when the state cannot be read;
        // - a message is seen by (sender, Message-ID) and content: `message_id` is the
        //   Message-ID as sent; a row written before this step has its bare Message-ID as
        //   its key (the key of a newer row names sender and content as well);
        // - a mail's attempts are counted in their own table, each before the judge reads
        //   the mail (the daemon kept them as `daemon.failures.*` values, after the attempt).
        "ALTER TABLE games ADD COLUMN suspended TEXT;
     ALTER TABLE games ADD COLUMN master TEXT;
     UPDATE games SET master = json_extract(state, '$.master.address') WHERE json_valid(state);
     ALTER TABLE messages ADD COLUMN message_id TEXT;
     UPDATE messages SET message_id = key WHERE key NOT LIKE 'fallback:%';
     CREATE INDEX messages_sender_id ON messages (sender, message_id)
         WHERE message_id IS NOT NULL;
     CREATE TABLE message_attempts (
         key TEXT PRIMARY KEY,
         attempts INTEGER NOT NULL
     ) STRICT;
     DELETE FROM config WHERE key LIKE 'daemon.failures.%';",
    ),
    (
        6,
        // Pictures are no longer kept drawn (issue 29: 600 KB a phase): each picture is
        // kept as what it shows (`picture::Drawing`, a few kilobytes) and drawn again
        // whenever a mail wants it. A processed phase's drawing is its record (`seq`: the
        // turn it was processed at; a new processing at that turn or before replaces it and
        // every later one); a drawing made for one mail (the board of an open phase, a
        // centre chart: `seq` NULL) is dropped once no queued mail names it. Pictures
        // drawn before this version keep their SVG in `pictures` (there is nothing else to
        // draw them from) and lose their PNG, which is drawn again from the SVG. The outbox
        // column `picture` now holds the names of all a mail's pictures, one space apart.
        "CREATE TABLE scenes (
         game TEXT NOT NULL COLLATE NOCASE,
         name TEXT NOT NULL,
         seq INTEGER,
         drawing BLOB NOT NULL,
         PRIMARY KEY (game, name)
     ) STRICT;
     UPDATE pictures SET png = NULL WHERE png IS NOT NULL;",
    ),
    (
        7,
        // The outbox's audience and kind are typed (issue 26): `audience` is one of five
        // words, a power's mail names its power in `power` (the audience was the power's
        // name), and `kind` is `replied` or `generated`; the schema refuses anything else.
        // SQLite adds a CHECK only to a new table: the outbox is copied into one, its rows
        // converted, and its indexes made again.
        "CREATE TABLE outbox_typed (
         id INTEGER PRIMARY KEY,
         game TEXT,
         audience TEXT NOT NULL
             CHECK (audience IN ('power', 'master', 'observer', 'reply', 'signon-copy')),
         power TEXT CHECK (power IN
             ('Austria', 'England', 'France', 'Germany', 'Italy', 'Russia', 'Turkey')),
         recipient TEXT NOT NULL,
         subject TEXT NOT NULL,
         body TEXT NOT NULL,
         kind TEXT NOT NULL CHECK (kind IN ('replied', 'generated')),
         in_reply_to TEXT,
         created_at TEXT NOT NULL,
         status TEXT NOT NULL DEFAULT 'queued',
         attempts INTEGER NOT NULL DEFAULT 0,
         last_error TEXT,
         sent_at TEXT,
         picture TEXT,
         CHECK ((audience = 'power') = (power IS NOT NULL))
     ) STRICT;
     INSERT INTO outbox_typed (id, game, audience, power, recipient, subject, body, kind,
         in_reply_to, created_at, status, attempts, last_error, sent_at, picture)
     SELECT id, game,
         CASE WHEN audience IN
                 ('Austria', 'England', 'France', 'Germany', 'Italy', 'Russia', 'Turkey')
             THEN 'power' ELSE audience END,
         CASE WHEN audience IN
                 ('Austria', 'England', 'France', 'Germany', 'Italy', 'Russia', 'Turkey')
             THEN audience END,
         recipient, subject, body, kind, in_reply_to, created_at, status, attempts,
         last_error, sent_at, picture
     FROM outbox ORDER BY id;
     DROP TABLE outbox;
     ALTER TABLE outbox_typed RENAME TO outbox;
     CREATE INDEX outbox_queued ON outbox (id) WHERE status = 'queued';
     CREATE INDEX outbox_replies_sent ON outbox (sent_at)
         WHERE kind = 'replied' AND status = 'sent';",
    ),
    (
        8,
        // The web view's private pages (issue 30): each token is kept as its hash only,
        // with the seat it opens and the fingerprint of the seat's holder and password
        // when it was made; a token whose fingerprint is no longer the seat's opens
        // nothing (the seat changed hands or its password), and is dropped when the seat
        // gets its next token.
        "CREATE TABLE web_tokens (
         hash TEXT PRIMARY KEY,
         game TEXT NOT NULL COLLATE NOCASE,
         seat TEXT NOT NULL,
         fingerprint TEXT NOT NULL,
         created_at TEXT NOT NULL
     ) STRICT;
     CREATE INDEX web_tokens_seat ON web_tokens (game, seat);",
    ),
    (
        9,
        // Players as people (issue 31): a person's profile as registered (`REGISTER` …
        // `END`: its fields as given, in order, as JSON pairs), and the addresses that are
        // theirs (the one that registered, and each linked by `I AM ALSO` once it
        // answered its confirmation). The reliability record is not stored: it is counted
        // from the games' tenures.
        "CREATE TABLE people (
         id INTEGER PRIMARY KEY,
         profile TEXT NOT NULL,
         registered_at TEXT NOT NULL,
         updated_at TEXT NOT NULL
     ) STRICT;
     CREATE TABLE person_addresses (
         address TEXT PRIMARY KEY COLLATE NOCASE,
         person INTEGER NOT NULL REFERENCES people (id),
         linked_at TEXT NOT NULL
     ) STRICT;
     CREATE INDEX person_addresses_person ON person_addresses (person);",
    ),
    (
        10,
        // Which games an address held a seat in (a tenure), kept with each save of a game:
        // a reliability record (`WHOIS`, the entry gates, the master's `LIST`) reads those
        // games only, not every stored game. Filled from the stored games' tenures.
        "CREATE TABLE tenure_addresses (
         address TEXT NOT NULL COLLATE NOCASE,
         game TEXT NOT NULL COLLATE NOCASE,
         PRIMARY KEY (address, game)
     ) STRICT, WITHOUT ROWID;
     CREATE INDEX tenure_addresses_game ON tenure_addresses (game);
     INSERT OR IGNORE INTO tenure_addresses (address, game)
         SELECT lower(json_extract(t.value, '$.address')), g.name
         FROM games g, json_each(g.state, '$.tenures') t
         WHERE json_valid(g.state) AND json_type(g.state, '$.tenures') = 'array'
           AND json_type(t.value, '$.address') = 'text';",
    ),
    (
        11,
        // Issue 39 (scale and metrics): what a judge of ten thousand games reads without
        // loading every game, and what it counts for its operator.
        // - `game_summaries`: one row a game, kept with each save (`store::summaries`): the
        //   game's `LIST` line and the web list's columns as rendered then (`format` names
        //   the rendering; 0: none yet, the game is read whole). Triggers keep a row for
        //   every stored game, and its suspension, whatever code writes `games`.
        // - `password_proofs`: keyed MACs of passwords verified before (`judge::password`;
        //   the key is not in the database), with the day each was last used.
        // - `counters`: totals the database counts itself, by triggers in the transaction
        //   that did the thing, so they survive restarts and count every process's work
        //   (`GET /metrics`).
        "CREATE TABLE game_summaries (
         name TEXT PRIMARY KEY COLLATE NOCASE,
         format INTEGER NOT NULL DEFAULT 0,
         listed INTEGER NOT NULL DEFAULT 1,
         variant TEXT NOT NULL DEFAULT '',
         phase TEXT,
         status TEXT NOT NULL DEFAULT '',
         line TEXT NOT NULL DEFAULT '',
         suspended TEXT
     ) STRICT;
     INSERT INTO game_summaries (name, suspended) SELECT name, suspended FROM games;
     CREATE TRIGGER game_summaries_insert AFTER INSERT ON games BEGIN
         INSERT OR IGNORE INTO game_summaries (name, suspended) VALUES (new.name, new.suspended);
     END;
     CREATE TRIGGER game_summaries_delete AFTER DELETE ON games BEGIN
         DELETE FROM game_summaries WHERE name = old.name;
     END;
     CREATE TRIGGER game_summaries_suspended AFTER UPDATE OF suspended ON games BEGIN
         UPDATE game_summaries SET suspended = new.suspended WHERE name = new.name;
     END;
     CREATE TRIGGER game_summaries_stale AFTER UPDATE OF state ON games BEGIN
         UPDATE game_summaries SET format = 0 WHERE name = new.name;
     END;
     CREATE TABLE password_proofs (
         tag BLOB PRIMARY KEY,
         used_on TEXT NOT NULL
     ) STRICT, WITHOUT ROWID;
     CREATE INDEX password_proofs_used ON password_proofs (used_on);
     CREATE TABLE counters (
         name TEXT PRIMARY KEY,
         value INTEGER NOT NULL
     ) STRICT, WITHOUT ROWID;
     INSERT INTO counters (name, value)
         SELECT 'mails_handled', count(*) FROM messages WHERE outcome IS NULL
         UNION ALL SELECT 'mails_silenced', count(*) FROM messages WHERE outcome LIKE 'silenced%'
         UNION ALL SELECT 'mails_set_aside', count(*) FROM messages WHERE outcome LIKE 'set aside%'
         UNION ALL SELECT 'mails_oversize', count(*) FROM messages WHERE outcome LIKE 'too big%'
         UNION ALL SELECT 'mails_other', count(*) FROM messages WHERE outcome IS NOT NULL
             AND outcome NOT LIKE 'silenced%' AND outcome NOT LIKE 'set aside%'
             AND outcome NOT LIKE 'too big%'
         UNION ALL SELECT 'replies_queued', count(*) FROM outbox WHERE kind = 'replied'
         UNION ALL SELECT 'mails_queued', count(*) FROM outbox
         UNION ALL SELECT 'mails_sent', count(*) FROM outbox WHERE status = 'sent'
         UNION ALL SELECT 'mails_given_up', count(*) FROM outbox WHERE status = 'failed';
     CREATE TRIGGER count_mails_read AFTER INSERT ON messages BEGIN
         UPDATE counters SET value = value + 1 WHERE name = CASE
             WHEN new.outcome IS NULL THEN 'mails_handled'
             WHEN new.outcome LIKE 'silenced%' THEN 'mails_silenced'
             WHEN new.outcome LIKE 'set aside%' THEN 'mails_set_aside'
             WHEN new.outcome LIKE 'too big%' THEN 'mails_oversize'
             ELSE 'mails_other' END;
     END;
     CREATE TRIGGER count_mails_queued AFTER INSERT ON outbox BEGIN
         UPDATE counters SET value = value + 1
             WHERE name = 'mails_queued' OR (name = 'replies_queued' AND new.kind = 'replied');
     END;
     CREATE TRIGGER count_mails_sent AFTER UPDATE OF status ON outbox
         WHEN new.status = 'sent' AND old.status <> 'sent' BEGIN
         UPDATE counters SET value = value + 1 WHERE name = 'mails_sent';
     END;
     CREATE TRIGGER count_mails_given_up AFTER UPDATE OF status ON outbox
         WHEN new.status = 'failed' AND old.status <> 'failed' BEGIN
         UPDATE counters SET value = value + 1 WHERE name = 'mails_given_up';
     END;",
    ),
    (
        12,
        // Issue 36 (the outbox never gives up for a transient failure; floods stay their
        // sender's): each queued mail keeps the address whose mail queued it (`origin`;
        // NULL: the judge's own, a deadline's), when it may be tried next
        // (`next_attempt_at`; NULL: whenever the queue is tried), since when it has been
        // failing (`failing_since`: a mail is given up after days of failures, not after a
        // count of attempts), and whether its game's master was told it is delayed.
        "ALTER TABLE outbox ADD COLUMN origin TEXT;
     ALTER TABLE outbox ADD COLUMN next_attempt_at TEXT;
     ALTER TABLE outbox ADD COLUMN failing_since TEXT;
     ALTER TABLE outbox ADD COLUMN delay_told INTEGER NOT NULL DEFAULT 0;",
    ),
    (
        13,
        // Attacks from outside the session (issue 37):
        // - each wrong password checked for a seat keeps who sent it (`sender`, the From
        //   address in lower case; empty for the rows before) and whether that was the
        //   seat's own registered address (`owner`): the seat's owner has a budget of its
        //   own, so strangers' guesses never lock it out, and one sending address is
        //   bounded over every seat;
        // - the wrong sign-ons its owner is to be told of count the locks they started
        //   (`locks`), and the row stays once told (`told_at`), so the owner is told when a
        //   lock starts and at most once a day;
        // - a confirmation counts the wrong codes sent for it from other addresses apart
        //   (`stranger_wrong`): they never drop it;
        // - the mails the judge sent an address on someone else's word (an invitation, a
        //   co-master's password), each kept a day: at most a few a day to one address.
        "ALTER TABLE signon_failures ADD COLUMN sender TEXT NOT NULL DEFAULT '';
     ALTER TABLE signon_failures ADD COLUMN owner INTEGER NOT NULL DEFAULT 0;
     CREATE INDEX signon_failures_sender ON signon_failures (sender, at);
     CREATE INDEX signon_failures_at ON signon_failures (at);
     ALTER TABLE wrong_signons ADD COLUMN locks INTEGER NOT NULL DEFAULT 0;
     ALTER TABLE wrong_signons ADD COLUMN told_at TEXT;
     ALTER TABLE confirmations ADD COLUMN stranger_wrong INTEGER NOT NULL DEFAULT 0;
     CREATE TABLE unasked_mails (
         address TEXT NOT NULL COLLATE NOCASE,
         at TEXT NOT NULL
     ) STRICT;
     CREATE INDEX unasked_mails_address ON unasked_mails (address, at);
     CREATE INDEX game_creations_at ON game_creations (at);",
    ),
];

/// The schema version this judge writes.
pub(crate) const LATEST: i64 = 13;

fn version(conn: &Connection) -> Result<i64, StoreError> {
    Ok(conn.query_row("PRAGMA user_version", [], |r| r.get(0))?)
}

/// Refuses a database a newer dipjudge wrote ([`StoreError::TooNew`]).
pub(crate) fn refuse_newer(conn: &Connection) -> Result<(), StoreError> {
    let found = version(conn)?;
    if found > LATEST {
        return Err(StoreError::TooNew {
            found,
            known: LATEST,
        });
    }
    Ok(())
}

fn has_table(conn: &Connection, name: &str) -> Result<bool, StoreError> {
    Ok(conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?1)",
        [name],
        |r| r.get(0),
    )?)
}

/// The schema main shipped for a minute as "version 10" (commit 5cde38e, the web view's
/// merge): steps 1 to 7 and the web tokens' table, numbered 10 before it was renumbered 8
/// (07476a3). Its files hold version 10 without steps 9 and 10's tables; read as the 8 they
/// are, they migrate like any other (without this they were taken as up to date, and the
/// first mail touching the missing tables failed).
fn renumbered_web_view(conn: &Connection) -> Result<bool, StoreError> {
    Ok(version(conn)? == 10
        && has_table(conn, "web_tokens")?
        && !has_table(conn, "people")?
        && !has_table(conn, "tenure_addresses")?)
}

/// Applies every step newer than the database's version.
pub(crate) fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    refuse_newer(conn)?;
    if renumbered_web_view(conn)? {
        conn.pragma_update(None, "user_version", 8)?;
    }
    for (v, sql) in STEPS {
        if *v <= version(conn)? {
            continue;
        }
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", v)?;
        tx.commit()?;
    }
    Ok(())
}
