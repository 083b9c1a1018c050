package ingest_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/internal/formats/formatstest"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
)

// TestKeptDocumentDerivesAsItsFiles: every sample file, and a sweep of
// several, read once, kept and reopened, derives the same run and dedupe
// key with fields as its files parsed afresh do, and the document itself
// is unchanged by the derivations (so a preview can precede publication).
func TestKeptDocumentDerivesAsItsFiles(t *testing.T) {
	paths, err := filepath.Glob("../../testdata/formats/*/*.json*")
	if err != nil || len(paths) < 15 {
		t.Fatalf("%d sample files (%v)", len(paths), err)
	}
	// A sweep of several files too: its source is their zip.
	uploads := [][]archive.File{formatstest.VLLMSweep(t, "meta-llama/Llama-3.1-8B-Instruct", []int{1000, 4000}, []int{1, 2, 4})}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f := archive.File{Name: filepath.Base(path), Data: data}
		uploads = append(uploads, []archive.File{f})
	}
	fields := map[string]string{"gpu_name": "RTX 4090", "vram_gb": "24", "engine_version": "0.9.1", "submitter": "someone"}
	now := time.Unix(1_700_000_000, 0)
	kept := 0
	for i, files := range uploads {
		name := files[0].Name
		want, wantKey, wantErr := ingest.Prepare(ingest.Upload{Files: files, Fields: fields}, now)
		doc, err := ingest.Read(files)
		if err != nil {
			if wantErr == nil || i == 0 {
				t.Errorf("%s: Read refuses what Prepare takes: %v", name, err)
			}
			continue
		}
		keep := doc.Keep("build-1")
		if keep == nil {
			t.Errorf("%s: its parse is not kept", name)
			continue
		}
		kept++
		before := doc.Fields()
		again, err := ingest.Reopen(files, keep, "build-1")
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range []*ingest.Document{doc, again, again} { // twice: the first derivation leaves it as it was
			got, key, err := ingest.Prepare(ingest.Upload{Doc: d, Fields: fields}, now)
			if !reflect.DeepEqual(err, wantErr) || key != wantKey || !reflect.DeepEqual(got, want) {
				t.Errorf("%s: the kept document derives\n%+v (%q, %v)\nthe files\n%+v (%q, %v)", name, got, key, err, want, wantKey, wantErr)
			}
		}
		if !reflect.DeepEqual(again.Fields(), before) || !reflect.DeepEqual(doc.Fields(), before) {
			t.Errorf("%s: the file's fields changed with the derivations", name)
		}
	}
	if kept < 16 {
		t.Errorf("%d documents kept, want the sweep and every sample but the refused", kept)
	}
}
