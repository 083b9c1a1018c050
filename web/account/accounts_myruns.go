package account

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/templates"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// myRunsStore is what /account/runs needs of the database.
type myRunsStore interface {
	ListOwnRuns(ctx context.Context, accountID int64) ([]store.OwnRun, error)
	SetOwnRunHidden(ctx context.Context, id string, accountID int64, hidden bool) error
	DeleteOwnRun(ctx context.Context, id string, accountID int64) error
	EditOwnRun(ctx context.Context, id string, accountID int64, e run.MetaEdit) error
	ClaimRun(ctx context.Context, id string, accountID int64, hash []byte) error
}

// MyRunsPage is GET /account/runs: the signed-in account's runs, hidden
// ones too, with the ways to hide, show and delete each.
func (s *Handlers) MyRunsPage(w http.ResponseWriter, r *http.Request) error {
	a, err := s.RequireAccount(w, r)
	if err != nil {
		return err
	}
	return s.renderMyRuns(w, r, a, "")
}

// MyRunAction is POST /account/runs/{id}/{action}: hide, show, or delete
// (the last only with the confirmation box ticked). Showing a run the
// moderators hid is refused with 403: only an admin lifts that.
func (s *Handlers) MyRunAction(w http.ResponseWriter, r *http.Request) error {
	a, err := s.RequireAccount(w, r)
	if err != nil {
		return err
	}
	if err := kit.ReadForm(w, r); err != nil {
		return err
	}
	id, action := chi.URLParam(r, "id"), chi.URLParam(r, "action")
	if !kit.ValidID(id) {
		return kit.ErrNotFound
	}
	l := i18n.FromContext(r.Context())
	switch action {
	case "hide", "show":
		err = s.store.SetOwnRunHidden(r.Context(), id, a.ID, action == "hide")
	case "claim":
		return s.claimRun(w, r, a, id)
	case "delete":
		if r.PostForm.Get("confirm") != "yes" {
			return s.renderMyRuns(w, r, a, l.T("acct.runs.confirm_needed", nil))
		}
		err = s.store.DeleteOwnRun(r.Context(), id, a.ID)
	default:
		return kit.ErrNotFound
	}
	switch {
	case errors.Is(err, store.ErrNotOwner):
		return kit.ErrNotOwner
	case errors.Is(err, store.ErrModerated):
		// Refused, and the list below says why beside the run.
		return s.renderMyRunsAs(w, r, a, http.StatusForbidden, l.T("acct.runs.error.moderated", map[string]any{"ID": id}))
	case err != nil:
		return err
	}
	s.Log.Info("run "+action, "run", id, "submitter", a.Handle)
	return s.renderMyRuns(w, r, a, l.T("acct.runs.done_"+action, map[string]any{"ID": id}))
}

// renderMyRuns renders /account/runs with an optional notice.
func (s *Handlers) renderMyRuns(w http.ResponseWriter, r *http.Request, a *store.Account, notice string) error {
	return s.renderMyRunsAs(w, r, a, http.StatusOK, notice)
}

// renderMyRunsAs is renderMyRuns answering status: a refusal shows the
// list with its reason.
func (s *Handlers) renderMyRunsAs(w http.ResponseWriter, r *http.Request, a *store.Account, status int, notice string) error {
	list, err := s.store.ListOwnRuns(r.Context(), a.ID)
	if err != nil {
		return err
	}
	l := i18n.FromContext(r.Context())
	v := templates.MyRunsView{Notice: notice, Claimable: kit.Claimable(r)}
	for _, o := range list {
		hw := o.GPUName
		if o.GPUCount > 1 {
			hw = l.T("acct.runs.gpus", map[string]any{"Count": o.GPUCount, "GPU": o.GPUName})
		}
		title := strings.TrimSpace(o.ModelID + " · " + hw + " · " + strings.TrimSpace(catalog.Engine(o.EngineName).Name+" "+o.Version))
		row := templates.MyRun{ID: o.ID, Title: title, Uploaded: report.Timestamp(o.UploadedAt), Hidden: o.Hidden,
			Moderated: o.Moderated, ModerationReason: o.ModerationReason}
		if o.EditedAt != nil {
			row.Edited = report.Timestamp(*o.EditedAt)
		}
		v.Runs = append(v.Runs, row)
	}
	w.Header().Set("Cache-Control", "no-store")
	return kit.Render(w, r, status, templates.MyRunsPage(s.PrivateBase(r, l.T("acct.runs.title", nil)), v))
}

