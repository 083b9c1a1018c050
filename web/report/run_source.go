package report

import (
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// RunSource is GET /runs/{id}/source: the document the run came from, byte for
// byte, so any number on the site can be traced to the field it came from.
// An archive (a many-file run) is served rebuilt by archive.Safe, as a zip
// of its regular files under their base names: the same files, nothing
// that unpacks outside its folder or links elsewhere.
func (s *Handlers) RunSource(w http.ResponseWriter, r *http.Request) error {
	id := chi.URLParam(r, "id")
	if !kit.ValidID(id) {
		return kit.ErrNotFound
	}
	body, src, err := s.store.GetSource(r.Context(), id)
	if err != nil {
		return err
	}
	ct, ext, etag := src.ContentType, ".json", src.SHA256
	if ct == "" {
		ct = "application/json"
	}
	name := path.Base(src.Filename)
	if name == "" || name == "." || name == "/" {
		name = "speedmatrix-" + id
		if !archive.IsArchiveType(ct) {
			name += ext
		}
	}
	rebuild := archive.IsArchiveType(ct)
	if rebuild {
		// The rebuilt zip is a function of the stored bytes, so its ETag
		// is theirs, marked: a revalidation costs no rebuild.
		ct, etag, name = "application/zip", etag+"-zip", zipName(name)
	}
	h := w.Header()
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	if kit.NotModified(w, r, `"`+etag+`"`) {
		return nil
	}
	if rebuild {
		if body, err = archive.Safe(body); err != nil {
			return err // it was read at upload: a stored archive that no longer reads is a bug
		}
	}
	h.Set("Content-Type", ct)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	_, err = w.Write(body)
	return err
}

// zipName is an archive's file name with the extension of the zip served
// in its place: "sweep.tar.gz" → "sweep.zip".
func zipName(name string) string {
	for _, ext := range []string{".tar.gz", ".tgz", ".tar", ".zip"} {
		if strings.HasSuffix(name, ext) {
			return strings.TrimSuffix(name, ext) + ".zip"
		}
	}
	return name + ".zip"
}
