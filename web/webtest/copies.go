package webtest

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/demo"
	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
)

// SeedCopy stores a copy of the seed run through the real ingest: at
// engine version, every aggregate_tps times factor, its launch command
// passed through edit (nil keeps it). It returns the copy's id. The tests
// of what differs between runs and of regressions between versions make
// their second run so.
func (s *Site) SeedCopy(t testing.TB, version string, factor float64, edit func(string) string) string {
	t.Helper()
	u, err := demo.Upload(demo.SeedRun)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(u.Files[0].Data, &doc); err != nil {
		t.Fatal(err)
	}
	for _, r := range doc["results"].([]any) {
		res := r.(map[string]any)
		if v, ok := res["aggregate_tps"].(float64); ok {
			res["aggregate_tps"] = v * factor
		}
	}
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	u.Files = []archive.File{{Name: u.Files[0].Name, Data: data}}
	u.Fields["engine_version"] = version
	u.Fields["build"] = "vllm/vllm-openai:v" + version + "-x86_64"
	if edit != nil {
		u.Fields["launch_command"] = edit(u.Fields["launch_command"])
	}
	res, err := ingest.Ingest(context.Background(), s.Store, u)
	if err != nil {
		t.Fatal(err)
	}
	return res.ID
}
