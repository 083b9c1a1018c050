package site

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/cespare/xxhash/v2"
	"github.com/klauspost/compress/gzip"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// pageCache keeps every cached answer (cachepolicy.go says which) as
// bytes ready to send, bounded in bytes (see lru).
type pageCache = lru[*cachedPage]

// gzipLevel is the cold path's compression. On the seed-sized report
// (49 KB) level 1 gives 9.8 KB against level 6's 8.3 KB and level 9's
// 8.2 KB, in a fraction of the time: on a miss the compressing, not the
// sending, is what the reader waits for. klauspost/compress writes the
// same format as compress/gzip at about twice the speed at this level,
// with a smaller state to pool.
const gzipLevel = gzip.BestSpeed

// brotliLevel is brotli's, made once per page on the first request that
// takes brotli (browsers), so it can afford more.
const brotliLevel = 5

// Compressors are large (about a megabyte of state for gzip); reusing them
// keeps a miss from allocating and zeroing one each time.
var (
	gzipWriters   = sync.Pool{New: func() any { w, _ := gzip.NewWriterLevel(nil, gzipLevel); return w }}
	brotliWriters = sync.Pool{New: func() any { return brotli.NewWriterLevel(nil, brotliLevel) }}
)

// cachedPage is one answer: its headers, and its body compressed when the
// type compresses (HTML, JSON, CSV, text, SVG, XML), kept only so (an
// identity reader is served by decompressing), else as is.
type cachedPage struct {
	key    string
	header http.Header // what the handler set, to send again
	etag   string      // strong, of the bytes kept (tagOf), without quotes
	// gzTag is the gzip representation's ETag; it and its Content-Length
	// are made once as header values rather than on every hit.
	gzTag                     string
	gzTagValue, gzLengthValue []string
	built                     time.Time
	stamp                     stamp // what it was built from (cachepolicy.go)

	plain []byte // the body, when it does not compress
	gz    []byte // the body gzipped, when it does

	brOnce sync.Once
	br     []byte
}

func newPageCache(maxBytes int) *pageCache {
	return newLRU(maxBytes, func(p *cachedPage) int { return len(p.plain) + len(p.gz) + len(p.key) + 512 })
}

// newCachedPage keeps a copy of body as the answer to key.
func newCachedPage(key string, header http.Header, body []byte, st stamp) (*cachedPage, error) {
	p := &cachedPage{key: key, header: header, built: time.Now(), stamp: st}
	if !compressible(header.Get("Content-Type")) {
		p.plain = bytes.Clone(body)
		p.etag = tagOf(p.plain)
		return p, nil
	}
	buf := kit.GetBuffer()
	defer kit.PutBuffer(buf)
	zw := gzipWriters.Get().(*gzip.Writer)
	defer gzipWriters.Put(zw)
	zw.Reset(buf)
	if _, err := zw.Write(body); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	p.gz = bytes.Clone(buf.Bytes())
	// The tag is of the gzip bytes, which one body at one level always
	// gives alike, so it names the body as well, for a fifth of the hashing.
	p.etag = tagOf(p.gz)
	p.gzTag = `"` + p.etag + `-gz"`
	p.gzTagValue, p.gzLengthValue = fixed(p.gzTag), fixed(strconv.Itoa(len(p.gz)))
	return p, nil
}

