package store

import (
	"strconv"
	"sync"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// offersAndCounts is the statement an upload of one run sends once it
// holds bestLock (uploadWrites), in place of three to five: its offers to
// each table of bests it has cells for (bestTable.offerOneSQL), its counts
// (countRunsSQL) and the offer of its cells to the history
// (offerHistorySQL), in that order (steps 5 to 7 of the lock order in
// browse_index.go), each a part of one statement of CTEs (joinCTEs) in the
// text of the statement it replaces. The counts' own writes keep the
// order they run in as a statement of their own: the deltas, then
// history_versions and history_setups, then browse_groups
// (countDeltasCTEs). Its one snapshot is taken after the lock, as each of
// theirs was. A batch (InsertRuns) and a restore send the statements one
// by one.
//
// offers are the run's offers to each table of bests (runOffers).
// It returns the text and its parameters: the offers' (offerOneArgs, with
// marks), the run id and 1 of the counts, and the history's when it has
// cells a history reads.
func offersAndCounts(id string, offers [][]bestOffer, u *boundedUpload, r *run.Run) (string, []any) {
	var k offersKey
	parts := make([]part, 0, len(bestTables)+2)
	for i, t := range bestTables {
		if len(offers[i]) == 0 {
			continue
		}
		form := cellsForm(len(offers[i]))
		k.forms[i] = uint8(form)
		parts = append(parts, part{
			ctes: []cte{{name: "offer" + strconv.Itoa(i), sql: t.offerOne.form(form), run: true}},
			args: t.offerOneArgs(offers[i], u.marks(i, offers[i]), u.epochOr0())})
	}
	parts = append(parts, part{ctes: uploadCountCTEs, args: []any{id, 1}})
	if args := offerHistoryArgs(id, []string{id}, []*run.Run{r}); args != nil {
		k.history = true
		parts = append(parts, part{ctes: []cte{{name: "history", sql: oneRun.offerHistorySQL(), run: true}}, args: args})
	}
	if sql, ok := offersAndCountsTexts.Load(k); ok {
		return sql.(string), joinArgs(parts)
	}
	sql := joinCTEs(parts)
	offersAndCountsTexts.Store(k, sql)
	return sql, joinArgs(parts)
}

// offersKey names a text of offersAndCounts: the form of each table's
// offer (cellsForm; 0 for none) and whether the history is offered cells.
type offersKey struct {
	forms   [3]uint8 // one per table of bestTables
	history bool
}

// offersAndCountsTexts holds the texts made, by offersKey: a handful.
var offersAndCountsTexts sync.Map

// uploadCountCTEs is countRunsSQL for one run as CTEs of offersAndCounts:
// the same CTEs, listed so that h comes before s, which reads it, and the
// writes run in the order the statement runs them (countDeltasCTEs).
var uploadCountCTEs = func() []cte {
	named := map[string]cte{}
	for _, c := range oneRun.countCTEs() {
		named[c.name] = c
	}
	order := []cte{named["n"], named["h"]}
	for _, name := range []string{"deltas", "s", "g"} {
		c := named[name]
		c.run = true
		order = append(order, c)
	}
	return order
}()
