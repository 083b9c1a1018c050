package upload

import (
	"errors"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/speedmatrix/speedmatrix/internal/chart"
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

// DraftPage is GET /upload/drafts/{id}: step 2, the preview. A published
// draft leads to its run.
func (s *Handlers) DraftPage(w http.ResponseWriter, r *http.Request) error {
	d, err := s.ownDraft(r)
	if err != nil {
		return err
	}
	if d.PublishedRun != "" {
		http.Redirect(w, r, publishedURL(d.PublishedRun), http.StatusSeeOther)
		return nil
	}
	doc, err := s.draftDocument(d)
	if err != nil {
		return err
	}
	return s.renderDraft(w, r, d, doc, draftAnswer{status: http.StatusOK, fields: d.Fields})
}

// DraftSubmit is POST /upload/drafts/{id}: the fields typed on the preview
// are kept; "publish" stores the run through the ingest and leads to its
// report with the Share panel in view, anything else shows the preview
// again with them. A refusal shows the preview with its problems (422),
// and so does a draft its account must sign in to publish (403,
// draftPublisher). A draft already published, or a document already
// stored, leads to the existing run, as the API's 200 does.
func (s *Handlers) DraftSubmit(w http.ResponseWriter, r *http.Request) error {
	d, err := s.ownDraft(r)
	if err != nil {
		return err
	}
	if d.PublishedRun != "" {
		http.Redirect(w, r, publishedURL(d.PublishedRun), http.StatusSeeOther)
		return nil
	}
	doc, err := s.draftDocument(d)
	if err != nil {
		return err
	}
	fromFile := doc.Fields()
	r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
	if err := r.ParseForm(); err != nil {
		return &kit.HTTPError{Status: http.StatusBadRequest, Key: "error.invalid"}
	}
	typed := map[string]string{}
	for _, f := range ingest.MetaFields {
		if v := r.PostForm.Get(f.Name); v != "" {
			typed[f.Name] = v
		}
	}
	fields := ingest.Changed(fromFile, typed)
	if err := s.store.SetDraftFields(r.Context(), d.ID, fields); err != nil {
		return err
	}
	up := ingest.Upload{Doc: doc, Fields: fields, Account: d.Account, Org: run.Org{Slug: d.Org}}
	if r.PostForm.Get("action") != "publish" {
		if _, _, err := ingest.Prepare(up, d.CreatedAt); err != nil {
			return s.renderDraftRefusal(w, r, d, doc, fields, err)
		}
		http.Redirect(w, r, paths.Draft(d.ID), http.StatusSeeOther)
		return nil
	}
	up.Account, err = s.draftPublisher(w, r, d)
	if errors.Is(err, errNotPublisher) {
		return s.renderDraft(w, r, d, doc, signInToPublish(d, fields))
	}
	if err != nil {
		return err
	}
	res, err := s.Ingest(r.Context(), up)
	if err != nil {
		return s.renderDraftRefusal(w, r, d, doc, fields, err)
	}
	if err := s.store.PublishDraft(r.Context(), d.ID, res.ID); err != nil {
		return err
	}
	if d.Account == "" && res.Created {
		// This browser may claim the run for an account later.
		if err := s.GiveClaim(w, r, res.ID); err != nil {
			return err
		}
	}
	http.Redirect(w, r, publishedURL(res.ID), http.StatusSeeOther)
	return nil
}

// DraftDiscard is POST /upload/drafts/{id}/discard: the draft is deleted
// and the browser goes back to step 1, which says so.
func (s *Handlers) DraftDiscard(w http.ResponseWriter, r *http.Request) error {
	id := chi.URLParam(r, "id")
	owners, err := s.draftOwners(r)
	if err != nil {
		return err
	}
	if !validDraftID(id) || len(owners) == 0 {
		return kit.ErrNotFound
	}
	if err := s.store.DeleteDraft(r.Context(), id, owners); err != nil {
		return err
	}
	http.Redirect(w, r, "/upload?discarded=1", http.StatusSeeOther)
	return nil
}

// ownDraft is the draft the address names, if it is this browser's (or
// its signed-in account's, draftOwners) and has not expired; anything else
// is not found, so an address tells a stranger nothing.
func (s *Handlers) ownDraft(r *http.Request) (*store.Draft, error) {
	id := chi.URLParam(r, "id")
	owners, err := s.draftOwners(r)
	if err != nil {
		return nil, err
	}
	if !validDraftID(id) || len(owners) == 0 {
		return nil, kit.ErrNotFound
	}
	return s.store.GetDraft(r.Context(), id, owners, s.Now())
}

// draftDocument is the draft's files as parsed when the draft was made,
// so its preview and its publication do not parse them again. A draft
// whose parse was not kept (made before parses were, or by another build
// of the server) is parsed here.
func (s *Handlers) draftDocument(d *store.Draft) (*ingest.Document, error) {
	return ingest.Reopen(d.Files, d.Parsed, s.Version)
}

// publishedURL is a published run's report with its Share panel in view.
func publishedURL(id string) string { return paths.Run(id) + "#share" }

func (s *Handlers) renderDraftRefusal(w http.ResponseWriter, r *http.Request, d *store.Draft, doc *ingest.Document, fields map[string]string, err error) error {
	pe, ok := problem.As(err)
	if !ok {
		return err
	}
	return s.renderDraft(w, r, d, doc, draftAnswer{status: kit.StatusOf(pe), fields: fields, refused: pe})
}

// draftAnswer is how a preview answers: its status, the fields given so
// far, why a publication was refused, and, when its account must sign in
// to publish it, who.
type draftAnswer struct {
	status   int
	fields   map[string]string
	refused  *problem.Error
	signInAs string
}

// renderDraft shows the preview: the run as it will be published with the
// fields given so far, or, when those are refused, as the file alone
// makes it, beside the refused fields and their problems.
func (s *Handlers) renderDraft(w http.ResponseWriter, r *http.Request, d *store.Draft, doc *ingest.Document, a draftAnswer) error {
	status, fields, pe := a.status, a.fields, a.refused
	l := i18n.FromContext(r.Context())
	fromFile := doc.Fields()
	// The preview names the organisation as the report will.
	var org run.Org
	var err error
	if d.Org != "" {
		if org, err = s.store.OrgNamed(r.Context(), d.Org); err != nil {
			return err
		}
	}
	rn, _, err := ingest.Prepare(ingest.Upload{Doc: doc, Fields: fields, Account: d.Account, Org: org}, d.CreatedAt)
	if err != nil {
		if pe == nil {
			if pe, _ = problem.As(err); pe == nil {
				return err
			}
		}
		if rn, _, err = ingest.Prepare(ingest.Upload{Doc: doc, Account: d.Account, Org: org}, d.CreatedAt); err != nil {
			return err
		}
	}
	form := templates.UploadForm{Values: copyFields(fields)}
	if pe != nil {
		form = refusedForm(r, pe, copyFields(fields))
	}
	names := make([]string, len(d.Files))
	for i, f := range d.Files {
		names[i] = f.Name
	}
	view := report.Build(rn, l)
	title := l.T("draft.title", map[string]any{"Title": view.Title})
	if form.Refused() {
		title = l.T("draft.title_refused", map[string]any{"Title": view.Title})
	}
	b := s.PrivateBase(r, title)
	w.Header().Set("Cache-Control", "no-store")
	df := templates.NewDraftForm(d.ID, names, fromFile, form, report.PreviewNotices(rn, l))
	if a.signInAs != "" {
		df.SignInAs, df.SignIn = a.signInAs, kit.LoginURL(paths.Draft(d.ID))
	}
	return kit.Render(w, r, status, templates.DraftPage(b, df, view, chart.ForRun(l, rn)))
}

func copyFields(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
