-- Players' ratings and games (quaymoor/store/ratings.py, issue 27): an account's OpenSkill
-- rating, and every archived game it sat at with its place and, rated, the rating before
-- and after. Written in the transaction that archives the game's record.
CREATE TABLE ratings (
    account_id  text PRIMARY KEY,
    mu          double precision NOT NULL,
    sigma       double precision NOT NULL,
    games       integer NOT NULL,
    last_played double precision
);
CREATE INDEX ratings_by_mu ON ratings (mu);
CREATE TABLE account_games (
    account_id   text NOT NULL,
    game_id      text NOT NULL,
    seat         integer NOT NULL,
    ended_at     double precision NOT NULL,
    players      integer NOT NULL,
    reason       text NOT NULL,
    place        integer,
    rated        integer NOT NULL,
    mu_before    double precision,
    sigma_before double precision,
    mu           double precision,
    sigma        double precision,
    PRIMARY KEY (account_id, game_id)
);
CREATE INDEX account_games_by_game ON account_games (game_id);
CREATE INDEX account_games_by_account ON account_games (account_id, ended_at);
