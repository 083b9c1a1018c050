// Package demo loads the runs a fresh site shows: the seed run the product
// started from (an RTX 3060 matrix whose published page the report must
// match number for number) and a lil-bench upload of a two-GPU
// workstation, so a newcomer sees real reports at once.
package demo

import (
	"context"
	"embed"
	"fmt"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
)

//go:embed runs/*.json
var files embed.FS

// Runs lists the demo documents. The lil-bench one is the 2-GPU sample of
// testdata/formats with a run_id of its own, so uploading that sample to a
// demo site makes a new run instead of finding the demo's. A
// "NAME.bench.json" may have a "NAME.meta.json" beside it with the upload
// form's fields.
var Runs = []string{"seed-rtx3060.bench.json", "lilbench-2x-rtx-pro-6000.json"}

// SeedRun is the document of the seed run.
const SeedRun = "seed-rtx3060.bench.json"

// Upload returns the demo document name as an upload, with its metadata.
func Upload(name string) (ingest.Upload, error) {
	body, err := files.ReadFile("runs/" + name)
	if err != nil {
		return ingest.Upload{}, err
	}
	u := ingest.Upload{Files: []archive.File{{Name: name, Data: body}}}
	if base, ok := strings.CutSuffix(name, ".bench.json"); ok {
		raw, err := files.ReadFile("runs/" + base + ".meta.json")
		if err != nil {
			return ingest.Upload{}, err
		}
		if u.Fields, err = ingest.FieldsFromJSON(raw); err != nil {
			return ingest.Upload{}, fmt.Errorf("demo %s: %w", name, err)
		}
	}
	return u, nil
}

// Load ingests every demo run and returns their ids, in Runs order. Loading
// twice stores nothing new: the ingest deduplicates.
func Load(ctx context.Context, st ingest.Store) ([]string, error) {
	ids := make([]string, 0, len(Runs))
	for _, name := range Runs {
		u, err := Upload(name)
		if err != nil {
			return nil, err
		}
		res, err := ingest.Ingest(ctx, st, u)
		if err != nil {
			return nil, fmt.Errorf("demo %s: %w", name, err)
		}
		ids = append(ids, res.ID)
	}
	return ids, nil
}
