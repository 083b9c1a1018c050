package account

import (
	"errors"
	"net/http"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/templates"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// BenchToken is GET /bench/token, the address lil-bench prints when it
// has no token or a rejected one: the token page, after signing in.
func (s *Handlers) BenchToken(w http.ResponseWriter, r *http.Request) error {
	http.Redirect(w, r, "/account/tokens", http.StatusSeeOther)
	return nil
}

// TokensPage is GET /account/tokens.
func (s *Handlers) TokensPage(w http.ResponseWriter, r *http.Request) error {
	a, err := s.RequireAccount(w, r)
	if err != nil {
		return err
	}
	return s.renderTokens(w, r, a, templates.TokensView{})
}

// TokenCreate is POST /account/tokens: a new token, for the account or,
// with "org", for one of its organisations (403 for any other), shown on
// the answer to this request only (no redirect, so it is never in a URL or
// history entry that could be reloaded).
func (s *Handlers) TokenCreate(w http.ResponseWriter, r *http.Request) error {
	a, err := s.RequireAccount(w, r)
	if err != nil {
		return err
	}
	if err := kit.ReadForm(w, r); err != nil {
		return err
	}
	tok, err := accounts.NewToken()
	if err != nil {
		return err
	}
	org := r.PostForm.Get("org")
	if org == "" {
		err = s.store.CreateToken(r.Context(), a.Handle, tok.Hash, tok.Prefix)
	} else {
		err = s.store.CreateOrgToken(r.Context(), a.ID, org, tok.Hash, tok.Prefix)
	}
	if err != nil {
		return err
	}
	s.Log.Info("token created", "submitter", a.Handle, "org", org, "token", tok.Prefix+"…")
	v := templates.TokensView{NewToken: tok.Secret, Command: benchCommand(tok.Secret)}
	if org != "" {
		named, err := s.store.OrgNamed(r.Context(), org)
		if err != nil {
			return err
		}
		l := i18n.FromContext(r.Context())
		v.NewFor = l.T("acct.tokens.new_for_org", map[string]any{"Name": named.Name})
	}
	return s.renderTokens(w, r, a, v)
}

// benchCommand is the lil-bench command line that uploads with token.
func benchCommand(token string) string {
	return "LIL_BENCH_TOKEN=" + token + " lil-bench upload FILE"
}

// TokenRevoke is POST /account/tokens/revoke with the token's prefix.
func (s *Handlers) TokenRevoke(w http.ResponseWriter, r *http.Request) error {
	a, err := s.RequireAccount(w, r)
	if err != nil {
		return err
	}
	if err := kit.ReadForm(w, r); err != nil {
		return err
	}
	prefix := r.PostForm.Get("prefix")
	err = s.store.RevokeOwnToken(r.Context(), a.ID, prefix)
	if errors.Is(err, store.ErrNotFound) {
		return kit.ErrNotFound
	}
	if err != nil {
		return err
	}
	s.Log.Info("token revoked", "submitter", a.Handle, "token", prefix+"…")
	l := i18n.FromContext(r.Context())
	return s.renderTokens(w, r, a, templates.TokensView{
		Notice: l.T("acct.tokens.revoked_notice", map[string]any{"Prefix": prefix})})
}

// renderTokens renders the token page of a with v's message or new token.
func (s *Handlers) renderTokens(w http.ResponseWriter, r *http.Request, a *store.Account, v templates.TokensView) error {
	list, err := s.store.ListTokens(r.Context(), a.ID)
	if err != nil {
		return err
	}
	member, _, err := s.store.AccountOrgs(r.Context(), a.ID)
	if err != nil {
		return err
	}
	v.Me = a.Handle
	for _, m := range member {
		v.Orgs = append(v.Orgs, templates.OrgChoice{Slug: m.Slug, Name: m.Name})
	}
	l := i18n.FromContext(r.Context())
	never := l.T("acct.tokens.never", nil)
	for _, tk := range list {
		row := templates.TokenRow{Prefix: tk.Prefix, Created: report.Timestamp(tk.CreatedAt), LastUsed: never, Revoked: tk.RevokedAt != nil,
			For: "@" + a.Handle}
		if tk.Org != "" {
			row.For = tk.Org
		}
		if tk.LastUsedAt != nil {
			row.LastUsed = report.Timestamp(*tk.LastUsedAt)
		}
		v.Tokens = append(v.Tokens, row)
	}
	w.Header().Set("Cache-Control", "no-store")
	return kit.Render(w, r, http.StatusOK, templates.TokensPage(s.PrivateBase(r, l.T("acct.tokens.title", nil)), v))
}
