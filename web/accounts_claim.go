package web

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// claimCookiePrefix names the claim cookie of one run ("claim-k3x9q2"):
// proof that this browser uploaded it anonymously. Only its hash is kept.
const claimCookiePrefix = "claim-"

// claimLife is how long a run can be claimed after its upload.
const claimLife = store.ClaimWindow * time.Second

// giveClaim sets the claim cookie of anonymous run id, sent back only to
// the account pages.
func (s *Server) giveClaim(w http.ResponseWriter, r *http.Request, id string) error {
	secret, err := accounts.NewSecret()
	if err != nil {
		return err
	}
	if err := s.store.SetClaim(r.Context(), id, accounts.Hash(secret)); err != nil {
		return err
	}
	s.putCookie(w, r, &http.Cookie{Name: claimCookiePrefix + id, Value: secret, Path: "/account", MaxAge: int(claimLife / time.Second)})
	return nil
}

// claimable lists the runs whose claim cookies the browser sent.
func claimable(r *http.Request) []string {
	var ids []string
	for _, c := range r.Cookies() {
		if id, ok := strings.CutPrefix(c.Name, claimCookiePrefix); ok && validID(id) && c.Value != "" {
			ids = append(ids, id)
		}
	}
	return ids
}

// claimRun is POST /account/runs/{id}/claim: with the run's claim cookie,
// within 24 hours of the upload, the run becomes the account's, verified.
// From another browser, or later, it cannot be claimed at all.
func (s *Server) claimRun(w http.ResponseWriter, r *http.Request, a *store.Account, id string) error {
	l := i18n.FromContext(r.Context())
	c, err := r.Cookie(claimCookiePrefix + id)
	if err != nil || c.Value == "" {
		return s.renderMyRuns(w, r, a, l.T("acct.claim.refused", nil))
	}
	err = s.store.ClaimRun(r.Context(), id, a.ID, accounts.Hash(c.Value))
	if errors.Is(err, store.ErrNotFound) {
		s.dropCookie(w, r, c.Name, "/account")
		return s.renderMyRuns(w, r, a, l.T("acct.claim.refused", nil))
	}
	if err != nil {
		return err
	}
	s.dropCookie(w, r, c.Name, "/account")
	s.log.Info("run claimed", "run", id, "submitter", a.Handle)
	// The list is rendered for this request, whose cookie is still sent.
	r.Header.Del("Cookie")
	return s.renderMyRuns(w, r, a, l.T("acct.claim.done", map[string]any{"ID": id}))
}
