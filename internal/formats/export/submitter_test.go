package export_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/formats/export"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// TestSubmitterShape: the document gives the submitter as an object, a
// slug only for a verified name, and reading a document back keeps the
// name whether it is that object or the plain string older documents
// carried, never the verified mark.
func TestSubmitterShape(t *testing.T) {
	for _, tc := range []struct {
		verified bool
		want     string
	}{
		{false, `"submitter": {"slug": "", "name": "Mallory X", "verified": false}`},
		{true, `"submitter": {"slug": "mallory-x", "name": "Mallory X", "verified": true}`},
	} {
		r := &run.Run{ID: "r1", Submitter: "Mallory X", SubmitterVerified: tc.verified, Provenance: run.Measured}
		doc, err := export.Encode(r, "https://speedmatrix.example")
		if err != nil {
			t.Fatal(err)
		}
		flat := strings.Join(strings.Fields(string(doc)), " ")
		flat = strings.NewReplacer("{ ", "{", " }", "}").Replace(flat)
		if !strings.Contains(flat, tc.want) {
			t.Errorf("verified %v: document lacks %s:\n%s", tc.verified, tc.want, doc)
		}
		p, err := export.Parse(doc)
		if err != nil || p.Submitter != "Mallory X" {
			t.Errorf("read back: %v %q", err, p.Submitter)
		}
	}
	for _, body := range []string{`{"schema":"speedmatrix-run/1","submitter":"old style"}`,
		`{"schema":"speedmatrix-run/1","submitter":{"name":"old style","verified":true}}`} {
		var d export.Document
		if err := json.Unmarshal([]byte(body), &d); err != nil || d.Submitter.Name != "old style" {
			t.Errorf("%s: %v %+v", body, err, d.Submitter)
		}
		if p, err := export.Parse([]byte(body)); err != nil || p.Submitter != "old style" {
			t.Errorf("Parse %s: %v", body, err)
		}
	}
	if _, err := export.Parse([]byte(`{"schema":"speedmatrix-run/1","submitter":7}`)); err == nil {
		t.Error("a number as the submitter is accepted")
	}
}
