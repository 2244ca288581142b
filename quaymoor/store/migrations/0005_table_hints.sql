-- Each running game's hints given per seat (quaymoor/store/pg_lobby.py Hinted), so that
-- the record of a game whose process died says how many hints each player used.
CREATE TABLE table_hints (
    table_id text PRIMARY KEY REFERENCES live_tables (id) ON DELETE CASCADE,
    given    jsonb NOT NULL
);
