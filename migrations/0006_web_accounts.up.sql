-- People sign in in the browser: a submitter may have an e-mail address and
-- an argon2id password hash (PHC string, never the password), a role, and a
-- suspension. Sessions, password resets and claim cookies are kept only as
-- the SHA-256 of their secret (each has 256 random bits, so a fast hash is
-- enough, and a stolen database dump opens nothing).
ALTER TABLE submitters
    ADD COLUMN email         text,
    ADD COLUMN password_hash text,
    ADD COLUMN role          text NOT NULL DEFAULT '' CHECK (role IN ('', 'admin')),
    ADD COLUMN suspended_at  timestamptz;
CREATE UNIQUE INDEX submitters_email_idx ON submitters (lower(email)) WHERE email IS NOT NULL;

-- A deleted account's handle (lower case) is kept here so nobody else can
-- take the name people knew for 90 days.
CREATE TABLE retired_handles (
    handle     text PRIMARY KEY,
    retired_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sessions (
    hash         bytea PRIMARY KEY CHECK (length(hash) = 32),
    submitter_id bigint NOT NULL REFERENCES submitters (id) ON DELETE CASCADE,
    created_at   timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL
);
CREATE INDEX sessions_submitter_idx ON sessions (submitter_id);

CREATE TABLE password_resets (
    hash         bytea PRIMARY KEY CHECK (length(hash) = 32),
    submitter_id bigint NOT NULL REFERENCES submitters (id) ON DELETE CASCADE,
    expires_at   timestamptz NOT NULL,
    used_at      timestamptz
);

-- edited_at: the uploader changed the run's metadata (the stored file never
-- changes). claim_hash: the SHA-256 of the claim cookie an anonymous
-- upload's browser got, so that browser alone may claim the run for a
-- while.
ALTER TABLE runs
    ADD COLUMN edited_at  timestamptz,
    ADD COLUMN claim_hash bytea;

-- A run deleted by its submitter: its address answers 410 Gone, not 404.
CREATE TABLE deleted_runs (
    id         text PRIMARY KEY,
    deleted_at timestamptz NOT NULL DEFAULT now()
);

-- Every moderator's act: who, what, on what, when and why.
CREATE TABLE audit_log (
    id     bigserial PRIMARY KEY,
    at     timestamptz NOT NULL DEFAULT now(),
    actor  text NOT NULL,
    action text NOT NULL,
    target text NOT NULL,
    reason text NOT NULL DEFAULT ''
);
