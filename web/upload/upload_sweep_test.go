package upload_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"mime/multipart"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/internal/formats/formatstest"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// filesBody is a multipart form with every file in its own "file" part.
func filesBody(t testing.TB, files []archive.File, fields map[string]string) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range fields {
		_ = mw.WriteField(k, v)
	}
	for _, f := range files {
		fw, _ := mw.CreateFormFile("file", f.Name)
		_, _ = fw.Write(f.Data)
	}
	_ = mw.Close()
	return buf.Bytes(), mw.FormDataContentType()
}

func tarGzOf(t testing.TB, files []archive.File) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, f := range files {
		_ = tw.WriteHeader(&tar.Header{Name: "results/" + f.Name, Mode: 0o644, Size: int64(len(f.Data)), Typeflag: tar.TypeReg})
		_, _ = tw.Write(f.Data)
	}
	_ = tw.Close()
	_ = zw.Close()
	return buf.Bytes()
}

// checkSweepRun asserts the stored run is the 3 × 4 grid of the sweep, each
// cell with its file's numbers and its exact mean prompt length.
func checkSweepRun(t *testing.T, r *run.Run) {
	t.Helper()
	if !slices.Equal(r.Settings.Contexts, []int{1024, 4096, 16384}) || !slices.Equal(r.Settings.Concurrencies, webtest.SweepConcs) {
		t.Fatalf("grid %v × %v, want [1024 4096 16384] × %v", r.Settings.Contexts, r.Settings.Concurrencies, webtest.SweepConcs)
	}
	if len(r.Decode) != 12 || r.Model.ID != webtest.SweepModel || r.SourceFormat != "vllm-bench-serve" || r.Hardware.GPUName != "H100" {
		t.Fatalf("%d cells, model %q, format %q, GPU %q", len(r.Decode), r.Model.ID, r.SourceFormat, r.Hardware.GPUName)
	}
	for _, p := range webtest.SweepPrompts {
		for _, c := range webtest.SweepConcs {
			want := formatstest.SweepCell{Prompt: p, Concurrency: c}
			i := slices.IndexFunc(r.Decode, func(d run.DecodeCell) bool { return d.Context == webtest.SweepCtx[p] && d.Concurrency == c })
			if i < 0 {
				t.Errorf("no cell %d × %d", webtest.SweepCtx[p], c)
				continue
			}
			d := r.Decode[i]
			if d.Status != run.Valid || d.MeasuredContext != p || d.TotalTPS == nil || *d.TotalTPS != want.TotalTPS() || *d.TTFTms != want.TTFTms() {
				t.Errorf("cell %d × %d: %s, measured context %d, %v tok/s; want valid, %d, %v", webtest.SweepCtx[p], c, d.Status, d.MeasuredContext, d.TotalTPS, p, want.TotalTPS())
			}
		}
	}
}

