DROP INDEX runs_sitemap_idx;
CREATE INDEX runs_sitemap_idx ON runs (uploaded_at DESC, id) WHERE NOT hidden AND NOT demo;
CREATE INDEX runs_uploaded_at_idx ON runs (uploaded_at DESC, id);
