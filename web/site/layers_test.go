package site_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestWebImportsDown: web/kit is below every area, each area (report,
// browse, upload, account, api, docs) imports kit and no other part of
// web/, and only web/site imports the areas, so a reader finds an address in
// one table and its handler in one area, and the graph has no arrow up and
// no circle. web/webtest, the tests' shared helpers, sits on top (it builds
// a whole site) and no package's own code imports it; web/browser holds
// only tests. A new folder under web/ must be given its place here.
func TestWebImportsDown(t *testing.T) {
	const web = "github.com/speedmatrix/speedmatrix/web/"
	may := map[string][]string{
		"kit":     nil,
		"report":  {"kit"},
		"browse":  {"kit"},
		"upload":  {"kit"},
		"account": {"kit"},
		"api":     {"kit"},
		"docs":    {"kit"},
		"plan":    {"kit"},
		// Regressions between engine versions: page, feed and API.
		"regressions": {"kit"},
		"site":        {"kit", "report", "browse", "upload", "account", "api", "docs", "plan", "regressions"},
		"webtest":     {"site", "kit"},
		"browser":     nil,
	}
	entries, err := os.ReadDir("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		allowed, known := may[e.Name()]
		if !known {
			t.Errorf("web/%s has no place in the layers of web/", e.Name())
			continue
		}
		sources, err := filepath.Glob(filepath.Join("..", e.Name(), "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range sources {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				part, inWeb := strings.CutPrefix(path, web)
				if inWeb && !slices.Contains(allowed, part) {
					t.Errorf("%s imports web/%s, which web/%s may not", name, part, e.Name())
				}
			}
		}
	}
}
