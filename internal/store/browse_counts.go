package store

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// Run counts (migration 0015). Every upload of one setup used to add to
// the same browse_groups row, holding its lock until the commit was
// flushed, so concurrent uploads of a setup took turns. Now an upload
// appends its runs to browse_count_deltas, a table with no key that no one
// waits on, and makes sure its group's row exists (a row already there is
// left unlocked); the fold (foldCountsSQL) moves the deltas into
// browse_groups, identity_runs (per hardware, engine and model variant)
// and engine_version_runs in one statement. A reader adds the deltas not
// folded yet to the folded counts, in one statement, so it sees every
// committed upload exactly once, folded or not.
//
// The server folds every second (KeepCountsFolded), so the deltas a
// reader adds stay a second's uploads. A transaction that takes a run out
// of the counts (hide, delete) folds too, under bestLock held exclusively,
// so that no upload's deltas are in flight: a group or identity left with
// no run is then deleted at once, as entity pages must stop linking to it.

// foldLock keeps folds apart. Taken after bestLock by whoever holds both
// (lock order in browse_index.go); an upload never takes it.
const foldLock = 0x5e3d_f01d

// groupCounts are the group counts a reader adds up: the folded ones and
// the deltas, the key's columns and runs, one row per group and source.
const groupCounts = `SELECT model_slug, model_base_slug, hardware_slug, engine_slug, engine_version, quantization_slug, runs`

// countRunsSQL counts the runs ($1) in their browse groups, $2 each (1, or
// -1 for a run that leaves them): a delta per group, and the group's row
// when it has none yet. The delta also counts, in history_runs, those of
// the runs a history reads (historyRankable), and their version's
// history_versions row is made, with no runs, when it has none yet: the
// fold adds the delta there too (migration 0017). model_base_slug follows
// from model_slug, so min() picks the one value. The NOT EXISTS leaves an
// existing row out before the insert, so the insert never waits on a fold
// that is updating it.
//
// The setups of the versions' new rows count them (history_setups): the
// one row an upload writes there, only when it brings its setup a version.
//
// A run leaving (-1) is hidden already, so it counts no history run: a
// history's counts are derived again from its runs (rebuildHistoryOf)
// whenever one is hidden, shown or goes.
func (sh runsShape) countRunsSQL() string {
	return countDeltasSQL(sh.countedRuns(), countSign)
}

// countCTEs is countRunsSQL in parts (countDeltasCTEs).
func (sh runsShape) countCTEs() []cte {
	return countDeltasCTEs(sh.countedRuns(), countSign)
}

// countSign is countRunsSQL's sign, its parameter $2.
const countSign = `$2::bigint`

// countedRuns is countRunsSQL's rows n: the runs ($1) by browse group.
// One run is its group's one row, read without the sort and aggregate
// that group a batch's runs: nodes every upload's statement would start
// and end for one row.
func (sh runsShape) countedRuns() string {
	if sh.one {
		return `SELECT model_slug, model_base_slug, hardware_slug, engine_slug, engine_version,
        quantization_slug, 1::bigint AS runs, (` + historyRankable + `)::integer::bigint AS history_runs
    FROM runs r WHERE id ` + sh.ids
	}
	return `SELECT model_slug, min(model_base_slug) AS model_base_slug, hardware_slug, engine_slug, engine_version,
        quantization_slug, count(*) AS runs, count(*) FILTER (WHERE ` + historyRankable + `) AS history_runs
    FROM runs r WHERE id ` + sh.ids + ` GROUP BY ` + browseGroupKey
}

// countDeltasSQL is countRunsSQL for the rows of n (browse_count_deltas'
// columns, one row per group), each runs and history_runs multiplied by
// sign: the groups' and versions' rows made where missing, the setups'
// versions counted, the deltas appended. The bulk load counts its runs
// with it too, so that every path takes these locks in one order.
func countDeltasSQL(n, sign string) string {
	ctes := countDeltasCTEs(n, sign)
	var with []string
	for _, c := range ctes[:len(ctes)-1] {
		with = append(with, c.name+` AS (`+c.sql+`)`)
	}
	return `
WITH ` + strings.Join(with, ",\n") + `
` + ctes[len(ctes)-1].sql
}

