-- runs_uploaded_at_idx (uploaded_at DESC, id) and runs_newest_idx
-- (uploaded_at, id) differed only in id's direction. The lists that read
-- the first (the home page's newest runs, a run page's runs of the same
-- model or hardware, an organisation's runs) now break ties on id DESC as
-- /runs does, so runs_newest_idx read backward serves them all, and every
-- upload writes one index entry fewer.
DROP INDEX runs_uploaded_at_idx;
