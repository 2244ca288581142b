-- Who sits at each running game (quaymoor/store/pg_lobby.py Seated: accounts, bot levels,
-- who left), so that the record of a game whose process died is archived with its
-- accounts: in their games, and rated when its last action ended it.
CREATE TABLE table_accounts (
    table_id text PRIMARY KEY REFERENCES live_tables (id) ON DELETE CASCADE,
    accounts jsonb NOT NULL
);
