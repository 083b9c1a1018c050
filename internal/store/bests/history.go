package bests

import (
	"context"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// HistoryQuery names one setup and cell: the model (a variant's or a base
// model's slug), hardware (its slug holds the GPU count), engine and, when
// not empty, quantization slugs.
type HistoryQuery struct {
	Model, Hardware, Engine, Quantization string
	Context, Concurrency                  int
}

// HistoryPoint is one engine version's best valid total tok/s at the cell.
type HistoryPoint struct {
	EngineVersion string  `db:"engine_version"`
	RunID         string  `db:"id"`
	Value         float64 `db:"total_tps"`
	Demo          bool    `db:"demo"`
}

// History returns each engine version's best valid total tok/s at the
// cell among the setup's shown, rankable runs (ties to the earlier upload,
// then the smaller id), read from history_cells, in no particular order:
// versions are ordered by internal/history, which knows how to read them.
func (s *Bests) History(ctx context.Context, q HistoryQuery) (_ []HistoryPoint, err error) {
	defer db.Wrap(&err, "History(%+v)", q)
	rows, _ := s.db.Public().Query(ctx, historySQL,
		q.Model, q.Hardware, q.Engine, q.Quantization, q.Context, q.Concurrency)
	return pgx.CollectRows(rows, pgx.RowToStructByName[HistoryPoint])
}

// HistoryOptions are what a history's form offers: the cells measured
// valid by the setup's runs (by context, then concurrency) and their
// quantizations, most runs first.
type HistoryOptions struct {
	Cells         []GridPoint
	Quantizations []string
}

// HistoryChoices returns the options of q's setup (its cell ignored).
func (s *Bests) HistoryChoices(ctx context.Context, q HistoryQuery) (_ HistoryOptions, err error) {
	defer db.Wrap(&err, "HistoryChoices(%+v)", q)
	var o HistoryOptions
	args := []any{q.Model, q.Hardware, q.Engine, q.Quantization}
	rows, _ := s.db.Public().Query(ctx, historyCellsSQL, args...)
	if o.Cells, err = pgx.CollectRows(rows, pgx.RowToStructByPos[GridPoint]); err != nil {
		return o, err
	}
	args[3] = "" // every quantization of the setup
	rows, _ = s.db.Public().Query(ctx, historyQuantizationsSQL, args...)
	o.Quantizations, err = pgx.CollectRows(rows, pgx.RowTo[string])
	return o, err
}

// SetupVersions returns the run's setup as a history names it (its cell
// left zero) and the engine versions its setup's runs name, so a report
// can link to the history when earlier versions exist.
func (s *Bests) SetupVersions(ctx context.Context, id string) (q HistoryQuery, version string, versions []string, err error) {
	defer db.Wrap(&err, "SetupVersions(%q)", id)
	err = s.db.Public().QueryRow(ctx, `SELECT model_slug, hardware_slug, engine_slug, quantization_slug, engine_version
FROM runs WHERE id = $1`, id).Scan(&q.Model, &q.Hardware, &q.Engine, &q.Quantization, &version)
	if err != nil {
		return q, "", nil, db.NotFound(err)
	}
	rows, _ := s.db.Public().Query(ctx, setupVersionsSQL, q.Model, q.Hardware, q.Engine, q.Quantization)
	versions, err = pgx.CollectRows(rows, pgx.RowTo[string])
	return q, version, versions, err
}

// setupVersionsOfRunSQL is SetupVersions' two queries as one, keyed by the
// run ($1): the run's setup columns and setupVersionsSQL with the setup's
// slugs ($1–$4 there) taken from the run's row, so a report's miss need
// not wait for the first answer to ask the second.
var setupVersionsOfRunSQL = `SELECT setup_run.model_slug, setup_run.hardware_slug, setup_run.engine_slug,
    setup_run.quantization_slug, setup_run.engine_version, ARRAY(` +
	strings.NewReplacer("$1", "setup_run.model_slug", "$2", "setup_run.hardware_slug",
		"$3", "setup_run.engine_slug", "$4", "setup_run.quantization_slug").Replace(setupVersionsSQL) + `)
FROM runs setup_run WHERE setup_run.id = $1`

// QueueSetupVersionsOfRun queues on b what SetupVersions reads of run
// id, as one statement (setupVersionsOfRunSQL), and returns the function
// that reads its answer from b's results, in order: a report's read.
// ErrNotFound when the run is not there.
func QueueSetupVersionsOfRun(b *pgx.Batch, id string) func(pgx.BatchResults) (q HistoryQuery, version string, versions []string, err error) {
	b.Queue(setupVersionsOfRunSQL, id)
	return func(br pgx.BatchResults) (q HistoryQuery, version string, versions []string, err error) {
		err = br.QueryRow().Scan(&q.Model, &q.Hardware, &q.Engine, &q.Quantization, &version, &versions)
		return q, version, versions, db.NotFound(err)
	}
}

// Setup is a model, hardware, engine and quantization whose runs name
// several engine versions: one history.
type Setup struct {
	HistoryQuery
	Versions int
}

// historyKindColumn is the column (of history_setups) an entity page of
// a kind filters by.
var historyKindColumn = map[string]string{KindHardware: "hardware_slug", KindEngine: "engine_slug",
	KindModel: "model_slug", KindModelBase: "model_base_slug"}

// SetupsWithHistory returns up to limit setups of the identity (kind and
// slug) measured with more than one engine version, most versions first,
// ties by model, hardware, engine and quantization slug: the first rows of
// one range of history_setups (migration 0021), however many setups the
// identity has.
func (s *Bests) SetupsWithHistory(ctx context.Context, kind, slug string, limit int) (_ []Setup, err error) {
	defer db.Wrap(&err, "SetupsWithHistory(%s, %q)", kind, slug)
	col, ok := historyKindColumn[kind]
	if !ok {
		return nil, nil
	}
	rows, _ := s.db.Public().Query(ctx, setupsWithHistorySQL(col), slug, limit)
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (Setup, error) {
		var st Setup
		err := row.Scan(&st.Model, &st.Hardware, &st.Engine, &st.Quantization, &st.Versions)
		return st, err
	})
}

