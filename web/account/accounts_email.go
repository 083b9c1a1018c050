package account

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/templates"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// EmailConfirmRequest is POST /account/email/confirm: a signed-in account
// whose address is not confirmed (made before the site sent mail) asks for
// the link that confirms it, so resets may be mailed there.
func (s *Handlers) EmailConfirmRequest(w http.ResponseWriter, r *http.Request) error {
	a, err := s.RequireAccount(w, r)
	if err != nil {
		return err
	}
	l := i18n.FromContext(r.Context())
	switch {
	case s.mailer == nil || a.Email == "" || a.EmailVerified:
		return s.renderAccount(w, r, http.StatusOK, a, "")
	case !s.allowMail(w, r, a.Email):
		return s.renderAccount(w, r, http.StatusTooManyRequests, a, l.T("acct.error.too_many_mails", nil))
	}
	id, email := a.ID, a.Email
	s.later(r, "address confirmation", func(ctx context.Context) error {
		secret, err := accounts.NewSecret()
		if err != nil {
			return err
		}
		if err := s.store.CreateEmailConfirmation(ctx, id, email, accounts.Hash(secret), time.Now().Add(confirmLife)); err != nil {
			return err
		}
		// Under BASE_URL, never the request's Host (mailReset).
		link := s.BaseURL + "/account/email/verify?" + url.Values{"token": {secret}}.Encode()
		return s.sendMail(ctx, email, "mail.confirm_email", map[string]any{"Link": link, "Site": s.BaseURL})
	})
	return s.renderAccount(w, r, http.StatusOK, a, l.T("acct.email.sent", nil))
}

// EmailVerifyForm is GET /account/email/verify?token=…: a button, as for
// a sign-up's link.
func (s *Handlers) EmailVerifyForm(w http.ResponseWriter, r *http.Request) error {
	w.Header().Set("Referrer-Policy", "no-referrer")
	f := templates.AuthForm{Token: r.URL.Query().Get("token")}
	return s.renderAuth(w, r, http.StatusOK, "acct.email.title", templates.EmailVerifyPage, f)
}

// EmailVerifySubmit is POST /account/email/verify: the address is
// confirmed; the link proves it, signed in or not.
func (s *Handlers) EmailVerifySubmit(w http.ResponseWriter, r *http.Request) error {
	if err := kit.ReadForm(w, r); err != nil {
		return err
	}
	if !s.allowClient(w, r, s.auth.links) {
		return errTooManyLinks
	}
	if err := s.store.ConfirmEmail(r.Context(), accounts.Hash(r.PostForm.Get("token"))); err != nil {
		return orConfirmErr(err)
	}
	http.Redirect(w, r, "/account", http.StatusSeeOther)
	return nil
}

// renderAccount renders /account with an optional notice.
func (s *Handlers) renderAccount(w http.ResponseWriter, r *http.Request, status int, a *store.Account, notice string) error {
	l := i18n.FromContext(r.Context())
	v := templates.AccountView{Handle: a.Handle, Email: a.Email, Admin: a.Admin(), Notice: notice,
		EmailVerified: a.EmailVerified, Mail: s.mailer != nil, GitHub: s.github != nil}
	if s.github != nil {
		providers, err := s.store.AccountProviders(r.Context(), a.ID)
		if err != nil {
			return err
		}
		v.GitHubLinked = len(providers) > 0
	}
	w.Header().Set("Cache-Control", "no-store")
	return kit.Render(w, r, status, templates.AccountPage(s.PrivateBase(r, l.T("acct.account.title", nil)), v))
}
