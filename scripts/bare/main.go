// Command bare is the ceiling scripts/perf.sh measures the site against: a
// plain net/http server whose one handler writes a saved page's gzip bytes
// from memory with the headers the site sends with them (Content-Type,
// ETag, Content-Encoding, Vary, Content-Language, Cache-Control). It
// exists so that the page-speed goals are ratios to what net/http itself
// gives on the same machine at the same moment, not to another server's
// C code: whatever the site costs beyond this handler is its own routing,
// middleware, metrics, log and cache.
//
//	go run ./scripts/bare -addr 127.0.0.1:18097 -body report.html.gz -headers report.headers
//
// -headers is a file of "Name: value" lines (curl -D's output; the status
// line and the hop-by-hop headers are skipped). Only 127.0.0.1 addresses
// are accepted: it is a benchmark's fixture, never a server.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/textproto"
	"os"
	"strconv"
	"strings"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18097", "listen address (127.0.0.1 only)")
	bodyFile := flag.String("body", "", "the gzip bytes to answer with")
	headerFile := flag.String("headers", "", `the headers to send, "Name: value" a line (curl -D's output)`)
	flag.Parse()
	if err := run(*addr, *bodyFile, *headerFile); err != nil {
		fmt.Fprintln(os.Stderr, "bare:", err)
		os.Exit(1)
	}
}

func run(addr, bodyFile, headerFile string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || host != "127.0.0.1" {
		return fmt.Errorf("-addr %q: use 127.0.0.1:PORT", addr)
	}
	body, err := os.ReadFile(bodyFile)
	if err != nil {
		return fmt.Errorf("-body: %w", err)
	}
	header, err := readHeaders(headerFile)
	if err != nil {
		return fmt.Errorf("-headers: %w", err)
	}
	header.Set("Content-Length", strconv.Itoa(len(body)))
	srv := &http.Server{Addr: addr, ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		for k, v := range header {
			h[k] = v // shared slices, as the site's cached pages share theirs
		}
		_, _ = w.Write(body)
	})}
	return srv.ListenAndServe()
}

// skipped are the headers net/http writes itself or that describe one
// connection, not the answer.
var skipped = map[string]bool{"Date": true, "Content-Length": true, "Connection": true,
	"Keep-Alive": true, "Transfer-Encoding": true, "Age": true}

// readHeaders reads "Name: value" lines, skipping an HTTP status line.
func readHeaders(name string) (http.Header, error) {
	h := http.Header{}
	if name == "" {
		return h, nil
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "HTTP/") {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("%q is not Name: value", line)
		}
		k = textproto.CanonicalMIMEHeaderKey(strings.TrimSpace(k))
		if !skipped[k] {
			h.Add(k, strings.TrimSpace(v))
		}
	}
	return h, sc.Err()
}
