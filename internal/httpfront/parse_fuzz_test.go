package httpfront

import (
	"bufio"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// FuzzParseAgreesWithNetHTTP: whatever head the front takes, net/http
// reads the same request from the same bytes: method, target, host,
// header and whether the connection closes after it. A head the two read
// differently would be a request the front answers as something net/http
// would not have seen, the root of request smuggling.
func FuzzParseAgreesWithNetHTTP(f *testing.F) {
	for _, seed := range []string{
		"GET / HTTP/1.1\r\nHost: a\r\n\r\n",
		"GET /runs/x?lang=de HTTP/1.1\r\nHost: example.test:8080\r\nAccept-Encoding: gzip\r\nCookie: lang=ja\r\n\r\n",
		"GET /a HTTP/1.1\r\nHost: a\r\nConnection: close\r\nPragma: no-cache\r\nX: 1\r\nx: 2\r\n\r\n",
		"GET /a HTTP/1.1\r\nhost: a\r\nConnection: keep-alive, Upgrade\r\n\r\n",
		"GET /%zz HTTP/1.1\r\nHost: a\r\n\r\n",
		"GET /a HTTP/1.1\r\nHost: a\r\nX-Sp:  v \t\r\n\r\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		end, lone := headEnd(b)
		if end < 0 || lone {
			return
		}
		h := http.Header{}
		var vals []string
		p, ok := parseHead(string(b[:end]), h, &vals)
		if !ok {
			return
		}
		r := new(http.Request)
		if !fillRequest(r, p, h, "192.0.2.1:1234") {
			return
		}
		want, err := http.ReadRequest(bufio.NewReader(strings.NewReader(string(b[:end]))))
		if err != nil {
			t.Fatalf("the front takes %q, net/http refuses it: %v", b[:end], err)
		}
		if want.Method != r.Method || want.RequestURI != r.RequestURI || want.Host != r.Host ||
			want.URL.String() != r.URL.String() || want.Close != r.Close || want.ContentLength != 0 ||
			!reflect.DeepEqual(map[string][]string(want.Header), map[string][]string(r.Header)) {
			t.Fatalf("%q:\nfront    %s %s host=%q close=%v %v\nnet/http %s %s host=%q close=%v %v", b[:end],
				r.Method, r.URL, r.Host, r.Close, r.Header, want.Method, want.URL, want.Host, want.Close, want.Header)
		}
	})
}