// maxSeriesChange bounds the runs one change names for their history link;
// past it a reset (every cached page stale once) is cheaper.
const maxSeriesChange = 1000

// seriesRuns are the runs whose report's history link (an earlier engine
// version exists, see SetupVersions) may change when run id arrives, is
// hidden or goes: the others of a setup run id belongs to, under another
// engine version. reset is true when they are too many to name.
func seriesRuns(ctx context.Context, tx pgx.Tx, id string) (ids []string, reset bool, err error) {
	rows, _ := tx.Query(ctx, `
SELECT o.id FROM runs r JOIN runs o
    ON (r.model_slug = o.model_slug OR r.model_base_slug = o.model_slug)
    AND o.hardware_slug = r.hardware_slug AND o.engine_slug = r.engine_slug
    AND o.quantization_slug = r.quantization_slug
    AND o.engine_version <> r.engine_version AND o.engine_version <> '' AND o.id <> r.id
WHERE r.id = $1 AND r.engine_version <> ''
LIMIT $2`, id, maxSeriesChange+1)
	if ids, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
		return nil, false, err
	}
	if len(ids) > maxSeriesChange {
		return nil, true, nil
	}
	return ids, false, nil
}

// seriesOfSQL is seriesRuns for a run not stored yet, named by its slugs
// and engine version ($1 model, $2 base model, $3 hardware, $4 engine,
// $5 quantization, $6 version), so an upload can ask in the round trip
// that inserts it. An empty version has no series.
const seriesOfSQL = `
SELECT o.id FROM runs o
WHERE (o.model_slug = $1 OR o.model_slug = $2) AND o.hardware_slug = $3 AND o.engine_slug = $4
    AND o.quantization_slug = $5 AND o.engine_version <> $6 AND o.engine_version <> '' AND $6 <> ''
LIMIT $7`

// QueueSeriesOf queues seriesOfSQL for r on b and returns what reads its
// answer (seriesResult). A run that names no engine version has no series,
// so nothing is asked: a custom plan of seriesOfSQL folds its test of an empty $6 to
// false, cheaper than the generic plan, so PostgreSQL planned the statement
// afresh at every upload without a version (0.19 ms of the backend's CPU)
// to find nothing.
func QueueSeriesOf(b *pgx.Batch, r *run.Run) func(pgx.BatchResults) ([]string, bool, error) {
	if r.Engine.Version == "" {
		return func(pgx.BatchResults) ([]string, bool, error) { return nil, false, nil }
	}
	ids := runIdentities(r) // in identityKinds' order
	b.Queue(seriesOfSQL, ids[2].Slug, ids[3].Slug, ids[0].Slug, ids[1].Slug, ids[5].Slug,
		r.Engine.Version, maxSeriesChange+1)
	return seriesResult
}

// seriesResult reads seriesOfSQL's answer from br as seriesRuns returns it.
func seriesResult(br pgx.BatchResults) (ids []string, reset bool, err error) {
	rows, _ := br.Query()
	if ids, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
		return nil, false, err
	}
	if len(ids) > maxSeriesChange {
		return nil, true, nil
	}
	return ids, false, nil
}

// RunChange is a write that changes run id's own pages and the lists, and
// perhaps the history link of its setup's other versions (read before fn,
// which may delete the run).
func RunChange(ctx context.Context, id string, fn func(pgx.Tx) error) func(pgx.Tx) (db.Change, error) {
	return func(tx pgx.Tx) (db.Change, error) {
		others, reset, err := seriesRuns(ctx, tx, id)
		if err != nil {
			return db.Change{}, err
		}
		return db.Change{Runs: append(others, id), Site: true, Reset: reset}, fn(tx)
	}
}