// Twelve vLLM bench serve files (3 prompt lengths × 4 concurrencies) sent
// as twelve form parts, as one .zip or as one .tar.gz become one run with a
// 3 × 4 grid; the same files again, in another order or another container,
// are the same run; the source comes back whole and derives again.
func TestAPISweep(t *testing.T) {
	files := formatstest.VLLMSweep(t, webtest.SweepModel, webtest.SweepPrompts, webtest.SweepConcs)
	reversed := slices.Clone(files)
	slices.Reverse(reversed)
	parts, partsCT := filesBody(t, files, map[string]string{"engine_version": "0.11.0"})
	again, againCT := filesBody(t, reversed, nil)
	zipped, tgz := archive.Build(reversed), tarGzOf(t, files)
	zipPart, zipPartCT := filesBody(t, []archive.File{{Name: "sweep.zip", Data: zipped}}, nil)
	uploads := []struct {
		name, ct string
		body     []byte
		source   []byte // what /runs/{id}/source gives back
	}{
		{"twelve parts", partsCT, parts, archive.Build(files)},
		{"zip", "application/zip", zipped, zipped},
		{"tar.gz", "application/gzip", tgz, nil}, // stored inflated, as .gz files are
	}
	for _, up := range uploads {
		t.Run(up.name, func(t *testing.T) {
			s := webtest.NewSite(t)
			resp, out := s.Post(t, up.ct, up.body)
			if resp.StatusCode != http.StatusCreated {
				t.Fatalf("upload = %d %v", resp.StatusCode, out)
			}
			id := out["id"].(string)
			r, err := s.Store.GetRun(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			checkSweepRun(t, r)
			resp, src := s.Get(t, "/runs/"+id+"/source")
			if up.source != nil && src != string(up.source) {
				t.Errorf("source: %d bytes, want the %d stored", len(src), len(up.source))
			}
			back, err := archive.Read([]byte(src))
			if err != nil || len(back) != 12 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/") {
				t.Fatalf("source reads as %d files (%v), %s", len(back), err, resp.Header.Get("Content-Type"))
			}
			for _, f := range back {
				i := slices.IndexFunc(files, func(g archive.File) bool { return strings.HasSuffix(f.Name, g.Name) })
				if i < 0 || !bytes.Equal(f.Data, files[i].Data) {
					t.Errorf("source file %s is not the uploaded one", f.Name)
				}
			}
			if err := ingest.Rederive(context.Background(), s.Store, id); err != nil {
				t.Fatalf("rederive: %v", err)
			}
			if r, _ = s.Store.GetRun(context.Background(), id); r.Engine.Version != "" && up.name != "twelve parts" {
				t.Errorf("engine version %q from nowhere", r.Engine.Version)
			}
			checkSweepRun(t, r)
			// The same files, whatever the order or the container: one run.
			for _, dup := range []struct {
				ct   string
				body []byte
			}{{againCT, again}, {zipPartCT, zipPart}, {"application/zip", zipped}, {"application/json", tgz}} {
				hdr := []string{}
				if dup.ct == "application/json" {
					hdr = append(hdr, "Content-Encoding: gzip")
				}
				if resp, out := s.Post(t, dup.ct, dup.body, hdr...); resp.StatusCode != http.StatusOK || out["id"] != id {
					t.Errorf("the same files again (%s) = %d %v, want 200 with %s", dup.ct, resp.StatusCode, out, id)
				}
			}
			if got := s.RowCounts(t); !strings.HasPrefix(got, "runs=1 ") {
				t.Errorf("rows: %s", got)
			}
		})
	}
}

// Files of another model are refused together with the rest, naming the
// odd file and what differs; nothing is stored.
func TestAPISweepMixedModels(t *testing.T) {
	s := webtest.NewSite(t)
	before := s.RowCounts(t)
	files := formatstest.VLLMSweep(t, webtest.SweepModel, webtest.SweepPrompts, webtest.SweepConcs)
	odd := formatstest.VLLMSweep(t, "Qwen/Qwen3-8B", []int{4000}, []int{2})[0]
	odd.Name = "qwen.json"
	files[5] = odd
	body, ct := filesBody(t, files, nil)
	resp, out := s.Post(t, ct, body)
	probs, _ := out["problems"].([]any)
	if resp.StatusCode != http.StatusUnprocessableEntity || len(probs) != 1 {
		t.Fatalf("mixed models = %d %v, want 422 with one problem", resp.StatusCode, out)
	}
	p := probs[0].(map[string]any)
	msg, _ := p["message"].(string)
	if p["path"] != `$["qwen.json"]` || !strings.Contains(msg, "qwen.json") || !strings.Contains(msg, "Qwen/Qwen3-8B") || !strings.Contains(msg, webtest.SweepModel) {
		t.Errorf("problem %v does not name the odd file and both models", p)
	}
	if after := s.RowCounts(t); after != before {
		t.Errorf("database changed: %s → %s", before, after)
	}
}
