package report

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// shareETag names one rendering of a run: its revision, the language, the
// build and what was rendered, so an export is never served stale or in
// another reader's language.
func (s *Handlers) shareETag(id string, rev int64, l *i18n.Localizer, kind string) string {
	return `W/"` + id + "-" + strconv.FormatInt(rev, 10) + "-" + l.Lang() + "-" + s.Version + "-" + kind + `"`
}

// revalidate sets the ETag and answers 304 when the client has this
// rendering already; it loads nothing but the revision.
func (s *Handlers) revalidate(w http.ResponseWriter, r *http.Request, id, kind string) (etag string, done bool, err error) {
	if !kit.ValidID(id) {
		return "", false, kit.ErrNotFound
	}
	rev, err := s.store.RunRevision(r.Context(), id)
	if err != nil {
		return "", false, err
	}
	etag = s.shareETag(id, rev, i18n.FromContext(r.Context()), kind)
	return etag, kit.NotModified(w, r, etag), nil
}

// loadShared is revalidate followed by loading the run.
func (s *Handlers) loadShared(w http.ResponseWriter, r *http.Request, id, kind string) (*run.Run, bool, error) {
	if _, done, err := s.revalidate(w, r, id, kind); err != nil || done {
		return nil, done, err
	}
	rn, err := s.store.GetRun(r.Context(), id)
	return rn, false, err
}

// reportURL is the report's absolute address, in l's language when l is
// given (the canonical form), bare otherwise (the permalink).

func (s *Handlers) reportURL(r *http.Request, id string, l *i18n.Localizer) string {
	u := strings.TrimSuffix(s.Origin(r), "/") + paths.Run(id)
	if l != nil {
		u += "?lang=" + url.QueryEscape(l.Lang())
	}
	return u
}
