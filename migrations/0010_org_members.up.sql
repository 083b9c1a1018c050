-- Organisations people make and run themselves. An account may belong to
-- several organisations (org_members replaces submitters.org_id, which is
-- kept only so older backups still restore); an owner invites by handle,
-- and an invitation (org_invites) is never a membership until its invitee
-- accepts it.
ALTER TABLE orgs ADD COLUMN created_at timestamptz NOT NULL DEFAULT now();
-- Slugs are unique whatever their case, as handles are.
CREATE UNIQUE INDEX orgs_slug_lower_idx ON orgs (lower(slug));

CREATE TABLE org_members (
    org_id       bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    submitter_id bigint NOT NULL REFERENCES submitters (id) ON DELETE CASCADE,
    role         text NOT NULL CHECK (role IN ('owner', 'member')),
    joined_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (org_id, submitter_id)
);
CREATE INDEX org_members_submitter_idx ON org_members (submitter_id);

CREATE TABLE org_invites (
    org_id       bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    submitter_id bigint NOT NULL REFERENCES submitters (id) ON DELETE CASCADE,
    invited_by   bigint REFERENCES submitters (id) ON DELETE SET NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (org_id, submitter_id)
);
CREATE INDEX org_invites_submitter_idx ON org_invites (submitter_id);

-- The operator's one-org-per-submitter placements become memberships: the
-- first submitter placed in each organisation owns it, so every
-- organisation has an owner.
INSERT INTO org_members (org_id, submitter_id, role, joined_at)
SELECT org_id, id,
    CASE WHEN id = min(id) OVER (PARTITION BY org_id) THEN 'owner' ELSE 'member' END,
    created_at
FROM submitters WHERE org_id IS NOT NULL;

-- A token made for an organisation uploads the runs as that organisation's
-- while its submitter is a member.
ALTER TABLE tokens ADD COLUMN org_id bigint REFERENCES orgs (id) ON DELETE CASCADE;

-- The organisation a run was uploaded for. Runs of submitters the operator
-- had placed in an organisation were listed as its runs, and stay so.
ALTER TABLE runs ADD COLUMN org_id bigint REFERENCES orgs (id) ON DELETE SET NULL;
UPDATE runs r SET org_id = s.org_id
FROM submitters s WHERE s.id = r.submitter_id AND s.org_id IS NOT NULL AND r.submitter_verified;
CREATE INDEX runs_org_idx ON runs (org_id, uploaded_at DESC) WHERE org_id IS NOT NULL;

-- The organisation a draft will be published for ('' for the uploader).
ALTER TABLE drafts ADD COLUMN org text NOT NULL DEFAULT '';
