DROP TABLE email_confirmations;
DROP TABLE pending_signups;
DROP TABLE linked_identities;
ALTER TABLE submitters DROP COLUMN email_verified_at;
