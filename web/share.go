package web

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// shareStore is what the share area needs of the database.
type shareStore interface {
	SitemapRuns(ctx context.Context, limit int) ([]store.SitemapRun, error)
}

// shareETag names one rendering of a run: its revision, the language, the
// build and what was rendered, so an export is never served stale or in
// another reader's language.
func (s *Server) shareETag(id string, rev int64, l *i18n.Localizer, kind string) string {
	return `W/"` + id + "-" + strconv.FormatInt(rev, 10) + "-" + l.Lang() + "-" + s.version + "-" + kind + `"`
}

// revalidate sets the ETag and answers 304 when the client has this
// rendering already; it loads nothing but the revision.
func (s *Server) revalidate(w http.ResponseWriter, r *http.Request, id, kind string) (etag string, done bool, err error) {
	if !validID(id) {
		return "", false, errNotFound
	}
	rev, err := s.store.RunRevision(r.Context(), id)
	if err != nil {
		return "", false, err
	}
	etag = s.shareETag(id, rev, i18n.FromContext(r.Context()), kind)
	return etag, notModified(w, r, etag), nil
}

// loadShared is revalidate followed by loading the run.
func (s *Server) loadShared(w http.ResponseWriter, r *http.Request, id, kind string) (*run.Run, bool, error) {
	if _, done, err := s.revalidate(w, r, id, kind); err != nil || done {
		return nil, done, err
	}
	rn, err := s.store.GetRun(r.Context(), id)
	return rn, false, err
}

// reportURL is the report's absolute address, in l's language when l is
// given (the canonical form), bare otherwise (the permalink).

func (s *Server) reportURL(r *http.Request, id string, l *i18n.Localizer) string {
	u := strings.TrimSuffix(s.origin(r), "/") + paths.Run(id)
	if l != nil {
		u += "?lang=" + url.QueryEscape(l.Lang())
	}
	return u
}

// writeBody answers 200 with a body of the given type.
func writeBody(w http.ResponseWriter, contentType string, body []byte) error {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(body)
	return err
}
