package account

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/templates"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// resetLife is how long a mailed reset link works: long enough to reach
// the inbox, short enough that an old mail opens nothing.
const resetLife = time.Hour

// ForgotForm is GET /login/forgot: the address to mail a reset link to,
// or, without mail, who to ask.
func (s *Handlers) ForgotForm(w http.ResponseWriter, r *http.Request) error {
	f := templates.AuthForm{Mail: s.mailer != nil, Values: map[string]string{"email": r.URL.Query().Get("email")}}
	return s.renderAuth(w, r, http.StatusOK, "acct.forgot.title", templates.ForgotPage, f)
}

// ForgotSubmit is POST /login/forgot. The answer is the same page,
// straight away, whether or not an account has the address: the look-up
// and the mail happen after it (later), so neither the words nor the time
// tell who has an account.
func (s *Handlers) ForgotSubmit(w http.ResponseWriter, r *http.Request) error {
	if err := kit.ReadForm(w, r); err != nil {
		return err
	}
	l := i18n.FromContext(r.Context())
	email := strings.TrimSpace(r.PostForm.Get("email"))
	f := templates.AuthForm{Mail: s.mailer != nil, Values: map[string]string{"email": email}}
	switch {
	case s.mailer == nil:
		return s.renderAuth(w, r, http.StatusOK, "acct.forgot.title", templates.ForgotPage, f)
	case !accounts.ValidEmail(email):
		f.Errors = []string{l.T("acct.error.email", nil)}
		return s.renderAuth(w, r, http.StatusUnprocessableEntity, "acct.forgot.title", templates.ForgotPage, f)
	case !s.allowMail(w, r, email):
		f.Errors = []string{l.T("acct.error.too_many_mails", nil)}
		return s.renderAuth(w, r, http.StatusTooManyRequests, "acct.forgot.title", templates.ForgotPage, f)
	}
	s.later(r, "password reset", func(ctx context.Context) error { return s.mailReset(ctx, email) })
	f.Sent = true
	return s.renderAuth(w, r, http.StatusOK, "acct.forgot.title", templates.ForgotPage, f)
}

// mailReset mails a one-time reset link to the account of email, when
// there is one, its address is confirmed and it is not suspended; else it
// does nothing. The link is under BASE_URL: whoever holds it sets the
// password, so its host must be the site's, whatever the request said.
func (s *Handlers) mailReset(ctx context.Context, email string) error {
	a, err := s.store.AccountByEmail(ctx, email)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil || !a.EmailVerified || a.Suspended {
		return err
	}
	secret, err := accounts.NewSecret()
	if err != nil {
		return err
	}
	if err := s.store.CreateReset(ctx, a.Handle, accounts.Hash(secret), time.Now().Add(resetLife)); err != nil {
		return err
	}
	link := s.BaseURL + "/account/reset?" + url.Values{"token": {secret}}.Encode()
	return s.sendMail(ctx, a.Email, "mail.reset", map[string]any{"Handle": a.Handle, "Link": link, "Site": s.BaseURL})
}
