package account

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/templates"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// confirmLife is how long a mailed sign-up or address link works.
const confirmLife = 24 * time.Hour

// errConfirmLink answers a confirmation link that is unknown, used or
// expired; the same words for all three.
var errConfirmLink = &kit.HTTPError{Status: http.StatusNotFound, Key: "acct.error.confirm_link"}

// signupByMail finishes POST /signup when the site sends mail. The answer
// is "a link is on its way" whether or not an account has the address:
// a new address gets the link that creates the account, a taken one a
// note to its owner. Only the handle, public anyway, may be refused. The
// password is hashed into p once the mail limits let the sign-up through.
func (s *Handlers) signupByMail(w http.ResponseWriter, r *http.Request, f templates.AuthForm, p store.PendingSignup, password string) error {
	l := i18n.FromContext(r.Context())
	err := s.store.HandleAvailable(r.Context(), p.Handle)
	switch msg := handleRefused(l, err); {
	case msg != "":
		f.Errors = []string{msg}
	case err != nil:
		return err
	case !s.allowMail(w, r, p.Email):
		f.Errors = []string{l.T("acct.error.too_many_mails", nil)}
		return s.renderAuth(w, r, http.StatusTooManyRequests, "acct.signup.title", templates.SignupPage, f)
	}
	if len(f.Errors) > 0 {
		return s.renderAuth(w, r, http.StatusUnprocessableEntity, "acct.signup.title", templates.SignupPage, f)
	}
	if p.PasswordHash, err = accounts.HashPassword(r.Context(), password); err != nil {
		return err
	}
	s.later(r, "sign-up", func(ctx context.Context) error { return s.mailSignup(ctx, p) })
	f.Sent = true
	return s.renderAuth(w, r, http.StatusOK, "acct.signup.title", templates.SignupSentPage, f)
}

// mailSignup mails the link that creates the account p, or, when the
// address has an account already, tells its owner someone tried. Every
// link is under BASE_URL, never the request's Host (mailReset).
func (s *Handlers) mailSignup(ctx context.Context, p store.PendingSignup) error {
	origin := s.BaseURL
	a, err := s.store.AccountByEmail(ctx, p.Email)
	switch {
	case err == nil:
		return s.sendMail(ctx, a.Email, "mail.signup_taken", map[string]any{
			"Site": origin, "Login": origin + "/login", "Forgot": origin + "/login/forgot"})
	case !errors.Is(err, store.ErrNotFound):
		return err
	}
	secret, err := accounts.NewSecret()
	if err != nil {
		return err
	}
	if err := s.store.CreatePendingSignup(ctx, accounts.Hash(secret), p, time.Now().Add(confirmLife)); err != nil {
		return err
	}
	link := origin + "/signup/confirm?" + url.Values{"token": {secret}}.Encode()
	return s.sendMail(ctx, p.Email, "mail.confirm_signup", map[string]any{"Handle": p.Handle, "Link": link, "Site": origin})
}

// SignupConfirmForm is GET /signup/confirm?token=…: a button, not the
// account itself, because mail scanners open links and a link works once.
func (s *Handlers) SignupConfirmForm(w http.ResponseWriter, r *http.Request) error {
	token := r.URL.Query().Get("token")
	p, err := s.store.PendingSignupByHash(r.Context(), accounts.Hash(token))
	if err != nil || p.Provider != "" {
		return orConfirmErr(err)
	}
	w.Header().Set("Referrer-Policy", "no-referrer")
	f := templates.AuthForm{Token: token, Values: map[string]string{"handle": p.Handle, "email": p.Email}}
	return s.renderAuth(w, r, http.StatusOK, "acct.confirm.title", templates.SignupConfirmPage, f)
}

// SignupConfirmSubmit is POST /signup/confirm: the account, its address
// confirmed, signed in. A handle taken since is asked for again.
func (s *Handlers) SignupConfirmSubmit(w http.ResponseWriter, r *http.Request) error {
	if err := kit.ReadForm(w, r); err != nil {
		return err
	}
	if !s.allowClient(w, r, s.auth.links) {
		return errTooManyLinks
	}
	p, err := s.store.TakePendingSignup(r.Context(), accounts.Hash(r.PostForm.Get("token")))
	if err != nil || p.Provider != "" {
		return orConfirmErr(err)
	}
	id, err := s.store.CreateConfirmedAccount(r.Context(), store.NewAccount{
		Handle: p.Handle, Email: p.Email, PasswordHash: p.PasswordHash, EmailVerified: true})
	if errors.Is(err, store.ErrExists) || errors.Is(err, store.ErrRetired) {
		l := i18n.FromContext(r.Context())
		f := templates.AuthForm{Values: map[string]string{"handle": p.Handle, "email": p.Email},
			Errors: []string{l.T("acct.error.taken_since", nil)}}
		return s.renderAuth(w, r, http.StatusConflict, "acct.signup.title", templates.SignupPage, f)
	}
	if err != nil {
		return err
	}
	s.Log.Info("account created", "handle", p.Handle, "confirmed", true)
	if err := s.StartSession(w, r, &store.Account{ID: id, Handle: p.Handle}); err != nil {
		return err
	}
	http.Redirect(w, r, "/account", http.StatusSeeOther)
	return nil
}

// orConfirmErr is errConfirmLink for a link that names nothing (err nil:
// a link of another kind), else err.
func orConfirmErr(err error) error {
	if err == nil || errors.Is(err, store.ErrNotFound) {
		return errConfirmLink
	}
	return err
}

// handleRefused is the message for a handle the store refused as looking
// like a name in use (ErrLookalike), taken (ErrExists) or retired
// (ErrRetired), and "" for any other outcome, which the caller handles.
func handleRefused(l *i18n.Localizer, err error) string {
	switch {
	case errors.Is(err, store.ErrLookalike): // before ErrExists, which it is too
		return l.T("acct.error.handle_lookalike", nil)
	case errors.Is(err, store.ErrExists):
		return l.T("acct.error.handle_taken", nil)
	case errors.Is(err, store.ErrRetired):
		return l.T("acct.error.retired", nil)
	}
	return ""
}
