package store

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// WriteCellsEveryWay writes r's decode cells and prefill rows twice in one
// transaction: under copyID by COPY of decodeRow and prefillRow (one boxed
// value per column), and under uploadID by the statements an upload sends
// for them (queueRunRows, arrays by column), with source as the run's
// source.
func WriteCellsEveryWay(ctx context.Context, s *Store, r *run.Run, copyID, uploadID string, source []byte) error {
	return s.db.Transact(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		if err := copyDecodeCells(ctx, tx, copyID, r.Decode); err != nil {
			return err
		}
		if err := copyPrefillRows(ctx, tx, copyID, r.Prefill); err != nil {
			return err
		}
		b := &pgx.Batch{}
		queueRunRows(b, uploadID, source, r)
		return tx.SendBatch(ctx, b).Close()
	})
}

// ReadCells reads run id's decode cells and prefill rows as GetRun does.
func ReadCells(ctx context.Context, s *Store, id string) ([]run.DecodeCell, []run.PrefillRow, error) {
	rows, err := s.db.Pool().Query(ctx, selectDecodeSQL, id)
	if err != nil {
		return nil, nil, err
	}
	decode, err := collectDecodeCells(rows)
	if err != nil {
		return nil, nil, err
	}
	rows, err = s.db.Pool().Query(ctx, selectPrefillSQL, id)
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
// id id, past its runs row (queueUpload), in the order sent.
func UploadCellStatements(r *run.Run, id string) []UploadStatement {
	b := &pgx.Batch{}
	queueUpload(b, id, []byte("s"), r, r.UploadedAt, nil)
	out := make([]UploadStatement, 0, b.Len())
	for _, q := range b.QueuedQueries {
		out = append(out, UploadStatement{q.SQL, q.Arguments})
	}
	return out
}
