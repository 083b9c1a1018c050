package store

import (
	"context"
	"crypto/rand"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Baseline is the floor the upload path is measured against
// (docs/performance.md, scripts/uploadload -baseline): raw pgx inserts of
// the same runs into scratch tables of the same shape as runs, decode_cells
// and prefill_rows (their columns, defaults, keys and indexes), one
// transaction per run, the row by INSERT and the cells by CopyFrom. It has
// none of the upload's guarantees beyond the transaction (no dedupe, no
// browse index, no notification), so it is only ever a benchmark.
type Baseline struct {
	s                     *Store
	runs, decode, prefill string
	// insertSQL is each text insertRun picks, made to write b.runs.
	insertSQL map[string]string
}

// NewBaseline creates the scratch tables, named with a random suffix so
// several measurements can share a database. Drop removes them.
func (s *Store) NewBaseline(ctx context.Context) (_ *Baseline, err error) {
	defer wrap(&err, "NewBaseline")
	suffix := strings.ToLower(rand.Text()[:8])
	b := &Baseline{s: s, runs: "baseline_runs_" + suffix, decode: "baseline_decode_" + suffix,
		prefill: "baseline_prefill_" + suffix}
	for _, t := range [][2]string{{b.runs, "runs"}, {b.decode, "decode_cells"}, {b.prefill, "prefill_rows"}} {
		// Unlike runs, the scratch tables have no foreign keys: those
		// would tie them to the site's own rows.
		if _, err := s.pool.Exec(ctx, fmt.Sprintf(`CREATE TABLE %s (LIKE %s INCLUDING ALL)`, t[0], t[1])); err != nil {
			return nil, err
		}
	}
	b.insertSQL = map[string]string{}
	for _, sql := range []string{insertRunSQL, insertUnverifiedRunSQL} {
		b.insertSQL[sql] = strings.Replace(sql, "INSERT INTO runs (", "INSERT INTO "+b.runs+" (", 1)
	}
	return b, nil
}

// Insert stores r's row, decode cells and prefill rows under key in one
// transaction.
func (b *Baseline) Insert(ctx context.Context, r *run.Run, key string) (err error) {
	defer wrap(&err, "Baseline.Insert(%q)", key)
	id, _ := runIDs(key)
	uploaded := time.Now().UTC().Truncate(time.Microsecond)
	return b.s.transact(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		sql, args := insertRun(id, key, uploaded, r)
		if _, err := tx.Exec(ctx, b.insertSQL[sql], args...); err != nil {
			return err
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{b.decode}, decodeColumns,
			pgx.CopyFromSlice(len(r.Decode), func(i int) ([]any, error) { return decodeRow(id, &r.Decode[i]), nil })); err != nil {
			return err
		}
		_, err := tx.CopyFrom(ctx, pgx.Identifier{b.prefill}, prefillColumns,
			pgx.CopyFromSlice(len(r.Prefill), func(i int) ([]any, error) { return prefillRow(id, &r.Prefill[i]), nil }))
		return err
	})
}

// Drop removes the scratch tables.
func (b *Baseline) Drop(ctx context.Context) (err error) {
	defer wrap(&err, "Baseline.Drop")
	_, err = b.s.pool.Exec(ctx, fmt.Sprintf(`DROP TABLE IF EXISTS %s, %s, %s`, b.runs, b.decode, b.prefill))
	return err
}
