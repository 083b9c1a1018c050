-- runs_uploaded_at_idx (uploaded_at DESC, id) and runs_newest_idx
-- (uploaded_at, id) differed only in id's direction. The lists that read
-- the first (the home page's newest runs, a run page's runs of the same
-- model or hardware, an organisation's runs) now break ties on id DESC as
-- /runs does, so runs_newest_idx read backward serves them all, and every
-- upload writes one index entry fewer.
DROP INDEX runs_uploaded_at_idx;

-- PostgreSQL's b-tree favours an ascending insert order: it remembers the
-- rightmost leaf to skip the descent and splits that page unevenly, leaving
-- it nearly full. In a descending index of the upload time every new run
-- goes in at the far left and gets neither. runs_sitemap_idx, which every
-- listed upload writes, is now ascending and read backward, with ties on
-- id DESC as the run lists.
DROP INDEX runs_sitemap_idx;
CREATE INDEX runs_sitemap_idx ON runs (uploaded_at, id) WHERE NOT hidden AND NOT demo;
