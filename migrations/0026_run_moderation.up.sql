-- A moderator's hide is its own state, apart from the owner's choice.
-- runs.hidden stays the one flag every read filters on, so every list,
-- ranking, export, sitemap, feed and API answer (those written later
-- too) leaves a moderated run out with no change; what it is made of is
-- kept beside it:
--   owner_hidden: the owner's own choice (or the operator's plain hide);
--     the owner's hide and show set only this and hidden, and never on a
--     moderated run;
--   moderated_at, moderated_by, moderation_reason: when, by which account
--     (NULL for the operator's command line or an account deleted since)
--     and why a moderator hid it; only an admin clears them, and the run
--     then returns to owner_hidden, so a run its owner had hidden does
--     not become public because the moderators were done with it.
ALTER TABLE runs
    ADD COLUMN owner_hidden boolean NOT NULL DEFAULT false,
    ADD COLUMN moderated_at timestamptz,
    ADD COLUMN moderated_by bigint REFERENCES submitters (id) ON DELETE SET NULL,
    ADD COLUMN moderation_reason text;

-- A run hidden before this migration was hidden by its owner, the
-- operator, or a moderator whose act is in the audit log.
UPDATE runs SET owner_hidden = true WHERE hidden;

-- A hidden run whose latest hide in the audit log is a moderator's is
-- moderated, by whom and why that line says: until now its owner could
-- show it again, which is what this column ends. The same rule is
-- store.backfillModerationSQL, which a restore of an older backup runs.
UPDATE runs r SET owner_hidden = false, moderated_at = a.at,
    moderated_by = (SELECT s.id FROM submitters s WHERE lower(s.handle) = lower(a.actor)),
    moderation_reason = a.reason
FROM (SELECT DISTINCT ON (target) target, at, actor, action, reason
      FROM audit_log WHERE action IN ('hide_run', 'unhide_run')
      ORDER BY target, id DESC) a
WHERE a.target = r.id AND a.action = 'hide_run' AND r.hidden AND r.moderated_at IS NULL;

-- hidden is exactly the owner's choice or a moderator's; a moderation
-- always has its time and reason.
ALTER TABLE runs
    ADD CONSTRAINT runs_hidden_why CHECK (hidden = (owner_hidden OR moderated_at IS NOT NULL)),
    ADD CONSTRAINT runs_moderation_whole CHECK ((moderated_at IS NULL) = (moderation_reason IS NULL));

