package archive

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"fmt"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/problem"
)

func zipOf(t *testing.T, entries map[string][]byte, order ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range order {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(entries[name])
	}
	zw.Close()
	return buf.Bytes()
}

func refusal(t *testing.T, err error, kind problem.Kind, key string) problem.Problem {
	t.Helper()
	pe, ok := problem.As(err)
	if !ok || pe.Kind != kind || pe.Problems[0].Key != key {
		t.Fatalf("got %v, want kind %d %s", err, kind, key)
	}
	return pe.Problems[0]
}

// Directories, links and archivers' metadata are not results; insecure
// names are only labels (nothing is extracted).
func TestReadSkipsWhatIsNotAResult(t *testing.T) {
	doc := []byte(`{"a":1}`)
	z := zipOf(t, map[string][]byte{"d/": nil, "__MACOSX/d/._a.json": {0, 5}, "d/.DS_Store": {0}, "d/a.json": doc, "../up.json": doc},
		"d/", "__MACOSX/d/._a.json", "d/.DS_Store", "d/a.json", "../up.json")
	files, err := Read(z)
	if err != nil || len(files) != 2 || files[0].Name != "d/a.json" || files[1].Name != "../up.json" || !bytes.Equal(files[0].Data, doc) {
		t.Fatalf("Read = %+v, %v", files, err)
	}
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	tw.WriteHeader(&tar.Header{Name: "d/", Typeflag: tar.TypeDir, Mode: 0o755})
	tw.WriteHeader(&tar.Header{Name: "d/link.json", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"})
	tw.WriteHeader(&tar.Header{Name: "d/a.json", Typeflag: tar.TypeReg, Size: int64(len(doc)), Mode: 0o644})
	tw.Write(doc)
	tw.Close()
	gz.Close()
	files, err = Read(buf.Bytes())
	if err != nil || len(files) != 1 || files[0].Name != "d/a.json" {
		t.Fatalf("Read(tar.gz) = %+v, %v", files, err)
	}
}

// Limits count the bytes inflated, not what headers claim.
func TestReadLimits(t *testing.T) {
	big := bytes.Repeat([]byte(" "), MaxFileBytes+1)
	p := refusal(t, readErr(Read(zipOf(t, map[string][]byte{"big.json": big}, "big.json"))), problem.TooLarge, "problem.formats.archive_file_large")
	if p.Path != `$["big.json"]` || p.Data["File"] != "big.json" {
		t.Errorf("file too large: %+v", p)
	}
	third := big[:MaxTotalBytes/3+1]
	refusal(t, readErr(Read(zipOf(t, map[string][]byte{"a": third, "b": third, "c": third}, "a", "b", "c"))), problem.TooLarge, "problem.formats.archive_total_large")
	many := map[string][]byte{}
	var names []string
	for i := 0; i <= MaxFiles; i++ {
		n := strings.Repeat("x", i+1)
		many[n], names = []byte("{}"), append(names, n)
	}
	refusal(t, readErr(Read(zipOf(t, many, names...))), problem.TooLarge, "problem.formats.archive_too_many")
	refusal(t, readErr(Read([]byte("PK\x03\x04 not really a zip"))), problem.Malformed, "problem.formats.archive_read")
}

func readErr(_ []File, err error) error { return err }

// Build gives the same bytes for the same files in any order, base names
// only, no hidden names, equal names told apart; and Read gets them back.
func TestBuild(t *testing.T) {
	a := []File{{"x/../../etc/b.json", []byte("2")}, {".hidden.json", []byte("1")}, {`C:\runs\b.json`, []byte("3")}, {"", []byte("4")}}
	b := []File{a[3], a[2], a[1], a[0]}
	za, zb := Build(a), Build(b)
	if !bytes.Equal(za, zb) || Detect(za) != Zip || ContentType(za) != "application/zip" {
		t.Fatal("Build depends on order, or is not a zip")
	}
	files, err := Read(za)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, f.Name+"="+string(f.Data))
	}
	if want := "_hidden.json=1 b.json=2 b (2).json=3 file.json=4"; strings.Join(got, " ") != want {
		t.Errorf("Read(Build) = %q, want %q", strings.Join(got, " "), want)
	}
}

// TestCanonicalIsWhatReadGivesBack: a many-file upload is parsed from its
// canonical list and derived again later from the stored zip, so both must
// be the same files, in the same order, under the same names.
func TestCanonicalIsWhatReadGivesBack(t *testing.T) {
	files := []File{
		{Name: "dir/a.json", Data: []byte(`{"n":2}`)},
		{Name: `C:\runs\a.json`, Data: []byte(`{"n":1}`)},
		{Name: "a (2).json", Data: []byte(`{"n":3}`)},
		{Name: ".hidden.json", Data: []byte(`{"n":4}`)},
		{Name: "", Data: []byte(`{"n":5}`)},
	}
	canon := Canonical(files)
	back, err := Read(Build(files))
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(canon) {
		t.Fatalf("Read gave %d files, Canonical %d", len(back), len(canon))
	}
	seen := map[string]bool{}
	for i := range canon {
		if back[i].Name != canon[i].Name || string(back[i].Data) != string(canon[i].Data) {
			t.Errorf("file %d: read back %q %s, canonical %q %s", i, back[i].Name, back[i].Data, canon[i].Name, canon[i].Data)
		}
		if seen[canon[i].Name] {
			t.Errorf("name %q twice", canon[i].Name)
		}
		seen[canon[i].Name] = true
	}
}

// A tar from a pre-POSIX archiver marks regular files with a NUL type flag;
// they are results like any other.
func TestReadLegacyTar(t *testing.T) {
	doc := []byte(`{"a":1}`)
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	tw.WriteHeader(&tar.Header{Name: "old/a.json", Typeflag: tar.TypeReg, Size: int64(len(doc)), Mode: 0o644, Format: tar.FormatUSTAR})
	tw.Write(doc)
	tw.Close()
	data := buf.Bytes()
	legacyFlag(data[:512])
	files, err := Read(data)
	if err != nil || len(files) != 1 || files[0].Name != "old/a.json" || !bytes.Equal(files[0].Data, doc) {
		t.Fatalf("Read(legacy tar) = %+v, %v", files, err)
	}
}

// legacyFlag rewrites a tar header block's type flag as NUL, and its
// checksum to match.
func legacyFlag(h []byte) {
	h[156] = 0
	copy(h[148:156], "        ")
	sum := 0
	for _, b := range h {
		sum += int(b)
	}
	copy(h[148:156], fmt.Sprintf("%06o\x00 ", sum))
}
