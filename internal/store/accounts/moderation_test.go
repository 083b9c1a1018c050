package accounts_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/golang-migrate/migrate/v4"
	"github.com/golang-migrate/migrate/v4/source/iofs"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
	"github.com/speedmatrix/speedmatrix/migrations"
)

// TestModerationOwnerCannotShow: the owner's show leaves a run a
// moderator hid hidden (out of the counts and bests), the database
// refuses to make it visible behind the store's back, deriving it again
// does not show it, and the admin's lift returns it to its owner's own
// choice: public when they had not hidden it, hidden when they had.
func TestModerationOwnerCannotShow(t *testing.T) {
	s, url := dbtest.New(t)
	ctx := context.Background()
	owner, err := s.CreateAccount(ctx, "Sandberg", "sandberg@example.com", "x")
	if err != nil {
		t.Fatal(err)
	}
	mod, err := s.CreateAccount(ctx, "mod", "mod@example.com", "x")
	if err != nil {
		t.Fatal(err)
	}
	r := storetest.FullRun()
	r.Submitter, r.Profile = "Sandberg", "standard"
	id := storetest.MustInsertRun(t, s, r, "spam")
	bests := func() int64 {
		return storetest.MustQueryInt(t, url, `SELECT count(*) FROM best_cells WHERE run_id = $1`, id)
	}
	// The browse counts: folded, and appended but not folded yet.
	counted := func() int64 {
		return storetest.MustQueryInt(t, url, `SELECT (SELECT coalesce(sum(runs), 0) FROM browse_groups)
    + (SELECT coalesce(sum(runs), 0) FROM browse_count_deltas)`)
	}
	visible := func() bool {
		t.Helper()
		_, err := s.GetRun(ctx, id)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			t.Fatal(err)
		}
		return err == nil
	}
	if bests() == 0 || counted() != 1 || !visible() {
		t.Fatalf("before: %d bests, %d counted, visible %v; the fixture should rank", bests(), counted(), visible())
	}

	if err := s.ModerateHideRun(ctx, id, "mod", "spam"); err != nil {
		t.Fatal(err)
	}
	if n := storetest.MustQueryInt(t, url, `SELECT count(*) FROM runs WHERE id = $1 AND moderated_at IS NOT NULL
    AND moderated_by = $2 AND moderation_reason = 'spam' AND NOT owner_hidden`, id, mod); n != 1 {
		t.Error("the moderation does not record when, who and why, or took the owner's choice")
	}
	if err := s.SetOwnRunHidden(ctx, id, owner, false); !errors.Is(err, store.ErrModerated) {
		t.Errorf("the owner's show of a moderated run = %v, want ErrModerated", err)
	}
	if visible() || bests() != 0 || counted() != 0 {
		t.Errorf("after the owner's show: visible %v, %d bests, %d counted; want hidden, 0, 0", visible(), bests(), counted())
	}
	// The database holds the rule too: hidden is the owner's choice or a
	// moderator's, so no statement of the owner's can clear it.
	conn := storetest.RawConn(t, url)
	if _, err := conn.Exec(ctx, `UPDATE runs SET hidden = false, owner_hidden = false WHERE id = $1`, id); err == nil ||
		!strings.Contains(err.Error(), "runs_hidden_why") {
		t.Errorf("showing a moderated run in SQL = %v, want the runs_hidden_why check to refuse", err)
	}
	if err := s.ReplaceDerived(ctx, id, r); err != nil {
		t.Fatal(err)
	}
	if visible() || bests() != 0 {
		t.Error("deriving the moderated run again showed it")
	}
	if err := s.LiftModeration(ctx, id, "Sandberg", "x"); err != nil {
		t.Fatal(err) // the store trusts its caller; the web checks the admin
	}
	if !visible() || bests() == 0 || counted() != 1 {
		t.Errorf("after the lift: visible %v, %d bests, %d counted; want public and ranked", visible(), bests(), counted())
	}
	if err := s.LiftModeration(ctx, id, "mod", "again"); !errors.Is(err, store.ErrNotModerated) {
		t.Errorf("lifting twice = %v, want ErrNotModerated", err)
	}
	if err := s.LiftModeration(ctx, "nosuchrun", "mod", "x"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("lifting a missing run = %v, want ErrNotFound", err)
	}

	// Hidden by its owner first: the lift keeps the owner's choice, and
	// the owner shows it when they like.
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.SetOwnRunHidden(ctx, id, owner, true))
	must(s.ModerateHideRun(ctx, id, "mod", "spam again"))
	must(s.LiftModeration(ctx, id, "mod", "appeal"))
	if visible() || bests() != 0 || counted() != 0 {
		t.Error("the lift showed a run its owner had hidden")
	}
	must(s.SetOwnRunHidden(ctx, id, owner, false))
	if !visible() || bests() == 0 || counted() != 1 {
		t.Error("the owner cannot show their run once the moderation is lifted")
	}
	// An owner who hides a moderated run keeps it hidden after the lift.
	must(s.ModerateHideRun(ctx, id, "mod", "third time"))
	must(s.SetOwnRunHidden(ctx, id, owner, true))
	must(s.LiftModeration(ctx, id, "mod", "appeal"))
	if visible() {
		t.Error("the lift showed a run its owner hid while it was moderated")
	}
	log, err := s.AuditLog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var acts []string
	for _, e := range log {
		acts = append(acts, e.Action+" "+e.Actor+" "+e.Reason)
	}
	if got := strings.Join(acts, ", "); got != "unhide_run mod appeal, hide_run mod third time, unhide_run mod appeal, "+
		"hide_run mod spam again, unhide_run Sandberg x, hide_run mod spam" {
		t.Errorf("audit log = %s", got)
	}
}

