package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"
)

// request is one request asked of both servers alike.
type request struct {
	method string
	path   string // path and query, as the site prints them
	header http.Header
	body   []byte
}

// answer is what one server said, its random parts replaced.
type answer struct {
	Status int               `json:"status"`
	Header map[string]string `json:"header"`
	// Framing is how the body's end was told: "length" (Content-Length),
	// "chunked", or "none" (the connection's end). It is compared apart:
	// the same bytes framed otherwise are the same answer.
	Framing string `json:"framing"`
	Hash    string `json:"hash"`
	Len     int    `json:"len"`
	// Extra is what the second looks at a sampled address found: the
	// gzip answer against the plain one, If-None-Match, HEAD.
	Extra    string `json:"extra,omitempty"`
	Err      string `json:"err,omitempty"`
	body     []byte // normalised
	raw      []byte // as received
	etag     string // as received, for If-None-Match
	location string // as received, to follow
}

// newClient is a client that sees each answer as sent: no redirect
// followed, no encoding undone, jar (may be nil) keeping a browser's
// cookies.
func newClient(jar http.CookieJar) *http.Client {
	return &http.Client{
		Timeout:       2 * time.Minute,
		Jar:           jar,
		Transport:     &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: 8},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// do asks s for rq under host, with Accept-Encoding identity unless rq
// names another.
func do(cl *http.Client, s side, host string, rq request) answer {
	req, err := http.NewRequest(rq.method, s.url, bytes.NewReader(rq.body))
	if err != nil {
		return answer{Err: err.Error()}
	}
	// The address goes out as written, a bad escape too (a client may
	// send one): Opaque is not parsed again. Path is for the cookie jar,
	// which matches a cookie's path against it.
	path, query, _ := strings.Cut(rq.path, "?")
	req.URL.Opaque, req.URL.Path, req.URL.RawQuery = path, path, query
	req.Host = host
	req.Header.Set("Accept-Encoding", "identity")
	req.Header.Set("User-Agent", "speedmatrix-crawldiff")
	for k, v := range rq.header {
		req.Header[k] = v
	}
	res, err := cl.Do(req)
	if err != nil {
		return answer{Err: strings.ReplaceAll(err.Error(), s.url, "{server}")}
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	a := answer{Status: res.StatusCode, Header: headerOf(s, res.Header), raw: raw, Framing: framing(res),
		etag: res.Header.Get("Etag"), location: res.Header.Get("Location")}
	if err != nil {
		a.Err = "body: " + err.Error()
	}
	a.body = normalise(s, raw)
	sum := sha256.Sum256(a.body)
	a.Hash, a.Len = hex.EncodeToString(sum[:8]), len(raw)
	return a
}

var (
	// draftIDs are the random ids of upload drafts, in addresses.
	draftIDs = regexp.MustCompile(`drafts/[a-z2-7]{26}`)
	// assetTags are the content hashes in static files' addresses: a
	// changed file shows once, under its own address, not on every page.
	assetTags = regexp.MustCompile(`(/static/[^"'?\s]+)\?v=[0-9a-f]+`)
	// uploadTimes are the times an upload is stored at, which its answer
	// repeats: the two servers store each a few milliseconds apart.
	uploadTimes = regexp.MustCompile(`"uploaded_at":\s*"[^"]*"`)
	// tokenPrefixes are the shown beginnings of upload tokens, random.
	tokenPrefixes = regexp.MustCompile(`lilb_[A-Za-z0-9_-]{6}`)
)

// normalise replaces what differs between the two builds by construction:
// the build's version, the random ids of drafts and tokens, static files'
// hashes and, in the answers to uploads (s.uploads), the times of the
// upload.
func normalise(s side, b []byte) []byte {
	if s.version != "" {
		b = bytes.ReplaceAll(b, []byte(s.version), []byte("{version}"))
	}
	if s.uploads {
		b = uploadTimes.ReplaceAll(b, []byte(`"uploaded_at": "{now}"`))
	}
	b = assetTags.ReplaceAll(b, []byte("$1?v={hash}"))
	b = tokenPrefixes.ReplaceAll(b, []byte("lilb_{token}"))
	return draftIDs.ReplaceAll(b, []byte("drafts/{draft}"))
}

// headerOf keeps every header but Date and Content-Length, normalised: an ETag only as
// present (and weak or not: its value names the build), a cookie by its
// name and attributes (values are random, expiry times follow the clock).
func headerOf(s side, h http.Header) map[string]string {
	m := map[string]string{}
	for k, vs := range h {
		switch k {
		case "Date", "Content-Length": // the body and its framing say it
			continue
		case "Etag":
			m[k] = "present"
			if strings.HasPrefix(vs[0], "W/") {
				m[k] = "present, weak"
			}
			continue
		case "Set-Cookie":
			vs = slices.Clone(vs)
			for i, v := range vs {
				vs[i] = cookieShape(v)
			}
		}
		m[k] = string(normalise(s, []byte(strings.Join(vs, " | "))))
	}
	return m
}

func framing(res *http.Response) string {
	switch {
	case len(res.TransferEncoding) > 0:
		return strings.Join(res.TransferEncoding, ",")
	case res.Header.Get("Content-Length") != "":
		return "length"
	default:
		return "none"
	}
}

// cookieShape is a Set-Cookie value without the cookie's value and expiry
// time.
func cookieShape(v string) string {
	parts := strings.Split(v, ";")
	name, _, _ := strings.Cut(parts[0], "=")
	out := []string{name + "=…"}
	for _, p := range parts[1:] {
		p = strings.TrimSpace(p)
		if k, _, _ := strings.Cut(p, "="); strings.EqualFold(k, "Expires") {
			p = "Expires=…"
		}
		out = append(out, p)
	}
	return strings.Join(out, "; ")
}
