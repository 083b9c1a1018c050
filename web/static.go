package web

import (
	"bytes"
	"compress/gzip"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"

	"github.com/speedmatrix/speedmatrix/static"
)

// staticFiles serves the embedded CSS, JS and icon. Pages link them with a
// content hash (static.URL), so such a link can be cached for good; a bare
// address gets an hour. Text files go out gzipped when the client takes
// it (acceptsGzip, pagecache.go): the stylesheet blocks the first paint, and its gzip is a quarter of
// its size.
func staticFiles() http.Handler {
	fsrv := http.StripPrefix(static.Prefix, http.FileServerFS(static.FS))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("v") != "" {
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			w.Header().Set("Cache-Control", "public, max-age=3600")
		}
		name := strings.TrimPrefix(r.URL.Path, static.Prefix)
		if gz, ok := staticGzip()[name]; ok {
			w.Header().Add("Vary", "Accept-Encoding")
			if accepts(r.Header.Get("Accept-Encoding"), "gzip") {
				h := w.Header()
				h.Set("Content-Type", mime.TypeByExtension(path.Ext(name)))
				h.Set("Content-Encoding", "gzip")
				h.Set("Content-Length", strconv.Itoa(len(gz)))
				_, _ = w.Write(gz)
				return
			}
		}
		fsrv.ServeHTTP(w, r)
	})
}

// staticGzip holds each embedded CSS and JS file compressed once: the files
// never change while the binary runs, so compressing per request would be
// wasted work.
var staticGzip = sync.OnceValue(func() map[string][]byte {
	out := map[string][]byte{}
	_ = fs.WalkDir(static.FS, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || (path.Ext(name) != ".css" && path.Ext(name) != ".js") {
			return err
		}
		b, err := static.FS.ReadFile(name)
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		_, _ = zw.Write(b)
		_ = zw.Close()
		out[name] = buf.Bytes()
		return nil
	})
	return out
})

// favicon answers /favicon.ico, which browsers and feed readers ask for at
// the root whatever the page links.
func favicon(w http.ResponseWriter, r *http.Request) {
	b, err := static.FS.ReadFile(static.Favicon)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "image/x-icon")
	h.Set("Cache-Control", "public, max-age=86400")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	_, _ = w.Write(b)
}
