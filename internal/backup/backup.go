// Package backup writes and reads the portable backup: a zstd-compressed
// tar holding a manifest, every table of people and standing that a run's
// file cannot give back (store.BackupTables: accounts, sessions and tokens
// as hashes, tombstones, the audit log, each run's owner), and, for every
// run, its facts and the file as uploaded. A restore derives every run
// again from its file through internal/ingest, the same path as an upload,
// so a backup outlives schema changes and needs no pg_dump of the same
// major version.
//
// Layout (version 2), in this order:
//
//	manifest.json          {"format": "speedmatrix-backup", "version": 2,
//	                        "tables": [{"name", "columns"}, …], …}
//	tables/orgs.jsonl      one JSON object per row, columns in the
//	tables/submitters.jsonl  manifest's order; every table the runs
//	…                        depend on, in dependency order
//	runs/ID.json           the run's facts and standing (record)
//	runs/ID.source         the uploaded bytes
//	…
//	tables/runs.jsonl      what the runs' files do not say (owner, claim,
//	                       revision): set on the runs once restored
//	end.json               how many runs and rows were written and the
//	                       SHA-256 of every entry before it: a cut-off or
//	                       altered file is refused before anything is
//	                       stored
//
// A table or column added to store.BackupTables needs no new version: a
// reader restores the tables and columns a file names, leaves the columns
// it lacks to their defaults, and refuses a file naming a table or column
// it does not know (a newer version wrote it). The version grows when the
// layout changes; a reader refuses a version newer than it knows and reads
// every older one (version 1: accounts.json, see v1.go).
package backup

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// Format names the file kind in the manifest.
const Format = "speedmatrix-backup"

// Version is the manifest version this code writes and the newest it reads.
const Version = 2

// Manifest is manifest.json.
type Manifest struct {
	Format     string    `json:"format"`
	Version    int       `json:"version"`
	CreatedAt  time.Time `json:"created_at"`
	AppVersion string    `json:"app_version"`
	// Sections lists what the file holds, for a reader to check.
	Sections []string `json:"sections"`
	// Tables are the row sections (version 2 on) in the order they
	// follow, with the columns of their rows.
	Tables []Table `json:"tables,omitempty"`
}

// Table names a row section and its columns.
type Table struct {
	Name    string   `json:"name"`
	Columns []string `json:"columns"`
}

// record is runs/ID.json: the stored facts (no cells) and standing.
type record struct {
	Run       *run.Run `json:"run"`
	DedupeKey string   `json:"dedupe_key"`
	Hidden    bool     `json:"hidden"`
}

// end is end.json.
type end struct {
	Runs int `json:"runs"`
	// Rows counts each table's rows (version 2 on).
	Rows map[string]int `json:"rows,omitempty"`
	// SHA256 is the digest of every entry before end.json (version 2
	// on), as entryDigest feeds them: a check against damage and cut
	// files, not a signature.
	SHA256 string `json:"sha256,omitempty"`
}

// Source is what a backup reads from the database.
type Source interface {
	Snapshot(ctx context.Context, fn func(*store.BackupSnapshot) error) error
}

// Write writes a backup of st, read in one snapshot, to w and returns how
// many runs it holds.
func Write(ctx context.Context, w io.Writer, st Source, appVersion string) (runs int, err error) {
	zw, err := zstd.NewWriter(w, zstd.WithEncoderLevel(zstd.SpeedDefault))
	if err != nil {
		return 0, err
	}
	bw := &writer{tw: tar.NewWriter(zw), sum: sha256.New()}
	err = st.Snapshot(ctx, func(snap *store.BackupSnapshot) error {
		runs, err = bw.all(ctx, snap, appVersion)
		return err
	})
	if err != nil {
		return runs, err
	}
	if err := bw.tw.Close(); err != nil {
		return runs, err
	}
	return runs, zw.Close()
}

// writer writes entries to the tar, digesting them.
type writer struct {
	tw  *tar.Writer
	sum hash.Hash
}

// all writes every entry from the manifest to end.json.
func (bw *writer) all(ctx context.Context, snap *store.BackupSnapshot, appVersion string) (runs int, err error) {
	before, after := splitTables()
	m := Manifest{Format: Format, Version: Version, CreatedAt: time.Now().UTC(), AppVersion: appVersion,
		Sections: []string{"tables", "runs"}}
	for _, t := range append(before, after...) {
		m.Tables = append(m.Tables, Table{t.Name, t.ColumnList()})
	}
	if err := bw.json("manifest.json", m); err != nil {
		return 0, err
	}
	e := end{Rows: map[string]int{}}
	for _, t := range before {
		if err := bw.table(ctx, snap, t, &e); err != nil {
			return 0, err
		}
	}
	err = snap.EachRun(ctx, func(b store.BackupRun) error {
		b.Run.Decode, b.Run.Prefill = nil, nil // derived again on restore
		if err := bw.json("runs/"+b.Run.ID+".json", record{b.Run, b.DedupeKey, b.Hidden}); err != nil {
			return err
		}
		runs++
		return bw.file("runs/"+b.Run.ID+".source", b.Source)
	})
	if err != nil {
		return runs, err
	}
	for _, t := range after {
		if err := bw.table(ctx, snap, t, &e); err != nil {
			return runs, err
		}
	}
	e.Runs, e.SHA256 = runs, hex.EncodeToString(bw.sum.Sum(nil))
	b, err := json.MarshalIndent(e, "", " ")
	if err != nil {
		return runs, err
	}
	return runs, writeEntry(bw.tw, "end.json", b)
}

// splitTables parts store.BackupTables into those restored before the
// runs and those set on the runs after.
func splitTables() (before, after []store.BackupTable) {
	for _, t := range store.BackupTables {
		if t.Update {
			after = append(after, t)
		} else {
			before = append(before, t)
		}
	}
	return before, after
}

// table writes tables/NAME.jsonl, one row per line.
func (bw *writer) table(ctx context.Context, snap *store.BackupSnapshot, t store.BackupTable, e *end) error {
	var buf bytes.Buffer
	n := 0
	err := snap.EachRow(ctx, t, func(row []byte) error {
		buf.Write(row)
		buf.WriteByte('\n')
		n++
		return nil
	})
	if err != nil {
		return err
	}
	e.Rows[t.Name] = n
	return bw.file(tableEntry(t.Name), buf.Bytes())
}

func tableEntry(name string) string { return "tables/" + name + ".jsonl" }

func (bw *writer) json(name string, v any) error {
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return bw.file(name, b)
}

func (bw *writer) file(name string, b []byte) error {
	entryDigest(bw.sum, name, b)
	return writeEntry(bw.tw, name, b)
}

// entryDigest feeds one entry to the file's digest: its name, its length
// and its bytes, so that no entry can be moved, cut or merged unnoticed.
func entryDigest(h hash.Hash, name string, b []byte) {
	h.Write([]byte(name))
	h.Write([]byte{0})
	h.Write(binary.BigEndian.AppendUint64(nil, uint64(len(b))))
	h.Write(b)
}

func writeEntry(tw *tar.Writer, name string, b []byte) error {
	hdr := &tar.Header{Name: name, Mode: 0o644, Size: int64(len(b)), Typeflag: tar.TypeReg, ModTime: time.Unix(0, 0)}
	if err := tw.WriteHeader(hdr); err != nil {
		return err
	}
	_, err := tw.Write(b)
	return err
}
