package kit

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/problem"
)

// apiError is the one error format of the API.
type apiError struct {
	Error    string       `json:"error"`
	Problems []apiProblem `json:"problems"`
}

type apiProblem struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

// WriteJSON writes v with status; the body is built first so an encoding
// failure is a clean 500.
func WriteJSON(w http.ResponseWriter, status int, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, err := w.Write(buf.Bytes())
	return err
}

// WriteProblemJSON answers a refusal in the API's error format: a summary
// line and every problem with where it is, in the reader's language.
func WriteProblemJSON(w http.ResponseWriter, r *http.Request, pe *problem.Error) {
	l := i18n.FromContext(r.Context())
	body := apiError{Problems: make([]apiProblem, 0, len(pe.Problems))}
	for _, p := range pe.Problems {
		body.Problems = append(body.Problems, apiProblem{Path: p.Path, Message: problemMessage(l, p)})
	}
	body.Error = summary(l, body.Problems)
	_ = WriteJSON(w, StatusOf(pe), body)
}

// WriteJSONError answers status in the API's error format with the
// message key's text and no problems.
func WriteJSONError(w http.ResponseWriter, r *http.Request, status int, key string, data map[string]any) {
	l := i18n.FromContext(r.Context())
	_ = WriteJSON(w, status, apiError{Error: l.T(key, data), Problems: []apiProblem{}})
}

// problemMessage words one problem in the reader's language.
func problemMessage(l *i18n.Localizer, p problem.Problem) string {
	return l.T(p.Key, p.Data)
}

// summary is the "error" line: the first problem with where it is, and how
// many more there are.
func summary(l *i18n.Localizer, ps []apiProblem) string {
	if len(ps) == 0 {
		return ""
	}
	first := ps[0].Message
	if ps[0].Path != "" {
		first = ps[0].Path + ": " + first
	}
	if len(ps) == 1 {
		return first
	}
	return l.N("problem.summary_more", len(ps)-1, map[string]any{"First": first})
}
