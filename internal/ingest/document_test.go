package ingest

import (
	"math"
	"reflect"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// TestReopenParsesOnlyWithoutAKeptParse: a kept parse of this build is
// used as it is, without the files (here no longer a document at all);
// none, one of another build, or an unreadable one parses the files.
func TestReopenParsesOnlyWithoutAKeptParse(t *testing.T) {
	u := seedUpload(t)
	doc, err := Read(u.Files)
	if err != nil {
		t.Fatal(err)
	}
	keep := doc.Keep("b1")
	broken := []archive.File{{Name: "benchmark_results.json", Data: []byte("not json")}}
	if d, err := Reopen(broken, keep, "b1"); err != nil || !reflect.DeepEqual(d.parsed, doc.parsed) {
		t.Errorf("Reopen with this build's parse = %v, want the kept document", err)
	}
	for _, k := range [][]byte{nil, keep[:len(keep)/2]} {
		if _, err := Reopen(broken, k, "b1"); err == nil {
			t.Errorf("Reopen(%.20q) took no parse of the files", k)
		}
	}
	if _, err := Reopen(broken, keep, "b2"); err == nil {
		t.Error("a parse kept by another build was used")
	}
}

// TestKeepRefusesWhatJSONCannotCarry: a parse holding a value JSON would
// change (a NaN, text that is not UTF-8) is not kept, so it is parsed
// again rather than read back different.
func TestKeepRefusesWhatJSONCannotCarry(t *testing.T) {
	for name, p := range map[string]*run.Parsed{
		"nan":   {Format: "x", Decode: []run.Measurement{{Metrics: run.Metrics{TotalTPS: run.F(math.NaN())}}}},
		"utf-8": {Format: "x", Notes: []string{"\xff"}},
	} {
		if kept := (&Document{parsed: p}).Keep("b"); kept != nil {
			t.Errorf("%s: kept as %s", name, kept)
		}
	}
	if (&Document{parsed: &run.Parsed{Format: "x", Notes: []string{}}}).Keep("b") == nil {
		t.Error("a plain parse is not kept")
	}
}
