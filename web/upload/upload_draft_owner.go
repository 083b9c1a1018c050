package upload

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"log/slog"
	"net/http"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// draftStore is what the two-step upload needs of the database.
type draftStore interface {
	InsertDraft(ctx context.Context, d *store.Draft) error
	GetDraft(ctx context.Context, id string, owners []string, now time.Time) (*store.Draft, error)
	SetDraftFields(ctx context.Context, id string, fields map[string]string) error
	PublishDraft(ctx context.Context, id, runID string) error
	DeleteDraft(ctx context.Context, id string, owners []string) error
}

// draftTTL is how long an unpublished preview is kept.
const draftTTL = 24 * time.Hour

// draftCookie holds a browser's draft key: 128 random bits, of which the
// database keeps only the SHA-256, so a leaked table names no browser.
// It is scoped to /upload, where drafts live, and lasts as long as a
// draft can.
const draftCookie = "sm_drafts"

// randomKey is 128 random bits as 26 lowercase base32 characters, the
// alphabet of run ids (typed and read aloud without confusion).
func randomKey() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding).EncodeToString(b)
}

// validDraftID cheaply refuses addresses no draft can have.
func validDraftID(id string) bool { return len(id) == 26 && kit.ValidID(id) }

// draftOwner is the owner key of the request's browser: "browser:" and the
// hash of its cookie. With create, a browser without the cookie is given
// one; without, it owns nothing ("").
func (s *Handlers) draftOwner(w http.ResponseWriter, r *http.Request, create bool) string {
	key := ""
	if c, err := r.Cookie(draftCookie); err == nil && validDraftID(c.Value) {
		key = c.Value
	}
	if create {
		if key == "" {
			key = randomKey()
		}
		// Set again on every new draft, so the cookie outlives it.
		s.PutCookie(w, r, &http.Cookie{Name: draftCookie, Value: key, Path: "/upload", MaxAge: int(draftTTL / time.Second)})
	}
	if key == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(key))
	return "browser:" + hex.EncodeToString(sum[:])
}

// draftOwners are the owner keys whose drafts this request sees: its
// browser's, and, signed in, its account's (AccountOwner).
func (s *Handlers) draftOwners(r *http.Request) ([]string, error) {
	var owners []string
	if owner := s.draftOwner(nil, r, false); owner != "" {
		owners = append(owners, owner)
	}
	a, err := s.SignedInAccount(r)
	if err != nil {
		return nil, err
	}
	if a != nil {
		owners = append(owners, kit.AccountOwner(a))
	}
	return owners, nil
}

// SweepDrafts deletes expired drafts every interval until ctx ends: the
// server runs it beside itself (speedmatrix serve). Pages already ignore
// an expired draft; the sweep frees its bytes. now nil is time.Now.
func SweepDrafts(ctx context.Context, st interface {
	DeleteExpiredDrafts(context.Context, time.Time) (int64, error)
}, now func() time.Time, every time.Duration, log *slog.Logger) {
	if now == nil {
		now = time.Now
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		if n, err := st.DeleteExpiredDrafts(ctx, now()); err != nil && ctx.Err() == nil {
			log.Error("deleting expired drafts", "err", err)
		} else if n > 0 {
			log.Info("deleted expired drafts", "count", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}
