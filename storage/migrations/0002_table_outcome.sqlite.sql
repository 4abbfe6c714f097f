-- How a finished game ended, as its own column (JSON: winners, termination, scores, details),
-- written by the table service only. It used to ride in the ui column under "outcome".
ALTER TABLE game_tables ADD COLUMN outcome TEXT;
UPDATE game_tables SET outcome = json_extract(ui, '$.outcome'), ui = json_remove(ui, '$.outcome')
    WHERE json_type(ui, '$.outcome') = 'object';
