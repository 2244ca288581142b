-- The dealing algorithm of each running game (quaymoor/store/pg_lobby.py Started), so that
-- a survivor writes the record of a dead process's game in the format it was dealt in,
-- even when the survivor deals new games with another (during an upgrade). '': written
-- by a process before this migration.
ALTER TABLE operators.table_seeds ADD COLUMN algorithm text NOT NULL DEFAULT '';
