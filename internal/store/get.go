package store

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// GetRun loads a run with its decode cells (ordered by context, then
// concurrency) and prefill rows (by context). A run without cells or rows
// loads with nil slices.
func (s *Store) GetRun(ctx context.Context, id string) (_ *run.Run, err error) {
	defer db.Wrap(&err, "GetRun(%q)", id)
	var r *run.Run
	// One snapshot for the five queries, so a run changed meanwhile is
	// never read half old, half new, in one round trip (db.DB.ReadBatch); on a
	// replica that does not have the run yet, the primary is asked.
	err = s.db.ReadBatch(ctx, func(b *pgx.Batch) { queueRun(b, id) }, func(br pgx.BatchResults) (err error) {
		r, err = readRun(br)
		return err
	})
	return r, err
}

// queueRun queues the five queries of a run's load (readRun reads them).
func queueRun(b *pgx.Batch, id string) {
	b.Queue(selectRunSQL, id)
	b.Queue(selectDecodeSQL, id)
	b.Queue(selectPrefillSQL, id)
	b.Queue(selectFlagsSQL, id)
	b.Queue(selectRunTelemetrySQL, id)
}

// readRun reads the results of queueRun's queries: ErrNotFound when the
// run is not there (or hidden).
func readRun(br pgx.BatchResults) (*run.Run, error) {
	r, err := scanRun(br.QueryRow())
	if err != nil {
		return nil, db.NotFound(err)
	}
	rows, _ := br.Query()
	if r.Decode, err = collectDecodeCells(rows); err != nil {
		return nil, err
	}
	rows, _ = br.Query()
	if r.Prefill, err = pgx.CollectRows(rows, scanPrefillRow); err != nil {
		return nil, err
	}
	if err := scanFlags(br.QueryRow(), r); err != nil {
		return nil, err
	}
	if err := scanRunTelemetry(br.QueryRow(), r); err != nil {
		return nil, err
	}
	if len(r.Decode) == 0 {
		r.Decode = nil
	}
	if len(r.Prefill) == 0 {
		r.Prefill = nil
	}
	return r, nil
}

// GetSource returns the uploaded document of a run, byte for byte, and its
// description.
func (s *Store) GetSource(ctx context.Context, id string) (body []byte, src run.Source, err error) {
	defer db.Wrap(&err, "GetSource(%q)", id)
	err = s.db.Public().QueryRow(ctx, `
SELECT b.body, r.source_sha256, r.source_filename, r.source_content_type, r.source_size
FROM runs r JOIN run_sources b ON b.run_id = r.id
WHERE r.id = $1 AND NOT r.hidden`, id).Scan(&body, &src.SHA256, &src.Filename, &src.ContentType, &src.Size)
	if err != nil {
		return nil, run.Source{}, db.NotFound(err)
	}
	return body, src, nil
}

// RunRevision returns the revision of a run without loading it, so that a
// report page can answer a conditional request with one index lookup.
func (s *Store) RunRevision(ctx context.Context, id string) (rev int64, err error) {
	defer db.Wrap(&err, "RunRevision(%q)", id)
	err = s.db.Public().QueryRow(ctx, `SELECT revision FROM runs WHERE id = $1 AND NOT hidden`, id).Scan(&rev)
	if err != nil {
		return 0, db.NotFound(err)
	}
	return rev, nil
}
