package ingest

import (
	"fmt"

	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
)

// Bundle is what a door uploads for several result files (the form's
// multiple file input, several "file" parts, `speedmatrix import --sweep`):
// one zip built from the files in a fixed order, so the run's source can be
// downloaded whole and derived again, and its name. The parse of that zip
// (formats.Parse → sweep.Merge) decides whether the files make one run; its
// dedupe key depends on the set of files, not on their order.
func Bundle(files []archive.File) (body []byte, filename string) {
	if len(files) == 1 {
		return files[0].Data, files[0].Name
	}
	return archive.Build(files), fmt.Sprintf("sweep-%d-files.zip", len(files))
}
