-- PostgreSQL's form of 0004: 64-bit place ids, double-precision ratings. Places: where a
-- result, a rating or a daily attempt counts. A server (place_id: its guild id),
-- a chat outside servers such as a group DM (its channel id), or the DM with Parlour (the
-- member's own record: their user id). Rows before this migration name the server they were
-- played in; those of guild 0 (DMs and group DMs, not told apart then) become each member's own.
ALTER TABLE game_tables ADD COLUMN place TEXT NOT NULL DEFAULT 'server';
UPDATE game_tables SET place = 'dm' WHERE guild_id = 0;

ALTER TABLE results ADD COLUMN place TEXT NOT NULL DEFAULT 'server';
ALTER TABLE results ADD COLUMN place_id BIGINT  NOT NULL DEFAULT 0;
UPDATE results SET place_id = guild_id WHERE guild_id <> 0;
UPDATE results SET place = 'dm', place_id = user_id WHERE guild_id = 0;
CREATE INDEX results_place ON results (place, place_id, kind, user_id);

-- Ratings are kept per place (checkers Elo no longer mixes across places).
CREATE TABLE place_ratings (
    place    TEXT    NOT NULL,
    place_id BIGINT  NOT NULL,
    kind     TEXT    NOT NULL,
    user_id  BIGINT  NOT NULL,
    rating   DOUBLE PRECISION NOT NULL,
    games    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (place, place_id, kind, user_id)
);
INSERT INTO place_ratings (place, place_id, kind, user_id, rating, games)
    SELECT CASE WHEN guild_id = 0 THEN 'dm' ELSE 'server' END,
           CASE WHEN guild_id = 0 THEN user_id ELSE guild_id END, kind, user_id, rating, games
    FROM ratings;
DROP TABLE ratings;
ALTER TABLE place_ratings RENAME TO ratings;

ALTER TABLE daily_attempts ADD COLUMN place TEXT NOT NULL DEFAULT 'server';
ALTER TABLE daily_attempts ADD COLUMN place_id BIGINT  NOT NULL DEFAULT 0;
UPDATE daily_attempts SET place_id = guild_id WHERE guild_id <> 0;
UPDATE daily_attempts SET place = 'dm', place_id = user_id WHERE guild_id = 0;
CREATE INDEX daily_attempts_place ON daily_attempts (place, place_id, day);
