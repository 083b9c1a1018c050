package upload_test

import (
	"bufio"
	"encoding/csv"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// hostileCase is one row of testdata/hostile/expected.tsv.
type hostileCase struct {
	file, path, absent string
	status             int
	words              []string
}

// maxAllocRatio bounds what one hostile upload may allocate, as a multiple
// of the 16 MiB cap: the bombs are read through limits, never whole.
const maxAllocRatio = 8

func hostileCases(t *testing.T) []hostileCase {
	t.Helper()
	f, err := os.Open(webtest.Path("testdata/hostile/expected.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []hostileCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		col := strings.Split(line, "\t")
		if len(col) != 5 {
			t.Fatalf("expected.tsv: %q has %d columns, want 5", line, len(col))
		}
		c := hostileCase{file: col[0], path: col[2], absent: col[4]}
		if n, err := strconv.Atoi(col[1]); err == nil {
			c.status = n
		} else {
			t.Fatalf("expected.tsv: status %q", col[1])
		}
		if col[3] != "-" {
			c.words = strings.Split(col[3], ";")
		}
		out = append(out, c)
	}
	return out
}

// mediaType is how a client would label the file: by its extension.
func mediaType(name string) string {
	switch filepath.Ext(name) {
	case ".gz":
		return "application/gzip"
	case ".zip":
		return "application/zip"
	case ".tar":
		return "application/x-tar"
	}
	return "application/json"
}

// TestHostileCorpus uploads every file of testdata/hostile and checks the
// answer its table row documents: the status, a message naming the path
// and saying what was wrong, no row changed on a refusal, allocations
// bounded, and payloads of accepted files never shown raw.
func TestHostileCorpus(t *testing.T) {
	s := webtest.NewSite(t)
	cases := hostileCases(t)
	if len(cases) < 40 {
		t.Errorf("the corpus has %d cases, want at least 40", len(cases))
	}
	checkEveryFileListed(t, cases)
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			body, err := os.ReadFile(webtest.Path("testdata/hostile/" + c.file))
			if err != nil {
				t.Fatal(err)
			}
			before := s.RowCounts(t)
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			resp, out := s.Post(t, mediaType(c.file), body)
			runtime.ReadMemStats(&m1)
			if alloc := m1.TotalAlloc - m0.TotalAlloc; alloc > maxAllocRatio*ingest.MaxBodyBytes {
				t.Errorf("allocated %d MiB, over %d × the cap", alloc>>20, maxAllocRatio)
			}
			if resp.StatusCode != c.status {
				t.Fatalf("status %d, want %d: %v", resp.StatusCode, c.status, out)
			}
			if c.status >= 400 {
				checkRefusal(t, c, out)
				if after := s.RowCounts(t); after != before {
					t.Errorf("database changed: %s → %s", before, after)
				}
				return
			}
			id, _ := out["id"].(string)
			checkShownSafely(t, s, id, c.absent)
		})
	}
}

func checkRefusal(t *testing.T, c hostileCase, out map[string]any) {
	t.Helper()
	probs, _ := out["problems"].([]any)
	if len(probs) == 0 {
		t.Fatalf("no problems listed: %v", out)
	}
	p, _ := probs[0].(map[string]any)
	path, _ := p["path"].(string)
	msg, _ := p["message"].(string)
	if path != c.path {
		t.Errorf("path %.120q, want %q", path, c.path)
	}
	if strings.HasPrefix(msg, "problem.") || len(msg) > 600 {
		t.Errorf("message %.200q is a raw id or too long", msg)
	}
	for _, w := range c.words {
		if !strings.Contains(msg, w) {
			t.Errorf("message %q lacks %q", msg, w)
		}
	}
}

// checkShownSafely reads an accepted run's pages and CSV export: absent
// (an HTML payload) never appears raw, and no CSV cell starts a formula.
func checkShownSafely(t *testing.T, s *webtest.Site, id, absent string) {
	t.Helper()
	for _, path := range []string{"/runs/" + id, "/runs/" + id + "/embed", "/runs"} {
		resp, page := s.Get(t, path)
		if resp.StatusCode != 200 {
			t.Errorf("%s = %d", path, resp.StatusCode)
		}
		if absent != "-" && strings.Contains(page, absent) {
			t.Errorf("%s shows %q raw", path, absent)
		}
	}
	_, export := s.Get(t, "/runs/"+id+".csv")
	records, err := csv.NewReader(strings.NewReader(export)).ReadAll()
	if err != nil {
		t.Fatalf("CSV export: %v", err)
	}
	for _, rec := range records {
		for _, cell := range rec {
			if strings.HasPrefix(cell, "=") || strings.HasPrefix(cell, "@") {
				t.Errorf("CSV cell %q starts a formula", cell)
			}
		}
	}
}

// checkEveryFileListed keeps the table and the folder in step: a file
// without a row would never be uploaded.
func checkEveryFileListed(t *testing.T, cases []hostileCase) {
	t.Helper()
	listed := map[string]bool{"expected.tsv": true, "make.py": true, "README.md": true}
	for _, c := range cases {
		listed[c.file] = true
	}
	entries, err := os.ReadDir(webtest.Path("testdata/hostile"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !listed[e.Name()] {
			t.Errorf("testdata/hostile/%s has no row in expected.tsv", e.Name())
		}
	}
}
