package accounts_test

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// TestDrafts: a draft comes back with its files in order, their parse
// byte for byte and its fields for its owner alone and until it expires;
// publishing keeps only the run's id; the sweep deletes what has expired and nothing else.
func TestDrafts(t *testing.T) {
	s, _ := dbtest.New(t)
	ctx := context.Background()
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	mk := func(id string, expires time.Time) *store.Draft {
		return &store.Draft{ID: id, Owner: "browser:aa", Account: "someone",
			Files:     []archive.File{{Name: "b.json", Data: []byte(`{"b":1}`)}, {Name: "a.json", Data: []byte{0, 1, 2}}},
			Parsed:    []byte(`{"build": "b1",  "parsed": {"Format":"x"}}`),
			Fields:    map[string]string{"gpu_name": "RTX 3060"},
			CreatedAt: now, ExpiresAt: expires}
	}
	for _, d := range []*store.Draft{mk("aaaaaaaaaaaaaaaaaaaaaaaaaa", now.Add(24*time.Hour)), mk("bbbbbbbbbbbbbbbbbbbbbbbbbb", now.Add(time.Hour))} {
		if err := s.InsertDraft(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	d, err := s.GetDraft(ctx, "aaaaaaaaaaaaaaaaaaaaaaaaaa", []string{"browser:aa"}, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Files) != 2 || d.Files[0].Name != "b.json" || !bytes.Equal(d.Files[1].Data, []byte{0, 1, 2}) ||
		d.Fields["gpu_name"] != "RTX 3060" || d.Account != "someone" || d.PublishedRun != "" ||
		string(d.Parsed) != `{"build": "b1",  "parsed": {"Format":"x"}}` {
		t.Errorf("draft read back as %+v", d)
	}
	if _, err := s.GetDraft(ctx, "aaaaaaaaaaaaaaaaaaaaaaaaaa", []string{"browser:bb"}, now); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("another owner's read = %v, want ErrNotFound", err)
	}
	if _, err := s.GetDraft(ctx, "bbbbbbbbbbbbbbbbbbbbbbbbbb", []string{"browser:aa"}, now.Add(2*time.Hour)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an expired draft's read = %v, want ErrNotFound", err)
	}
	if err := s.PublishDraft(ctx, "aaaaaaaaaaaaaaaaaaaaaaaaaa", "k3x9q2abcd"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetDraftFields(ctx, "aaaaaaaaaaaaaaaaaaaaaaaaaa", map[string]string{}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("changing a published draft's fields = %v, want ErrNotFound", err)
	}
	if d, err := s.GetDraft(ctx, "aaaaaaaaaaaaaaaaaaaaaaaaaa", []string{"browser:aa"}, now); err != nil || d.PublishedRun != "k3x9q2abcd" || len(d.Files) != 0 || d.Parsed != nil {
		t.Errorf("published draft = %+v, %v; want its run and no files or parse", d, err)
	}
	if n, err := s.DeleteExpiredDrafts(ctx, now.Add(2*time.Hour)); err != nil || n != 1 {
		t.Errorf("sweep deleted %d (%v), want the one expired draft", n, err)
	}
	if err := s.DeleteDraft(ctx, "aaaaaaaaaaaaaaaaaaaaaaaaaa", []string{"browser:bb"}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("another owner's discard = %v, want ErrNotFound", err)
	}
}

// TestDraftsDisowned: an account's drafts owned by browsers become the
// account's own; its other drafts, other accounts' and anonymous ones stay
// where they are.
func TestDraftsDisowned(t *testing.T) {
	s, _ := dbtest.New(t)
	ctx := context.Background()
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	drafts := []struct{ id, owner, account string }{
		{"aaaaaaaaaaaaaaaaaaaaaaaaaa", "browser:aa", "carol"},
		{"bbbbbbbbbbbbbbbbbbbbbbbbbb", "browser:bb", "carol"},
		{"cccccccccccccccccccccccccc", "browser:aa", "dave"},
		{"dddddddddddddddddddddddddd", "browser:aa", ""},
		{"eeeeeeeeeeeeeeeeeeeeeeeeee", "account:7", "carol"},
	}
	for _, d := range drafts {
		if err := s.InsertDraft(ctx, &store.Draft{ID: d.id, Owner: d.owner, Account: d.account,
			Files: []archive.File{{Name: "a.json", Data: []byte("{}")}}, CreatedAt: now, ExpiresAt: now.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.DisownDrafts(ctx, "carol", "account:7"); err != nil {
		t.Fatal(err)
	}
	for _, d := range drafts {
		want := d.owner
		if d.account == "carol" {
			want = "account:7"
		}
		got, err := s.GetDraft(ctx, d.id, []string{"browser:aa", "browser:bb", "account:7"}, now)
		if err != nil || got.Owner != want {
			t.Errorf("draft of %q in %s: owned by %+v (%v), want %s", d.account, d.owner, got, err, want)
		}
	}
}
