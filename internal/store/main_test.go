package store_test

import (
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

var (
	f = run.F
	i = run.I
)

// tableCounts counts the rows of every table the store writes.
func tableCounts(t testing.TB, url string) map[string]int64 {
	t.Helper()
	counts := map[string]int64{}
	for _, table := range []string{"runs", "run_sources", "decode_cells", "prefill_rows", "run_telemetry"} {
		counts[table] = storetest.MustQueryInt(t, url, "SELECT count(*) FROM "+table)
	}
	return counts
}
