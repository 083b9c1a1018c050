package account

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/templates"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// orgStore is what the organisation pages and forms need of the database.
type orgStore interface {
	GetOrg(ctx context.Context, slug string) (*store.Org, error)
	CreateOrg(ctx context.Context, accountID int64, slug, name string) error
	AccountOrgs(ctx context.Context, accountID int64) (member, invited []store.Membership, err error)
	OrgNamed(ctx context.Context, slug string) (run.Org, error)
	InviteMember(ctx context.Context, actorID int64, slug, handle string) error
	WithdrawInvite(ctx context.Context, actorID int64, slug, handle string) error
	AnswerInvite(ctx context.Context, accountID int64, slug string, accept bool) error
	RemoveMember(ctx context.Context, actorID int64, slug, handle string) error
	MakeOwner(ctx context.Context, actorID int64, slug, handle string) error
	CreateOrgToken(ctx context.Context, accountID int64, slug string, hash []byte, prefix string) error
}

// validOrgSlug accepts the slugs an organisation may have: a handle's
// spelling (what people choose now) or the lower-case slugs the operator
// made before.
func validOrgSlug(slug string) bool { return accounts.ValidHandle(slug) || accounts.ValidSlug(slug) }

// OrgPage is GET /orgs/{slug}: an organisation's members with their roles
// and the newest runs uploaded for it (never hidden ones). It is a cached
// public page: every membership change renews it (store.transactChange).
func (s *Handlers) OrgPage(w http.ResponseWriter, r *http.Request) error {
	slug := chi.URLParam(r, "slug")
	if !validOrgSlug(slug) {
		return kit.ErrNotFound
	}
	ctx := r.Context()
	l := i18n.FromContext(ctx)
	org, err := s.store.GetOrg(ctx, slug)
	if err != nil {
		return err
	}
	v := templates.OrgView{Name: org.Name, Slug: org.Slug, Members: orgMembers(l, org.Members),
		Bounded: len(org.Runs) >= store.OrgRunsLimit, Limit: store.OrgRunsLimit}
	for _, sum := range org.Runs {
		rn, err := s.store.GetRun(ctx, sum.ID)
		if err != nil {
			return err
		}
		v.Runs = append(v.Runs, templates.NewRunListItem(rn, l))
	}
	w.Header().Set("Cache-Control", "no-cache")
	title := l.T("account.org.title", map[string]any{"Name": org.Name})
	return kit.Render(w, r, http.StatusOK, templates.OrgPage(s.Base(r, title, l.N("account.org.members", len(v.Members), nil)), v))
}

// orgMembers words the members' roles.
func orgMembers(l *i18n.Localizer, ms []store.OrgMember) []templates.OrgMember {
	out := make([]templates.OrgMember, 0, len(ms))
	for _, m := range ms {
		out = append(out, templates.OrgMember{Handle: m.Handle, Role: roleLabel(l, m.Role), Owner: m.Role == store.RoleOwner})
	}
	return out
}

// roleLabel is a member's role in the reader's language.
func roleLabel(l *i18n.Localizer, role string) string {
	if role == store.RoleOwner {
		return l.T("acct.orgs.role.owner", nil)
	}
	return l.T("acct.orgs.role.member", nil)
}
