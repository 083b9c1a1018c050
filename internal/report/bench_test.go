package report_test

import (
	"bytes"
	"context"
	"net/url"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/chart"
	"github.com/speedmatrix/speedmatrix/internal/demo"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/templates"
)

// These benchmarks live in the external test package report_test so they
// may import templates (which imports report) and demo/ingest for the seed
// run without an import cycle.

// seedRun is the seed run as the ingest derives it, with an id of the shape
// the store gives (10 lowercase base32 characters), as GetRun returns it.
func seedRun(b *testing.B) *run.Run {
	b.Helper()
	u, err := demo.Upload(demo.SeedRun)
	if err != nil {
		b.Fatal(err)
	}
	r, _, err := ingest.Prepare(u, time.Now())
	if err != nil {
		b.Fatal(err)
	}
	r.ID = "k3x9q2mabc"
	return r
}

func bundle(b *testing.B) *i18n.Bundle {
	b.Helper()
	bu, err := i18n.Default()
	if err != nil {
		b.Fatal(err)
	}
	return bu
}

// BenchmarkBuildSeed is report.Build of the seed run in English, including
// the per-request localizer the language middleware makes.
func BenchmarkBuildSeed(b *testing.B) {
	r, bu := seedRun(b), bundle(b)
	b.ReportAllocs()
	for b.Loop() {
		v := report.Build(r, bu.Localizer("en"))
		if v.Title == "" {
			b.Fatal("empty title")
		}
	}
}

// BenchmarkRenderSeedReport is what GET /runs/{id} does after loading the
// run, the Share panel aside: localizer, report.Build, the charts
// (chart.ForRun), the page frame (templates.NewBase) and the templ render
// of templates.ReportPage into a fresh buffer, as web.render does. b.SetBytes is the page size, so MB/s is the render throughput.
func BenchmarkRenderSeedReport(b *testing.B) {
	r, bu := seedRun(b), bundle(b)
	u, err := url.Parse("/runs/" + r.ID)
	if err != nil {
		b.Fatal(err)
	}
	page := func() *bytes.Buffer {
		l := bu.Localizer("en")
		v := report.Build(r, l)
		base := templates.NewBase(l, "http://127.0.0.1:8080", u, v.Title, v.Description)
		var buf bytes.Buffer
		if err := templates.ReportPage(base, v, chart.ForRun(l, r), nil).Render(i18n.WithLocalizer(context.Background(), l), &buf); err != nil {
			b.Fatal(err)
		}
		return &buf
	}
	size := page().Len()
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		if buf := page(); buf.Len() != size {
			b.Fatalf("page is %d bytes, was %d", buf.Len(), size)
		}
	}
	// After the loop: b.Loop's first call resets the timer, which drops
	// metrics reported earlier.
	b.ReportMetric(float64(size), "page-bytes")
}