// TestModerationMigration: a run hidden before moderation was its own
// state is moderated when the audit log's last word on it is a
// moderator's hide, by whom and why it says; a run hidden by its owner,
// or hidden again by its owner after a moderator's lift, stays the
// owner's to show.
func TestModerationMigration(t *testing.T) {
	s, url := dbtest.New(t)
	ctx := context.Background()
	owner, err := s.CreateAccount(ctx, "Sandberg", "sandberg@example.com", "x")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateAccount(ctx, "mod", "mod@example.com", "x"); err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	for i, name := range []string{"moderated", "owners", "lifted"} {
		r := storetest.FullRun()
		r.Submitter, r.UploadedAt = "Sandberg", r.UploadedAt.Add(-time.Duration(i)*time.Hour)
		ids[name] = storetest.MustInsertRun(t, s, r, name)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.ModerateHideRun(ctx, ids["moderated"], "mod", "spam"))
	must(s.SetOwnRunHidden(ctx, ids["owners"], owner, true))
	must(s.ModerateHideRun(ctx, ids["lifted"], "mod", "spam"))
	must(s.LiftModeration(ctx, ids["lifted"], "mod", "appeal"))
	must(s.SetOwnRunHidden(ctx, ids["lifted"], owner, true))

	src, err := iofs.New(migrations.FS, ".")
	must(err)
	m, err := migrate.NewWithSourceInstance("iofs", src, "pgx5"+strings.TrimPrefix(url, "postgres"))
	must(err)
	defer m.Close()
	must(m.Migrate(24)) // before the moderation columns
	must(store.Migrate(ctx, url))

	if err := s.SetOwnRunHidden(ctx, ids["moderated"], owner, false); !errors.Is(err, store.ErrModerated) {
		t.Errorf("after the migration, the owner's show of the run a moderator hid = %v, want ErrModerated", err)
	}
	if n := storetest.MustQueryInt(t, url, `SELECT count(*) FROM runs r JOIN submitters s ON s.id = r.moderated_by
WHERE r.id = $1 AND s.handle = 'mod' AND r.moderation_reason = 'spam' AND r.hidden`, ids["moderated"]); n != 1 {
		t.Error("the migration did not record who hid the run and why")
	}
	for _, name := range []string{"owners", "lifted"} {
		if err := s.SetOwnRunHidden(ctx, ids[name], owner, false); err != nil {
			t.Errorf("after the migration, the owner's show of the %s run = %v", name, err)
		}
	}
}
