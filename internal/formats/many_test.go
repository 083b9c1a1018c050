package formats_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/formats"
	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/internal/formats/formatstest"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

const llama = "meta-llama/Llama-3.1-8B-Instruct"

var (
	sweepPrompts = []int{1000, 4000, 16000}
	sweepConcs   = []int{1, 2, 4, 8}
)

// tarGz packs files as `tar czf` would.
func tarGz(t testing.TB, files []archive.File) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, f := range files {
		if err := tw.WriteHeader(&tar.Header{Name: "sweep/" + f.Name, Mode: 0o644, Size: int64(len(f.Data)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write(f.Data)
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

func inflate(t testing.TB, gz []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	out.ReadFrom(zr)
	return out.Bytes()
}

// checkSweepGrid asserts the 3 × 4 grid of VLLMSweep(sweepPrompts, sweepConcs).
func checkSweepGrid(t *testing.T, p *run.Parsed) {
	t.Helper()
	if p.Format != "vllm-bench-serve" || p.Model.ID != llama || p.Hardware.GPUName != "H100" || p.Engine.Name != "vLLM" {
		t.Errorf("facts: %s %+v %+v %+v", p.Format, p.Model, p.Hardware, p.Engine)
	}
	if len(p.Decode) != 12 {
		t.Fatalf("%d cells, want 12", len(p.Decode))
	}
	got := map[[2]int]run.Measurement{}
	for _, m := range p.Decode {
		got[[2]int{m.Context, m.Concurrency}] = m
	}
	for i, prompt := range sweepPrompts {
		ctx := []int{1024, 4096, 16384}[i]
		for _, c := range sweepConcs {
			m, ok := got[[2]int{ctx, c}]
			want := formatstest.SweepCell{Prompt: prompt, Concurrency: c}
			switch {
			case !ok:
				t.Errorf("no cell %d × %d", ctx, c)
			case m.MeasuredContext != prompt || *m.TotalTPS != want.TotalTPS() || *m.TTFTms != want.TTFTms() || *m.Completed != int64(2*c):
				t.Errorf("cell %d × %d: measured %d, %v tok/s, TTFT %v, completed %d; want %d, %v, %v, %d",
					ctx, c, m.MeasuredContext, *m.TotalTPS, *m.TTFTms, *m.Completed, prompt, want.TotalTPS(), want.TTFTms(), 2*c)
			case !strings.HasPrefix(m.Path, `$["vllm-p`+strconv.Itoa(prompt)+"-c"+strconv.Itoa(c)+`.json"]`):
				t.Errorf("cell %d × %d path %q does not name its file", ctx, c, m.Path)
			}
		}
	}
}

// Twelve bench serve files of one sweep, as a zip (how several form files
// are stored), as a .tar.gz and as the tar the doors inflate it to, are one
// run with a 3 × 4 grid and one dedupe key whatever the order of the files.
func TestSweepIsOneRun(t *testing.T) {
	files := formatstest.VLLMSweep(t, llama, sweepPrompts, sweepConcs)
	zipped := archive.Build(files)
	shuffled := slices.Clone(files)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	if !bytes.Equal(archive.Build(shuffled), zipped) {
		t.Error("archive.Build depends on the order of the files")
	}
	tgz := tarGz(t, shuffled)
	var key string
	for name, body := range map[string][]byte{"zip": zipped, "tar.gz": tgz, "tar": inflate(t, tgz)} {
		p, err := formats.Parse(body)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if name != "zip" {
			// tar entries sit in a folder: the paths name it.
			for i := range p.Decode {
				p.Decode[i].Path = strings.Replace(p.Decode[i].Path, `$["sweep/`, `$["`, 1)
			}
		}
		checkSweepGrid(t, p)
		if key == "" {
			key = p.DedupeKey
		}
		if !strings.HasPrefix(p.DedupeKey, "sweep:") || p.DedupeKey != key {
			t.Errorf("%s: dedupe key %q, want the same sweep: key %q", name, p.DedupeKey, key)
		}
	}
}

// Files of another model or machine are refused together, naming the odd
// file and what differs; a cell two files measured names both files.
func TestSweepRefusals(t *testing.T) {
	files := formatstest.VLLMSweep(t, llama, sweepPrompts, sweepConcs)
	odd := formatstest.VLLMSweep(t, "Qwen/Qwen3-8B", []int{4000}, []int{2})[0]
	odd.Name = "a-qwen-p4000-c2.json"
	mixed := append(slices.Clone(files[1:]), odd)
	for _, tt := range []struct {
		name  string
		files []archive.File
		path  string
		key   string
		words []string
	}{
		{"another model", mixed, `$["a-qwen-p4000-c2.json"]`, "problem.formats.sweep_mismatch", []string{"a-qwen-p4000-c2.json", "model_id", "Qwen/Qwen3-8B", llama}},
		{"another GPU", append(slices.Clone(files[:3]), archive.File{Name: "b.json", Data: bytes.Replace(files[3].Data, []byte(`"H100"`), []byte(`"A100"`), 1)}),
			`$["b.json"]`, "problem.formats.sweep_mismatch", []string{"b.json", "gpu_name", "A100", "H100"}},
		{"a cell twice", append(slices.Clone(files[:2]), archive.File{Name: "again.json", Data: files[0].Data}),
			`$["vllm-p1000-c1.json"]`, "problem.formats.sweep_duplicate", []string{"again.json", "vllm-p1000-c1.json", "1024", "1"}},
		{"not a result", append(slices.Clone(files[:2]), archive.File{Name: "notes.txt", Data: []byte("swept on Tuesday")}),
			`$["notes.txt"]`, "", nil},
		{"an archive inside", append(slices.Clone(files[:2]), archive.File{Name: "more.zip", Data: archive.Build(files[2:4])}),
			`$["more.zip"]`, "problem.formats.archive_nested", []string{"more.zip"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := formats.Parse(archive.Build(tt.files))
			pe, ok := problem.As(err)
			if !ok {
				t.Fatalf("not refused: %v", err)
			}
			if len(pe.Problems) != 1 {
				t.Errorf("%d problems, want 1: %v", len(pe.Problems), pe)
			}
			p := pe.Problems[0]
			if !strings.HasPrefix(p.Path, tt.path) || (tt.key != "" && p.Key != tt.key) {
				t.Fatalf("problem %+v, want %s at %s", p, tt.key, tt.path)
			}
			var data []string
			for _, v := range p.Data {
				data = append(data, strings.TrimSpace(fmtAny(v)))
			}
			for _, w := range tt.words {
				if !slices.Contains(data, w) {
					t.Errorf("problem data %v lacks %q", p.Data, w)
				}
			}
		})
	}
}

func fmtAny(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case int:
		return strconv.Itoa(v)
	}
	return ""
}

// A file driven by a request rate is left out with a note when the others
// have cells, as a parser leaves out such records in one file; alone, it
// is refused with what to run instead.
func TestSweepRateDrivenFile(t *testing.T) {
	files := formatstest.VLLMSweep(t, llama, []int{1000}, []int{1, 2})
	rate := bytes.Replace(files[1].Data, []byte(`"max_concurrency":2`), []byte(`"request_rate":10`), 1)
	rate = bytes.Replace(rate, []byte(`"request_rate":"inf"`), []byte(`"replaced_rate":"inf"`), 1) // one request_rate, no duplicate key
	files = append(files, archive.File{Name: "rate.json", Data: rate})
	p, err := formats.Parse(archive.Build(files))
	if err != nil || len(p.Decode) != 2 || !slices.Contains(p.Notes, "rate_rows_skipped") {
		t.Fatalf("Parse = %+v, %v; want 2 cells and the rate note", p, err)
	}
	_, err = formats.Parse(archive.Build([]archive.File{{Name: "rate.json", Data: rate}, {Name: "rate2.json", Data: append(rate, ' ')}}))
	if pe, ok := problem.As(err); !ok || pe.Problems[0].Key != "problem.formats.rate_driven" || !strings.HasPrefix(pe.Problems[0].Path, `$["rate.json"]`) {
		t.Fatalf("only rate-driven files: %v", err)
	}
}
