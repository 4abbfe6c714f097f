-- PostgreSQL's form of 0002: how a finished game ended, as its own JSON text column, written by
-- the table service only. It used to ride in the ui column under "outcome".
ALTER TABLE game_tables ADD COLUMN outcome TEXT;
UPDATE game_tables SET outcome = (ui::jsonb -> 'outcome')::text, ui = (ui::jsonb - 'outcome')::text
    WHERE jsonb_typeof(ui::jsonb -> 'outcome') = 'object';
