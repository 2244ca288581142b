-- Accounts with passkeys (quaymoor/store/accounts.py, issue 27): accounts, their passkeys,
-- sessions (the SHA-256 of each cookie) and the WebAuthn ceremonies under way.
CREATE TABLE accounts (
    id         text PRIMARY KEY,
    name       text NOT NULL,
    name_key   text NOT NULL UNIQUE,
    created_at double precision NOT NULL
);
CREATE TABLE credentials (
    id         text PRIMARY KEY,
    account_id text NOT NULL,
    public_key text NOT NULL,
    sign_count bigint NOT NULL,
    created_at double precision NOT NULL,
    used_at    double precision
);
CREATE INDEX credentials_by_account ON credentials (account_id);
CREATE TABLE sessions (
    token_hash text PRIMARY KEY,
    account_id text NOT NULL,
    csrf       text NOT NULL,
    created_at double precision NOT NULL,
    expires_at double precision NOT NULL
);
CREATE INDEX sessions_by_account ON sessions (account_id);
CREATE TABLE ceremonies (
    id         text PRIMARY KEY,
    kind       text NOT NULL,
    challenge  text NOT NULL,
    account_id text,
    name       text,
    expires_at double precision NOT NULL
);
