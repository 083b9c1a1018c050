package account

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/templates"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// adminStore is what moderation needs of the database.
type adminStore interface {
	AuditLog(ctx context.Context) ([]store.AuditEntry, error)
	ModerateHideRun(ctx context.Context, id, actor, reason string) error
	LiftModeration(ctx context.Context, id, actor, reason string) error
	SuspendAccount(ctx context.Context, handle, actor, reason string) error
}

var errNotAdmin = &kit.HTTPError{Status: http.StatusForbidden, Key: "admin.error.not_admin"}

// requireAdmin is requireAccount for moderators: anyone else signed in
// gets 403.
func (s *Handlers) requireAdmin(w http.ResponseWriter, r *http.Request) (*store.Account, error) {
	a, err := s.RequireAccount(w, r)
	if err != nil {
		return nil, err
	}
	if !a.Admin() {
		return nil, errNotAdmin
	}
	return a, nil
}

// AuditPage is GET /admin/audit: every moderator's act, newest first, and
// the forms to act.
func (s *Handlers) AuditPage(w http.ResponseWriter, r *http.Request) error {
	a, err := s.requireAdmin(w, r)
	if err != nil {
		return err
	}
	return s.renderAudit(w, r, a, http.StatusOK, "")
}

// AdminAct is POST /admin/hide-run, /admin/unhide-run and /admin/suspend:
// the target and a reason, both required, and the act lands in the audit
// log. Only unhide-run lifts a hide-run; the run's owner cannot.
func (s *Handlers) AdminAct(action string) kit.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		a, err := s.requireAdmin(w, r)
		if err != nil {
			return err
		}
		if err := kit.ReadForm(w, r); err != nil {
			return err
		}
		l := i18n.FromContext(r.Context())
		target, reason := strings.TrimSpace(r.PostForm.Get("target")), strings.TrimSpace(r.PostForm.Get("reason"))
		if target == "" || reason == "" {
			return s.renderAudit(w, r, a, http.StatusUnprocessableEntity, l.T("admin.error.need_reason", nil))
		}
		switch action {
		case "hide-run":
			err = s.store.ModerateHideRun(r.Context(), target, a.Handle, reason)
		case "unhide-run":
			err = s.store.LiftModeration(r.Context(), target, a.Handle, reason)
		default:
			err = s.store.SuspendAccount(r.Context(), target, a.Handle, reason)
		}
		switch {
		case errors.Is(err, store.ErrNotFound):
			return s.renderAudit(w, r, a, http.StatusNotFound, l.T("admin.error.no_target", map[string]any{"Target": target}))
		case errors.Is(err, store.ErrNotModerated):
			return s.renderAudit(w, r, a, http.StatusConflict, l.T("admin.error.not_moderated", map[string]any{"Target": target}))
		case err != nil:
			return err
		}
		s.Log.Info("moderation", "action", action, "target", target, "by", a.Handle)
		return s.renderAudit(w, r, a, http.StatusOK, l.T("admin.done."+action, map[string]any{"Target": target}))
	}
}

func (s *Handlers) renderAudit(w http.ResponseWriter, r *http.Request, a *store.Account, status int, notice string) error {
	log, err := s.store.AuditLog(r.Context())
	if err != nil {
		return err
	}
	l := i18n.FromContext(r.Context())
	v := templates.AuditView{Notice: notice}
	for _, e := range log {
		v.Entries = append(v.Entries, templates.AuditRow{When: report.Timestamp(e.At), Who: e.Actor,
			What: l.T("admin.action."+e.Action, nil), Target: e.Target, Why: e.Reason})
	}
	w.Header().Set("Cache-Control", "no-store")
	return kit.Render(w, r, status, templates.AuditPage(s.PrivateBase(r, l.T("admin.title", nil)), v))
}
