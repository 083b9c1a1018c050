package web

import (
	"errors"
	"net/http"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/templates"
)

// uploadForm is GET /upload.
func (s *Server) uploadForm(w http.ResponseWriter, r *http.Request) error {
	a, err := s.signedInAccount(r)
	if err != nil {
		return err
	}
	if a == nil && s.uploads.refuseAnonymous {
		return s.renderUploadSignIn(w, r, http.StatusOK)
	}
	form := templates.UploadForm{}
	if a != nil {
		form.As = a.Handle
	}
	return s.renderUpload(w, r, http.StatusOK, form)
}

// uploadSubmit is POST /upload: the same ingest as the API. A refused upload
// shows the form again with each message next to its field and everything
// the user typed; an accepted one redirects to its report (303).
func (s *Server) uploadSubmit(w http.ResponseWriter, r *http.Request) error {
	account, err := s.formUploader(w, r) // session or token, anonymous policy, rate (accounts.go)
	if errors.Is(err, errAnonymous) {
		return s.renderUploadSignIn(w, r, http.StatusUnauthorized)
	}
	if err != nil {
		return err
	}
	up, err := readUpload(w, r)
	if err == nil {
		up.Account = account
		var res *ingest.Result
		if res, err = ingest.Ingest(r.Context(), s.store, up); err == nil {
			if account == "" && res.Created {
				// This browser may claim the run for an account later.
				if err := s.giveClaim(w, r, res.ID); err != nil {
					return err
				}
			}
			http.Redirect(w, r, paths.Run(res.ID), http.StatusSeeOther)
			return nil
		}
	}
	pe, ok := problem.As(err)
	if !ok {
		return err
	}
	form := templates.UploadForm{Values: up.Fields, Errors: map[string][]string{}, As: account}
	if form.Values == nil {
		form.Values = map[string]string{}
	}
	l := i18n.FromContext(r.Context())
	for _, p := range pe.Problems {
		msg := l.T(p.Key, p.Data)
		switch {
		case isField(p.Path):
			form.Errors[p.Path] = append(form.Errors[p.Path], msg)
		case strings.HasPrefix(p.Path, "$"):
			// A problem inside the document belongs to the file input,
			// with the JSON path that locates it.
			form.Errors["file"] = append(form.Errors["file"], p.Path+": "+msg)
		default:
			form.General = append(form.General, msg)
		}
	}
	return s.renderUpload(w, r, statusOf(pe), form)
}

func isField(name string) bool {
	if name == "file" {
		return true
	}
	for _, f := range ingest.MetaFields {
		if f.Name == name {
			return true
		}
	}
	return false
}

func (s *Server) renderUpload(w http.ResponseWriter, r *http.Request, status int, form templates.UploadForm) error {
	l := i18n.FromContext(r.Context())
	w.Header().Set("Cache-Control", "no-store")
	// A refused upload says so in the title: it is the first thing a
	// screen reader reads of the page that comes back.
	title := l.T("upload.title", nil)
	if form.Refused() {
		title = l.T("upload.title_refused", nil)
	}
	return render(w, r, status, templates.UploadPage(s.base(r, title, l.T("upload.intro", nil)), form))
}
