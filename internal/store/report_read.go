package store

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store/bests"
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

// GetRunReport is GetRun and SetupVersions of run id in one round trip
// and one snapshot; ErrNotFound when the run is not there or hidden.
func (s *Store) GetRunReport(ctx context.Context, id string) (_ *RunReport, err error) {
	defer db.Wrap(&err, "GetRunReport(%q)", id)
	rep := &RunReport{}
	var readSetup func(pgx.BatchResults) (HistoryQuery, string, []string, error)
	err = s.db.ReadBatch(ctx, func(b *pgx.Batch) {
		queueRun(b, id)
		readSetup = bests.QueueSetupVersionsOfRun(b, id)
	}, func(br pgx.BatchResults) (err error) {
		if rep.Run, err = readRun(br); err != nil {
			return err
		}
		rep.Setup, rep.Version, rep.Versions, err = readSetup(br)
		return err
	})
	if err != nil {
		return nil, err
	}
	return rep, nil
}
