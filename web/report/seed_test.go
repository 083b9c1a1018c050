package report_test

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// tsv reads a table typed from the seed page (testdata/seed/*.tsv).
func tsv(t testing.TB, name string) [][]string {
	t.Helper()
	f, err := os.Open(webtest.Path("testdata/seed/" + name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			rows = append(rows, strings.Split(line, "\t"))
		}
	}
	return rows
}
