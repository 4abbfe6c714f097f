-- Tables (one game in one channel), results (one row per player per finished game), meta.
CREATE TABLE game_tables (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    kind             TEXT    NOT NULL,
    status           TEXT    NOT NULL,          -- challenge | active | finished | stopped
    seats            TEXT    NOT NULL,          -- JSON list of seats
    options          TEXT    NOT NULL,          -- JSON
    state            TEXT,                      -- JSON engine state (NULL while a challenge waits)
    ui               TEXT    NOT NULL DEFAULT '{}',  -- JSON: selections and other board state
    version          INTEGER NOT NULL DEFAULT 0,
    board_message_id INTEGER,
    created_by       INTEGER NOT NULL,
    created_at       REAL    NOT NULL,
    updated_at       REAL    NOT NULL,
    last_move_at     REAL    NOT NULL
);
CREATE INDEX game_tables_status ON game_tables (status);
-- At most one open table per channel.
CREATE UNIQUE INDEX game_tables_one_per_channel ON game_tables (channel_id)
    WHERE status IN ('challenge', 'active');

CREATE TABLE results (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id      INTEGER NOT NULL REFERENCES game_tables (id),
    guild_id      INTEGER NOT NULL,
    kind          TEXT    NOT NULL,
    user_id       INTEGER NOT NULL,
    user_name     TEXT    NOT NULL DEFAULT '',
    outcome       TEXT    NOT NULL,             -- win | loss | draw
    points        INTEGER NOT NULL DEFAULT 0,
    rating_change REAL    NOT NULL DEFAULT 0,
    vs_computer   INTEGER NOT NULL DEFAULT 0,
    extra         TEXT    NOT NULL DEFAULT '{}', -- JSON: per-game figures (moons shot, ...)
    finished_at   REAL    NOT NULL
);
CREATE INDEX results_board ON results (guild_id, kind, user_id);

CREATE TABLE ratings (
    guild_id INTEGER NOT NULL,
    kind     TEXT    NOT NULL,
    user_id  INTEGER NOT NULL,
    rating   REAL    NOT NULL,
    games    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, kind, user_id)
);

CREATE TABLE guild_settings (
    guild_id INTEGER NOT NULL,
    name     TEXT    NOT NULL,
    value    TEXT    NOT NULL,
    PRIMARY KEY (guild_id, name)
);

CREATE TABLE meta (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
