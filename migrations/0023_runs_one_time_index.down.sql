CREATE INDEX runs_uploaded_at_idx ON runs (uploaded_at DESC, id);
