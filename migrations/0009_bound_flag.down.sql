ALTER TABLE runs DROP COLUMN above_bound, DROP COLUMN bound_version;
