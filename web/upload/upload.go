package upload

import (
	"errors"
	"net/http"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/templates"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// Form is GET /upload: step 1, the file.
func (s *Handlers) Form(w http.ResponseWriter, r *http.Request) error {
	a, err := s.SignedInAccount(r)
	if err != nil {
		return err
	}
	if a == nil && s.Uploads.RefuseAnonymous {
		return s.renderUploadSignIn(w, r, http.StatusOK)
	}
	form := templates.UploadForm{Discarded: r.URL.Query().Has("discarded")}
	if a != nil {
		if err := s.fillUploadAs(r, &form, kit.UploaderID{Handle: a.Handle, AccountID: a.ID}, ""); err != nil {
			return err
		}
	}
	return s.renderUpload(w, r, http.StatusOK, form)
}

// Submit is POST /upload: the file is read, parsed and derived by the
// same ingest as every door, and parsed only here (the draft keeps it). A refused file shows the form again with its
// problems; an accepted one is kept as a draft of this browser and the
// answer leads to its preview (303). Fields sent with the file (a script,
// an older form) are kept for the preview, where their problems show.
func (s *Handlers) Submit(w http.ResponseWriter, r *http.Request) error {
	who, err := s.FormUploader(w, r) // session or token, anonymous policy, rate (web/kit/uploader.go)
	if errors.Is(err, kit.ErrAnonymous) {
		return s.renderUploadSignIn(w, r, http.StatusUnauthorized)
	}
	if err != nil {
		return err
	}
	up, err := readUpload(w, r)
	as := up.Fields[uploadAsField]
	delete(up.Fields, uploadAsField)
	if err == nil {
		who, err = s.uploadFor(r, who, as)
	}
	var doc *ingest.Document
	if err == nil {
		// The upload's one parse: the draft keeps it for its preview and
		// its publication.
		doc, err = ingest.Read(up.Files)
	}
	if err == nil {
		_, _, err = ingest.Prepare(ingest.Upload{Doc: doc}, s.Now())
	}
	if err != nil {
		pe, ok := problem.As(err)
		if !ok {
			return err
		}
		form := refusedForm(r, pe, map[string]string{})
		if err := s.fillUploadAs(r, &form, who, as); err != nil {
			return err
		}
		return s.renderUpload(w, r, kit.StatusOf(pe), form)
	}
	now := s.Now()
	d := &store.Draft{ID: randomKey(), Owner: s.draftOwner(w, r, true), Account: who.Handle, Org: who.Org,
		Files: up.Files, Parsed: doc.Keep(s.Version), Fields: up.Fields, CreatedAt: now, ExpiresAt: now.Add(draftTTL)}
	if err := s.store.InsertDraft(r.Context(), d); err != nil {
		return err
	}
	http.Redirect(w, r, paths.Draft(d.ID), http.StatusSeeOther)
	return nil
}

// refusedForm words a refusal for a form: each problem beside its field,
// the document's problems beside the file input with the JSON path that
// locates them, the rest above the form; values are what the user typed.
func refusedForm(r *http.Request, pe *problem.Error, values map[string]string) templates.UploadForm {
	form := templates.UploadForm{Values: values, Errors: map[string][]string{}}
	l := i18n.FromContext(r.Context())
	for _, p := range pe.Problems {
		msg := l.T(p.Key, p.Data)
		switch {
		case isField(p.Path):
			form.Errors[p.Path] = append(form.Errors[p.Path], msg)
		case strings.HasPrefix(p.Path, "$"):
			form.Errors["file"] = append(form.Errors["file"], p.Path+": "+msg)
		default:
			form.General = append(form.General, msg)
		}
	}
	return form
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

func (s *Handlers) renderUpload(w http.ResponseWriter, r *http.Request, status int, form templates.UploadForm) error {
	l := i18n.FromContext(r.Context())
	w.Header().Set("Cache-Control", "no-store")
	// A refused upload says so in the title: it is the first thing a
	// screen reader reads of the page that comes back.
	title := l.T("upload.title", nil)
	if form.Refused() {
		title = l.T("upload.title_refused", nil)
	}
	return kit.Render(w, r, status, templates.UploadPage(s.Base(r, title, l.T("upload.step1.intro", nil)), form))
}
