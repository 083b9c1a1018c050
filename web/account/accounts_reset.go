package account

import (
	"errors"
	"net/http"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/templates"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// errResetLink answers a reset link that is unknown, used or expired; the
// same words for all three.
var errResetLink = &kit.HTTPError{Status: http.StatusNotFound, Key: "acct.error.reset_link"}

// ResetForm is GET /account/reset?token=…, the one-time link made by
// `speedmatrix account reset HANDLE`. The secret is in the query, which
// the access log leaves out.
func (s *Handlers) ResetForm(w http.ResponseWriter, r *http.Request) error {
	token := r.URL.Query().Get("token")
	if _, err := s.store.ResetAccount(r.Context(), accounts.Hash(token)); err != nil {
		return resetErr(err)
	}
	// The link must not leak through the Referer of anything the page
	// loads or links to.
	w.Header().Set("Referrer-Policy", "no-referrer")
	return s.renderAuth(w, r, http.StatusOK, "acct.reset.title", templates.ResetPage, templates.AuthForm{Token: token})
}

// ResetSubmit is POST /account/reset: the new password, then sign-in.
// Using the link spends it and signs the account out everywhere else.
// The client's tries are counted first, before the link is looked up and
// the password hashed.
func (s *Handlers) ResetSubmit(w http.ResponseWriter, r *http.Request) error {
	if err := kit.ReadForm(w, r); err != nil {
		return err
	}
	if !s.allowClient(w, r, s.auth.links) {
		return errTooManyLinks
	}
	token, password := r.PostForm.Get("token"), r.PostForm.Get("password")
	a, err := s.store.ResetAccount(r.Context(), accounts.Hash(token))
	if err != nil {
		return resetErr(err)
	}
	if !accounts.ValidPassword(password) {
		l := i18n.FromContext(r.Context())
		w.Header().Set("Referrer-Policy", "no-referrer")
		f := templates.AuthForm{Token: token, Errors: []string{l.T("acct.error.password", map[string]any{"Min": accounts.MinPasswordLen})}}
		return s.renderAuth(w, r, http.StatusUnprocessableEntity, "acct.reset.title", templates.ResetPage, f)
	}
	hash, err := accounts.HashPassword(r.Context(), password)
	if err != nil {
		return err
	}
	if err := s.store.UseReset(r.Context(), accounts.Hash(token), hash); err != nil {
		return resetErr(err)
	}
	s.Log.Info("password reset", "handle", a.Handle)
	if err := s.StartSession(w, r, a); err != nil {
		return err
	}
	http.Redirect(w, r, "/account", http.StatusSeeOther)
	return nil
}

func resetErr(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return errResetLink
	}
	return err
}
