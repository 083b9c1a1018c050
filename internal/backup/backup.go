// Package backup writes and reads the portable backup: a zstd-compressed
// tar holding a manifest, the accounts (tokens as hashes) and, for every
// run, its facts and the file as uploaded. A restore derives every run
// again from its file through internal/ingest, the same path as an upload,
// so a backup outlives schema changes and needs no pg_dump of the same
// major version.
//
// Layout, in this order:
//
//	manifest.json         {"format": "speedmatrix-backup", "version": 1, …}
//	accounts.json         orgs, submitters, tokens (store.Accounts)
//	runs/ID.json          the run's facts and standing (record)
//	runs/ID.source        the uploaded bytes
//	…
//	end.json              how many runs were written: a cut-off file is
//	                      refused rather than restored in part
//
// The manifest's version grows when a section is added (browser accounts,
// say); a reader refuses a version newer than it knows and reads every
// older one.
package backup

import (
	"archive/tar"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// Format names the file kind in the manifest.
const Format = "speedmatrix-backup"

// Version is the manifest version this code writes and the newest it reads.
const Version = 1

// Manifest is manifest.json.
type Manifest struct {
	Format     string    `json:"format"`
	Version    int       `json:"version"`
	CreatedAt  time.Time `json:"created_at"`
	AppVersion string    `json:"app_version"`
	// Sections lists what the file holds, for a reader to check.
	Sections []string `json:"sections"`
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
}

// Source is what a backup reads from the database.
type Source interface {
	BackupAccounts(ctx context.Context) (*store.Accounts, error)
	EachBackupRun(ctx context.Context, fn func(store.BackupRun) error) error
}

// Write writes a backup of st to w and returns how many runs it holds.
func Write(ctx context.Context, w io.Writer, st Source, appVersion string) (runs int, err error) {
	zw, err := zstd.NewWriter(w, zstd.WithEncoderLevel(zstd.SpeedDefault))
	if err != nil {
		return 0, err
	}
	tw := tar.NewWriter(zw)
	m := Manifest{Format: Format, Version: Version, CreatedAt: time.Now().UTC(), AppVersion: appVersion,
		Sections: []string{"accounts", "runs"}}
	if err := writeJSON(tw, "manifest.json", m); err != nil {
		return 0, err
	}
	a, err := st.BackupAccounts(ctx)
	if err != nil {
		return 0, err
	}
	if err := writeJSON(tw, "accounts.json", a); err != nil {
		return 0, err
	}
	err = st.EachBackupRun(ctx, func(b store.BackupRun) error {
		b.Run.Decode, b.Run.Prefill = nil, nil // derived again on restore
		if err := writeJSON(tw, "runs/"+b.Run.ID+".json", record{b.Run, b.DedupeKey, b.Hidden}); err != nil {
			return err
		}
		runs++
		return writeFile(tw, "runs/"+b.Run.ID+".source", b.Source)
	})
	if err != nil {
		return runs, err
	}
	if err := writeJSON(tw, "end.json", end{Runs: runs}); err != nil {
		return runs, err
	}
	if err := tw.Close(); err != nil {
		return runs, err
	}
	return runs, zw.Close()
}

func writeJSON(tw *tar.Writer, name string, v any) error {
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return writeFile(tw, name, b)
}

func writeFile(tw *tar.Writer, name string, b []byte) error {
	hdr := &tar.Header{Name: name, Mode: 0o644, Size: int64(len(b)), Typeflag: tar.TypeReg, ModTime: time.Unix(0, 0)}
	if err := tw.WriteHeader(hdr); err != nil {
		return err
	}
	_, err := tw.Write(b)
	return err
}
