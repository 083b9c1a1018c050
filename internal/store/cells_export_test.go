package store

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// WriteCellsBothWays writes r's decode cells and prefill rows twice in one
// transaction: under copyID by COPY of decodeRow and prefillRow (one boxed
// value per column), and under insertID by queueInsertCells, the upload's
// statements over arrays read in place.
func WriteCellsBothWays(ctx context.Context, s *Store, r *run.Run, copyID, insertID string) error {
	return s.transact(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		if err := copyDecodeCells(ctx, tx, copyID, r.Decode); err != nil {
			return err
		}
		if err := copyPrefillRows(ctx, tx, copyID, r.Prefill); err != nil {
			return err
		}
		b := &pgx.Batch{}
		queueInsertCells(b, insertID, r)
		return tx.SendBatch(ctx, b).Close()
	})
}

// ReadCells reads run id's decode cells and prefill rows as GetRun does.
func ReadCells(ctx context.Context, s *Store, id string) ([]run.DecodeCell, []run.PrefillRow, error) {
	rows, err := s.pool.Query(ctx, selectDecodeSQL, id)
	if err != nil {
		return nil, nil, err
	}
	decode, err := collectDecodeCells(rows)
	if err != nil {
		return nil, nil, err
	}
	rows, err = s.pool.Query(ctx, selectPrefillSQL, id)
	if err != nil {
		return nil, nil, err
	}
	prefill, err := pgx.CollectRows(rows, scanPrefillRow)
	return decode, prefill, err
}
