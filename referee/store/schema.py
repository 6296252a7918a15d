"""The schema of the embedded SQLite file: each entry of ``MIGRATIONS`` is one schema version, in SQLite's dialect;
``PRAGMA user_version`` records how many have been applied (``sqlite.migrate``). PostgreSQL's own statements for the
same versions are in ``postgres_schema``; tests/test_store_contract.py checks that both give the same tables and
columns."""

from __future__ import annotations

# Each entry is one schema version; PRAGMA user_version records how many have been applied.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE matches (
        id INTEGER PRIMARY KEY,
        game TEXT NOT NULL,
        players TEXT NOT NULL,            -- JSON list, seating order
        options TEXT NOT NULL,            -- JSON object, every option resolved
        first_dealer TEXT NOT NULL,
        created TEXT NOT NULL,
        updated TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'in_progress',   -- in_progress | finished
        winner TEXT,
        totals TEXT NOT NULL DEFAULT '{}',            -- JSON, kept in step with the deals
        deal_count INTEGER NOT NULL DEFAULT 0,
        ended_by_hand INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX matches_status_updated ON matches(status, updated);
    CREATE TABLE deals (
        id INTEGER PRIMARY KEY,
        match_id INTEGER NOT NULL REFERENCES matches(id),
        number INTEGER NOT NULL,
        dealer TEXT NOT NULL,
        input TEXT NOT NULL,              -- JSON, exactly what was entered
        void INTEGER NOT NULL DEFAULT 0,
        version INTEGER NOT NULL DEFAULT 1,
        last_action TEXT NOT NULL DEFAULT 'entered',  -- entered | corrected | voided | restored
        created TEXT NOT NULL,
        updated TEXT NOT NULL,
        UNIQUE (match_id, number)
    );
    CREATE TABLE deal_revisions (
        id INTEGER PRIMARY KEY,
        deal_id INTEGER NOT NULL REFERENCES deals(id),
        version INTEGER NOT NULL,
        input TEXT NOT NULL,
        void INTEGER NOT NULL,
        action TEXT NOT NULL,
        at TEXT NOT NULL,                 -- when this version was made
        replaced_at TEXT NOT NULL,        -- when a later version replaced it
        UNIQUE (deal_id, version)
    );
    """,
    # 2: the archive — a stable identity for export/import, place and note, abandoned matches, a per-player
    # summary of every match (history filters and player pages), and the log of actions (undo).
    """
    ALTER TABLE matches ADD COLUMN uid TEXT;
    UPDATE matches SET uid = lower(hex(randomblob(16))) WHERE uid IS NULL;
    CREATE UNIQUE INDEX matches_uid ON matches(uid);
    ALTER TABLE matches ADD COLUMN place TEXT NOT NULL DEFAULT '';
    ALTER TABLE matches ADD COLUMN note TEXT NOT NULL DEFAULT '';
    ALTER TABLE matches ADD COLUMN abandoned INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX matches_created ON matches(created, id);
    CREATE INDEX matches_game_created ON matches(game, created, id);
    CREATE INDEX matches_status_created ON matches(status, created, id);
    CREATE INDEX deals_match ON deals(match_id, number);
    CREATE TABLE match_players (
        match_id INTEGER NOT NULL REFERENCES matches(id),
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL,           -- the same person across matches: case and spacing ignored
        game TEXT NOT NULL,
        created TEXT NOT NULL,
        status TEXT NOT NULL,
        total INTEGER NOT NULL DEFAULT 0,
        result TEXT,                      -- won | lost | draw, once the match is finished
        facts TEXT NOT NULL DEFAULT '{}', -- JSON: this player's figures in this match (game.player_facts)
        PRIMARY KEY (match_id, seat)
    );
    CREATE INDEX match_players_name ON match_players(name_key, created);
    CREATE TABLE match_events (
        id INTEGER PRIMARY KEY,
        match_id INTEGER NOT NULL REFERENCES matches(id),
        deal_number INTEGER,
        action TEXT NOT NULL,             -- entered | corrected | voided | restored | ended | abandoned | resumed | undone
        at TEXT NOT NULL,
        detail TEXT NOT NULL DEFAULT '{}',
        undone INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX match_events_match ON match_events(match_id, id)
    """,  # noqa: E501 (a migration's SQL stays exactly as it was applied)
    # 3: read-only share links, and the keys that make a retried or double-tapped deal entry harmless.
    """
    CREATE TABLE share_links (
        token TEXT PRIMARY KEY,
        match_id INTEGER NOT NULL REFERENCES matches(id),
        created TEXT NOT NULL,
        revoked TEXT
    );
    CREATE INDEX share_links_match ON share_links(match_id);
    CREATE TABLE idempotency_keys (
        match_id INTEGER NOT NULL REFERENCES matches(id),
        key TEXT NOT NULL,
        deal_number INTEGER NOT NULL,
        created TEXT NOT NULL,
        PRIMARY KEY (match_id, key)
    )
    """,
    # 4: signed-in sessions (logging out or changing the passphrase ends them), and the hash of the body an
    # idempotency key was first sent with (the same key with another body is refused).
    """
    CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        created TEXT NOT NULL,
        seen TEXT NOT NULL                -- last request, to the hour: idle sessions expire
    );
    ALTER TABLE idempotency_keys ADD COLUMN body_hash TEXT
    """,
    # 5: Spitzer's option three_aces_partner (RULES.md 2.2) now defaults to "first-trick"; matches stored before
    # it existed were played with the partner being the first other player to win a trick: they keep that.
    """
    UPDATE matches SET options = json_set(options, '$.three_aces_partner', 'first-other')
    WHERE game = 'spitzer' AND json_extract(options, '$.three_aces_partner') IS NULL
    """,
    # 6: writes in constant time. Each deal keeps its computed result (NULL + its problems when it cannot be
    # scored), whether it counted and the rules' tally after it; the match keeps the standing the rules need for
    # the next deal, a version (every change) and the fingerprint of the rules that computed it: a match whose
    # fingerprint is not the running code's is replayed once and stored again (NULL: filled on first load).
    """
    ALTER TABLE deals ADD COLUMN result TEXT;
    ALTER TABLE deals ADD COLUMN problems TEXT;
    ALTER TABLE deals ADD COLUMN counted INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE deals ADD COLUMN after_end INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE deals ADD COLUMN tally TEXT;
    ALTER TABLE matches ADD COLUMN tally TEXT;
    ALTER TABLE matches ADD COLUMN next_dealer TEXT;
    ALTER TABLE matches ADD COLUMN finished INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE matches ADD COLUMN standing_note TEXT;
    ALTER TABLE matches ADD COLUMN ended_at INTEGER;
    ALTER TABLE matches ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE matches ADD COLUMN fingerprint TEXT;
    ALTER TABLE matches ADD COLUMN player_facts TEXT
    """,
    # 7: club play (RULES.md 5): an event, its players (in the order they joined; a leaver keeps their results),
    # its rounds with their seeds and byes, and each round's tables, every one an ordinary match.
    """
    CREATE TABLE events (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        date TEXT NOT NULL,
        game TEXT NOT NULL,
        options TEXT NOT NULL,            -- JSON object, every option resolved (deals from the round's length)
        rounds INTEGER NOT NULL,
        round_length TEXT NOT NULL,       -- 'match' | 'deals:N'
        seating TEXT NOT NULL,            -- 'standings' | 'random'
        season TEXT,
        tariff TEXT,
        seed INTEGER NOT NULL,            -- round 1's draw
        created TEXT NOT NULL
    );
    CREATE TABLE event_players (
        event_id INTEGER NOT NULL REFERENCES events(id),
        position INTEGER NOT NULL,
        name TEXT NOT NULL,
        joined_round INTEGER NOT NULL,    -- the first round they are drawn for
        left_round INTEGER,               -- the first round they are no longer drawn for
        PRIMARY KEY (event_id, position)
    );
    CREATE TABLE event_rounds (
        event_id INTEGER NOT NULL REFERENCES events(id),
        number INTEGER NOT NULL,
        seed INTEGER NOT NULL,
        byes TEXT NOT NULL,               -- JSON list
        drawn TEXT NOT NULL,
        PRIMARY KEY (event_id, number)
    );
    CREATE TABLE event_tables (
        event_id INTEGER NOT NULL REFERENCES events(id),
        round INTEGER NOT NULL,
        number INTEGER NOT NULL,
        match_id INTEGER NOT NULL REFERENCES matches(id),
        ended_by_director TEXT,           -- when the director ended it early
        token TEXT NOT NULL UNIQUE,       -- the table link's secret: this match's deals and confirmations only
        revoked TEXT,                     -- when the director revoked it
        PRIMARY KEY (event_id, round, number)
    );
    CREATE INDEX event_tables_match ON event_tables(match_id);
    CREATE TABLE confirmations (          -- RULES.md 5.6: a player signs the result as the match stood (its version)
        match_id INTEGER NOT NULL REFERENCES matches(id),
        player TEXT NOT NULL,
        version INTEGER NOT NULL,
        at TEXT NOT NULL,
        PRIMARY KEY (match_id, player, version)
    )
    """,
    # 8: a table's link issued again after a revoke (a new token: the old one stays dead); how many times, so the
    # board's validator sees it.
    """
    ALTER TABLE event_tables ADD COLUMN renewed INTEGER NOT NULL DEFAULT 0
    """,
    # 9: a season's settings (RULES.md 5.8), per game; a season without a row counts every event by score. Its
    # events are those naming it (case aside). An event's uid: what an export knows it by (as a match's).
    """
    CREATE TABLE seasons (
        name TEXT NOT NULL COLLATE NOCASE,
        game TEXT NOT NULL,
        best_of INTEGER,                  -- the best this many events count (NULL: all)
        league_points TEXT NOT NULL DEFAULT 'score',  -- 'score' | 'placing'
        PRIMARY KEY (name, game)
    );
    CREATE INDEX events_season ON events(season COLLATE NOCASE);
    ALTER TABLE events ADD COLUMN uid TEXT;
    UPDATE events SET uid = lower(hex(randomblob(16))) WHERE uid IS NULL;
    CREATE UNIQUE INDEX events_uid ON events(uid)
    """,
    # 10: club play in the room (issue 33). A table's link belongs to the physical table for the whole event: table n
    # of whichever round is in play, so its card is printed once; a revoked link is kept (a phone still holding it is
    # told it was replaced) and the table's next link takes over. The links of each event's latest round carry on;
    # event_tables is made again without its own. An event says what it is (a club evening or a tournament: its
    # words follow) and which players to keep at different tables. A table's match no longer has its place written
    # in English ("… · round 1, table 2"): pages and sheets say it in the reader's language from the event. How many
    # times the director edited the event (its board's validator).
    """
    CREATE TABLE event_links (
        token TEXT PRIMARY KEY,           -- the secret of /t/<token> and of its table card's QR code
        event_id INTEGER NOT NULL REFERENCES events(id),
        number INTEGER NOT NULL,          -- the physical table: it opens table n of the round in play
        created TEXT NOT NULL,
        revoked TEXT                      -- when the director revoked it
    );
    CREATE UNIQUE INDEX event_links_working ON event_links(event_id, number) WHERE revoked IS NULL;
    INSERT INTO event_links (token, event_id, number, created, revoked)
        SELECT t.token, t.event_id, t.number, r.drawn, t.revoked FROM event_tables t
        JOIN event_rounds r ON r.event_id = t.event_id AND r.number = t.round
        WHERE t.round = (SELECT MAX(x.number) FROM event_rounds x WHERE x.event_id = t.event_id);
    CREATE TABLE event_tables_10 (
        event_id INTEGER NOT NULL REFERENCES events(id),
        round INTEGER NOT NULL,
        number INTEGER NOT NULL,
        match_id INTEGER NOT NULL REFERENCES matches(id),
        ended_by_director TEXT,           -- when the director ended it early
        PRIMARY KEY (event_id, round, number)
    );
    INSERT INTO event_tables_10 (event_id, round, number, match_id, ended_by_director)
        SELECT event_id, round, number, match_id, ended_by_director FROM event_tables;
    DROP TABLE event_tables;
    ALTER TABLE event_tables_10 RENAME TO event_tables;
    CREATE INDEX event_tables_match ON event_tables(match_id);
    ALTER TABLE events ADD COLUMN kind TEXT NOT NULL DEFAULT 'club_evening';
    ALTER TABLE events ADD COLUMN avoid TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE events ADD COLUMN edited INTEGER NOT NULL DEFAULT 0;
    UPDATE matches SET place = (SELECT e.name FROM event_tables t JOIN events e ON e.id = t.event_id
                                WHERE t.match_id = matches.id)
        WHERE id IN (SELECT match_id FROM event_tables) AND place LIKE '% · round %, table %'
    """,
    # 11: how round 1 is seated (random from the seed, or by rating) and whether the tables show each player's
    # chance to win before their first deal (issue 36)
    """
    ALTER TABLE events ADD COLUMN first_round TEXT NOT NULL DEFAULT 'random';
    ALTER TABLE events ADD COLUMN show_chances INTEGER NOT NULL DEFAULT 1;
    """,
    # 12: the evening's purse (issue 37): the entry fee ("5.00 EUR"), the prizes by place (percentages, JSON), the
    # booby prize (the last place's fee back), and when the director ticked each player's fee as paid (NULL: owed)
    """
    ALTER TABLE events ADD COLUMN entry_fee TEXT;
    ALTER TABLE events ADD COLUMN prizes TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE events ADD COLUMN booby INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE event_players ADD COLUMN paid TEXT;
    """,
    # 13: the round clock (issue 37): the minutes an event gives each round (NULL: no clock), and each round's clock
    # as the director left it: the minutes it started with and when, minutes added since, seconds spent paused, and
    # when it was paused (NULL: running)
    """
    ALTER TABLE events ADD COLUMN round_minutes INTEGER;
    ALTER TABLE event_rounds ADD COLUMN clock_minutes INTEGER;
    ALTER TABLE event_rounds ADD COLUMN clock_started TEXT;
    ALTER TABLE event_rounds ADD COLUMN clock_added INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE event_rounds ADD COLUMN clock_paused_seconds INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE event_rounds ADD COLUMN clock_paused_at TEXT;
    """,
    # 14 (issue 47): what each player paid — the amount put in the cash box ("5.00 EUR") beside when it was
    # recorded, so that a fee changed afterwards leaves the player owing the difference (or to be given it back). A
    # fee ticked as paid before meant "paid the fee that was set then"; the fee's history was not kept, so it reads as
    # the event's fee now (NULL where the event has no fee now: paid in full, whatever fee is set later). The round
    # clock's seconds paused may pass 2**31 (a clock paused since 1950, imported): SQLite's INTEGER holds 64 bits
    # already (PostgreSQL's column becomes a BIGINT).
    """
    ALTER TABLE event_players ADD COLUMN paid_amount TEXT;
    UPDATE event_players SET paid_amount = (SELECT e.entry_fee FROM events e WHERE e.id = event_players.event_id)
        WHERE paid IS NOT NULL;
    """,
    # 15: when an event ended (issue 47, RULES.md 5.4): the director ended it, or every table of its last round ended
    # and was confirmed by all its players (NULL: it goes on; the last round's ended tables stay open). Events over by
    # the earlier rule (their last round drawn and no table of it playing) stay over.
    """
    ALTER TABLE events ADD COLUMN ended TEXT;
    UPDATE events SET ended = (SELECT MAX(m.updated) FROM event_tables t JOIN matches m ON m.id = t.match_id
                                WHERE t.event_id = events.id)
        WHERE (SELECT COUNT(*) FROM event_rounds r WHERE r.event_id = events.id) >= events.rounds
          AND NOT EXISTS (SELECT 1 FROM event_tables t JOIN matches m ON m.id = t.match_id
                          WHERE t.event_id = events.id AND m.finished = 0 AND t.ended_by_director IS NULL
                            AND t.round = (SELECT MAX(r.number) FROM event_rounds r WHERE r.event_id = events.id));
    """,
    # 16: a player's name keyed by one identity rule (issue 47: NFKC, case folding, spacing; "Ａｎｎ" is "Ann"): the
    # per-player summaries, keyed the older way, are dropped and built again at start (backfill_summaries)
    """
    DELETE FROM match_players
    """,
    # 17: spaces (issue 48) — one hosted Referee for many clubs and groups, each in its own space. The Referee as it
    # was is space 1, "Club", under a slug that is readable and not guessable from its name; every table of a space's
    # data carries its space (foreign keys are off while this runs: SQLite adds a column that references another table
    # only so), and what is unique per club is unique per space (a match's and an event's uid, a season's name). The
    # indexes the store's queries use lead with the space. A space's API key, its passphrase and its director links
    # are kept as hashes only.
    """
    CREATE TABLE spaces (
        id INTEGER PRIMARY KEY,
        slug TEXT NOT NULL UNIQUE,        -- /s/<slug>/: readable, not guessable from the name
        name TEXT NOT NULL,
        created TEXT NOT NULL,
        last_used TEXT NOT NULL,
        key_hash TEXT,                    -- the hash of the space's API key (NULL: none made)
        passphrase_hash TEXT              -- the hash of the space's own passphrase (NULL: none set)
    );
    INSERT INTO spaces (id, slug, name, created, last_used) VALUES
        (1, 'club-' || lower(hex(randomblob(5))), 'Club', strftime('%Y-%m-%dT%H:%M:%S+00:00', 'now'),
         strftime('%Y-%m-%dT%H:%M:%S+00:00', 'now'));
    CREATE TABLE director_links (
        token_hash TEXT PRIMARY KEY,      -- the hash of a director link's secret
        space INTEGER NOT NULL DEFAULT 1 REFERENCES spaces(id),
        created TEXT NOT NULL,
        revoked TEXT
    );
    ALTER TABLE matches ADD COLUMN space INTEGER NOT NULL DEFAULT 1 REFERENCES spaces(id);
    ALTER TABLE deals ADD COLUMN space INTEGER NOT NULL DEFAULT 1 REFERENCES spaces(id);
    ALTER TABLE deal_revisions ADD COLUMN space INTEGER NOT NULL DEFAULT 1 REFERENCES spaces(id);
    ALTER TABLE match_players ADD COLUMN space INTEGER NOT NULL DEFAULT 1 REFERENCES spaces(id);
    ALTER TABLE match_events ADD COLUMN space INTEGER NOT NULL DEFAULT 1 REFERENCES spaces(id);
    ALTER TABLE share_links ADD COLUMN space INTEGER NOT NULL DEFAULT 1 REFERENCES spaces(id);
    ALTER TABLE idempotency_keys ADD COLUMN space INTEGER NOT NULL DEFAULT 1 REFERENCES spaces(id);
    ALTER TABLE sessions ADD COLUMN space INTEGER NOT NULL DEFAULT 1 REFERENCES spaces(id);
    ALTER TABLE events ADD COLUMN space INTEGER NOT NULL DEFAULT 1 REFERENCES spaces(id);
    ALTER TABLE event_players ADD COLUMN space INTEGER NOT NULL DEFAULT 1 REFERENCES spaces(id);
    ALTER TABLE event_rounds ADD COLUMN space INTEGER NOT NULL DEFAULT 1 REFERENCES spaces(id);
    ALTER TABLE event_tables ADD COLUMN space INTEGER NOT NULL DEFAULT 1 REFERENCES spaces(id);
    ALTER TABLE confirmations ADD COLUMN space INTEGER NOT NULL DEFAULT 1 REFERENCES spaces(id);
    ALTER TABLE event_links ADD COLUMN space INTEGER NOT NULL DEFAULT 1 REFERENCES spaces(id);
    CREATE TABLE seasons_17 (
        name TEXT NOT NULL COLLATE NOCASE,
        game TEXT NOT NULL,
        best_of INTEGER,
        league_points TEXT NOT NULL DEFAULT 'score',
        space INTEGER NOT NULL DEFAULT 1 REFERENCES spaces(id),
        PRIMARY KEY (space, name, game)
    );
    INSERT INTO seasons_17 (name, game, best_of, league_points) SELECT name, game, best_of, league_points FROM seasons;
    DROP TABLE seasons;
    ALTER TABLE seasons_17 RENAME TO seasons;
    DROP INDEX matches_status_updated;
    CREATE INDEX matches_status_updated ON matches(space, status, updated);
    CREATE INDEX matches_updated ON matches(space, updated, id);
    DROP INDEX matches_uid;
    CREATE UNIQUE INDEX matches_uid ON matches(space, uid);
    DROP INDEX matches_created;
    CREATE INDEX matches_created ON matches(space, created, id);
    DROP INDEX matches_game_created;
    CREATE INDEX matches_game_created ON matches(space, game, created, id);
    DROP INDEX matches_status_created;
    CREATE INDEX matches_status_created ON matches(space, status, created, id);
    DROP INDEX deals_match;
    CREATE INDEX deals_match ON deals(space, match_id, number);
    DROP INDEX match_players_name;
    CREATE INDEX match_players_name ON match_players(space, name_key, created);
    DROP INDEX match_events_match;
    CREATE INDEX match_events_match ON match_events(space, match_id, id);
    DROP INDEX share_links_match;
    CREATE INDEX share_links_match ON share_links(space, match_id);
    DROP INDEX event_tables_match;
    CREATE INDEX event_tables_match ON event_tables(space, match_id);
    DROP INDEX events_season;
    CREATE INDEX events_season ON events(space, season COLLATE NOCASE);
    DROP INDEX events_uid;
    CREATE UNIQUE INDEX events_uid ON events(space, uid);
    CREATE INDEX events_date ON events(space, date, id);
    CREATE INDEX sessions_seen ON sessions(space, seen)
    """,
    # 18: spaces at scale (issue 48, the benchmark of 1,000 spaces): a space's API key is found by its hash, and a
    # space's director links (read by every signed-in request) by the space — neither by reading every space's rows
    """
    CREATE UNIQUE INDEX spaces_key ON spaces(key_hash);
    CREATE INDEX director_links_space ON director_links(space, created, token_hash)
    """,
)
