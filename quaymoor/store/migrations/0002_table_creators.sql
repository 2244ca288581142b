-- Who opened each live table: the client address the per-address cap on open tables counts
-- across the cluster (docs/deploy.md, "Per-address limits"). An address is personal data,
-- so it sits in `operators` beside the seeds, out of a reporting role's reach, and goes
-- with the table's live row.
CREATE TABLE operators.table_creators (
    table_id text PRIMARY KEY REFERENCES live_tables (id) ON DELETE CASCADE,
    address  text NOT NULL
);
CREATE INDEX table_creators_by_address ON operators.table_creators (address);
REVOKE ALL ON operators.table_creators FROM PUBLIC;
