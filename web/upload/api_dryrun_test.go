package upload_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/demo"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestAPIDryRun: POST /api/v1/runs?dry_run=1 answers 200 with the run the
// upload would become, the same document /runs/{id}.json gives once it is
// stored (less the id, the addresses and the upload time), and the
// metadata fields nothing fills; it stores nothing.
func TestAPIDryRun(t *testing.T) {
	s := webtest.NewSite(t)
	u, err := demo.Upload(demo.SeedRun)
	if err != nil {
		t.Fatal(err)
	}
	file := u.Files[0].Data
	resp, dry := s.PostTo(t, "/api/v1/runs?dry_run=1", "application/json", file)
	if resp.StatusCode != 200 {
		t.Fatalf("dry run = %d %v, want 200", resp.StatusCode, dry)
	}
	if n := s.RowCounts(t); n != "runs=0 run_sources=0 decode_cells=0 prefill_rows=0" || s.DraftCount(t) != 0 {
		t.Errorf("a dry run stored something: %s", n)
	}
	if _, ok := dry["id"]; ok {
		t.Error("the dry run's answer has an id")
	}
	if d, _ := dry["decode"].([]any); len(d) != 48 {
		t.Errorf("dry run decode has %d cells, want 48", len(d))
	}
	missing := stringList(dry["missing"])
	for _, want := range []string{"hardware_type", "gpu_name", "vram_gb", "model_id", "submitter"} {
		if !slices.Contains(missing, want) {
			t.Errorf("missing = %v, want %s in it", missing, want)
		}
	}
	if slices.Contains(missing, "engine_name") {
		t.Errorf("missing = %v names engine_name, which the file gives (vllm)", missing)
	}

	// Stored for real, the run's document is the dry run's answer.
	_, created := s.Post(t, "application/json", file)
	_, stored := s.Get(t, "/runs/"+created["id"].(string)+".json")
	var doc map[string]any
	if err := json.Unmarshal([]byte(stored), &doc); err != nil {
		t.Fatal(err)
	}
	for _, m := range []map[string]any{doc, dry} {
		delete(m, "id")
		delete(m, "url")
		delete(m, "uploaded_at")
		delete(m["source"].(map[string]any), "url")
	}
	delete(dry, "missing")
	if !reflect.DeepEqual(doc, dry) {
		for k := range doc {
			if !reflect.DeepEqual(doc[k], dry[k]) {
				t.Errorf("%s: stored %v, dry run %v", k, doc[k], dry[k])
			}
		}
	}

	// A field given fills its gap.
	body, ct := webtest.MultipartBody(t, file, "seed.json", map[string]string{"gpu_name": "RTX 3060"})
	_, withGPU := s.PostTo(t, "/api/v1/runs?dry_run=1", ct, body)
	if slices.Contains(stringList(withGPU["missing"]), "gpu_name") {
		t.Errorf("missing = %v still names the given gpu_name", withGPU["missing"])
	}
	if hw, _ := withGPU["hardware"].(map[string]any); hw["gpu_name"] != "RTX 3060" {
		t.Errorf("dry run hardware = %v, want the given GPU", withGPU["hardware"])
	}
	if resp, out := s.PostTo(t, "/api/v1/runs?dry_run=1", "application/json", []byte(`{"metadata": {}}`)); resp.StatusCode != 422 || out["problems"] == nil {
		t.Errorf("dry run of a refused document = %d %v, want 422 with problems", resp.StatusCode, out)
	}
}

func stringList(v any) []string {
	var out []string
	list, _ := v.([]any)
	for _, x := range list {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}
