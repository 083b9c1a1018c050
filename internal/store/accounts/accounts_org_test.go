package accounts_test

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"

	rules "github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

// orgAccounts signs up the accounts of the organisation tests by handle.
func orgAccounts(t *testing.T, s *store.Store, handles ...string) map[string]int64 {
	t.Helper()
	ids := map[string]int64{}
	for _, h := range handles {
		id, err := s.CreateAccount(context.Background(), h, h+"@example.org", "$argon2id$not-a-real-hash")
		if err != nil {
			t.Fatal(err)
		}
		ids[h] = id
	}
	return ids
}

// wantErr fails unless err is want (nil for none).
func wantErr(t *testing.T, what string, err, want error) {
	t.Helper()
	if want == nil && err != nil || want != nil && !errors.Is(err, want) {
		t.Errorf("%s = %v, want %v", what, err, want)
	}
}

// members is the organisation's members as "handle:role".
func members(t *testing.T, s *store.Store, slug string) []string {
	t.Helper()
	o, err := s.GetOrg(context.Background(), slug)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range o.Members {
		out = append(out, m.Handle+":"+m.Role)
	}
	return out
}

// TestOrgCreate: slugs are unique in any case, and never an account's.
func TestOrgCreate(t *testing.T) {
	s, _ := dbtest.New(t)
	ctx := context.Background()
	id := orgAccounts(t, s, "alice", "bob")
	wantErr(t, "alice creates acme", s.CreateOrg(ctx, id["alice"], "acme", "Acme Labs"), nil)
	wantErr(t, "bob creates ACME", s.CreateOrg(ctx, id["bob"], "ACME", "Other"), store.ErrExists)
	wantErr(t, "an org named like the handle Bob", s.CreateOrg(ctx, id["bob"], "Bob", "Bob's"), store.ErrExists)
	_, err := s.CreateAccount(ctx, "Acme", "acme@example.org", "$argon2id$not-a-real-hash")
	wantErr(t, "an account named like the org acme", err, store.ErrExists)
	wantErr(t, "the org's slug offered as a handle", s.HandleAvailable(ctx, "ACME"), store.ErrExists)
	if got := members(t, s, "ACME"); !slices.Equal(got, []string{"alice:owner"}) {
		t.Errorf("members = %v, want the creator as owner", got)
	}
	o, err := s.GetOrg(ctx, "Acme")
	if err != nil || o.Slug != "acme" || o.Name != "Acme Labs" {
		t.Errorf("GetOrg in another case = %+v, %v", o, err)
	}
}

