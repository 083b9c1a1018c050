package web

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/speedmatrix/speedmatrix/internal/formats/export"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/internal/paths"
)

// createdRun is the answer to an upload.
type createdRun struct {
	ID  string `json:"id"`
	URL string `json:"url"`
}

// apiCreateRun is POST /api/v1/runs: 201 with Location for a new run, 200
// with the same body for a document already stored.
func (s *Server) apiCreateRun(w http.ResponseWriter, r *http.Request) error {
	account, err := s.uploader(w, r) // token, anonymous policy, rate (accounts.go)
	if err != nil {
		return err
	}
	up, err := readUpload(w, r)
	if err != nil {
		return err
	}
	up.Account = account
	res, err := ingest.Ingest(r.Context(), s.store, up)
	if err != nil {
		return err
	}
	url := paths.RunURL(s.origin(r), res.ID)
	w.Header().Set("Location", url)
	status := http.StatusCreated
	if !res.Created {
		status = http.StatusOK
	}
	return writeJSON(w, status, createdRun{ID: res.ID, URL: url})
}

// runJSON is GET /runs/{id}.json and GET /api/v1/runs/{id}: the run as
// speedmatrix-run/1, the document every export and re-import shares.
func (s *Server) runJSON(w http.ResponseWriter, r *http.Request) error {
	id := chi.URLParam(r, "id")
	if !validID(id) {
		return errNotFound
	}
	run, err := s.store.GetRun(r.Context(), id)
	if err != nil {
		return s.goneOr(r, id, err) // 410 for a run its submitter deleted
	}
	w.Header().Set("Access-Control-Allow-Origin", "*")
	return writeJSON(w, http.StatusOK, export.New(run, s.origin(r)))
}

// validID cheaply refuses ids no run can have, before asking the database.
func validID(id string) bool {
	if len(id) == 0 || len(id) > 32 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= '2' && c <= '7') {
			return false
		}
	}
	return true
}
