package bests

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// TestRunOffersAsOfferCells wants an upload's offers (runOffers) to be
// the offers offerCells keeps for the run alone, listed by offersOf,
// table by table: for random runs whose cells share a point now and then
// (whose offers of one key the maps settle), with every status, missing,
// zero and negative numbers, quick runs, runs above the bound, engine
// versions and proven submitters or none.
func TestRunOffersAsOfferCells(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	number := func() *float64 {
		if rng.IntN(5) == 0 {
			return nil
		}
		v := []float64{0, -1, 12.5, 100, 250.25}[rng.IntN(5)]
		return &v
	}
	order := func(offers []bestOffer) []bestOffer {
		out := slices.Clone(offers)
		slices.SortFunc(out, func(a, b bestOffer) int {
			return cmp.Or(cmp.Compare(a.k.context, b.k.context), cmp.Compare(a.k.concurrency, b.k.concurrency),
				cmp.Compare(a.k.metric, b.k.metric), cmp.Compare(a.k.status, b.k.status))
		})
		return out
	}
	shared, offered := 0, 0
	for round := range 400 {
		r := &run.Run{Hardware: run.Hardware{GPUName: "RTX 3060", GPUCount: 1}, Engine: run.Engine{Name: "vllm"},
			Model: run.Model{ID: "org/model-8b"}, Demo: rng.IntN(2) == 0}
		if rng.IntN(2) == 0 {
			r.Engine.Version = "0.8.1"
		}
		if rng.IntN(2) == 0 {
			r.Submitter, r.SubmitterVerified = "alice", true
		}
		switch rng.IntN(12) {
		case 0:
			r.Profile = "quick"
		case 1:
			r.Flags = []string{run.FlagAboveBound}
		}
		cells := rng.IntN(40)
		if round%50 == 0 {
			cells = 130 + rng.IntN(40) // past the pairwise check
		}
		for range cells {
			r.Decode = append(r.Decode, run.DecodeCell{Context: rng.IntN(12) * 1024, Concurrency: 1 << rng.IntN(8),
				Status:  []run.Status{run.Valid, run.Queued, run.OverCapacity, run.Valid}[rng.IntN(4)],
				Metrics: run.Metrics{TotalTPS: number(), PerRequestTPS: number(), TTFTms: number()}})
		}
		if !distinctPoints(r.Decode) {
			shared++
		}
		id, uploaded := fmt.Sprintf("run%d", round), time.Unix(int64(rng.IntN(1e9)), 0)
		best := newBestMaps()
		offerCells(best, id, r, uploaded)
		got := runOffers(id, r, uploaded)
		for j := range bestTables {
			want := offersOf(best[j])
			offered += len(want)
			if !reflect.DeepEqual(order(got[j]), order(want)) {
				t.Fatalf("round %d, %s: runOffers\n%+v\nofferCells\n%+v", round, bestTables[j].name, order(got[j]), order(want))
			}
		}
	}
	if shared < 50 || offered < 5000 {
		t.Errorf("%d runs with a shared point, %d offers: the test meets too few", shared, offered)
	}
}
