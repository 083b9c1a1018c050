package store

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPartsImportDown: each part of the store imports only the parts below
// it (db, then bests, regressions and rivals, then accounts, then this package), as the package
// comment draws them, so the store's import graph has no arrow up and no
// circle; storetest, which drives the store as its callers do, is imported
// by tests alone. A new folder of Go files must be given its place here.
func TestPartsImportDown(t *testing.T) {
	const self = "github.com/speedmatrix/speedmatrix/internal/store"
	layers := map[string]int{self + "/db": 0, self + "/bests": 1, self + "/regressions": 1, self + "/rivals": 1,
		self + "/accounts": 2, self: 3}
	dirs := []string{"."}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() && e.Name() != "sql" {
			dirs = append(dirs, e.Name())
		}
	}
	for _, dir := range dirs {
		path := self
		if dir != "." {
			path += "/" + dir
		}
		layer, isPart := layers[path]
		if !isPart && dir != "storetest" {
			t.Errorf("%s is neither a part of the store with its layer nor storetest", dir)
			continue
		}
		sources, err := filepath.Glob(filepath.Join(dir, "*.go"))
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
				imported, _ := strconv.Unquote(imp.Path.Value)
				if imported == self+"/storetest" {
					t.Errorf("%s imports storetest, which only tests import", name)
				}
				if below, ok := layers[imported]; ok && isPart && below >= layer {
					t.Errorf("%s imports %s, which is not below it", name, imported)
				}
			}
		}
	}
}
