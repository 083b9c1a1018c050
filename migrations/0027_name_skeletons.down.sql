DROP TABLE skeleton_version;
DROP INDEX retired_handles_skeleton_idx;
DROP INDEX orgs_skeleton_idx;
DROP INDEX submitters_skeleton_idx;
ALTER TABLE retired_handles DROP COLUMN skeleton;
ALTER TABLE orgs DROP COLUMN skeleton;
ALTER TABLE submitters DROP COLUMN skeleton;
