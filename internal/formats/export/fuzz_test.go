package export_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/internal/formats/export"
	"github.com/speedmatrix/speedmatrix/internal/formats/formatstest"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
)

// FuzzExport: whatever the bytes, the answer keeps the contract every
// format's does (formatstest.Check). Seeded with the export of every sample
// upload that the ingest accepts, as GET /api/v1/runs/{id} answers it, and
// a small document with an edited (negative) number. Plain `go test` runs
// the seeds only.
func FuzzExport(f *testing.F) {
	samples, err := filepath.Glob("../../../testdata/formats/*/*.json*")
	if err != nil || len(samples) == 0 {
		f.Fatalf("no samples: %v", err)
	}
	for _, name := range samples {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		r, _, err := ingest.Prepare(ingest.Upload{Files: []archive.File{{Name: filepath.Base(name), Data: data}}}, time.Unix(0, 0))
		if err != nil {
			continue // a sample of a refusal
		}
		r.ID = "r" + filepath.Base(name)
		doc, err := export.Encode(r, "https://speedmatrix.example")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(doc)
	}
	f.Add([]byte(`{"schema":"speedmatrix-run/1","provenance":"measured","source":{"sha256":"ab"},` +
		`"decode":[{"context":0,"concurrency":1,"measured":true,"total_tps":-1},{"context":1024,"concurrency":2,"reason_code":"plan","status":"over_capacity"}],` +
		`"prefill":[{"context":1024,"measured":true,"prompt_tps":100,"reason_code":"source","reason":"x"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := export.Parse(data)
		formatstest.Check(t, data, p, err)
	})
}
