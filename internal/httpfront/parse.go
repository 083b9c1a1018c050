package httpfront

import (
	"bytes"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"

	"golang.org/x/net/http/httpguts"
)

// headEnd finds the end of the request head at the start of b: the
// index just past its blank line, or -1 when b holds no whole head yet.
// lone reports a bare LF line ending, which net/http accepts and Front
// leaves to it.
func headEnd(b []byte) (end int, lone bool) {
	i := bytes.Index(b, crlfcrlf)
	scan := b
	if i >= 0 {
		scan = b[:i+2]
	}
	for j := 0; ; {
		k := bytes.IndexByte(scan[j:], '\n')
		if k < 0 {
			break
		}
		if j+k == 0 || scan[j+k-1] != '\r' {
			return -1, true
		}
		j += k + 1
	}
	if i < 0 {
		return -1, false
	}
	return i + 4, false
}

var crlfcrlf = []byte("\r\n\r\n")

// parsed is a request head as Front takes it.
type parsed struct {
	target string
	host   string
	close  bool // Connection: close
}

// parseHead reads head (a whole request head, blank line included) into
// h, and reports whether Front answers such a request: a GET of an
// origin-form target over HTTP/1.1, with exactly one valid Host, valid
// field names and values, no body, no upgrade and no expectation.
// Anything else goes to net/http, which answers it or its error.
func parseHead(head string, h http.Header, vals *[]string) (p parsed, ok bool) {
	line, rest, _ := strings.Cut(head, "\r\n")
	method, rest0, ok1 := strings.Cut(line, " ")
	target, proto, ok2 := strings.Cut(rest0, " ")
	if !ok1 || !ok2 || method != http.MethodGet || proto != "HTTP/1.1" || target == "" || target[0] != '/' {
		return p, false
	}
	p.target = target
	*vals = (*vals)[:0]
	hosts := 0
	for rest != "\r\n" && rest != "" {
		var field string
		field, rest, _ = strings.Cut(rest, "\r\n")
		name, value, found := strings.Cut(field, ":")
		if !found || !httpguts.ValidHeaderFieldName(name) {
			return p, false // also a folded line, which starts with white space
		}
		value = strings.Trim(value, " \t")
		if !httpguts.ValidHeaderFieldValue(value) {
			return p, false
		}
		key := textproto.CanonicalMIMEHeaderKey(name)
		if handedOver[key] {
			return p, false
		}
		switch key {
		case "Host":
			hosts++
			p.host = value
			continue
		case "Connection":
			if hasToken(value, "upgrade") {
				return p, false
			}
			p.close = p.close || hasToken(value, "close")
		}
		*vals = append(*vals, value)
		if old := h[key]; old != nil {
			h[key] = append(old[:len(old):len(old)], value)
		} else {
			h[key] = (*vals)[len(*vals)-1 : len(*vals) : len(*vals)]
		}
	}
	if hosts != 1 || !httpguts.ValidHostHeader(p.host) {
		return p, false
	}
	// As net/http: an HTTP/1.0 cache's Pragma stands for Cache-Control.
	if pragma := h["Pragma"]; len(pragma) > 0 && pragma[0] == "no-cache" && h["Cache-Control"] == nil {
		h["Cache-Control"] = noCache
	}
	return p, true
}

// handedOver are the fields that make a request net/http's: a body, an
// upgrade, an expectation or trailers.
var handedOver = map[string]bool{
	"Content-Length": true, "Transfer-Encoding": true, "Expect": true,
	"Upgrade": true, "Http2-Settings": true, "Trailer": true,
}

var noCache = []string{"no-cache"}[:1:1]

// fillRequest sets r's fields for p, as net/http's readRequest would
// for the same head; r keeps its context.
func fillRequest(r *http.Request, p parsed, h http.Header, remote string) bool {
	u, err := url.ParseRequestURI(p.target)
	if err != nil {
		return false
	}
	r.Method = http.MethodGet
	r.URL = u
	r.Proto, r.ProtoMajor, r.ProtoMinor = "HTTP/1.1", 1, 1
	r.Header = h
	r.Body = http.NoBody
	r.GetBody = nil
	r.ContentLength = 0
	r.TransferEncoding = nil
	r.Close = p.close
	r.Host = p.host
	r.Form, r.PostForm, r.MultipartForm = nil, nil, nil
	r.Trailer = nil
	r.RemoteAddr = remote
	r.RequestURI = p.target
	r.TLS = nil
	r.Pattern = ""
	return true
}
