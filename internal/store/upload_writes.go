package store

import (
	"time"

	"github.com/jackc/pgx/v5"
	"strconv"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// An upload of one run (InsertRun) writes its own rows and takes bestLock
// in one statement, uploadWrites, where it sent five: the source, the
// decode cells, the prefill rows, the names of its identities and the lock,
// each a statement the backend received, bound, started, ran and ended on
// its own. Each is a data-modifying CTE of the one statement, in the same
// text as the statement it replaces (placeholders renumbered), so there is
// still one place that says how a run's cells are written.
//
// Lock order (browse_index.go): the identities rows, then bestLock. The
// main query reads the named CTE to its end before it calls the lock
// function, so the identities rows are locked first; the other CTEs are not
// read and run to completion after it, before the statement ends. Those
// write rows under the new run's id alone, which no other transaction can
// hold, so their place in the order does not matter. The offers come in a
// later statement, whose snapshot is taken after the lock (offerOneSQL).

// uploadWritesSQL holds the texts, by whether the run has decode cells
// and prefill rows.
var uploadWritesSQL = func() (t [2][2]string) {
	texts := [2][2]string{{"", insertDecodeSQL}, {"", insertPrefillSQL}}
	for d := range 2 {
		for p := range 2 {
			t[d][p] = newUploadWritesSQL(texts[0][d], len(decodeCellColumns), texts[1][p], len(prefillCellColumns))
		}
	}
	return t
}()

// newUploadWritesSQL is uploadWrites' text for the given decode and prefill
// inserts ("" for none; each a newCellsInsertSQL text, run id $1, columns
// from $2) with their numbers of columns. Parameters: $1 the run's id, $2 its
// source, then the decode columns, the prefill columns, the three arrays of
// nameIdentitiesSQL and bestLock.
func newUploadWritesSQL(decode string, decodeColumns int, prefill string, prefillColumns int) string {
	ctes := []string{`source AS (INSERT INTO run_sources (run_id, body) VALUES ($1, $2))`}
	next := 3 // the next free parameter
	cells := func(name, sql string, columns int) {
		if sql == "" {
			return
		}
		from := next
		ctes = append(ctes, name+` AS (`+renumber(sql, func(n int) int {
			if n == 1 {
				return 1 // the run's id
			}
			return n - 2 + from
		})+`)`)
		next += columns
	}
	cells("decode", decode, decodeColumns)
	cells("prefill", prefill, prefillColumns)
	from := next
	ctes = append(ctes, `named AS (`+renumber(nameIdentitiesSQL, func(n int) int { return n - 1 + from })+`
RETURNING 1)`)
	next += 3
	return `WITH ` + strings.Join(ctes, ",\n") + `
SELECT pg_advisory_xact_lock_shared($` + strconv.Itoa(next) + `) FROM (SELECT count(*) FROM named) AS named`
}

// uploadWrites is the statement that writes run r's source, decode cells
// and prefill rows under id, names its identities and takes bestLock
// shared, and its parameters.
func uploadWrites(id string, source []byte, r *run.Run) (string, []any) {
	args := make([]any, 0, 2+len(decodeCellColumns)+len(prefillCellColumns)+4)
	args = append(args, id, source)
	if len(r.Decode) > 0 {
		args = append(args, cellArgs(id, decodeCellColumns, r.Decode)[1:]...)
	}
	if len(r.Prefill) > 0 {
		args = append(args, cellArgs(id, prefillCellColumns, r.Prefill)[1:]...)
	}
	_, names := identityArgs([]*run.Run{r})
	args = append(append(args, names...), bestLock)
	return uploadWritesSQL[min(len(r.Decode), 1)][min(len(r.Prefill), 1)], args
}

// queueUpload queues on b the statements of an upload of run r under id
// past its row, in lock order.
func queueUpload(b *pgx.Batch, id string, source []byte, r *run.Run, uploaded time.Time, u *boundedUpload) {
	sql, args := uploadWrites(id, source, r)
	b.Queue(sql, args...)                                                          // source, cells, names, bestLock
	queueOffersAndCounts(b, []string{id}, []*run.Run{r}, []time.Time{uploaded}, u) // browse: leaderboard, groups
}
