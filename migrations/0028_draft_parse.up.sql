-- A draft keeps the parse of its files (JSON written by the ingest, marked
-- with the build that parsed them), so its preview and its publication
-- derive the run from it with the fields of the moment instead of parsing
-- the same bytes again in every request. The files stay: they are the
-- run's source. NULL for a draft made before (or whose parse JSON could
-- not carry): its files are parsed when it is used, as they were. json,
-- not jsonb: read back byte for byte as written.
ALTER TABLE drafts ADD COLUMN parsed json;
