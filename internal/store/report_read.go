package store

import (
	"context"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// RunReport is what a report page reads: the run as GetRun loads it, and
// its setup and the setup's engine versions as SetupVersions reads them,
// for the history link.
type RunReport struct {
	Run      *run.Run
	Setup    HistoryQuery
	Version  string
	Versions []string
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

// GetRunReport is GetRun and SetupVersions of run id in one round trip
// and one snapshot; ErrNotFound when the run is not there or hidden.
func (s *Store) GetRunReport(ctx context.Context, id string) (_ *RunReport, err error) {
	defer db.Wrap(&err, "GetRunReport(%q)", id)
	rep := &RunReport{}
	err = s.db.ReadBatch(ctx, func(b *pgx.Batch) {
		queueRun(b, id)
		b.Queue(setupVersionsOfRunSQL, id)
	}, func(br pgx.BatchResults) (err error) {
		if rep.Run, err = readRun(br); err != nil {
			return err
		}
		q := &rep.Setup
		return db.NotFound(br.QueryRow().Scan(&q.Model, &q.Hardware, &q.Engine, &q.Quantization, &rep.Version, &rep.Versions))
	})
	if err != nil {
		return nil, err
	}
	return rep, nil
}