// countDeltasCTEs is countDeltasSQL in parts: the CTEs n, g, h and s in
// the order of its text, then the insert of the deltas, its main
// statement. They run in this order: the deltas, then s (which reads h to
// its end: history_versions, then history_setups), then g
// (browse_groups), the order a statement runs data-modifying CTEs that
// its main query does not read; an upload that sends them in one
// statement with others keeps it (offersAndCountsSQL).
func countDeltasCTEs(n, sign string) []cte {
	return []cte{{name: "n", sql: n},
		{name: "g", sql: `INSERT INTO browse_groups (model_slug, model_base_slug, hardware_slug, engine_slug, engine_version, quantization_slug, runs)
    SELECT model_slug, model_base_slug, hardware_slug, engine_slug, engine_version, quantization_slug, 0 FROM n
    WHERE NOT EXISTS (SELECT FROM browse_groups o WHERE (o.model_slug, o.hardware_slug, o.engine_slug, o.engine_version, o.quantization_slug) =
        (n.model_slug, n.hardware_slug, n.engine_slug, n.engine_version, n.quantization_slug))
    ORDER BY ` + browseGroupKey + `
    ON CONFLICT DO NOTHING`},
		{name: "h", sql: `INSERT INTO history_versions ` + historyVersionsColumns + `
    SELECT ` + historyVersionsKey + `, model_base_slug, 0 FROM n
    WHERE history_runs > 0 AND NOT EXISTS (SELECT FROM history_versions o WHERE (` + historyVersionsKeyOf("o") + `) =
        (` + historyVersionsKeyOf("n") + `))
    ORDER BY ` + historyVersionsKey + `
    ON CONFLICT DO NOTHING RETURNING ` + historyVersionsKey + `, model_base_slug`},
		{name: "s", sql: `INSERT INTO history_setups AS s ` + historySetupsColumns + historySetupsFrom("h") + historySetupsAdd},
		{name: "deltas", sql: `INSERT INTO browse_count_deltas (model_slug, model_base_slug, hardware_slug, engine_slug, engine_version, quantization_slug, runs,
    history_runs)
SELECT model_slug, model_base_slug, hardware_slug, engine_slug, engine_version, quantization_slug, ` + sign + ` * runs,
    ` + sign + ` * history_runs FROM n`}}
}

// identityCountsOf lists rows of browse_groups or browse_count_deltas
// (alias d) as the identities they count, one row each for the hardware,
// the engine and the model variant (with its base).
const identityCountsOf = `CROSS JOIN LATERAL (VALUES ('hardware', d.hardware_slug, ''), ('engine', d.engine_slug, ''),
    ('model', d.model_slug, d.model_base_slug)) AS k (kind, slug, base)
WHERE k.slug <> ''`

// foldCountsSQL moves every delta its snapshot sees into the folded counts,
// history_versions' included, in key order (the rows it locks). One statement: a reader sees the
// deltas either before the fold or folded, never both or neither.
const foldCountsSQL = `
WITH d AS (DELETE FROM browse_count_deltas RETURNING *),
g AS (INSERT INTO browse_groups AS g (model_slug, model_base_slug, hardware_slug, engine_slug, engine_version, quantization_slug, runs)
    SELECT model_slug, min(model_base_slug), hardware_slug, engine_slug, engine_version, quantization_slug, sum(runs)
    FROM d GROUP BY ` + browseGroupKey + ` ORDER BY ` + browseGroupKey + `
    ON CONFLICT (` + browseGroupKey + `) DO UPDATE SET runs = g.runs + excluded.runs),
i AS (INSERT INTO identity_runs AS i (kind, slug, base, runs)
    SELECT k.kind, k.slug, min(k.base), sum(d.runs) FROM d ` + identityCountsOf + `
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (kind, slug) DO UPDATE SET runs = i.runs + excluded.runs),
v AS (INSERT INTO engine_version_runs AS v (engine_slug, engine_version, runs)
    SELECT engine_slug, engine_version, sum(runs) FROM d WHERE engine_version <> ''
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (engine_slug, engine_version) DO UPDATE SET runs = v.runs + excluded.runs),
h AS (INSERT INTO history_versions AS h ` + historyVersionsColumns + `
    SELECT ` + historyVersionsKey + `, min(model_base_slug), sum(history_runs) FROM d WHERE history_runs <> 0
    GROUP BY ` + historyVersionsKey + ` ORDER BY ` + historyVersionsKey + `
    ON CONFLICT (` + historyVersionsKey + `) DO UPDATE SET runs = h.runs + excluded.runs)
SELECT count(*) FROM d`

