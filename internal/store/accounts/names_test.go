package accounts_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/names"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

// TestNewNamesRefusedByLook: a new handle or organisation slug that looks
// like a handle, a slug or a recently retired handle is ErrLookalike (an
// ErrExists too) at every door that makes one; the name itself keeps its
// own errors, and a name that reads differently is free.
func TestNewNamesRefusedByLook(t *testing.T) {
	s, _ := dbtest.New(t)
	ctx := context.Background()
	ids := orgAccounts(t, s, "alice", "carol")
	if err := s.CreateOrg(ctx, ids["alice"], "acme", "Acme"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteAccount(ctx, ids["carol"]); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		want error
	}{
		{"a1ice", store.ErrLookalike}, // 1 for l
		{"acrne", store.ErrLookalike}, // rn for m: over-matches, by design
		{"caro1", store.ErrLookalike}, // a retired handle's look-alike
		{"alice", store.ErrExists},    // the handle itself
		{"ACME", store.ErrExists},     // a slug, any case
		{"carol", store.ErrRetired},   // retired
		{"alicia", nil},               // reads differently
	} {
		wantErr(t, fmt.Sprintf("HandleAvailable(%q)", c.name), s.HandleAvailable(ctx, c.name), c.want)
		_, err := s.CreateAccount(ctx, c.name, "new-"+c.name+"@example.net", "h")
		wantErr(t, fmt.Sprintf("CreateAccount(%q)", c.name), err, c.want)
	}
	// "alicia" was created above; its look-alike is refused now.
	for _, slug := range []string{"a1icia", "a1ice", "acrne", "caro1"} {
		wantErr(t, fmt.Sprintf("CreateOrg(%q)", slug), s.CreateOrg(ctx, ids["alice"], slug, "X"), store.ErrLookalike)
	}
	wantErr(t, "CreateSubmitter(a1ice)", s.CreateSubmitter(ctx, "a1ice", ""), store.ErrLookalike)
	wantErr(t, "CreateSubmitter(dave, org acrne)", s.CreateSubmitter(ctx, "dave", "acrne"), store.ErrLookalike)
	wantErr(t, "CreateSubmitter(erin, org acme)", s.CreateSubmitter(ctx, "erin", "acme"), nil) // joins acme itself
}

// TestSkeletonBackfill: rows without a skeleton (those before migration
// 0027, or written by hand) get one at the next start, and every row is
// computed again when the stored skeletons are of another names.Version;
// until then the name as typed is still refused.
func TestSkeletonBackfill(t *testing.T) {
	s, url := dbtest.New(t)
	ctx := context.Background()
	storetest.MustExec(t, url,
		`INSERT INTO submitters (handle) VALUES ('Alice')`,
		`INSERT INTO orgs (slug, name) VALUES ('acme', 'Acme')`,
		`INSERT INTO retired_handles (handle) VALUES ('carol')`)
	// Not filled yet: the exact name is refused as before, look-alikes pass.
	wantErr(t, "HandleAvailable(alice) before the fill", s.HandleAvailable(ctx, "alice"), store.ErrExists)
	wantErr(t, "HandleAvailable(a1ice) before the fill", s.HandleAvailable(ctx, "a1ice"), nil)

	if err := store.Migrate(ctx, url); err != nil { // a start
		t.Fatal(err)
	}
	if n := storetest.MustQueryInt(t, url, `SELECT count(*) FROM submitters WHERE skeleton = $1`, names.Skeleton("alice")); n != 1 {
		t.Errorf("Alice's skeleton not filled at start (%d rows)", n)
	}
	for _, name := range []string{"a1ice", "acrne", "caro1"} {
		wantErr(t, fmt.Sprintf("HandleAvailable(%q) after the fill", name), s.HandleAvailable(ctx, name), store.ErrLookalike)
	}

	// Another version: every row is computed again, not only empty ones.
	storetest.MustExec(t, url, `UPDATE submitters SET skeleton = 'stale'`, `UPDATE skeleton_version SET version = 'older'`)
	if err := store.Migrate(ctx, url); err != nil {
		t.Fatal(err)
	}
	if n := storetest.MustQueryInt(t, url, `SELECT count(*) FROM submitters WHERE skeleton = 'stale'`); n != 0 {
		t.Error("a skeleton of another names.Version was kept")
	}
	if n := storetest.MustQueryInt(t, url, `SELECT count(*) FROM skeleton_version WHERE version = $1`, names.Version); n != 1 {
		t.Error("the version of the skeletons was not recorded")
	}
	// The same version: a start leaves the rows alone (cheap).
	storetest.MustExec(t, url, `UPDATE orgs SET skeleton = 'kept'`)
	if err := store.Migrate(ctx, url); err != nil {
		t.Fatal(err)
	}
	if n := storetest.MustQueryInt(t, url, `SELECT count(*) FROM orgs WHERE skeleton = 'kept'`); n != 1 {
		t.Error("a start with current skeletons computed them again")
	}
}

// TestLookalikesKeptAndListed: names that looked alike before they were
// compared by skeleton stay as they are (nothing renames them) and the
// operator's list shows them, grouped; names apart are not listed.
func TestLookalikesKeptAndListed(t *testing.T) {
	s, url := dbtest.New(t)
	ctx := context.Background()
	// As an older build could store them: the store itself now refuses.
	storetest.MustExec(t, url,
		`INSERT INTO submitters (handle) VALUES ('alice'), ('а'||'lice'), ('bob'), ('rnallory'), ('zed')`,
		`INSERT INTO orgs (slug, name) VALUES ('mallory', 'M'), ('b0b', 'B')`,
		`INSERT INTO retired_handles (handle) VALUES ('al'||chr(8203)||'ice')`)
	if err := store.Migrate(ctx, url); err != nil {
		t.Fatal(err)
	}
	groups, err := s.Lookalikes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, g := range groups {
		var line []string
		for _, n := range g {
			line = append(line, n.Kind+":"+n.Name)
		}
		got = append(got, fmt.Sprint(line))
	}
	want := []string{
		"[handle:alice handle:аlice retired:al\u200bice]",
		"[handle:bob org:b0b]",
		"[handle:rnallory org:mallory]",
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("Lookalikes = %q, want %q", got, want)
	}
	if n := storetest.MustQueryInt(t, url, `SELECT count(*) FROM submitters WHERE handle IN ('alice', 'а'||'lice', 'rnallory')`); n != 3 {
		t.Errorf("%d of the 3 look-alike handles are left as they were", n)
	}
}
