package site_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	longest := 0
	for _, m := range regexp.MustCompile(regexp.QuoteMeta(string(c))+"+").FindAllString(s, -1) {
		longest = max(longest, len(m))
	}
	return longest
}

// TestLongValuesCut: an error page or an API problem repeats at most
// problem.EchoMax characters of what the client sent, cut visibly. Before,
// a run id of 5,000 characters was copied whole into nineteen links of its
// 404 page (98 KB), and a search of 3,000 characters into its 400 page.
func TestLongValuesCut(t *testing.T) {
	s := webtest.NewSite(t)
	_, short := s.Get(t, "/runs/nosuchrun")
	for _, c := range []struct {
		path   string
		status int
		char   byte
	}{
		{"/runs/" + strings.Repeat("a", 5000), 404, 'a'},
		{"/runs/" + strings.Repeat("a", 5000) + ".csv", 404, 'a'},
		{"/" + strings.Repeat("a", 5000), 404, 'a'},
		{"/search?q=" + strings.Repeat("q", 3000), 400, 'q'},
		{"/runs?model=" + strings.Repeat("q", 3000) + "&lang=de", 400, 'q'},
	} {
		resp, body := s.Get(t, c.path)
		if resp.StatusCode != c.status {
			t.Errorf("%.40s… = %d, want %d", c.path, resp.StatusCode, c.status)
		}
		if n := longestRun(body, c.char); n > problem.EchoMax {
			t.Errorf("%.40s…: the page repeats %d characters of the value, want at most %d", c.path, n, problem.EchoMax)
		}
		if !strings.Contains(body, string(c.char)+"%E2%80%A6") {
			t.Errorf("%.40s…: the page does not show the value cut (…)", c.path)
		}
		// Nineteen links name the address: each may add its cut value.
		if extra := len(body) - len(short); extra > 19*(problem.EchoMax+30) {
			t.Errorf("%.40s…: the error page is %d bytes, %d more than for a short address", c.path, len(body), extra)
		}
	}
	if _, body := s.Get(t, "/runs?model="+strings.Repeat("q", 3000)+"&lang=de"); !strings.Contains(body, `lang="de"`) {
		t.Error("the error page for a long address lost its language")
	}

	// A problem repeats a document's key and its path cut the same way.
	key := strings.Repeat("k", 5000)
	resp, out := s.Post(t, "application/json", []byte(`{"`+key+`": 1, "`+key+`": 2}`))
	raw, _ := json.Marshal(out)
	if resp.StatusCode/100 != 4 || longestRun(string(raw), 'k') > problem.EchoMax || !strings.Contains(string(raw), "k…") {
		t.Errorf("a duplicated key of 5,000 characters = %d, repeated %d characters: %.300s",
			resp.StatusCode, longestRun(string(raw), 'k'), raw)
	}
}