// EditRunForm is GET /account/runs/{id}/edit.
func (s *Handlers) EditRunForm(w http.ResponseWriter, r *http.Request) error {
	a, err := s.RequireAccount(w, r)
	if err != nil {
		return err
	}
	rn, err := s.ownRun(r, a)
	if err != nil {
		return err
	}
	e := run.MetaEdit{OS: rn.Hardware.OS, Driver: rn.Hardware.Driver, Backend: rn.Engine.Backend, Build: rn.Engine.Build,
		LaunchCommand: rn.Engine.LaunchCommand, ServedModel: rn.Model.ServedName, Revision: rn.Model.Revision}
	values := map[string]string{"os": e.OS, "driver": e.Driver, "backend": e.Backend, "build": e.Build,
		"launch_command": e.LaunchCommand, "served_model": e.ServedModel, "revision": e.Revision}
	return s.renderEditRun(w, r, rn, http.StatusOK, templates.UploadForm{Values: values})
}

// EditRunSubmit is POST /account/runs/{id}/edit: the fields are checked as
// an upload's; a refused edit shows the form again with the problems.
func (s *Handlers) EditRunSubmit(w http.ResponseWriter, r *http.Request) error {
	a, err := s.RequireAccount(w, r)
	if err != nil {
		return err
	}
	rn, err := s.ownRun(r, a)
	if err != nil {
		return err
	}
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10) // the launch command may be long
	if err := r.ParseForm(); err != nil {
		return &kit.HTTPError{Status: http.StatusBadRequest, Key: "error.invalid"}
	}
	e, err := ingest.ParseEdit(r.PostForm.Get)
	if pe, ok := problem.As(err); ok {
		form := templates.UploadForm{Values: map[string]string{}, Errors: map[string][]string{}}
		for _, f := range ingest.EditableFields {
			form.Values[f] = r.PostForm.Get(f)
		}
		l := i18n.FromContext(r.Context())
		for _, p := range pe.Problems {
			form.Errors[p.Path] = append(form.Errors[p.Path], l.T(p.Key, p.Data))
		}
		return s.renderEditRun(w, r, rn, kit.StatusOf(pe), form)
	}
	if err != nil {
		return err
	}
	if err := s.store.EditOwnRun(r.Context(), rn.ID, a.ID, e); err != nil {
		if errors.Is(err, store.ErrNotOwner) {
			return kit.ErrNotOwner
		}
		return err
	}
	s.Log.Info("run edited", "run", rn.ID, "submitter", a.Handle)
	http.Redirect(w, r, paths.Run(rn.ID), http.StatusSeeOther)
	return nil
}

// ownRun loads the run of the address when it is a's (uploaded verified
// under a's handle); another's is 403.
func (s *Handlers) ownRun(r *http.Request, a *store.Account) (*run.Run, error) {
	id := chi.URLParam(r, "id")
	if !kit.ValidID(id) {
		return nil, kit.ErrNotFound
	}
	rn, err := s.store.GetRun(r.Context(), id)
	if err != nil {
		return nil, s.GoneOr(r, id, err)
	}
	if !rn.SubmitterVerified || !strings.EqualFold(rn.Submitter, a.Handle) {
		return nil, kit.ErrNotOwner
	}
	return rn, nil
}

func (s *Handlers) renderEditRun(w http.ResponseWriter, r *http.Request, rn *run.Run, status int, form templates.UploadForm) error {
	l := i18n.FromContext(r.Context())
	v := templates.EditRunView{ID: rn.ID, Title: report.Title(rn, l), Form: form, Fields: templates.FieldsNamed(ingest.EditableFields)}
	w.Header().Set("Cache-Control", "no-store")
	return kit.Render(w, r, status, templates.EditRunPage(s.PrivateBase(r, l.T("acct.edit.title", nil)), v))
}
