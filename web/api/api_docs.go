package api

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/templates"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// openAPIDoc is the API's OpenAPI 3.1 description, written by hand next to
// the handlers it describes; TestOpenAPI checks it against the router and
// every answer against it.
//
//go:embed api_docs_openapi.json
var openAPIDoc []byte

var openAPIETag = func() string {
	sum := sha256.Sum256(openAPIDoc)
	return `"` + hex.EncodeToString(sum[:8]) + `"`
}()

// OpenAPI is GET /api/openapi.json, open to every origin.
func (s *Handlers) OpenAPI(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Cache-Control", "public, max-age=3600")
	if kit.NotModified(w, r, openAPIETag) {
		return
	}
	h.Set("Content-Type", "application/json; charset=utf-8")
	_, _ = w.Write(openAPIDoc)
}

// apiOperation is an operation of the document with its English summary.
type apiOperation struct {
	templates.APIOperation
	ID string
}

// apiOperations lists the document's operations, path by path, in the
// order of the methods below; their summaries are worded per language as
// "account.docs.op.<operationId>", else the document's English summary.
var apiOperations = func() []apiOperation {
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(openAPIDoc, &doc); err != nil {
		panic("api_docs_openapi.json: " + err.Error())
	}
	var ops []apiOperation
	for _, path := range slices.Sorted(func(yield func(string) bool) {
		for p := range doc.Paths {
			if !yield(p) {
				return
			}
		}
	}) {
		for _, method := range []string{"get", "post", "delete"} {
			raw, ok := doc.Paths[path][method]
			if !ok {
				continue
			}
			var op struct {
				OperationID string `json:"operationId"`
				Summary     string `json:"summary"`
			}
			_ = json.Unmarshal(raw, &op)
			ops = append(ops, apiOperation{ID: op.OperationID,
				APIOperation: templates.APIOperation{Method: strings.ToUpper(method), Path: path, Summary: op.Summary}})
		}
	}
	return ops
}()

// apiStatuses are the statuses the guide explains.
var apiStatuses = []int{400, 401, 403, 404, 413, 415, 422, 429}

// DocsPage is GET /docs/api, the readable guide in the reader's language.
func (s *Handlers) DocsPage(w http.ResponseWriter, r *http.Request) error {
	l := i18n.FromContext(r.Context())
	d := templates.APIDocs{Origin: s.Origin(r), Anonymous: !s.Uploads.RefuseAnonymous,
		PerHourAddress: s.Uploads.PerHourAddress, PerHourToken: s.Uploads.PerHourToken}
	for _, op := range apiOperations {
		if id := "account.docs.op." + op.ID; l.T(id, nil) != id {
			op.Summary = l.T(id, nil)
		}
		d.Operations = append(d.Operations, op.APIOperation)
	}
	statuses := make([]templates.APIErrorStatus, 0, len(apiStatuses))
	for _, code := range apiStatuses {
		statuses = append(statuses, templates.APIErrorStatus{Code: code,
			Meaning: l.T("account.docs.status."+strconv.Itoa(code), nil)})
	}
	w.Header().Set("Cache-Control", "no-cache")
	b := s.Base(r, l.T("account.docs.title", nil), l.T("account.docs.intro", nil))
	return kit.Render(w, r, http.StatusOK, templates.DocsAPIPage(b, d, statuses))
}
