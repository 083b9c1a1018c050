package accounts_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	rules "github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

// TestAccounts covers submitters, tokens, ownership and hiding in the store.
func TestAccounts(t *testing.T) {
	s, url := dbtest.New(t)
	tok := accountsTokens(t, s, url)
	anonID := accountsOwnership(t, s, url)
	accountsHiding(t, s, url, anonID)
	accountsRevoking(t, s, tok)
}

// accountsTokens creates two submitters of one org and a token, and
// returns the token.
func accountsTokens(t *testing.T, s *store.Store, url string) rules.Token {
	t.Helper()
	ctx := context.Background()
	if err := s.CreateSubmitter(ctx, "Sandberg", "lil-lab"); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateSubmitter(ctx, "sandberg", ""); !errors.Is(err, store.ErrExists) {
		t.Errorf("a handle differing only in case = %v, want ErrExists", err)
	}
	if err := s.CreateSubmitter(ctx, "other", "lil-lab"); err != nil {
		t.Fatal(err)
	}
	// Handles and organisation slugs are one set of names.
	if err := s.CreateSubmitter(ctx, "Lil-Lab", ""); !errors.Is(err, store.ErrExists) {
		t.Errorf("a handle that is an organisation's slug = %v, want ErrExists", err)
	}
	if err := s.CreateSubmitter(ctx, "third", "SANDBERG"); !errors.Is(err, store.ErrSlugIsHandle) {
		t.Errorf("a new organisation named by a handle = %v, want ErrSlugIsHandle", err)
	}
	if err := s.CreateSubmitter(ctx, "third", ""); err != nil {
		t.Errorf("the refused submitter was stored, or half of it: %v", err)
	}
	tok, _ := rules.NewToken()
	if err := s.CreateToken(ctx, "nobody", tok.Hash, tok.Prefix); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("token of an unknown handle = %v, want ErrNotFound", err)
	}
	if err := s.CreateToken(ctx, "SANDBERG", tok.Hash, tok.Prefix); err != nil {
		t.Fatal(err)
	}
	if h, err := s.TokenSubmitter(ctx, tok.Hash); h != "Sandberg" || err != nil {
		t.Errorf("TokenSubmitter = %q, %v", h, err)
	}
	if n := storetest.MustQueryInt(t, url, `SELECT count(*) FROM tokens WHERE last_used_at IS NOT NULL`); n != 1 {
		t.Errorf("last_used_at not noted")
	}
	if _, err := s.TokenSubmitter(ctx, rules.Hash("lilb_unknown")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown token = %v", err)
	}
	return tok
}

// accountsOwnership: who may delete which run, and what deleting and
// hiding do to best cells. It returns the id of an anonymous run, left
// visible.
func accountsOwnership(t *testing.T, s *store.Store, url string) (anonID string) {
	t.Helper()
	ctx := context.Background()
	// A verified run belongs to its submitter; an unverified one to nobody.
	owned := storetest.FullRun()
	owned.Submitter, owned.Profile = "Sandberg", "standard"
	ownedID := storetest.MustInsertRun(t, s, owned, "owned")
	// A name typed without a token may not be an account's handle.
	claim := storetest.FullRun()
	claim.Submitter, claim.SubmitterVerified = "SANDBERG", false
	if _, _, err := s.InsertRun(ctx, claim, "claim", []byte("{}")); err == nil {
		t.Error("an unverified run naming the account Sandberg was stored")
	} else if pe, ok := problem.As(err); !ok || pe.Problems[0].Path != "submitter" {
		t.Errorf("claiming an account's handle = %v, want a refusal naming the submitter field", err)
	}
	anon := storetest.FullRun()
	anon.Submitter, anon.SubmitterVerified = "a-passer-by", false
	anonID = storetest.MustInsertRun(t, s, anon, "anon")
	// Quick runs never rank; standard ones do until they leave.
	bests := func(id string) int64 {
		return storetest.MustQueryInt(t, url, `SELECT count(*) FROM best_cells WHERE run_id = $1`, id)
	}
	if bests(anonID) != 0 || bests(ownedID) == 0 {
		t.Errorf("best cells: quick run %d (want 0), standard run %d (want some)", bests(anonID), bests(ownedID))
	}
	if err := s.DeleteOwnedRun(ctx, anonID, "Sandberg"); !errors.Is(err, store.ErrNotOwner) {
		t.Errorf("deleting an anonymous run = %v, want ErrNotOwner", err)
	}
	if err := s.DeleteOwnedRun(ctx, ownedID, "other"); !errors.Is(err, store.ErrNotOwner) {
		t.Errorf("deleting another's run = %v, want ErrNotOwner", err)
	}
	org, err := s.GetOrg(ctx, "lil-lab")
	if err != nil {
		t.Fatal(err)
	}
	// The operator's placements are memberships, the first placed the
	// owner; a run a member uploaded for themselves is not the org's.
	want := []store.OrgMember{{Handle: "Sandberg", Role: store.RoleOwner}, {Handle: "other", Role: store.RoleMember}}
	if !slices.Equal(org.Members, want) || len(org.Runs) != 0 {
		t.Errorf("org = %+v, want %v and no runs", org, want)
	}
	standard := storetest.FullRun()
	standard.Profile, standard.UploadedAt = "standard", standard.UploadedAt.Add(time.Hour)
	standardID := storetest.MustInsertRun(t, s, standard, "standard")
	if err := s.DeleteOwnedRun(ctx, ownedID, "Sandberg"); err != nil {
		t.Fatal(err)
	}
	if bests(standardID) == 0 {
		t.Error("after the owner deleted the best run, its group's bests were not rebuilt from the next run")
	}
	if err := s.HideRun(ctx, standardID); err != nil || bests(standardID) != 0 {
		t.Errorf("hidden run keeps %d best cells (err %v)", bests(standardID), err)
	}
	if _, err := s.GetRun(ctx, ownedID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("deleted run still loads: %v", err)
	}
	return anonID
}

// accountsHiding: hidden runs are kept but answer not found and leave lists.
func accountsHiding(t *testing.T, s *store.Store, url, anonID string) {
	t.Helper()
	ctx := context.Background()
	if err := s.HideRun(ctx, anonID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetRun(ctx, anonID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("hidden run loads: %v", err)
	}
	if list, _ := s.ListRecent(ctx, 10); len(list) != 0 {
		t.Errorf("hidden run listed: %v", list)
	}
	if n := storetest.MustQueryInt(t, url, `SELECT count(*) FROM runs WHERE id = $1`, anonID); n != 1 {
		t.Error("hidden run was deleted")
	}
	if _, err := s.GetOrg(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown org = %v", err)
	}
}

// accountsRevoking: revoking by prefix, then the token is refused as revoked.
func accountsRevoking(t *testing.T, s *store.Store, tok rules.Token) {
	t.Helper()
	ctx := context.Background()
	if h, err := s.RevokeToken(ctx, nil, tok.Prefix); h != "Sandberg" || err != nil {
		t.Fatalf("RevokeToken by prefix = %q, %v", h, err)
	}
	if _, err := s.TokenSubmitter(ctx, tok.Hash); !errors.Is(err, store.ErrRevoked) {
		t.Errorf("revoked token = %v, want ErrRevoked", err)
	}
	if _, err := s.RevokeToken(ctx, nil, "lilb_zzzzzz"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown prefix = %v", err)
	}
}
