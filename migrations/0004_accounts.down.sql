ALTER TABLE runs
    DROP COLUMN integrity, DROP COLUMN profile, DROP COLUMN hidden,
    DROP COLUMN submitter_verified, DROP COLUMN submitter_id;
DROP TABLE tokens;
DROP TABLE submitters;
DROP TABLE orgs;
