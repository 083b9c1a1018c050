package backup_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// people are the browser accounts of the round trip and the clear
// secrets they were made with, which the backup must never hold.
type people struct {
	passwords  map[string]string // by e-mail address
	sessions   map[string]string // session secret by handle
	bobToken   string
	reset      string // bob's password reset secret: left out of backups
	claim      string // the claim cookie of an anonymous run not yet claimed
	ids        map[string]int64
	runs       []string // every run uploaded here, the deleted one included
	edited     string   // bob's run, edited
	deleted    string   // bob's run, deleted (410)
	unclaimed  string   // an anonymous run with a live claim
	moderated  string   // hidden by an admin with a reason
	ownsHidden string   // bob's run, hidden by bob, then by a moderator
}

func (p *people) secrets() []string {
	s := []string{p.bobToken, p.reset, p.claim}
	for _, v := range p.passwords {
		s = append(s, v)
	}
	for _, v := range p.sessions {
		s = append(s, v)
	}
	return s
}

// fillPeople signs up alice (made an admin), bob (a token, runs he
// edited, hid (one hidden by alice too), deleted and claimed, a password reset), carol (suspended by
// alice), dave (deleted: his handle retired), each but dave signed in,
// all through the store's own methods.
func fillPeople(t *testing.T, ctx context.Context, st *store.Store) *people {
	t.Helper()
	p := &people{passwords: map[string]string{}, sessions: map[string]string{}, ids: map[string]int64{}}
	for _, h := range []string{"alice", "bob", "carol", "dave"} {
		email, pw := h+"@example.org", secret(t)
		hash, err := accounts.HashPassword(ctx, pw)
		must(t, err)
		p.ids[h], err = st.CreateAccount(ctx, h, email, hash)
		must(t, err)
		p.passwords[email] = pw
		if h != "dave" {
			p.sessions[h] = secret(t)
			must(t, st.CreateSession(ctx, p.ids[h], accounts.Hash(p.sessions[h]), time.Now().Add(30*24*time.Hour)))
		}
	}
	must(t, st.GrantAdmin(ctx, "alice", "operator"))
	must(t, st.SuspendAccount(ctx, "carol", "alice", "posts other people's runs as hers"))
	must(t, st.DeleteAccount(ctx, p.ids["dave"]))
	tok, err := accounts.NewToken()
	must(t, err)
	must(t, st.CreateToken(ctx, "bob", tok.Hash, tok.Prefix))
	p.bobToken, p.reset = tok.Secret, secret(t)
	must(t, st.CreateReset(ctx, "bob", accounts.Hash(p.reset), time.Now().Add(24*time.Hour)))

	bob := p.ids["bob"]
	p.edited = upload(t, ctx, st, p, "llama_bench.jsonl", "bob")
	must(t, st.EditOwnRun(ctx, p.edited, bob, run.MetaEdit{OS: "Debian 13", Driver: "575.51", Backend: "CUDA 12.9",
		Build: "b5890", LaunchCommand: "llama-bench -m q4.gguf", ServedModel: "q4", Revision: "main"}))
	p.deleted = upload(t, ctx, st, p, "guidellm_report_legacy_v0.3.json", "bob")
	must(t, st.DeleteOwnRun(ctx, p.deleted, bob))
	p.ownsHidden = upload(t, ctx, st, p, "guidellm_report.json", "bob")
	must(t, st.SetOwnRunHidden(ctx, p.ownsHidden, bob, true))
	must(t, st.ModerateHideRun(ctx, p.ownsHidden, "alice", "someone else's numbers"))
	claimed := upload(t, ctx, st, p, "llmperf_summary.json", "")
	must(t, st.SetClaim(ctx, claimed, accounts.Hash("claimed-cookie")))
	must(t, st.ClaimRun(ctx, claimed, bob, accounts.Hash("claimed-cookie")))
	p.unclaimed, p.claim = upload(t, ctx, st, p, "aiperf_profile_export_aiperf.json", ""), secret(t)
	must(t, st.SetClaim(ctx, p.unclaimed, accounts.Hash(p.claim)))
	p.moderated = upload(t, ctx, st, p, "aiperf_profile_export_aiperf_records_variant.json", "")
	must(t, st.ModerateHideRun(ctx, p.moderated, "alice", "numbers above what the card can do"))
	return p
}

