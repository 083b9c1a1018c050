-- Names of people are compared by what they look like: each handle,
-- organisation slug and retired handle keeps its skeleton (names.Skeleton:
-- NFKC, format characters and surrounding space dropped, case folded,
-- Unicode's confusables mapped), so "аlice" (Cyrillic а) or "alice" with a
-- zero-width space finds "alice" through one index. The skeleton is Go's
-- to compute, not SQL's: the store writes it with each new name, and at
-- start fills the rows that lack one (these, at first) or, when
-- names.Version changed, computes every row's again. Not unique: names
-- that already look alike are kept as they are (`speedmatrix account
-- lookalikes` lists them); only new names are refused.
ALTER TABLE submitters ADD COLUMN skeleton text;
ALTER TABLE orgs ADD COLUMN skeleton text;
ALTER TABLE retired_handles ADD COLUMN skeleton text;
CREATE INDEX submitters_skeleton_idx ON submitters (skeleton);
CREATE INDEX orgs_skeleton_idx ON orgs (skeleton);
CREATE INDEX retired_handles_skeleton_idx ON retired_handles (skeleton);

-- The names.Version the stored skeletons were computed with. One row,
-- written by the start-up fill; none until then.
CREATE TABLE skeleton_version (
    one     boolean PRIMARY KEY DEFAULT true CHECK (one),
    version text NOT NULL
);
