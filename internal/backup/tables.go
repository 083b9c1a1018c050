package backup

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/speedmatrix/speedmatrix/internal/store"
)

// table reads tables/NAME.jsonl, the next row section the manifest
// announced, and hands its rows to s in batches.
func (rd *reader) table(ctx context.Context, s sink, name string, body []byte) error {
	if len(rd.tables) == 0 || name != tableEntry(rd.tables[0].table.Name) {
		return fmt.Errorf("unexpected entry %q: not the next table the manifest names", name)
	}
	p := rd.tables[0]
	rd.tables = rd.tables[1:]
	rows, err := splitRows(name, body, p.cols)
	if err != nil {
		return err
	}
	rd.rows[p.table.Name] = len(rows)
	return storeRows(ctx, s, p.table, p.cols, rows)
}

// splitRows reads one JSON object per line, each with exactly the columns
// cols: the database would take a missing one for NULL and drop an
// unknown one unseen.
func splitRows(name string, body []byte, cols []string) ([]json.RawMessage, error) {
	var rows []json.RawMessage
	for i, line := range bytes.Split(body, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var row map[string]json.RawMessage
		if err := json.Unmarshal(line, &row); err != nil {
			return nil, fmt.Errorf("%s line %d: %w", name, i+1, err)
		}
		if len(row) != len(cols) {
			return nil, fmt.Errorf("%s line %d: %d columns, the manifest names %d", name, i+1, len(row), len(cols))
		}
		for c := range row {
			if !slices.Contains(cols, c) {
				return nil, fmt.Errorf("%s line %d: column %q is not among the manifest's", name, i+1, c)
			}
		}
		rows = append(rows, json.RawMessage(line))
	}
	return rows, nil
}

// storeRows hands rows to s, rowBatch at a time.
func storeRows(ctx context.Context, s sink, t store.BackupTable, cols []string, rows []json.RawMessage) error {
	for len(rows) > 0 {
		n := min(len(rows), rowBatch)
		if err := s.rows(ctx, t, cols, rows[:n]); err != nil {
			return err
		}
		rows = rows[n:]
	}
	return nil
}
