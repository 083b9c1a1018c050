package account

import (
	"errors"
	"net/http"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// claimRun is POST /account/runs/{id}/claim: with the run's claim cookie,
// within 24 hours of the upload, the run becomes the account's, verified.
// From another browser, or later, it cannot be claimed at all.
func (s *Handlers) claimRun(w http.ResponseWriter, r *http.Request, a *store.Account, id string) error {
	l := i18n.FromContext(r.Context())
	c, err := r.Cookie(kit.ClaimCookiePrefix + id)
	if err != nil || c.Value == "" {
		return s.renderMyRuns(w, r, a, l.T("acct.claim.refused", nil))
	}
	err = s.store.ClaimRun(r.Context(), id, a.ID, accounts.Hash(c.Value))
	if errors.Is(err, store.ErrNotFound) {
		s.DropCookie(w, r, c.Name, "/account")
		return s.renderMyRuns(w, r, a, l.T("acct.claim.refused", nil))
	}
	if err != nil {
		return err
	}
	s.DropCookie(w, r, c.Name, "/account")
	s.Log.Info("run claimed", "run", id, "submitter", a.Handle)
	// The list is rendered for this request, whose cookie is still sent.
	r.Header.Del("Cookie")
	return s.renderMyRuns(w, r, a, l.T("acct.claim.done", map[string]any{"ID": id}))
}
