package upload

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/formats/export"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// createdRun is the answer to an upload.
type createdRun struct {
	ID  string `json:"id"`
	URL string `json:"url"`
}

// CreateRun is POST /api/v1/runs: 201 with Location for a new run, 200
// with the same body for a document already stored; with ?dry_run=1 the
// run it would store, and nothing stored.
func (s *Handlers) CreateRun(w http.ResponseWriter, r *http.Request) error {
	who, err := s.Uploader(w, r) // token, anonymous policy, rate (web/kit/uploader.go)
	if err != nil {
		return err
	}
	up, err := readUpload(w, r)
	if err != nil {
		return err
	}
	// An organisation's token uploads for it; the store checks that its
	// submitter is still a member.
	up.Account, up.Org = who.Handle, run.Org{Slug: who.Org}
	if DryRun(r) {
		return s.apiDryRun(w, r, up)
	}
	res, err := s.Ingest(r.Context(), up)
	if err != nil {
		return err
	}
	url := paths.RunURL(s.Origin(r), res.ID)
	w.Header().Set("Location", url)
	status := http.StatusCreated
	if !res.Created {
		status = http.StatusOK
	}
	return kit.WriteJSON(w, status, createdRun{ID: res.ID, URL: url})
}

// DryRun reports whether an upload asks only for its preview.
func DryRun(r *http.Request) bool {
	switch strings.ToLower(r.URL.Query().Get("dry_run")) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// apiDryRun answers an upload with the run it would become: the same
// document as /runs/{id}.json without the addresses only a stored run has
// (id, url, the source's url), and "missing", the metadata fields neither
// the file nor the upload fills, in the order of the upload form. Nothing
// is stored; a refusal is the same refusal as a real upload's.
func (s *Handlers) apiDryRun(w http.ResponseWriter, r *http.Request, up ingest.Upload) error {
	// Read once for the run and for what the file says; a refused file
	// is read again by Prepare, which words its problems with the fields'.
	if doc, err := ingest.Read(up.Files); err == nil {
		up.Doc = doc
	}
	rn, _, err := ingest.Prepare(up, s.Now())
	if err != nil {
		return err
	}
	fromFile := up.Doc.Fields()
	raw, err := json.Marshal(export.New(rn, s.Origin(r)))
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // numbers go out exactly as /runs/{id}.json writes them
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		return err
	}
	delete(doc, "id")
	delete(doc, "url")
	if src, ok := doc["source"].(map[string]any); ok {
		delete(src, "url")
	}
	given := map[string]string{}
	for k, v := range up.Fields {
		if strings.TrimSpace(v) != "" {
			given[k] = v
		}
	}
	doc["missing"] = ingest.Missing(fromFile, given)
	return kit.WriteJSON(w, http.StatusOK, doc)
}
