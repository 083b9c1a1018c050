package web

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/templates"
)

// orgPage is GET /orgs/{slug}: an organisation's submitters and the runs
// each uploaded with a token (never hidden ones).
func (s *Server) orgPage(w http.ResponseWriter, r *http.Request) error {
	slug := chi.URLParam(r, "slug")
	if !accounts.ValidSlug(slug) {
		return errNotFound
	}
	ctx := r.Context()
	l := i18n.FromContext(ctx)
	org, err := s.store.GetOrg(ctx, slug)
	if err != nil {
		return err
	}
	v := templates.OrgView{Name: org.Name, Slug: org.Slug}
	for _, m := range org.Submitters {
		member := templates.OrgMember{Handle: m.Handle}
		for _, sum := range m.Runs {
			run, err := s.store.GetRun(ctx, sum.ID)
			if err != nil {
				return err
			}
			member.Runs = append(member.Runs, templates.NewRunListItem(run, l))
		}
		v.Members = append(v.Members, member)
	}
	w.Header().Set("Cache-Control", "no-cache")
	title := l.T("account.org.title", map[string]any{"Name": org.Name})
	return render(w, r, http.StatusOK, templates.OrgPage(s.base(r, title, l.N("account.org.members", len(v.Members), nil)), v))
}
