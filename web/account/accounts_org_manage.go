package account

import (
	"errors"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/templates"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// OrgManagePage is GET /account/orgs/{slug}: the organisation as its
// members manage it. Anyone else finds nothing there (404).
func (s *Handlers) OrgManagePage(w http.ResponseWriter, r *http.Request) error {
	a, err := s.RequireAccount(w, r)
	if err != nil {
		return err
	}
	return s.renderOrgManage(w, r, a, http.StatusOK, "", "")
}

// OrgAction is POST /account/orgs/{slug}/{action}: an invitee accepts or
// declines; a member leaves; an owner invites, withdraws an invitation,
// removes or makes an owner (the member or invitee named by the form's
// handle). Refusals the reader can mend
// come back on the page; the rules themselves live in the store.
func (s *Handlers) OrgAction(w http.ResponseWriter, r *http.Request) error {
	a, err := s.RequireAccount(w, r)
	if err != nil {
		return err
	}
	if err := kit.ReadForm(w, r); err != nil {
		return err
	}
	ctx, l := r.Context(), i18n.FromContext(r.Context())
	slug, action := chi.URLParam(r, "slug"), chi.URLParam(r, "action")
	if !validOrgSlug(slug) {
		return kit.ErrNotFound
	}
	org, err := s.store.OrgNamed(ctx, slug)
	if err != nil {
		return err
	}
	handle := strings.TrimPrefix(strings.TrimSpace(r.PostForm.Get("handle")), "@")
	words := map[string]any{"Name": org.Name, "Handle": handle}
	switch action {
	case "accept", "decline":
		if err := s.store.AnswerInvite(ctx, a.ID, org.Slug, action == "accept"); err != nil {
			return err
		}
		s.Log.Info("organisation invitation answered", "org", org.Slug, "submitter", a.Handle, "answer", action)
		return s.renderOrgs(w, r, a, http.StatusOK, templates.OrgsView{Notice: l.T(orgDone[action], words)})
	case "leave":
		err = s.store.RemoveMember(ctx, a.ID, org.Slug, a.Handle)
		if err == nil {
			s.Log.Info("organisation left", "org", org.Slug, "submitter", a.Handle)
			return s.renderOrgs(w, r, a, http.StatusOK, templates.OrgsView{Notice: l.T("acct.orgs.left", words)})
		}
	case "invite":
		words["Handle"] = strings.TrimPrefix(strings.TrimSpace(r.PostForm.Get("invite_handle")), "@")
		err = s.store.InviteMember(ctx, a.ID, org.Slug, words["Handle"].(string))
	case "withdraw":
		err = s.store.WithdrawInvite(ctx, a.ID, org.Slug, handle)
	case "remove":
		err = s.store.RemoveMember(ctx, a.ID, org.Slug, handle)
	case "owner":
		err = s.store.MakeOwner(ctx, a.ID, org.Slug, handle)
	default:
		return kit.ErrNotFound
	}
	if errors.Is(err, store.ErrNotOrgOwner) {
		return kit.ErrNotOrgOwner
	}
	if err != nil {
		status, key := orgRefusal(err)
		if key == "" {
			return err
		}
		return s.renderOrgManage(w, r, a, status, "", l.T(key, words))
	}
	s.Log.Info("organisation "+action, "org", org.Slug, "by", a.Handle, "member", words["Handle"])
	return s.renderOrgManage(w, r, a, http.StatusOK, l.T(orgDone[action], words), "")
}

// orgDone are the notices of the owners' actions done.
var orgDone = map[string]string{"invite": "acct.org.invited", "withdraw": "acct.org.withdrawn", "remove": "acct.org.removed", "owner": "acct.org.made_owner",
	"accept": "acct.orgs.accepted", "decline": "acct.orgs.declined"}

// orgRefusal is the status and message of a refused membership change the
// page explains; "" for any other error. A stranger's refusal comes back
// as the page, which answers them 404.
func orgRefusal(err error) (int, string) {
	switch {
	case errors.Is(err, store.ErrLastOwner):
		return http.StatusConflict, "acct.org.error.last_owner"
	case errors.Is(err, store.ErrExists):
		return http.StatusConflict, "acct.org.error.already"
	case errors.Is(err, store.ErrNotFound):
		return http.StatusUnprocessableEntity, "acct.org.error.no_account"
	case errors.Is(err, store.ErrNotMember):
		return http.StatusUnprocessableEntity, "acct.org.error.not_member"
	case errors.Is(err, store.ErrNotInvited):
		return http.StatusUnprocessableEntity, "acct.org.error.not_invited"
	}
	return 0, ""
}

// renderOrgManage renders /account/orgs/{slug} for the member a, with a
// notice or an error; anyone else gets 404.
func (s *Handlers) renderOrgManage(w http.ResponseWriter, r *http.Request, a *store.Account, status int, notice, problem string) error {
	org, err := s.store.GetOrg(r.Context(), chi.URLParam(r, "slug"))
	if err != nil {
		return err
	}
	role := org.Role(a.Handle)
	if role == "" {
		return kit.ErrNotFound
	}
	l := i18n.FromContext(r.Context())
	v := templates.OrgManageView{Slug: org.Slug, Name: org.Name, Me: a.Handle, Owner: role == store.RoleOwner,
		Members: orgMembers(l, org.Members), Notice: notice}
	if v.Owner {
		v.Invited = org.Invited
	}
	if problem != "" {
		v.Errors = []string{problem}
	}
	w.Header().Set("Cache-Control", "no-store")
	title := l.T("acct.org.manage_title", map[string]any{"Name": org.Name})
	return kit.Render(w, r, status, templates.OrgManagePage(s.PrivateBase(r, title), v))
}
