package backup

import (
	"archive/tar"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"path"
	"strings"

	"github.com/klauspost/compress/zstd"

	"github.com/speedmatrix/speedmatrix/internal/formats"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// maxEntry bounds one entry read into memory: a source is at most the
// upload cap (16 MiB) and a sweep's canonical zip a little more; the
// largest table (the audit log, the sessions) of a large site stays far
// below.
const maxEntry = 256 << 20

// rowBatch is how many rows go to the database in one statement.
const rowBatch = 1000

// Target is what a restore writes to: an empty, migrated database.
type Target interface {
	ingest.RestoreStore
	Empty(ctx context.Context) (bool, error)
	RestoreRows(ctx context.Context, t store.BackupTable, cols []string, rows []json.RawMessage) error
	FinishRestore(ctx context.Context) error
	UndoRestore(ctx context.Context) error
}

// Restore reads a backup from r into st, which must be empty, and returns
// how many runs it restored. It reads the file twice: first to check it
// whole (entries, their order, the tables and columns it names, every
// run's source against its SHA-256, the counts and digest of end.json),
// storing nothing, then to store it: the tables, then every run through
// ingest.Restore, then the runs' standing. Should the second pass fail
// (a source that no longer parses, the database), the database is
// emptied again: a site is restored whole or not at all.
func Restore(ctx context.Context, r io.ReadSeeker, st Target) (runs int, err error) {
	empty, err := st.Empty(ctx)
	if err != nil {
		return 0, fmt.Errorf("nothing restored: %w", err)
	}
	if !empty {
		return 0, errors.New("nothing restored: the database already holds runs or accounts: restore fills an empty one")
	}
	if _, err := read(ctx, r, check{}); err != nil {
		return 0, fmt.Errorf("nothing restored: %w", err)
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return 0, fmt.Errorf("nothing restored: %w", err)
	}
	runs, err = read(ctx, r, db{st})
	if err == nil {
		err = st.FinishRestore(ctx)
	}
	if err != nil {
		if undo := st.UndoRestore(context.WithoutCancel(ctx)); undo != nil {
			return 0, fmt.Errorf("the restore failed part way (%w) and emptying the database again failed too: "+
				"it holds part of the backup: %w", err, undo)
		}
		return 0, fmt.Errorf("nothing restored (the database was emptied again): %w", err)
	}
	return runs, nil
}

// sink is what one pass of read does with what it reads.
type sink interface {
	rows(ctx context.Context, t store.BackupTable, cols []string, rows []json.RawMessage) error
	run(ctx context.Context, rec *record, source []byte) error
}

// check is the first pass: it stores nothing.
type check struct{}

func (check) rows(context.Context, store.BackupTable, []string, []json.RawMessage) error { return nil }

func (check) run(_ context.Context, rec *record, source []byte) error {
	if formats.SHA256(source) != rec.Run.Source.SHA256 {
		return fmt.Errorf("run %s: its source is not the one uploaded (SHA-256 differs)", rec.Run.ID)
	}
	return nil
}

// db is the second pass: it stores.
type db struct{ st Target }

func (d db) rows(ctx context.Context, t store.BackupTable, cols []string, rows []json.RawMessage) error {
	return d.st.RestoreRows(ctx, t, cols, rows)
}

func (d db) run(ctx context.Context, rec *record, source []byte) error {
	return ingest.Restore(ctx, d.st, rec.Run, rec.DedupeKey, source, rec.Hidden)
}

// read reads a whole backup from r into s and returns how many runs it
// held.
func read(ctx context.Context, r io.Reader, s sink) (runs int, err error) {
	zr, err := zstd.NewReader(r, zstd.WithDecoderMaxMemory(1<<30))
	if err != nil {
		return 0, err
	}
	defer zr.Close()
	rd := &reader{tr: tar.NewReader(zr), sum: sha256.New(), rows: map[string]int{}}
	var m Manifest
	if err := rd.nextJSON("manifest.json", &m); err != nil {
		return 0, err
	}
	if m.Format != Format || m.Version < 1 || m.Version > Version {
		return 0, fmt.Errorf("not a backup this version reads: format %q, version %d (reads %s up to %d)", m.Format, m.Version, Format, Version)
	}
	if m.Version == 1 {
		if err := readAccountsV1(ctx, rd, s); err != nil {
			return 0, err
		}
	}
	rd.tables, err = plan(m.Tables)
	if err != nil {
		return 0, err
	}
	for {
		name, body, err := rd.next()
		switch {
		case err != nil:
			return runs, err
		case name == "end.json":
			return runs, rd.end(m.Version, body, runs)
		case strings.HasPrefix(name, "tables/"):
			err = rd.table(ctx, s, name, body)
		default:
			err = readRun(ctx, rd, s, name, body)
			runs++
		}
		if err != nil {
			return runs, err
		}
	}
}

// planned is a row section a file announces, as this version restores it.
type planned struct {
	table store.BackupTable
	cols  []string
}

// plan checks the manifest's tables: each one this version knows, with
// columns it knows, those before the runs in its dependency order.
func plan(tables []Table) ([]planned, error) {
	var out []planned
	last := -1
	for _, t := range tables {
		i := indexOfTable(t.Name)
		if i < 0 {
			return nil, fmt.Errorf("table %q is not one this version restores (a newer version wrote the backup?)", t.Name)
		}
		if !store.BackupTables[i].Update { // those follow the runs, wherever listed
			if i <= last {
				return nil, fmt.Errorf("table %q comes after one it must precede", t.Name)
			}
			last = i
		}
		if err := store.BackupTables[i].CheckColumns(t.Columns); err != nil {
			return nil, err
		}
		out = append(out, planned{store.BackupTables[i], t.Columns})
	}
	return out, nil
}

func indexOfTable(name string) int {
	for i, t := range store.BackupTables {
		if t.Name == name {
			return i
		}
	}
	return -1
}

// readRun reads the source that follows a run's record and restores it.
func readRun(ctx context.Context, rd *reader, s sink, name string, body []byte) error {
	id, ok := strings.CutSuffix(strings.TrimPrefix(name, "runs/"), ".json")
	if !ok || path.Dir(name) != "runs" {
		return fmt.Errorf("unexpected entry %q", name)
	}
	var rec record
	if err := json.Unmarshal(body, &rec); err != nil || rec.Run == nil || rec.Run.ID != id {
		return fmt.Errorf("%s: not a run record (%v)", name, err)
	}
	srcName, source, err := rd.next()
	if err != nil {
		return err
	}
	if srcName != "runs/"+id+".source" {
		return fmt.Errorf("%s is followed by %q, not its source", name, srcName)
	}
	return s.run(ctx, &rec, source)
}

// reader reads whole entries of the tar, bounded, digesting them, and
// keeps what end.json is checked against.
type reader struct {
	tr     *tar.Reader
	sum    hash.Hash
	tables []planned      // the row sections still to come, in order
	rows   map[string]int // rows read per table
}

func (rd *reader) next() (string, []byte, error) {
	hdr, err := rd.tr.Next()
	if errors.Is(err, io.EOF) {
		return "", nil, errors.New("the backup ends before end.json: it was cut off")
	}
	if err != nil {
		return "", nil, err
	}
	if hdr.Typeflag != tar.TypeReg || hdr.Size > maxEntry {
		return "", nil, fmt.Errorf("entry %q: not a regular file within %d bytes", hdr.Name, maxEntry)
	}
	b, err := io.ReadAll(io.LimitReader(rd.tr, hdr.Size))
	if err != nil {
		return "", nil, err
	}
	if hdr.Name != "end.json" {
		entryDigest(rd.sum, hdr.Name, b)
	}
	return hdr.Name, b, nil
}

func (rd *reader) nextJSON(want string, v any) error {
	name, b, err := rd.next()
	if err != nil {
		return err
	}
	if name != want {
		return fmt.Errorf("expected %s, found %q", want, name)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", want, err)
	}
	return nil
}

// end checks end.json against what was read.
func (rd *reader) end(version int, body []byte, runs int) error {
	var e end
	if err := json.Unmarshal(body, &e); err != nil {
		return fmt.Errorf("end.json: %w", err)
	}
	if e.Runs != runs {
		return fmt.Errorf("end.json counts %d runs, the file holds %d", e.Runs, runs)
	}
	if version == 1 { // neither digest nor row counts yet
		return nil
	}
	if len(rd.tables) > 0 {
		return fmt.Errorf("the backup ends before its table %s", rd.tables[0].table.Name)
	}
	if got := hex.EncodeToString(rd.sum.Sum(nil)); e.SHA256 != got {
		return fmt.Errorf("the backup was altered or damaged: its entries' SHA-256 is %s, end.json says %q", got, e.SHA256)
	}
	for name, n := range rd.rows {
		if e.Rows[name] != n {
			return fmt.Errorf("end.json counts %d rows of %s, the file holds %d", e.Rows[name], name, n)
		}
	}
	if len(e.Rows) != len(rd.rows) {
		return errors.New("end.json counts rows of a table the file does not hold")
	}
	return nil
}
