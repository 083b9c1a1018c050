package store

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// WriteCellsEveryWay writes r's decode cells and prefill rows three times
// in one transaction: under copyID by COPY of decodeRow and prefillRow (one
// boxed value per column), under insertID by queueInsertCells, the
// statements over arrays read in place, and under uploadID by
// uploadWrites, the statement an upload sends, with source as the run's
// source.
func WriteCellsEveryWay(ctx context.Context, s *Store, r *run.Run, copyID, insertID, uploadID string, source []byte) error {
	return s.transact(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		if err := copyDecodeCells(ctx, tx, copyID, r.Decode); err != nil {
			return err
		}
		if err := copyPrefillRows(ctx, tx, copyID, r.Prefill); err != nil {
			return err
		}
		b := &pgx.Batch{}
		queueInsertCells(b, insertID, r)
		sql, args := uploadWrites(uploadID, source, r)
		b.Queue(sql, args...)
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

// UploadStatement is one statement of an upload with its parameters.
type UploadStatement struct {
	SQL  string
	Args []any
}

// UploadCellStatements are the statements an upload sends for run r, its
// id id, that read its cells' arrays: uploadWrites (its source, decode
// cells, prefill rows, names and bestLock) and offersAndCounts (its offers
// to each table of bests it has cells for, its counts and its history).
func UploadCellStatements(r *run.Run, id string) []UploadStatement {
	sql, args := uploadWrites(id, []byte("s"), r)
	out := []UploadStatement{{sql, args}}
	sql, args = offersAndCounts(id, runOffers(id, r, r.UploadedAt), nil, r)
	return append(out, UploadStatement{sql, args})
}
