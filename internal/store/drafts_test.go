package store_test

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

// TestDrafts: a draft comes back with its files in order and its fields
// for its owner alone and until it expires; publishing keeps only the
// run's id; the sweep deletes what has expired and nothing else.
func TestDrafts(t *testing.T) {
	s, _ := dbtest.New(t)
	ctx := context.Background()
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	mk := func(id string, expires time.Time) *store.Draft {
		return &store.Draft{ID: id, Owner: "browser:aa", Account: "someone",
			Files:     []archive.File{{Name: "b.json", Data: []byte(`{"b":1}`)}, {Name: "a.json", Data: []byte{0, 1, 2}}},
			Fields:    map[string]string{"gpu_name": "RTX 3060"},
			CreatedAt: now, ExpiresAt: expires}
	}
	for _, d := range []*store.Draft{mk("aaaaaaaaaaaaaaaaaaaaaaaaaa", now.Add(24*time.Hour)), mk("bbbbbbbbbbbbbbbbbbbbbbbbbb", now.Add(time.Hour))} {
		if err := s.InsertDraft(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	d, err := s.GetDraft(ctx, "aaaaaaaaaaaaaaaaaaaaaaaaaa", "browser:aa", now)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Files) != 2 || d.Files[0].Name != "b.json" || !bytes.Equal(d.Files[1].Data, []byte{0, 1, 2}) ||
		d.Fields["gpu_name"] != "RTX 3060" || d.Account != "someone" || d.PublishedRun != "" {
		t.Errorf("draft read back as %+v", d)
	}
	if _, err := s.GetDraft(ctx, "aaaaaaaaaaaaaaaaaaaaaaaaaa", "browser:bb", now); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("another owner's read = %v, want ErrNotFound", err)
	}
	if _, err := s.GetDraft(ctx, "bbbbbbbbbbbbbbbbbbbbbbbbbb", "browser:aa", now.Add(2*time.Hour)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an expired draft's read = %v, want ErrNotFound", err)
	}
	if err := s.PublishDraft(ctx, "aaaaaaaaaaaaaaaaaaaaaaaaaa", "k3x9q2abcd"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetDraftFields(ctx, "aaaaaaaaaaaaaaaaaaaaaaaaaa", map[string]string{}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("changing a published draft's fields = %v, want ErrNotFound", err)
	}
	if d, err := s.GetDraft(ctx, "aaaaaaaaaaaaaaaaaaaaaaaaaa", "browser:aa", now); err != nil || d.PublishedRun != "k3x9q2abcd" || len(d.Files) != 0 {
		t.Errorf("published draft = %+v, %v; want its run and no files", d, err)
	}
	if n, err := s.DeleteExpiredDrafts(ctx, now.Add(2*time.Hour)); err != nil || n != 1 {
		t.Errorf("sweep deleted %d (%v), want the one expired draft", n, err)
	}
	if err := s.DeleteDraft(ctx, "aaaaaaaaaaaaaaaaaaaaaaaaaa", "browser:bb"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("another owner's discard = %v, want ErrNotFound", err)
	}
}