// check compares what each person can do on the two sites, then uses the
// restored one: signing in, sessions, roles, tokens, the retired handle,
// the pending claim.
func (p *people) check(t *testing.T, ctx context.Context, src, dst *store.Store) {
	t.Helper()
	for email, pw := range p.passwords {
		a, err := dst.AccountByEmail(ctx, email)
		if email == "dave@example.org" {
			if !errors.Is(err, store.ErrNotFound) {
				t.Errorf("the deleted account is back: %v", err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s after the restore: %v", email, err)
		}
		if ok, err := accounts.CheckPassword(ctx, a.PasswordHash, pw); !ok || err != nil {
			t.Errorf("%s cannot sign in with the same password after the restore (%v)", email, err)
		}
		if want := email == "alice@example.org"; a.Admin() != want {
			t.Errorf("%s: admin %v after the restore, want %v", email, a.Admin(), want)
		}
		if want := email == "carol@example.org"; a.Suspended != want {
			t.Errorf("%s: suspended %v after the restore, want %v", email, a.Suspended, want)
		}
	}
	for h, s := range p.sessions {
		a, err := dst.SessionAccount(ctx, accounts.Hash(s))
		switch {
		case h == "carol" && !errors.Is(err, store.ErrNotFound):
			t.Errorf("the suspended account's session works after the restore: %v", err)
		case h != "carol" && (err != nil || a.Handle != h):
			t.Errorf("%s's session after the restore: %+v, %v", h, a, err)
		}
	}
	if h, err := dst.TokenSubmitter(ctx, accounts.Hash(p.bobToken)); err != nil || h != "bob" {
		t.Errorf("bob's token after the restore names %q, %v", h, err)
	}
	want, got := sameOn(t, ctx, src, dst, func(s *store.Store) (any, error) { return s.ListOwnRuns(ctx, p.ids["bob"]) })
	if runs, _ := want.([]store.OwnRun); len(runs) != 3 || !reflect.DeepEqual(want, got) {
		t.Errorf("bob's runs differ:\n%+v\n%+v", want, got)
	}
	want, got = sameOn(t, ctx, src, dst, func(s *store.Store) (any, error) { return s.AuditLog(ctx) })
	if log, _ := want.([]store.AuditEntry); len(log) != 4 || !reflect.DeepEqual(want, got) {
		t.Errorf("audit log differs:\n%+v\n%+v", want, got)
	}
	want, got = sameOn(t, ctx, src, dst, func(s *store.Store) (any, error) { return s.GetRun(ctx, p.edited) })
	if r, _ := want.(*run.Run); r == nil || r.EditedAt == nil || r.Hardware.OS != "Debian 13" || !reflect.DeepEqual(want, got) {
		t.Errorf("the edited run differs:\n%+v\n%+v", want, got)
	}
	if gone, err := dst.RunGone(ctx, p.deleted); !gone || err != nil {
		t.Errorf("the deleted run is not gone after the restore: %v, %v", gone, err)
	}
	if _, err := src.ResetAccount(ctx, accounts.Hash(p.reset)); err != nil {
		t.Errorf("the reset does not work before the restore: %v", err)
	}
	if _, err := dst.ResetAccount(ctx, accounts.Hash(p.reset)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a password reset survived the restore: %v", err)
	}
	if _, err := dst.CreateAccount(ctx, "Dave", "new@example.org", "x"); !errors.Is(err, store.ErrRetired) {
		t.Errorf("the retired handle is free again after the restore: %v", err)
	}
	// Bob's run is moderated and his own choice kept apart: he cannot show
	// it, and lifting the moderation leaves it hidden as he had it.
	if err := dst.SetOwnRunHidden(ctx, p.ownsHidden, p.ids["bob"], false); !errors.Is(err, store.ErrModerated) {
		t.Errorf("bob shows the run a moderator hid after the restore: %v", err)
	}
	must(t, dst.LiftModeration(ctx, p.ownsHidden, "alice", "restored"))
	if _, err := dst.GetRun(ctx, p.ownsHidden); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the lift after the restore showed the run bob had hidden: %v", err)
	}
	if err := dst.ClaimRun(ctx, p.unclaimed, p.ids["alice"], accounts.Hash(p.claim)); err != nil {
		t.Errorf("the pending claim fails after the restore: %v", err)
	}
}

// sameOn runs read on both stores and fails if either errs.
func sameOn(t *testing.T, ctx context.Context, a, b *store.Store, read func(*store.Store) (any, error)) (any, any) {
	t.Helper()
	x, err := read(a)
	must(t, err)
	y, err := read(b)
	must(t, err)
	return x, y
}

// upload ingests a file of other-tools, by account when not empty.
func upload(t *testing.T, ctx context.Context, st *store.Store, p *people, name, account string) string {
	t.Helper()
	data, err := os.ReadFile("../../testdata/formats/other-tools/" + name)
	must(t, err)
	res, err := ingest.Ingest(ctx, st, ingest.Upload{Files: []archive.File{{Name: name, Data: data}}, Account: account,
		Fields: map[string]string{"gpu_name": "RTX 5090 (" + name + ")", "vram_gb": "32", "hardware_type": "Discrete GPU"}})
	must(t, err)
	p.runs = append(p.runs, res.ID)
	return res.ID
}

// noSecrets fails when the backup, uncompressed, holds any of secrets.
func noSecrets(t *testing.T, file []byte, secrets []string) {
	t.Helper()
	zr, err := zstd.NewReader(bytes.NewReader(file))
	must(t, err)
	defer zr.Close()
	plain, err := io.ReadAll(zr)
	must(t, err)
	for _, s := range secrets {
		if s == "" || bytes.Contains(plain, []byte(s)) {
			t.Errorf("the backup holds a secret in clear (or the test lost one): %q", s)
		}
	}
	if !bytes.Contains(plain, []byte("$argon2id$")) {
		t.Error("the backup holds no password hash")
	}
}

func secret(t *testing.T) string {
	t.Helper()
	s, err := accounts.NewSecret()
	must(t, err)
	return s
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
