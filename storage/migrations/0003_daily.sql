-- The daily puzzles: one attempt per member, per puzzle, per day (the UTC day it started on).
CREATE TABLE daily_attempts (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    day         TEXT    NOT NULL,             -- ISO date, UTC, of the start
    puzzle      TEXT    NOT NULL,             -- quarters | checkers | quatorze
    user_id     INTEGER NOT NULL,
    user_name   TEXT    NOT NULL DEFAULT '',
    guild_id    INTEGER NOT NULL,             -- where it started (0: a direct message)
    status      TEXT    NOT NULL,             -- playing | solved | failed
    state       TEXT    NOT NULL,             -- JSON: the game so far
    moves       INTEGER NOT NULL DEFAULT 0,
    hints       INTEGER NOT NULL DEFAULT 0,
    score       INTEGER NOT NULL DEFAULT 0,
    version     INTEGER NOT NULL DEFAULT 0,
    started_at  REAL    NOT NULL,
    finished_at REAL
);
CREATE UNIQUE INDEX daily_attempts_once ON daily_attempts (user_id, day, puzzle);
CREATE INDEX daily_attempts_board ON daily_attempts (guild_id, day);
