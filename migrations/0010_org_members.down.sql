ALTER TABLE drafts DROP COLUMN org;
DROP INDEX runs_org_idx;
ALTER TABLE runs DROP COLUMN org_id;
ALTER TABLE tokens DROP COLUMN org_id;
DROP TABLE org_invites;
DROP TABLE org_members;
DROP INDEX orgs_slug_lower_idx;
ALTER TABLE orgs DROP COLUMN created_at;
