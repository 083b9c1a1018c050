package httpfront

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/net/http/httpguts"
)

// writer is the http.ResponseWriter an answer writes to: it keeps the
// status, a copy of the header as it was at WriteHeader (as net/http
// does) and the body, for the connection to send in one Write.
type writer struct {
	header http.Header // what the answer sets
	sent   http.Header // header at WriteHeader
	status int         // 0 until WriteHeader
	body   []byte
	keys   []string // scratch for sorting sent's keys
}

// Header is the header the answer sets.
func (w *writer) Header() http.Header { return w.header }

// WriteHeader keeps code and the header as it is now. Informational
// codes (1xx) are not sent: no answer Front takes uses them.
func (w *writer) WriteHeader(code int) {
	if w.status != 0 || code < 200 || code > 999 {
		return
	}
	w.status = code
	clear(w.sent)
	for k, v := range w.header {
		w.sent[k] = v
	}
}

// Write appends p to the body, after an implicit WriteHeader(200).
func (w *writer) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	if !bodyAllowed(w.status) {
		return 0, http.ErrBodyNotAllowed
	}
	w.body = append(w.body, p...)
	return len(p), nil
}

// WriteString is Write for a string, without the conversion.
func (w *writer) WriteString(s string) (int, error) {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	if !bodyAllowed(w.status) {
		return 0, http.ErrBodyNotAllowed
	}
	w.body = append(w.body, s...)
	return len(s), nil
}

// reset readies the writer for the next request.
func (w *writer) reset() {
	clear(w.header)
	clear(w.sent)
	w.status = 0
	w.body = w.body[:0]
}

// bodyAllowed is net/http's rule for which statuses carry a body.
func bodyAllowed(code int) bool { return code != 204 && code != 304 && code >= 200 }

// appendResponse appends the whole answer (head and body) to dst as
// net/http would have sent it for an HTTP/1.1 request: the status line,
// the answer's header fields sorted by name (invalid names skipped, CR
// and LF in values as spaces), then Date, Content-Length, a sniffed
// Content-Type and Connection: close where net/http adds them; and
// reports whether the connection closes after it. One difference: the
// body is always framed by its length, where net/http would chunk a body
// over 2 KB written without a Content-Length, or cut one longer than
// its declared Content-Length.
func (w *writer) appendResponse(dst []byte, closing bool) (_ []byte, closeAfter bool) {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	code := w.status
	h := w.sent
	delete(h, "Transfer-Encoding")
	_, declared := h["Content-Length"]
	if !bodyAllowed(code) {
		delete(h, "Content-Length")
		declared = true // and none added
	}
	if code == http.StatusNotModified {
		delete(h, "Content-Type")
	}
	closeAfter = closing || first(h["Connection"]) == "close"
	if closeAfter && !hasToken(first(h["Connection"]), "close") {
		delete(h, "Connection")
	}
	dst = appendStatusLine(dst, code)
	dst = w.appendSorted(dst)
	if _, ok := h["Date"]; !ok {
		dst = append(dst, "Date: "...)
		dst = append(dst, httpDate()...)
		dst = append(dst, "\r\n"...)
	}
	if !declared {
		dst = append(dst, "Content-Length: "...)
		dst = strconv.AppendInt(dst, int64(len(w.body)), 10)
		dst = append(dst, "\r\n"...)
	}
	if _, typed := h["Content-Type"]; bodyAllowed(code) && !typed && first(h["Content-Encoding"]) == "" && len(w.body) > 0 {
		dst = appendField(dst, "Content-Type", http.DetectContentType(w.body))
	}
	if closeAfter && len(h["Connection"]) == 0 {
		dst = append(dst, "Connection: close\r\n"...)
	}
	dst = append(dst, "\r\n"...)
	if bodyAllowed(code) {
		dst = append(dst, w.body...)
	}
	return dst, closeAfter
}

// appendSorted appends the fields of the header as it was at
// WriteHeader, sorted by name as net/http writes them, a declared
// Content-Length replaced by the body's length.
func (w *writer) appendSorted(dst []byte) []byte {
	w.keys = w.keys[:0]
	for k := range w.sent {
		w.keys = append(w.keys, k)
	}
	slices.Sort(w.keys)
	for _, k := range w.keys {
		if !httpguts.ValidHeaderFieldName(k) {
			continue
		}
		if k == "Content-Length" {
			dst = append(dst, "Content-Length: "...)
			dst = strconv.AppendInt(dst, int64(len(w.body)), 10)
			dst = append(dst, "\r\n"...)
			continue
		}
		for _, v := range w.sent[k] {
			dst = appendField(dst, k, v)
		}
	}
	return dst
}

// appendStatusLine is net/http's writeStatusLine for HTTP/1.1.
func appendStatusLine(dst []byte, code int) []byte {
	dst = append(dst, "HTTP/1.1 "...)
	if text := http.StatusText(code); text != "" {
		dst = strconv.AppendInt(dst, int64(code), 10)
		dst = append(dst, ' ')
		dst = append(dst, text...)
		return append(dst, "\r\n"...)
	}
	code3 := strconv.Itoa(code)
	for len(code3) < 3 {
		code3 = "0" + code3
	}
	return append(dst, code3+" status code "+strconv.Itoa(code)+"\r\n"...)
}

// appendField appends "k: v\r\n" with v as net/http writes it: CR and LF
// turned to spaces, surrounding white space trimmed.
func appendField(dst []byte, k, v string) []byte {
	dst = append(dst, k...)
	dst = append(dst, ": "...)
	if strings.ContainsAny(v, "\r\n") {
		v = strings.NewReplacer("\r", " ", "\n", " ").Replace(v)
	}
	dst = append(dst, strings.Trim(v, " \t\r\n")...)
	return append(dst, "\r\n"...)
}

// first is vs[0], or "" when vs is empty.
func first(vs []string) string {
	if len(vs) == 0 {
		return ""
	}
	return vs[0]
}

// hasToken reports whether the comma-separated v has token
// (case-insensitive).
func hasToken(v, token string) bool {
	for part := range strings.SplitSeq(v, ",") {
		if strings.EqualFold(strings.TrimSpace(part), token) {
			return true
		}
	}
	return false
}

// dateCache is the Date value of the current second, made once a second
// rather than once a response.
type dateCache struct {
	sec int64
	val string
}

var currentDate atomic.Pointer[dateCache]

// httpDate is time.Now() in http.TimeFormat.
func httpDate() string {
	now := time.Now()
	if d := currentDate.Load(); d != nil && d.sec == now.Unix() {
		return d.val
	}
	d := &dateCache{sec: now.Unix(), val: now.UTC().Format(http.TimeFormat)}
	currentDate.Store(d)
	return d.val
}
