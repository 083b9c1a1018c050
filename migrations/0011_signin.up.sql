-- Sign-in by mail and by GitHub.
--
-- email_verified_at: when the owner of the address proved it by following a
-- mailed link (or GitHub said the address is verified). Password resets are
-- mailed only to a confirmed address, so a mistyped address never lets a
-- stranger take the account over.
ALTER TABLE submitters ADD COLUMN email_verified_at timestamptz;

-- A sign-in with another site (apart from the runs' browse identities):
-- GitHub's user id (never the login, which its owner can rename) names one
-- account here.
CREATE TABLE linked_identities (
    provider         text NOT NULL CHECK (provider IN ('github')),
    provider_user_id text NOT NULL,
    submitter_id     bigint NOT NULL REFERENCES submitters (id) ON DELETE CASCADE,
    created_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (provider, provider_user_id),
    UNIQUE (submitter_id, provider)
);

-- A sign-up not made yet: with mail configured, an e-mail sign-up becomes
-- an account only when its address is confirmed, and a GitHub sign-up
-- whose login is taken waits here for its handle. Kept as the SHA-256 of
-- the link's (or cookie's) secret, single use, for a short while.
CREATE TABLE pending_signups (
    hash             bytea PRIMARY KEY CHECK (length(hash) = 32),
    handle           text NOT NULL DEFAULT '',
    email            text NOT NULL DEFAULT '',
    password_hash    text NOT NULL DEFAULT '',
    provider         text NOT NULL DEFAULT '',
    provider_user_id text NOT NULL DEFAULT '',
    expires_at       timestamptz NOT NULL
);

-- A mailed link that confirms an existing account's address; it confirms
-- only the address it was sent to.
CREATE TABLE email_confirmations (
    hash         bytea PRIMARY KEY CHECK (length(hash) = 32),
    submitter_id bigint NOT NULL REFERENCES submitters (id) ON DELETE CASCADE,
    email        text NOT NULL,
    expires_at   timestamptz NOT NULL
);
