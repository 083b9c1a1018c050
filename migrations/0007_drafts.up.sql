-- A draft is an upload read and derived but not published: the preview a
-- browser sees before it publishes. Drafts live apart from runs so that no
-- list, leaderboard, sitemap, search or API that reads runs can show one.
-- The id is 128 random bits (the address is the only key a stranger could
-- guess); owner names who may see it: "browser:" and the SHA-256 of the
-- browser's draft cookie today, another prefix for a signed-in account
-- later. The files are kept as uploaded so the run is derived again, with
-- the fields typed since, at publication. published_run is set once the
-- draft is published, so a second publish leads to the same run; every
-- draft is deleted at expires_at, published or not.
CREATE TABLE drafts (
    id            text PRIMARY KEY CHECK (length(id) >= 26),
    owner         text NOT NULL,
    account       text NOT NULL DEFAULT '',
    file_names    text[] NOT NULL,
    file_data     bytea[] NOT NULL,
    fields        jsonb NOT NULL DEFAULT '{}',
    published_run text,
    created_at    timestamptz NOT NULL,
    expires_at    timestamptz NOT NULL,
    CHECK (cardinality(file_names) = cardinality(file_data))
);
CREATE INDEX drafts_expires_idx ON drafts (expires_at);
