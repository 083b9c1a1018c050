package store

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// GetRun loads a run with its decode cells (ordered by context, then
// concurrency) and prefill rows (by context). A run without cells or rows
// loads with nil slices.
func (s *Store) GetRun(ctx context.Context, id string) (_ *run.Run, err error) {
	defer wrap(&err, "GetRun(%q)", id)
	var r *run.Run
	// One snapshot for the five queries (readTx), so a run changed
	// meanwhile is never read half old, half new; on a replica that does
	// not have the run yet, the primary is asked. The five go in one round
	// trip (a page miss waits for each).
	err = s.readTx(ctx, func(tx pgx.Tx) (err error) {
		b := &pgx.Batch{}
		b.Queue(selectRunSQL, id)
		b.Queue(selectDecodeSQL, id)
		b.Queue(selectPrefillSQL, id)
		b.Queue(selectFlagsSQL, id)
		b.Queue(selectRunOrgSQL, id)
		br := tx.SendBatch(ctx, b)
		defer func() {
			if cerr := br.Close(); err == nil {
				err = cerr
			}
		}()
		if r, err = scanRun(br.QueryRow()); err != nil {
			return notFound(err)
		}
		rows, _ := br.Query()
		if r.Decode, err = pgx.CollectRows(rows, scanDecodeCell); err != nil {
			return err
		}
		rows, _ = br.Query()
		if r.Prefill, err = pgx.CollectRows(rows, scanPrefillRow); err != nil {
			return err
		}
		if err := scanFlags(br.QueryRow(), r); err != nil {
			return err
		}
		return br.QueryRow().Scan(&r.Org.Slug, &r.Org.Name)
	})
	if err != nil {
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
	defer wrap(&err, "GetSource(%q)", id)
	err = s.public().QueryRow(ctx, `
SELECT b.body, r.source_sha256, r.source_filename, r.source_content_type, r.source_size
FROM runs r JOIN run_sources b ON b.run_id = r.id
WHERE r.id = $1 AND NOT r.hidden`, id).Scan(&body, &src.SHA256, &src.Filename, &src.ContentType, &src.Size)
	if err != nil {
		return nil, run.Source{}, notFound(err)
	}
	return body, src, nil
}

// RunRevision returns the revision of a run without loading it, so that a
// report page can answer a conditional request with one index lookup.
func (s *Store) RunRevision(ctx context.Context, id string) (rev int64, err error) {
	defer wrap(&err, "RunRevision(%q)", id)
	err = s.public().QueryRow(ctx, `SELECT revision FROM runs WHERE id = $1 AND NOT hidden`, id).Scan(&rev)
	if err != nil {
		return 0, notFound(err)
	}
	return rev, nil
}