// foldCounts folds the deltas in tx and reports how many there were.
func foldCounts(ctx context.Context, tx pgx.Tx) (int64, error) {
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, foldLock); err != nil {
		return 0, fmt.Errorf("lock counts: %w", err)
	}
	var n int64
	if err := tx.QueryRow(ctx, foldCountsSQL).Scan(&n); err != nil {
		return 0, fmt.Errorf("fold counts: %w", err)
	}
	return n, nil
}

// FoldCounts folds the run counts uploads appended into the kept counts
// and reports how many deltas it folded. Readers add the deltas up
// themselves, so counts are exact either way; folding keeps what they add
// small.
func (s *Store) FoldCounts(ctx context.Context) (n int64, err error) {
	defer wrap(&err, "FoldCounts")
	err = s.transact(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		n, err = foldCounts(ctx, tx)
		return err
	})
	return n, err
}

// KeepCountsFolded folds the run counts every so often until ctx ends.
func (s *Store) KeepCountsFolded(ctx context.Context, every time.Duration, log *slog.Logger) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		if _, err := s.FoldCounts(ctx); err != nil && ctx.Err() == nil {
			log.Error("folding run counts", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// groupOfRun matches the browse_groups row g of run $1.
const groupOfRun = `(g.model_slug, g.hardware_slug, g.engine_slug, g.engine_version, g.quantization_slug) =
    (SELECT model_slug, hardware_slug, engine_slug, engine_version, quantization_slug FROM runs WHERE id = $1)`

// uncountRun takes run id out of the counts (it was hidden or is being
// deleted) and drops its group, and its identities' and version's counts,
// when no run is left in them. The caller holds lockBest, so every
// upload's deltas are committed and the fold sees them all.
func uncountRun(ctx context.Context, tx pgx.Tx, id string) error {
	if _, err := tx.Exec(ctx, oneRun.countRunsSQL(), id, -1); err != nil {
		return fmt.Errorf("uncount run: %w", err)
	}
	if _, err := foldCounts(ctx, tx); err != nil {
		return err
	}
	for _, sql := range []string{
		`DELETE FROM browse_groups g WHERE g.runs <= 0 AND ` + groupOfRun,
		`DELETE FROM identity_runs i USING runs d ` + identityCountsOf + ` AND d.id = $1
    AND (i.kind, i.slug) = (k.kind, k.slug) AND i.runs <= 0`,
		`DELETE FROM engine_version_runs v USING runs r WHERE r.id = $1
    AND (v.engine_slug, v.engine_version) = (r.engine_slug, r.engine_version) AND v.runs <= 0`,
	} {
		if _, err := tx.Exec(ctx, sql, id); err != nil {
			return fmt.Errorf("uncount run: %w", err)
		}
	}
	return nil
}

// recountAll derives every count again from the shown runs, deltas
// dropped. The caller holds lockBest.
func recountAll(ctx context.Context, tx pgx.Tx) error {
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, foldLock); err != nil {
		return fmt.Errorf("lock counts: %w", err)
	}
	for _, sql := range []string{
		`DELETE FROM browse_count_deltas`, `DELETE FROM browse_groups`, `DELETE FROM identity_runs`,
		`DELETE FROM engine_version_runs`,
		`INSERT INTO browse_groups (model_slug, model_base_slug, hardware_slug, engine_slug, engine_version, quantization_slug, runs)
SELECT model_slug, min(model_base_slug), hardware_slug, engine_slug, engine_version, quantization_slug, count(*)
FROM runs WHERE NOT hidden GROUP BY ` + browseGroupKey,
		`INSERT INTO identity_runs (kind, slug, base, runs)
SELECT k.kind, k.slug, min(k.base), sum(d.runs) FROM browse_groups d ` + identityCountsOf + ` GROUP BY 1, 2`,
		`INSERT INTO engine_version_runs (engine_slug, engine_version, runs)
SELECT engine_slug, engine_version, sum(runs) FROM browse_groups WHERE engine_version <> '' GROUP BY 1, 2`,
	} {
		if _, err := tx.Exec(ctx, sql); err != nil {
			return fmt.Errorf("recount: %w", err)
		}
	}
	return nil
}
