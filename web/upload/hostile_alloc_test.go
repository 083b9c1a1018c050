package upload_test

import (
	"os"
	"runtime"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// maxSiteRatio bounds, as a multiple of the 16 MiB cap, what any one call
// site may allocate while one hostile upload is answered. A single
// allocation is at most what its call site allocated, so the largest
// allocation stays under this too. The bombs inflate through a limit, so
// the biggest site is the buffer that reads a body up to the cap (sized
// to it: 16.01 MiB, 1.00 × the cap, measured). Twice the cap leaves room
// for a reader that grows its buffer by doubling.
const maxSiteRatio = 2

// bombs are the corpus files built to make a reader allocate: the
// compression bombs, the long arrays, the deep nesting, the huge string.
var bombs = []string{"gzip_bomb.json.gz", "zip_bomb.zip", "zip_many_files.zip", "million_element_array.json",
	"million_results.json", "deep_arrays.json", "deep_objects.json", "text_huge_model.json"}

// TestHostileLargestAllocation profiles allocations while each bomb is
// uploaded and fails when one call site allocated more than maxSiteRatio ×
// the cap; it logs the largest site and the largest single allocation
// seen, the figures docs/reliability.md states. The profile samples one
// allocation per sampleBytes on average, so an allocation of 1 MiB or more
// is recorded with a probability of 1 − e^-32: the big ones, which the
// bound is about, are all there, and the test stays quick.
const sampleBytes = 32 << 10

func TestHostileLargestAllocation(t *testing.T) {
	s := webtest.NewSite(t)
	old := runtime.MemProfileRate
	runtime.MemProfileRate = sampleBytes
	defer func() { runtime.MemProfileRate = old }()
	for _, name := range bombs {
		body, err := os.ReadFile(webtest.Path("testdata/hostile/" + name))
		if err != nil {
			t.Fatal(err)
		}
		before := allocSites()
		resp, _ := s.Post(t, mediaType(name), body)
		site, single := largest(before, allocSites())
		t.Logf("%-28s %d; largest call site %5.2f MiB (%.2f × cap), largest single allocation ≥ %5.2f MiB",
			name, resp.StatusCode, mib(site), float64(site)/ingest.MaxBodyBytes, mib(single))
		if resp.StatusCode < 400 {
			t.Errorf("%s was accepted (%d)", name, resp.StatusCode)
		}
		if site > maxSiteRatio*ingest.MaxBodyBytes {
			t.Errorf("%s: one call site allocated %.1f MiB, over %d × the cap", name, mib(site), maxSiteRatio)
		}
	}
}

func mib(n int64) float64 { return float64(n) / (1 << 20) }

// allocSite is a call site's allocation totals.
type allocSite struct{ bytes, objects int64 }

// allocSites reads the heap profile after enough collections that every
// allocation so far is in it (it lags up to two cycles).
func allocSites() map[[32]uintptr]allocSite {
	for range 3 {
		runtime.GC()
	}
	n, _ := runtime.MemProfile(nil, true)
	recs := make([]runtime.MemProfileRecord, n+100)
	n, _ = runtime.MemProfile(recs, true)
	out := make(map[[32]uintptr]allocSite, n)
	for _, r := range recs[:n] {
		out[r.Stack0] = allocSite{r.AllocBytes, r.AllocObjects}
	}
	return out
}

// largest returns the most bytes any call site allocated between the two
// readings, and the largest allocation known exactly (a site that
// allocated once, or the mean of a site's allocations, which the largest
// of them is at least).
func largest(before, after map[[32]uintptr]allocSite) (maxSite, maxSingle int64) {
	for k, a := range after {
		b := before[k]
		bytes, objects := a.bytes-b.bytes, a.objects-b.objects
		if objects <= 0 {
			continue
		}
		maxSite = max(maxSite, bytes)
		maxSingle = max(maxSingle, bytes/objects)
	}
	return maxSite, maxSingle
}
