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
	"github.com/speedmatrix/speedmatrix/internal/problem"
)

// sep splits a fuzz input into the files of a many-file upload.
var sep = []byte("\n--\n")

// FuzzSweepArchive: the archive and merge path. The input is read as it is
// (a zip, a tar, a gzip, or anything else) and, when it is not an archive,
// also as files separated by "\n--\n" and uploaded together as the doors
// upload several files.
// Never a panic; a refusal always names a path and a message; an accepted
// upload goes through the whole ingest or is refused cleanly; and the
// same files in reverse order, or read back from the zip they are stored
// as, are the same run.
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
		check(t, data, p != nil, err)
		if archive.Detect(data) != archive.None {
			return
		}
		var parts []archive.File
		for i, b := range bytes.Split(data, sep) {
			parts = append(parts, archive.File{Name: string(rune('a' + i%26)), Data: b})
		}
		// Several files as a list (every door), and the same files as
		// the stored zip (deriving again): one answer, in any order.
		r, key, err := ingest.Prepare(ingest.Upload{Files: parts}, time.Unix(0, 0))
		check(t, nil, r != nil, err)
		slices.Reverse(parts)
		_, key2, err2 := ingest.Prepare(ingest.Upload{Files: parts}, time.Unix(0, 0))
		if (err == nil) != (err2 == nil) || key != key2 {
			t.Fatalf("the same files in another order: %v / %v (keys %q, %q)", err, err2, key, key2)
		}
		if len(parts) > 1 && err == nil {
			q, err := formats.Parse(archive.Build(parts))
			if err != nil {
				t.Fatalf("the stored zip does not parse as the list did: %v", err)
			}
			if q.DedupeKey != key {
				t.Fatalf("the stored zip's key %q, the list's %q", q.DedupeKey, key)
			}
		}
	})
}

func check(t *testing.T, data []byte, parsed bool, err error) {
	t.Helper()
	if err != nil {
		pe, ok := problem.As(err)
		if !ok || len(pe.Problems) == 0 {
			t.Fatalf("error is not a refusal: %v", err)
		}
		for _, pr := range pe.Problems {
			if pr.Path == "" || pr.Key == "" {
				t.Fatalf("problem without path or message: %+v", pr)
			}
		}
		return
	}
	if !parsed {
		t.Fatal("no result and no error")
	}
	if data == nil {
		return
	}
	if _, _, err := ingest.Prepare(ingest.Upload{Files: []archive.File{{Data: data}}}, time.Unix(0, 0)); err != nil {
		if _, ok := problem.As(err); !ok {
			t.Fatalf("ingest failed without a refusal: %v", err)
		}
	}
}
