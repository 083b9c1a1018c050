package formats_test

import (
	"bytes"
	"slices"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/formats"
	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/internal/formats/formatstest"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
)

// sep splits a fuzz input into the files of a many-file upload.
var sep = []byte("\n--\n")

// FuzzSweepArchive: the archive and merge path. The input is read as it is
// (a zip, a tar, a gzip, or anything else) and, when it is not an archive,
// also as files separated by "\n--\n" and uploaded together as the doors
// upload several files. Each answer keeps the contract every format's does
// (formatstest.Check), and the same files in reverse order, or read back
// from the zip they are stored as, are the same run.
// Plain `go test` runs the seeds only.
func FuzzSweepArchive(f *testing.F) {
	files := formatstest.VLLMSweep(f, llama, []int{1000, 4000}, []int{1, 2})
	odd := formatstest.VLLMSweep(f, "Qwen/Qwen3-8B", []int{1000}, []int{4})[0]
	f.Add(archive.Build(files))
	f.Add(inflate(f, tarGz(f, files)))
	f.Add(tarGz(f, files[:2]))
	f.Add(archive.Build(append(slices.Clone(files[:2]), odd)))
	var joined [][]byte
	for _, fl := range files {
		joined = append(joined, fl.Data)
	}
	f.Add(bytes.Join(joined, sep))
	f.Add(bytes.Join([][]byte{files[0].Data, odd.Data, files[0].Data}, sep))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := formats.Parse(data)
		formatstest.Check(t, data, p, err)
		if archive.Detect(data) != archive.None {
			return
		}
		var parts []archive.File
		for i, b := range bytes.Split(data, sep) {
			parts = append(parts, archive.File{Name: string(rune('a' + i%26)), Data: b})
		}
		// Several files as a list (every door uploads them so) and as the
		// zip they are stored as (deriving again): one run, in any order.
		stored := archive.Build(parts)
		p, err = formats.Parse(stored)
		formatstest.Check(t, stored, p, err)
		_, key, err := ingest.Prepare(ingest.Upload{Files: parts}, time.Unix(0, 0))
		slices.Reverse(parts)
		_, key2, err2 := ingest.Prepare(ingest.Upload{Files: parts}, time.Unix(0, 0))
		if (err == nil) != (err2 == nil) || key != key2 {
			t.Fatalf("the same files in another order: %v / %v (keys %q, %q)", err, err2, key, key2)
		}
		if len(parts) > 1 && err == nil && p != nil && p.DedupeKey != key {
			t.Fatalf("the stored zip's key %q, the list's %q", p.DedupeKey, key)
		}
	})
}