// TestOrgMembership: invitations, answers, roles, leaving, and the owner
// an organisation always keeps; every membership change renews the pages.
func TestOrgMembership(t *testing.T) {
	s, _ := dbtest.New(t)
	ctx := context.Background()
	id := orgAccounts(t, s, "alice", "bob", "carol")
	var changes atomic.Int64
	s.OnChange(func(c store.Change) {
		if c.Site {
			changes.Add(1)
		}
	})
	wantErr(t, "create", s.CreateOrg(ctx, id["alice"], "acme", "Acme Labs"), nil)
	wantErr(t, "a non-member invites", s.InviteMember(ctx, id["bob"], "acme", "carol"), store.ErrNotMember)
	wantErr(t, "an unknown handle invited", s.InviteMember(ctx, id["alice"], "acme", "nobody"), store.ErrNotFound)
	wantErr(t, "invite bob", s.InviteMember(ctx, id["alice"], "acme", "Bob"), nil)
	wantErr(t, "invite bob twice", s.InviteMember(ctx, id["alice"], "acme", "bob"), store.ErrExists)
	if o, _ := s.GetOrg(ctx, "acme"); !slices.Equal(o.Invited, []string{"bob"}) || o.Role("bob") != "" {
		t.Errorf("after the invitation: members %v, invited %v; bob must be invited, not a member", o.Members, o.Invited)
	}
	if _, inv, err := s.AccountOrgs(ctx, id["bob"]); err != nil || len(inv) != 1 || inv[0].InvitedBy != "alice" {
		t.Errorf("bob's invitations = %+v, %v", inv, err)
	}
	wantErr(t, "an invitee acting as a member", s.RemoveMember(ctx, id["bob"], "acme", "bob"), store.ErrNotMember)

	// Withdrawn by an owner, an invitation is gone before it is answered.
	wantErr(t, "invite carol", s.InviteMember(ctx, id["alice"], "acme", "carol"), nil)
	wantErr(t, "the invitee withdraws", s.WithdrawInvite(ctx, id["carol"], "acme", "carol"), store.ErrNotMember)
	wantErr(t, "withdraw an unknown handle", s.WithdrawInvite(ctx, id["alice"], "acme", "nobody"), store.ErrNotFound)
	wantErr(t, "withdraw carol's", s.WithdrawInvite(ctx, id["alice"], "acme", "Carol"), nil)
	wantErr(t, "withdraw carol's again", s.WithdrawInvite(ctx, id["alice"], "acme", "carol"), store.ErrNotInvited)
	wantErr(t, "carol accepts the withdrawn", s.AnswerInvite(ctx, id["carol"], "acme", true), store.ErrNotFound)
	if o, _ := s.GetOrg(ctx, "acme"); !slices.Equal(o.Invited, []string{"bob"}) || o.Role("carol") != "" {
		t.Errorf("after withdrawing carol's: invited %v, carol's role %q", o.Invited, o.Role("carol"))
	}

	// Declined, an invitation is gone and was never a membership.
	wantErr(t, "bob declines", s.AnswerInvite(ctx, id["bob"], "acme", false), nil)
	wantErr(t, "bob answers again", s.AnswerInvite(ctx, id["bob"], "acme", true), store.ErrNotFound)
	if got := members(t, s, "acme"); !slices.Equal(got, []string{"alice:owner"}) {
		t.Errorf("after declining: %v", got)
	}
	if m, inv, _ := s.AccountOrgs(ctx, id["bob"]); len(m)+len(inv) != 0 {
		t.Errorf("bob after declining: member of %v, invited to %v", m, inv)
	}

	wantErr(t, "invite bob again", s.InviteMember(ctx, id["alice"], "acme", "bob"), nil)
	before := changes.Load()
	wantErr(t, "bob accepts", s.AnswerInvite(ctx, id["bob"], "acme", true), nil)
	if changes.Load() == before {
		t.Error("accepting an invitation announced no change: the cached org page would stay stale")
	}
	if got := members(t, s, "acme"); !slices.Equal(got, []string{"alice:owner", "bob:member"}) {
		t.Errorf("after accepting: %v", got)
	}
	wantErr(t, "a member invites", s.InviteMember(ctx, id["bob"], "acme", "carol"), store.ErrNotOrgOwner)
	wantErr(t, "a member removes the owner", s.RemoveMember(ctx, id["bob"], "acme", "alice"), store.ErrNotOrgOwner)
	wantErr(t, "a member makes themselves owner", s.MakeOwner(ctx, id["bob"], "acme", "bob"), store.ErrNotOrgOwner)
	wantErr(t, "the last owner leaves", s.RemoveMember(ctx, id["alice"], "acme", "alice"), store.ErrLastOwner)
	wantErr(t, "making a non-member owner", s.MakeOwner(ctx, id["alice"], "acme", "carol"), store.ErrNotMember)

	wantErr(t, "alice makes bob owner", s.MakeOwner(ctx, id["alice"], "acme", "bob"), nil)
	wantErr(t, "alice leaves", s.RemoveMember(ctx, id["alice"], "acme", "alice"), nil)
	wantErr(t, "bob, now the last owner, leaves", s.RemoveMember(ctx, id["bob"], "acme", "bob"), store.ErrLastOwner)
	if got := members(t, s, "acme"); !slices.Equal(got, []string{"bob:owner"}) {
		t.Errorf("after alice left: %v", got)
	}
	// A member may leave; an owner may remove a member.
	for _, by := range []string{"carol", "bob"} {
		wantErr(t, "invite carol", s.InviteMember(ctx, id["bob"], "acme", "carol"), nil)
		wantErr(t, "carol accepts", s.AnswerInvite(ctx, id["carol"], "acme", true), nil)
		wantErr(t, by+" removes carol", s.RemoveMember(ctx, id[by], "acme", "carol"), nil)
		if got := members(t, s, "acme"); !slices.Equal(got, []string{"bob:owner"}) {
			t.Errorf("after %s removed carol: %v", by, got)
		}
	}
}

