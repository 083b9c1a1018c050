-- Submitters upload under their own name with a token; organisations group
-- them. Tokens are kept only as the SHA-256 of the token string (it has 240
-- random bits, so a fast hash is enough) plus a short prefix that names a
-- token in listings and `token revoke` without being usable.
CREATE TABLE orgs (
    id   bigserial PRIMARY KEY,
    slug text NOT NULL UNIQUE,
    name text NOT NULL DEFAULT ''
);

CREATE TABLE submitters (
    id         bigserial PRIMARY KEY,
    handle     text NOT NULL,
    org_id     bigint REFERENCES orgs (id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
-- Handles are unique whatever their case: "Sandberg" and "sandberg" are
-- one person to a reader.
CREATE UNIQUE INDEX submitters_handle_idx ON submitters (lower(handle));
CREATE INDEX submitters_org_idx ON submitters (org_id);

CREATE TABLE tokens (
    id           bigserial PRIMARY KEY,
    hash         bytea NOT NULL UNIQUE CHECK (length(hash) = 32),
    prefix       text NOT NULL,
    submitter_id bigint NOT NULL REFERENCES submitters (id) ON DELETE CASCADE,
    created_at   timestamptz NOT NULL DEFAULT now(),
    revoked_at   timestamptz,
    last_used_at timestamptz
);
CREATE INDEX tokens_prefix_idx ON tokens (prefix);

-- submitter_id is the account that uploaded the run with a token (it may
-- delete it); submitter_verified keeps that the name was proven at upload
-- time even if the account goes. hidden runs answer 404 and leave every
-- list but stay stored. profile and integrity are lil-bench's ("quick" runs
-- stay out of leaderboards; integrity is stock, modified or unverified).
ALTER TABLE runs
    ADD COLUMN submitter_id bigint REFERENCES submitters (id) ON DELETE SET NULL,
    ADD COLUMN submitter_verified boolean NOT NULL DEFAULT false,
    ADD COLUMN hidden boolean NOT NULL DEFAULT false,
    ADD COLUMN profile text NOT NULL DEFAULT '',
    ADD COLUMN integrity text NOT NULL DEFAULT '';
CREATE INDEX runs_submitter_id_idx ON runs (submitter_id, uploaded_at DESC) WHERE submitter_id IS NOT NULL;
