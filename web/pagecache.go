package web

import (
	"bytes"
	"compress/gzip"
	"container/list"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// pageCache keeps rendered report pages, plain and gzipped, keyed by their
// ETag, which names the run's revision, the language and the build: an
// entry can never be stale, only evicted. Rendering the seed report costs
// about half a millisecond and gzip as much again; serving cached bytes
// costs neither.
type pageCache struct {
	mu    sync.Mutex
	max   int
	size  int
	order *list.List // front: most recently used
	items map[string]*list.Element
}

type cachedPage struct {
	key      string
	html, gz []byte
}

func newPageCache(maxBytes int) *pageCache {
	return &pageCache{max: maxBytes, order: list.New(), items: map[string]*list.Element{}}
}

func (c *pageCache) get(key string) (*cachedPage, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*cachedPage), true
}

func (c *pageCache) put(p *cachedPage) {
	n := len(p.html) + len(p.gz)
	if n > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.items[p.key]; ok {
		return
	}
	c.items[p.key] = c.order.PushFront(p)
	c.size += n
	for c.size > c.max {
		last := c.order.Back()
		old := last.Value.(*cachedPage)
		c.order.Remove(last)
		delete(c.items, old.key)
		c.size -= len(old.html) + len(old.gz)
	}
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
