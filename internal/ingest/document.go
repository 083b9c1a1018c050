package ingest

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/speedmatrix/speedmatrix/internal/formats"
	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Document is an upload's files read as one run: what their format says,
// parsed once, before any metadata field is merged. The ingest derives the
// run from it with the fields of the moment, so a door that shows a
// preview before it stores (the upload form's draft) parses the files once
// and derives as often as the fields change. A Document is never changed
// by the ingest: each derivation merges the fields into a copy.
type Document struct {
	// Files are the files as uploaded; the run keeps them as its source.
	Files  []archive.File
	parsed *run.Parsed
}

// Read parses the files as one run: the one parse an upload gets. A
// document the formats refuse comes back as their *problem.Error.
func Read(files []archive.File) (*Document, error) {
	var p *run.Parsed
	var err error
	switch len(files) {
	case 0:
		return nil, problem.New(problem.Invalid, "file", "problem.no_file", nil)
	case 1:
		p, err = formats.Parse(files[0].Data)
	default:
		// Parsed as they will read back from the stored zip (source).
		p, err = formats.ParseFiles(archive.Canonical(files))
	}
	if err != nil {
		return nil, err
	}
	return &Document{Files: files, parsed: p}, nil
}

// Fields is what the document itself says for each metadata field, by
// MetaFields name; a field the file does not fill is absent. The preview
// shows these beside the fields, and leaves open only the ones the file
// left empty.
func (d *Document) Fields() map[string]string { return factsOf(d.parsed) }

// source is what the run keeps of the files and its name: the document
// itself, or for several files their canonical zip, so the run can be
// downloaded whole and derived again.
func (d *Document) source() ([]byte, string) {
	if len(d.Files) == 1 {
		return d.Files[0].Data, d.Files[0].Name
	}
	return archive.Build(d.Files), fmt.Sprintf("sweep-%d-files.zip", len(d.Files))
}

// keptDocument is the form a document's parse is kept in between requests.
type keptDocument struct {
	// Build names the program that parsed it: another build (a release
	// deployed in between, whose parsers or types may differ) parses the
	// files again rather than read a parse it may misread.
	Build  string      `json:"build"`
	Parsed *run.Parsed `json:"parsed"`
}

// Keep is the document's parse as JSON, for a caller that derives the run
// again in a later request (a draft); build identifies this program. It is
// nil when the parse would not read back exactly as it is (a value JSON
// cannot carry): the files are then parsed again, as Reopen does for a
// document kept by nothing.
func (d *Document) Keep(build string) []byte {
	kept, err := json.Marshal(keptDocument{Build: build, Parsed: d.parsed})
	if err != nil {
		return nil
	}
	back, ok := readKept(kept, build)
	if !ok || !reflect.DeepEqual(back, d.parsed) {
		return nil
	}
	return kept
}

// Reopen is the document of files whose parse was kept by Keep with the
// same build; without one it reads it (Read): a draft made before parses
// were kept, or by another build.
func Reopen(files []archive.File, kept []byte, build string) (*Document, error) {
	if p, ok := readKept(kept, build); ok {
		return &Document{Files: files, parsed: p}, nil
	}
	return Read(files)
}

func readKept(kept []byte, build string) (*run.Parsed, bool) {
	var k keptDocument
	if len(kept) == 0 || json.Unmarshal(kept, &k) != nil || k.Build != build || k.Parsed == nil {
		return nil, false
	}
	return k.Parsed, true
}
