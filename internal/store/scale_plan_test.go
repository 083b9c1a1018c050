package store_test

import (
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

// TestScaleIndexesServeTheirReads plans the runs' reads that grew with the
// number of runs (sitemap.xml) with sequential scans priced out, as a
// large table prices them, and wants each to go through the index made
// for it rather than an index of every run.
func TestScaleIndexesServeTheirReads(t *testing.T) {
	storetest.WantIndexesRead(t, store.ScaleSQL)
}
