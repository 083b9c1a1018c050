package webtest

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// root is the repository's root directory: two up from this file. The
// tests of every web package name sample files from there, whatever
// directory go test runs them in.
var root = func() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		panic("webtest: no caller information to find the repository root")
	}
	return filepath.Join(filepath.Dir(file), "..", "..")
}()

// Path is the absolute path of rel, a path from the repository's root
// such as "testdata/formats/lil-bench/lil_bench_result_2gpu.json".
func Path(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }

// ReadFile reads rel, a path from the repository's root, or fails t.
func ReadFile(t testing.TB, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(Path(rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