// TestOrgUploads: only a member's verified upload is an organisation's,
// by the upload itself (the form's door) and by an organisation's token,
// which stops working when its submitter leaves.
func TestOrgUploads(t *testing.T) {
	s, _ := dbtest.New(t)
	ctx := context.Background()
	id := orgAccounts(t, s, "alice", "bob", "carol")
	wantErr(t, "create", s.CreateOrg(ctx, id["alice"], "acme", "Acme Labs"), nil)
	wantErr(t, "invite bob", s.InviteMember(ctx, id["alice"], "acme", "bob"), nil)

	forOrg := func(handle string, verified bool) *run.Run {
		r := storetest.FullRun()
		r.Submitter, r.SubmitterVerified, r.Org = handle, verified, run.Org{Slug: "ACME"}
		return r
	}
	_, _, err := s.InsertRun(ctx, forOrg("bob", true), "invited", []byte("{}"))
	wantErr(t, "an invitee's upload for the org", err, store.ErrNotMember)
	_, _, err = s.InsertRun(ctx, forOrg("carol", true), "stranger", []byte("{}"))
	wantErr(t, "a non-member's upload for the org", err, store.ErrNotMember)
	_, _, err = s.InsertRun(ctx, forOrg("a-passer-by", false), "claimed", []byte("{}"))
	wantErr(t, "a claimed name's upload for the org", err, store.ErrNotMember)

	wantErr(t, "bob accepts", s.AnswerInvite(ctx, id["bob"], "acme", true), nil)
	runID := storetest.MustInsertRun(t, s, forOrg("bob", true), "member")
	got, err := s.GetRun(ctx, runID)
	if err != nil || got.Org != (run.Org{Slug: "acme", Name: "Acme Labs"}) {
		t.Errorf("the member's run: org %+v, %v", got.Org, err)
	}
	o, _ := s.GetOrg(ctx, "acme")
	if len(o.Runs) != 1 || o.Runs[0].ID != runID {
		t.Errorf("org runs = %+v, want the member's run", o.Runs)
	}
	mine := storetest.MustInsertRun(t, s, storetest.FullRun(), "own")
	if got, _ := s.GetRun(ctx, mine); got.Org != (run.Org{}) {
		t.Errorf("a run uploaded for oneself has org %+v", got.Org)
	}

	// Tokens: only a member may make one, and it names the org.
	tok, _ := rules.NewToken()
	wantErr(t, "a non-member's org token", s.CreateOrgToken(ctx, id["carol"], "acme", tok.Hash, tok.Prefix), store.ErrNotMember)
	wantErr(t, "bob's org token", s.CreateOrgToken(ctx, id["bob"], "acme", tok.Hash, tok.Prefix), nil)
	if h, org, err := s.TokenUploader(ctx, tok.Hash); h != "bob" || org != "acme" || err != nil {
		t.Errorf("TokenUploader = %q, %q, %v", h, org, err)
	}
	if list, _ := s.ListTokens(ctx, id["bob"]); len(list) != 1 || list[0].Org != "acme" {
		t.Errorf("bob's tokens = %+v", list)
	}
	wantErr(t, "bob leaves", s.RemoveMember(ctx, id["bob"], "acme", "bob"), nil)
	if _, _, err := s.TokenUploader(ctx, tok.Hash); !errors.Is(err, store.ErrRevoked) {
		t.Errorf("an org token after its submitter left = %v, want ErrRevoked", err)
	}
	// Even re-admitted, the old token stays revoked.
	wantErr(t, "invite bob again", s.InviteMember(ctx, id["alice"], "acme", "bob"), nil)
	wantErr(t, "bob accepts again", s.AnswerInvite(ctx, id["bob"], "acme", true), nil)
	if _, _, err := s.TokenUploader(ctx, tok.Hash); !errors.Is(err, store.ErrRevoked) {
		t.Errorf("an org token after leaving and rejoining = %v, want ErrRevoked", err)
	}
	// The runs uploaded for the org stay its runs.
	if o, _ := s.GetOrg(ctx, "acme"); len(o.Runs) != 1 {
		t.Errorf("org runs after bob left and came back = %d, want 1", len(o.Runs))
	}
}
