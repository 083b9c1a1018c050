package web

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"strconv"
	"strings"
)

// pageCache keeps rendered report pages, plain and gzipped (see lru).
// Rendering the seed report costs about half a millisecond and gzip as much
// again; serving cached bytes costs neither.
type pageCache = lru[*cachedPage]

type cachedPage struct {
	key      string
	html, gz []byte
}

func newPageCache(maxBytes int) *pageCache {
	return newLRU(maxBytes, func(p *cachedPage) int { return len(p.html) + len(p.gz) })
}

// newCachedPage gzips html once, for every later reader.
func newCachedPage(key string, html []byte) (*cachedPage, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(html); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return &cachedPage{key: key, html: html, gz: buf.Bytes()}, nil
}

// write sends the page, gzipped when the client takes gzip.
func (p *cachedPage) write(w http.ResponseWriter, r *http.Request) error {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Add("Vary", "Accept-Encoding")
	body := p.html
	if acceptsGzip(r) {
		h.Set("Content-Encoding", "gzip")
		body = p.gz
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(body)
	return err
}

// acceptsGzip reads Accept-Encoding well enough for real clients: gzip
// listed and not refused with q=0.
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") {
			q := strings.ReplaceAll(params, " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}
