package formats_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/formats"
	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/internal/formats/formatstest"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
)

// sep splits a fuzz input into the files of a many-file upload.
var sep = []byte("\n--\n")

// FuzzSweepArchive: the archive and merge path. The input is read as it is
// (a zip, a tar, a gzip, or anything else) and, when it is not an archive,
// also as files separated by "\n--\n" and bundled as the doors bundle them.
// Each answer keeps the contract every format's does (formatstest.Check),
// and the bundle of the same files in reverse order is the same run.
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
		bundle, _ := ingest.Bundle(parts)
		p, err = formats.Parse(bundle)
		formatstest.Check(t, bundle, p, err)
		slices.Reverse(parts)
		rev, _ := ingest.Bundle(parts)
		q, err2 := formats.Parse(rev)
		if (err == nil) != (err2 == nil) || (p != nil && q != nil && p.DedupeKey != q.DedupeKey) {
			t.Fatalf("the same files in another order: %v / %v", err, err2)
		}
	})
}
