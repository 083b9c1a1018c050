DROP TABLE audit_log;
DROP TABLE deleted_runs;
ALTER TABLE runs DROP COLUMN claim_hash, DROP COLUMN edited_at;
DROP TABLE password_resets;
DROP TABLE sessions;
DROP TABLE retired_handles;
DROP INDEX submitters_email_idx;
ALTER TABLE submitters
    DROP COLUMN suspended_at, DROP COLUMN role, DROP COLUMN password_hash, DROP COLUMN email;
