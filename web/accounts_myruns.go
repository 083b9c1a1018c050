package web

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/templates"
)

// myRunsStore is what /account/runs needs of the database.
type myRunsStore interface {
	ListOwnRuns(ctx context.Context, accountID int64) ([]store.OwnRun, error)
	SetOwnRunHidden(ctx context.Context, id string, accountID int64, hidden bool) error
	DeleteOwnRun(ctx context.Context, id string, accountID int64) error
	RunGone(ctx context.Context, id string) (bool, error)
}

// errGone answers a run its submitter deleted: 410, so links and search
// engines learn it is gone for good, not mistyped.
var errGone = &httpError{status: http.StatusGone, key: "acct.runs.gone"}

// goneOr turns a run's not-found into 410 Gone when its submitter deleted
// it; any other error passes.
func (s *Server) goneOr(r *http.Request, id string, err error) error {
	if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	gone, gerr := s.store.RunGone(r.Context(), id)
	if gerr != nil {
		return gerr
	}
	if gone {
		return errGone
	}
	return err
}

// myRunsPage is GET /account/runs: the signed-in account's runs, hidden
// ones too, with the ways to hide, show and delete each.
func (s *Server) myRunsPage(w http.ResponseWriter, r *http.Request) error {
	a, err := s.requireAccount(w, r)
	if err != nil {
		return err
	}
	return s.renderMyRuns(w, r, a, "")
}

// myRunAction is POST /account/runs/{id}/{action}: hide, show, or delete
// (the last only with the confirmation box ticked).
func (s *Server) myRunAction(w http.ResponseWriter, r *http.Request) error {
	a, err := s.requireAccount(w, r)
	if err != nil {
		return err
	}
	if err := readForm(w, r); err != nil {
		return err
	}
	id, action := chi.URLParam(r, "id"), chi.URLParam(r, "action")
	if !validID(id) {
		return errNotFound
	}
	l := i18n.FromContext(r.Context())
	switch action {
	case "hide", "show":
		err = s.store.SetOwnRunHidden(r.Context(), id, a.ID, action == "hide")
	case "delete":
		if r.PostForm.Get("confirm") != "yes" {
			return s.renderMyRuns(w, r, a, l.T("acct.runs.confirm_needed", nil))
		}
		err = s.store.DeleteOwnRun(r.Context(), id, a.ID)
	default:
		return errNotFound
	}
	switch {
	case errors.Is(err, store.ErrNotOwner):
		return errNotOwner
	case err != nil:
		return err
	}
	s.log.Info("run "+action, "run", id, "submitter", a.Handle)
	return s.renderMyRuns(w, r, a, l.T("acct.runs.done_"+action, map[string]any{"ID": id}))
}

// renderMyRuns renders /account/runs with an optional notice.
func (s *Server) renderMyRuns(w http.ResponseWriter, r *http.Request, a *store.Account, notice string) error {
	list, err := s.store.ListOwnRuns(r.Context(), a.ID)
	if err != nil {
		return err
	}
	l := i18n.FromContext(r.Context())
	v := templates.MyRunsView{Notice: notice}
	for _, o := range list {
		hw := o.GPUName
		if o.GPUCount > 1 {
			hw = l.T("acct.runs.gpus", map[string]any{"Count": o.GPUCount, "GPU": o.GPUName})
		}
		title := strings.TrimSpace(o.ModelID + " · " + hw + " · " + strings.TrimSpace(catalog.Engine(o.EngineName).Name+" "+o.Version))
		row := templates.MyRun{ID: o.ID, Title: title, Uploaded: report.Timestamp(o.UploadedAt), Hidden: o.Hidden}
		if o.EditedAt != nil {
			row.Edited = report.Timestamp(*o.EditedAt)
		}
		v.Runs = append(v.Runs, row)
	}
	w.Header().Set("Cache-Control", "no-store")
	return render(w, r, http.StatusOK, templates.MyRunsPage(s.base(r, l.T("acct.runs.title", nil), ""), v))
}
