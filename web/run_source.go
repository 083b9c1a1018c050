package web

import (
	"mime"
	"net/http"
	"path"
	"strconv"

	"github.com/go-chi/chi/v5"
)

// runSource is GET /runs/{id}/source: the document the run came from, byte for
// byte, so any number on the site can be traced to the field it came from.
func (s *Server) runSource(w http.ResponseWriter, r *http.Request) error {
	id := chi.URLParam(r, "id")
	if !validID(id) {
		return errNotFound
	}
	body, src, err := s.store.GetSource(r.Context(), id)
	if err != nil {
		return err
	}
	// A many-file run's source is the zip or tar of its files.
	ct, ext := src.ContentType, ".json"
	switch ct {
	case "":
		ct = "application/json"
	case "application/zip":
		ext = ".zip"
	case "application/x-tar":
		ext = ".tar"
	}
	name := path.Base(src.Filename)
	if name == "" || name == "." || name == "/" {
		name = "speedmatrix-" + id + ext
	}
	h := w.Header()
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	if notModified(w, r, `"`+src.SHA256+`"`) {
		return nil
	}
	h.Set("Content-Type", ct)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	_, err = w.Write(body)
	return err
}
