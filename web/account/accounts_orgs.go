package account

import (
	"errors"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/templates"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// maxOrgName bounds an organisation's name, in characters.
const maxOrgName = 100

// OrgsPage is GET /account/orgs: invitations, the account's organisations
// and the form that creates one.
func (s *Handlers) OrgsPage(w http.ResponseWriter, r *http.Request) error {
	a, err := s.RequireAccount(w, r)
	if err != nil {
		return err
	}
	return s.renderOrgs(w, r, a, http.StatusOK, templates.OrgsView{})
}

// OrgCreate is POST /account/orgs: a new organisation, owned by the
// account, whose page it leads to.
func (s *Handlers) OrgCreate(w http.ResponseWriter, r *http.Request) error {
	a, err := s.RequireAccount(w, r)
	if err != nil {
		return err
	}
	if err := kit.ReadForm(w, r); err != nil {
		return err
	}
	l := i18n.FromContext(r.Context())
	slug, name := strings.TrimSpace(r.PostForm.Get("org_slug")), strings.TrimSpace(r.PostForm.Get("org_name"))
	v := templates.OrgsView{Values: map[string]string{"org_slug": slug, "org_name": name}}
	if !accounts.ValidHandle(slug) {
		v.Errors = append(v.Errors, l.T("acct.error.org_slug", nil))
	}
	if name == "" || utf8.RuneCountInString(name) > maxOrgName {
		v.Errors = append(v.Errors, l.T("acct.error.org_name", map[string]any{"Max": maxOrgName}))
	}
	if len(v.Errors) == 0 {
		err := s.store.CreateOrg(r.Context(), a.ID, slug, name)
		switch {
		case errors.Is(err, store.ErrLookalike): // before ErrExists, which it is too
			v.Errors = append(v.Errors, l.T("acct.error.org_lookalike", nil))
		case errors.Is(err, store.ErrExists):
			v.Errors = append(v.Errors, l.T("acct.error.org_taken", nil))
		case err != nil:
			return err
		default:
			s.Log.Info("organisation created", "org", slug, "owner", a.Handle)
			http.Redirect(w, r, paths.Org(slug), http.StatusSeeOther)
			return nil
		}
	}
	return s.renderOrgs(w, r, a, http.StatusUnprocessableEntity, v)
}

// renderOrgs renders /account/orgs for a with v's form, notice or errors.
func (s *Handlers) renderOrgs(w http.ResponseWriter, r *http.Request, a *store.Account, status int, v templates.OrgsView) error {
	member, invited, err := s.store.AccountOrgs(r.Context(), a.ID)
	if err != nil {
		return err
	}
	l := i18n.FromContext(r.Context())
	for _, m := range member {
		v.Orgs = append(v.Orgs, templates.OrgRow{Slug: m.Slug, Name: m.Name, Role: roleLabel(l, m.Role)})
	}
	for _, m := range invited {
		v.Invites = append(v.Invites, templates.OrgRow{Slug: m.Slug, Name: m.Name, InvitedBy: m.InvitedBy})
	}
	w.Header().Set("Cache-Control", "no-store")
	return kit.Render(w, r, status, templates.OrgsPage(s.PrivateBase(r, l.T("acct.orgs.title", nil)), v))
}