// tagOf is the strong ETag (without quotes) of the bytes kept: their
// 64-bit xxHash. A tag only has to tell one version of a page from
// another, which the server itself made; SHA-256 of a report's gzip bytes
// was 5 % of a miss's instructions, this a few thousand. Every instance
// hashes alike, so a tag from one revalidates at another.
func tagOf(kept []byte) string {
	var sum [8]byte
	binary.BigEndian.PutUint64(sum[:], xxhash.Sum64(kept))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// compressible reports whether a type gains from compression.
func compressible(contentType string) bool {
	t, _, _ := strings.Cut(contentType, ";")
	t = strings.TrimSpace(t)
	return strings.HasPrefix(t, "text/") || t == "application/json" || t == "image/svg+xml" ||
		t == "application/xml" || strings.HasSuffix(t, "+json") || strings.HasSuffix(t, "+xml")
}

// identity returns the uncompressed body.
func (p *cachedPage) identity() ([]byte, error) {
	if p.gz == nil {
		return p.plain, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(p.gz))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// brotli returns the body in brotli, made on first use; grown tells the
// caller how many bytes were added.
func (p *cachedPage) brotli() (body []byte, grown int) {
	p.brOnce.Do(func() {
		plain, err := p.identity()
		if err != nil {
			return
		}
		var buf bytes.Buffer
		bw := brotliWriters.Get().(*brotli.Writer)
		defer brotliWriters.Put(bw)
		bw.Reset(&buf)
		if _, err := bw.Write(plain); err == nil && bw.Close() == nil {
			p.br = bytes.Clone(buf.Bytes())
			grown = len(p.br)
		}
	})
	return p.br, grown
}

// representation picks the encoding for r and the body and strong ETag
// that go with it.
func representation(c *pageCache, p *cachedPage, r *http.Request) (enc string, body []byte, etag string, err error) {
	if p.gz == nil {
		return "", p.plain, `"` + p.etag + `"`, nil
	}
	ae := r.Header.Get("Accept-Encoding")
	if accepts(ae, "br") {
		if br, grown := p.brotli(); br != nil {
			if grown > 0 {
				c.grow(p.key, grown)
			}
			return "br", br, `"` + p.etag + `-br"`, nil
		}
	}
	if accepts(ae, "gzip") {
		return "gzip", p.gz, p.gzTag, nil
	}
	body, err = p.identity()
	return "", body, `"` + p.etag + `"`, err
}

// servePage answers r with p: 304 when the client has it, else the body
// in the best encoding the client takes.
func (s *Server) servePage(w http.ResponseWriter, r *http.Request, p *cachedPage) error {
	enc, body, etag, err := representation(s.pages, p, r)
	if err != nil {
		return err
	}
	h := w.Header()
	p.applyHeader(h)
	if p.gz != nil {
		addVaryEncoding(h)
	}
	tag, length := p.gzTagValue, p.gzLengthValue // made once, the common case
	if enc != "gzip" {
		tag, length = []string{etag}, []string{strconv.Itoa(len(body))}
	}
	if kit.NotModifiedTag(w, r, etag, tag) {
		return nil
	}
	if enc != "" {
		h["Content-Encoding"] = encodingValues[enc]
	}
	h["Content-Length"] = length
	w.WriteHeader(http.StatusOK)
	_, err = w.Write(body)
	return err
}

// encodingValues are the Content-Encoding values of the cached pages.
var encodingValues = map[string][]string{"gzip": fixed("gzip"), "br": fixed("br")}

// varyLanguageEncoding is varyLanguage and Accept-Encoding, made once.
var varyLanguageEncoding = []string{"Accept-Language", "Cookie", "Accept-Encoding"}[:3:3]

// addVaryEncoding adds Accept-Encoding to h's Vary: a page cached in
// several encodings varies on it too.
func addVaryEncoding(h http.Header) {
	if v := h["Vary"]; len(v) == len(varyLanguage) && &v[0] == &varyLanguage[0] {
		h["Vary"] = varyLanguageEncoding
		return
	}
	h.Add("Vary", "Accept-Encoding")
}

// accepts reads Accept-Encoding well enough for real clients: coding
// listed and not refused with q=0.
func accepts(header, coding string) bool {
	for rest := header; rest != ""; {
		var part string
		part, rest, _ = strings.Cut(rest, ",") // not Split: every hit asks, twice
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), coding) {
			q := strings.ReplaceAll(params, " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}

// applyHeader sets on h what the page's handler set, and removes what it
// removed (nil values, see recorder.changedHeader).
func (p *cachedPage) applyHeader(h http.Header) {
	for k, v := range p.header {
		if v == nil {
			h.Del(k)
		} else {
			h[k] = v
		}
	}
}
