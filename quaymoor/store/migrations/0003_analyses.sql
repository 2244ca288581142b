-- Post-game analyses (quaymoor/store/analyses.py): one row per game, claimed by the
-- process that computes it, its progress, and the analysis's JSON once done.
CREATE TABLE analyses (
    id         text PRIMARY KEY,
    status     text NOT NULL,
    done       integer NOT NULL,
    total      integer NOT NULL,
    owner      text NOT NULL,
    updated_at double precision NOT NULL,
    body       text
);
