package ingest

import (
	"bytes"
	"compress/gzip"
	"mime/multipart"
	"strings"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/problem"
)

func gz(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// TestOpenInflates: a gzip stream is inflated whether the door knew it
// (Content-Encoding, a .gz name) or not, and the same document gzipped or
// not is one run.
func TestOpenInflates(t *testing.T) {
	doc := seedUpload(t).Files[0].Data
	plain, err := Open(Part{Name: "a.json", Body: bytes.NewReader(doc)})
	if err != nil {
		t.Fatal(err)
	}
	declared, err := Open(Part{Body: bytes.NewReader(gz(t, doc)), Gzipped: true})
	if err != nil {
		t.Fatal(err)
	}
	sniffed, err := Open(Part{Name: "a.json.gz", Body: bytes.NewReader(gz(t, doc))})
	if err != nil {
		t.Fatal(err)
	}
	for _, files := range [][]byte{declared[0].Data, sniffed[0].Data} {
		if !bytes.Equal(files, plain[0].Data) {
			t.Fatal("a gzipped document did not inflate to the document")
		}
	}
	_, k1, _ := Prepare(Upload{Files: plain}, time.Now())
	_, k2, _ := Prepare(Upload{Files: sniffed}, time.Now())
	if k1 == "" || k1 != k2 {
		t.Errorf("dedupe keys %q and %q, want one", k1, k2)
	}
	if _, err := Open(Part{Body: strings.NewReader("not gzip"), Gzipped: true}); kindOf(err) != problem.Malformed {
		t.Errorf("bad gzip = %v, want Malformed", err)
	}
}

// TestOpenLimits: a file over MaxBodyBytes, before or after inflating, is
// TooLarge, and so is a set of files over the archive total.
func TestOpenLimits(t *testing.T) {
	big := bytes.Repeat([]byte(" "), MaxBodyBytes+1)
	if _, err := Open(Part{Body: bytes.NewReader(big)}); kindOf(err) != problem.TooLarge {
		t.Errorf("raw %d bytes = %v, want TooLarge", len(big), err)
	}
	bomb := gz(t, big) // about 16 KiB that inflate past the limit
	if _, err := Open(Part{Body: bytes.NewReader(bomb)}); kindOf(err) != problem.TooLarge {
		t.Errorf("gzip bomb = %v, want TooLarge", err)
	}
	third := bytes.Repeat([]byte(" "), MaxBodyBytes-1)
	parts := []Part{{Name: "a", Body: bytes.NewReader(third)}, {Name: "b", Body: bytes.NewReader(third)}, {Name: "c", Body: bytes.NewReader(third)}}
	_, err := Open(parts...)
	if pe, ok := problem.As(err); !ok || pe.Kind != problem.TooLarge || pe.Problems[0].Key != "problem.formats.archive_total_large" {
		t.Errorf("three files of 16 MiB = %v, want the archive total refused", err)
	}
}

// TestOpenMultipart: file parts in order, fields as typed, an empty file
// input skipped, and no file at all refused under "file" with the fields
// kept for the form.
func TestOpenMultipart(t *testing.T) {
	form := func(build func(w *multipart.Writer)) *multipart.Reader {
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		build(w)
		w.Close()
		return multipart.NewReader(&buf, w.Boundary())
	}
	mr := form(func(w *multipart.Writer) {
		w.WriteField("gpu_name", "RTX 3060")
		f, _ := w.CreateFormFile("file", "b.json")
		f.Write([]byte(`{"b":1}`))
		w.CreateFormField("file") // a second input left empty
		f, _ = w.CreateFormFile("file", "a.json")
		f.Write([]byte(`{"a":1}`))
	})
	files, fields, err := OpenMultipart(mr)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || files[0].Name != "b.json" || files[1].Name != "a.json" || fields["gpu_name"] != "RTX 3060" {
		t.Errorf("files %+v, fields %v", files, fields)
	}
	_, fields, err = OpenMultipart(form(func(w *multipart.Writer) { w.WriteField("gpu_name", "RTX 3060") }))
	pe, ok := problem.As(err)
	if !ok || pe.Problems[0].Path != "file" || pe.Problems[0].Key != "problem.no_file" || fields["gpu_name"] != "RTX 3060" {
		t.Errorf("no file = %v (fields %v), want problem.no_file at file with the fields", err, fields)
	}
	long := strings.Repeat("x", MaxFieldBytes+1)
	_, _, err = OpenMultipart(form(func(w *multipart.Writer) { w.WriteField("launch_command", long) }))
	if pe, ok := problem.As(err); !ok || pe.Problems[0].Path != "launch_command" {
		t.Errorf("long field = %v, want a problem at launch_command", err)
	}
}

// TestPrepareReportsFieldsAndDocument: a bad field and a bad document are
// refused together, the document's kind winning.
func TestPrepareReportsFieldsAndDocument(t *testing.T) {
	u := seedUpload(t)
	u.Fields = map[string]string{"gpu_count": "many"}
	u.Files[0].Data = []byte("{")
	_, _, err := Prepare(u, time.Now())
	pe, ok := problem.As(err)
	if !ok {
		t.Fatalf("Prepare = %v, want a refusal", err)
	}
	paths := []string{}
	for _, p := range pe.Problems {
		paths = append(paths, p.Path)
	}
	if pe.Kind != problem.Malformed || len(paths) != 2 || paths[0] != "gpu_count" || !strings.HasPrefix(paths[1], "$") {
		t.Errorf("kind %d, paths %v; want Malformed with gpu_count and the document's path", pe.Kind, paths)
	}
	if _, _, err := Prepare(Upload{}, time.Now()); kindOf(err) != problem.Invalid {
		t.Errorf("no files = %v, want Invalid", err)
	}
}

func kindOf(err error) problem.Kind {
	if pe, ok := problem.As(err); ok {
		return pe.Kind
	}
	return -1
}
