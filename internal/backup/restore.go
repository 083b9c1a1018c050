package backup

import (
	"archive/tar"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/klauspost/compress/zstd"

	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// maxEntry bounds one entry read into memory: a source is at most the
// upload cap (16 MiB) and a sweep's canonical zip a little more; the
// account list of a large site stays far below.
const maxEntry = 256 << 20

// Target is what a restore writes to: an empty, migrated database.
type Target interface {
	ingest.RestoreStore
	RestoreAccounts(ctx context.Context, a *store.Accounts) error
}

// Restore reads a backup from r into st and returns how many runs it
// restored. Every run goes through ingest.Restore. It stops at the first
// problem (a run the database already holds among them); a backup without
// its end.json, or whose count differs, is an error after the runs before
// the cut were stored.
func Restore(ctx context.Context, r io.Reader, st Target) (runs int, err error) {
	zr, err := zstd.NewReader(r, zstd.WithDecoderMaxMemory(1<<30))
	if err != nil {
		return 0, err
	}
	defer zr.Close()
	tr := tar.NewReader(zr)
	rd := &reader{tr: tr}
	var m Manifest
	if err := rd.nextJSON("manifest.json", &m); err != nil {
		return 0, err
	}
	if m.Format != Format || m.Version < 1 || m.Version > Version {
		return 0, fmt.Errorf("not a backup this version reads: format %q, version %d (reads %s up to %d)", m.Format, m.Version, Format, Version)
	}
	var a store.Accounts
	if err := rd.nextJSON("accounts.json", &a); err != nil {
		return 0, err
	}
	if err := st.RestoreAccounts(ctx, &a); err != nil {
		return 0, err
	}
	for {
		name, body, err := rd.next()
		if err != nil {
			return runs, err
		}
		if name == "end.json" {
			var e end
			if err := json.Unmarshal(body, &e); err != nil {
				return runs, fmt.Errorf("end.json: %w", err)
			}
			if e.Runs != runs {
				return runs, fmt.Errorf("end.json counts %d runs, the file holds %d", e.Runs, runs)
			}
			return runs, nil
		}
		if err := restoreRun(ctx, rd, st, name, body); err != nil {
			return runs, err
		}
		runs++
	}
}

// restoreRun reads the source that follows a run's record and restores it.
func restoreRun(ctx context.Context, rd *reader, st Target, name string, body []byte) error {
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
	return ingest.Restore(ctx, st, rec.Run, rec.DedupeKey, source, rec.Hidden)
}

// reader reads whole entries of the tar, bounded.
type reader struct{ tr *tar.Reader }

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
	return hdr.Name, b, err
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
