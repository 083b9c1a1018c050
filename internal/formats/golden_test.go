package formats_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/formats"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

var update = flag.Bool("update", false, "rewrite testdata/parsed.golden from what Parse answers now")

const golden = "testdata/parsed.golden"

// TestSamplesParseAsRecorded wants every file of testdata (the tools'
// samples, the regressions, the hostile corpus) and of the demo runs to
// parse to the result recorded in testdata/parsed.golden: the same run,
// number for number, or the same refusal, problem for problem. The record
// holds a SHA-256 of each answer and a line a reader can compare; a change
// to the JSON codec or to a parser that moves any of them fails here.
// `go test ./internal/formats -run TestSamplesParseAsRecorded -update`
// rewrites it, for a change that means to.
func TestSamplesParseAsRecorded(t *testing.T) {
	var lines []string
	// The files by their paths from the repository's root.
	for _, root := range []string{"../../testdata", "../../internal/demo/runs"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			switch filepath.Ext(path) {
			case ".md", ".tsv", ".txt", ".py":
				return nil // what describes the samples
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			p, err := formats.Parse(data)
			lines = append(lines, record(strings.TrimPrefix(filepath.ToSlash(path), "../../"), p, err))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	got := strings.Join(lines, "\n") + "\n"
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) < 70 {
		t.Fatalf("%d samples found, want the seventy-odd files of testdata", len(lines))
	}
	wantLines := strings.Split(strings.TrimSuffix(string(want), "\n"), "\n")
	for _, line := range lines {
		name := strings.SplitN(line, "\t", 2)[0]
		i := slices.IndexFunc(wantLines, func(l string) bool { return strings.HasPrefix(l, name+"\t") })
		switch {
		case i < 0:
			t.Errorf("%s: not recorded; now\n\t%s", name, line)
		case wantLines[i] != line:
			t.Errorf("%s:\n\trecorded %s\n\tnow      %s", name, wantLines[i], line)
		}
	}
	if len(wantLines) != len(lines) {
		t.Errorf("%d samples recorded, %d found", len(wantLines), len(lines))
	}
}

// record is one line of the record: the file, the SHA-256 of the whole
// answer, and what it is in brief.
func record(name string, p *run.Parsed, err error) string {
	var answer []byte
	var brief string
	if err != nil {
		answer, brief = refusal(err)
	} else {
		// The prefill rows come in the order of a map's keys.
		slices.SortFunc(p.Prefill, func(a, b run.PrefillMeasurement) int { return strings.Compare(a.Path, b.Path) })
		var jerr error
		if answer, jerr = json.Marshal(p); jerr != nil {
			answer = fmt.Appendf(nil, "%+v", *p)
		}
		brief = fmt.Sprintf("%s %s, %d cells, %d prefill, notes %v", p.Format, p.Tool.Version, len(p.Decode), len(p.Prefill), p.Notes)
	}
	sum := sha256.Sum256(answer)
	return name + "\t" + hex.EncodeToString(sum[:8]) + "\t" + brief
}

// refusal is err as its kind and problems, each with its data in key
// order, but for the codec's own words about bad syntax (Detail), which
// are its to change.
func refusal(err error) ([]byte, string) {
	pe, ok := problem.As(err)
	if !ok {
		return []byte(err.Error()), "error " + err.Error()
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "refused %d", pe.Kind)
	for _, pr := range pe.Problems {
		fmt.Fprintf(&b, "; %s %s", pr.Path, pr.Key)
		keys := make([]string, 0, len(pr.Data))
		for k := range pr.Data {
			if k != "Detail" {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, " %s=%v", k, pr.Data[k])
		}
	}
	brief := b.String()
	if len(brief) > 200 {
		brief = brief[:200] + "…"
	}
	return b.Bytes(), brief
}
