package store

import "strings"

// BackupTable is a table a backup keeps row for row, as JSON objects of
// its columns in the order listed (internal/backup writes one per line).
// Everything a run's file cannot give back lives in such a table; the
// runs themselves are derived again from their files (BackupRun).
type BackupTable struct {
	// Name is the table's name, also the section's in the backup.
	Name string
	// Columns are the columns kept, space-separated, in the order they
	// are written. A restore sets only the columns a file holds, so a
	// column added here later takes its default from an older backup.
	// Rows are written ordered by every column, so none may be of type
	// json (jsonb orders).
	Columns string
	// Serial marks a serial or identity column named id whose sequence a
	// restore moves past the restored ids.
	Serial bool
	// Update marks rows the restore of the runs created already: they are
	// matched on the first column and the others set, after the runs.
	Update bool
}

// ColumnList returns the table's columns in order.
func (t BackupTable) ColumnList() []string { return strings.Fields(t.Columns) }

// BackupTables lists every table a backup keeps, in dependency order
// (a row's references come before it): a backup writes them in this
// order, a restore stores them in this order. A table added by a
// migration is one line here (or in backupLeftOut, with the reason), a
// column one word; nothing else changes. TestBackupCoversSchema fails on
// a table or column in neither.
//
// Sessions are kept (as hashes, as stored): a restore keeps everyone
// signed in where they were, which is what an operator moving the site
// expects; "sign out everywhere", a new password and a suspension still
// end them.
var BackupTables = []BackupTable{
	// The display name of every slug ever seen, first spelling first:
	// runs deleted since, or a claim's new name, leave names the runs
	// alone would not give back.
	{Name: "identities", Columns: "kind slug name"},
	// Skeletons (names.Skeleton) are kept as stored; the restore computes
	// them again (FinishRestore), so an older backup without them, or
	// one of another names.Version, restores the same.
	{Name: "orgs", Columns: "id slug name created_at skeleton", Serial: true},
	{Name: "submitters", Columns: "id handle org_id created_at email password_hash role suspended_at email_verified_at skeleton", Serial: true},
	// Sign-ins with GitHub: without them a GitHub-only account could not
	// sign in after a restore.
	{Name: "linked_identities", Columns: "provider provider_user_id submitter_id created_at"},
	// Memberships and the invitations not yet answered.
	{Name: "org_members", Columns: "org_id submitter_id role joined_at"},
	{Name: "org_invites", Columns: "org_id submitter_id invited_by created_at"},
	{Name: "tokens", Columns: "id hash prefix submitter_id created_at revoked_at last_used_at org_id", Serial: true},
	{Name: "sessions", Columns: "hash submitter_id created_at expires_at"},
	{Name: "retired_handles", Columns: "handle retired_at skeleton"},
	{Name: "deleted_runs", Columns: "id deleted_at"},
	{Name: "audit_log", Columns: "id at actor action target reason", Serial: true},
	// A run's owner (the account, kept even when its handle was taken
	// again after the account went), the organisation it was uploaded
	// for, the hash of its claim cookie, and its revision (ETags and
	// pinned image addresses name it). Its editable facts and edited_at
	// are in the run's own record. Whether it is hidden is in the record
	// too; why is here: the owner's own choice, and a moderator's hide
	// with when, by whom and why, which its owner cannot undo.
	{Name: "runs", Columns: "id submitter_id org_id claim_hash revision owner_hidden moderated_at moderated_by moderation_reason",
		Update: true},
}

// BackupTableNamed returns the table of BackupTables called name.
func BackupTableNamed(name string) (BackupTable, bool) {
	for _, t := range BackupTables {
		if t.Name == name {
			return t, true
		}
	}
	return BackupTable{}, false
}

// backupLeftOut names every table a backup does not keep, and why.
var backupLeftOut = map[string]string{
	"pending_signups": "sign-ups waiting a day at most for their mailed link, or minutes for a handle; " +
		"whoever did not finish signs up again",
	"email_confirmations": "one-time, 24-hour links mailed to confirm an address, secrets like the reset links; " +
		"the account asks for a new one from /account",
	"password_resets": "a reset link is a one-time, 24-hour secret mailed for the site as it was; " +
		"a restore comes later, and whoever still needs one asks again rather than the file keeping a door open",
	"drafts": "previews of uploads not published, deleted 24 hours after they are made and tied to one " +
		"browser's cookie; they hold whole files, which are the uploader's to send again",
	"run_sources":             "the runs/ID.source entries",
	"decode_cells":            "derived again from each run's file",
	"prefill_rows":            "derived again from each run's file",
	"run_telemetry":           "derived again from each run's file",
	"best_cells":              "derived again as each run is restored",
	"best_epoch":              "a counter of rebuilds that servers compare with itself only; any value will do",
	"version_best_cells":      "derived again as each run is restored",
	"submitter_best_cells":    "derived again as each run is restored",
	"plan_ladders":            "derived from best_cells by its triggers as each run is restored",
	"browse_groups":           "derived again as each run is restored",
	"browse_count_deltas":     "derived again as each run is restored",
	"identity_runs":           "derived again as each run is restored",
	"engine_version_runs":     "derived again as each run is restored",
	"history_cells":           "derived again as each run is restored",
	"history_versions":        "derived again as each run is restored",
	"history_setups":          "derived again as each run is restored",
	"unpowered_runs":          "derived again as each run is restored",
	"unpowered_run_deltas":    "derived again as each run is restored",
	"schema_migrations":       "the restoring binary migrates the database itself",
	"skeleton_version":        "the names.Version of the stored skeletons, which the restore computes again",
	"version_changes":         "derived again from history_cells as each run is restored",
	"version_changes_pending": "noted again as each run's history cells are restored",
	"bulk_deferred_indexes":   "indexes an interrupted bulk load has still to build, in the database it was loading",
}
