package bests_test

import (
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/store/bests"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

// TestScaleIndexesServeTheirReads plans the browse index's reads that
// grew with the number of runs (a setup's history, rebuilt) with
// sequential scans priced out, as a large table prices them, and wants
// each to go through the index made for it rather than an index of every
// run.
func TestScaleIndexesServeTheirReads(t *testing.T) {
	storetest.WantIndexesRead(t, bests.ScaleSQL)
}
