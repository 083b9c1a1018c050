ALTER TABLE runs
    DROP CONSTRAINT runs_moderation_whole,
    DROP CONSTRAINT runs_hidden_why,
    DROP COLUMN moderation_reason,
    DROP COLUMN moderated_by,
    DROP COLUMN moderated_at,
    DROP COLUMN owner_hidden;
