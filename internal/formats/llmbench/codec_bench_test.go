package llmbench

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/formats/jsondoc"
)

// BenchmarkCodec decodes a bench document into its records with each of
// the two codecs weighed for reading uploads: encoding/json, which left
// duplicate names and invalid UTF-8 to checks of our own, and
// go-json-experiment/json (jsondoc.Decode), which refuses both itself;
// and, as formats.Parse reads a document, once to tell its format and
// then into its records without checking again (jsondoc.ReadTop, then
// Checked.Decode).
//
//	go test -run '^$' -bench Codec -benchmem ./internal/formats/llmbench
func BenchmarkCodec(b *testing.B) {
	for _, s := range []struct{ name, path string }{
		{"seed", "../../demo/runs/seed-rtx3060.bench.json"},
		{"0.7.8", "../../../testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json"},
	} {
		data, err := os.ReadFile(s.path)
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range []struct {
			name   string
			decode func(*document) error
		}{
			{"encoding-json", func(d *document) error { return json.Unmarshal(data, d) }},
			{"json-v2", func(d *document) error { return jsondoc.Decode(data, d) }},
			{"json-v2-top-then-checked", func(d *document) error {
				top, _ := jsondoc.ReadTop(data)
				return top.Decode(d)
			}},
		} {
			b.Run(s.name+"/"+c.name, func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					var d document
					if err := c.decode(&d); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
