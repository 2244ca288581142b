-- The shared store of `quaymoor cluster` (docs/deploy.md): finished games, the lobby's
-- live tables and their actions as they happen, one heartbeat row per process, and the
-- seeds of running games in a schema of their own that only operators may read.

-- Finished and ended games: the same columns as the SQLite archive's.
CREATE TABLE games (
    id        text PRIMARY KEY,
    ended_at  double precision NOT NULL,
    players   integer NOT NULL,
    reason    text NOT NULL,
    seats     jsonb NOT NULL,
    winners   jsonb NOT NULL,
    totals    jsonb NOT NULL,
    actions   integer NOT NULL,
    algorithm text NOT NULL,
    record    text NOT NULL
);
CREATE INDEX games_by_end ON games (ended_at);

-- One row per `quaymoor serve` process that ever joined, by its instance (a random id
-- per start); `name` is its slot in HAProxy (w00, w01, ...), which prefixes its tables'
-- ids. `beat_at` is refreshed every second; `stopped_at` is set when it exits, or by the
-- survivor that found its heartbeat stale and ended its tables.
CREATE TABLE processes (
    instance   text PRIMARY KEY,
    name       text NOT NULL,
    address    text NOT NULL,
    pid        integer NOT NULL,
    started_at timestamptz NOT NULL DEFAULT now(),
    beat_at    timestamptz NOT NULL DEFAULT now(),
    draining   boolean NOT NULL DEFAULT false,
    stopped_at timestamptz,
    stopped_by text,
    stats      jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX processes_alive ON processes (name) WHERE stopped_at IS NULL;

-- The lobby: every open or running table, its public summary, and its owner.
CREATE TABLE live_tables (
    id         text PRIMARY KEY,
    instance   text NOT NULL REFERENCES processes (instance),
    players    integer NOT NULL,
    lobby      jsonb NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX live_tables_by_instance ON live_tables (instance);

-- Every action of a running game, in order, as it happens (public once played).
CREATE TABLE table_actions (
    table_id text NOT NULL REFERENCES live_tables (id) ON DELETE CASCADE,
    n        integer NOT NULL,
    action   jsonb NOT NULL,
    PRIMARY KEY (table_id, n)
);

-- Hidden until the game ends: the server seed and the seats' client seeds of each
-- running game. Nobody but the owner of the schema (the servers' role) may read it;
-- a reporting or read-only role granted on `public` sees none of it.
CREATE SCHEMA operators;
REVOKE ALL ON SCHEMA operators FROM PUBLIC;
CREATE TABLE operators.table_seeds (
    table_id     text PRIMARY KEY REFERENCES live_tables (id) ON DELETE CASCADE,
    seed         text NOT NULL,
    client_seeds jsonb NOT NULL,
    seat_seeds   jsonb NOT NULL,
    seats        jsonb NOT NULL
);
REVOKE ALL ON operators.table_seeds FROM PUBLIC;
