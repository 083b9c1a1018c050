// Package archive reads the .zip and .tar(.gz) files a sweep of benchmark
// results arrives in, and builds the zip a many-file upload is stored as.
// Archives are told by their magic bytes, never by a file name. Nothing is
// written to disk, so entry names are only labels; what matters is memory:
// every entry and the whole inflated content are bounded, whatever the
// headers claim, and an archive inside an archive is refused.
package archive

import (
	"bytes"
	"path"
	"strings"
)

// Limits of one archive. A file inside an archive may be as large as a file
// uploaded alone; the inflated total is bounded so a small archive cannot
// expand into a large allocation.
const (
	MaxFiles      = 256
	MaxFileBytes  = 16 << 20
	MaxTotalBytes = 32 << 20
)

// Kind is what the magic bytes of a document say it is.
type Kind string

// Kinds of container; None is a plain document.
const (
	None Kind = ""
	Zip  Kind = "zip"
	Tar  Kind = "tar"
	Gzip Kind = "gzip"
)

// Detect tells a container from a plain document by its magic bytes: zip's
// local file header (or the end record of an empty zip), tar's "ustar" at
// offset 257, gzip's 1f 8b.
func Detect(data []byte) Kind {
	switch {
	case bytes.HasPrefix(data, []byte("PK\x03\x04")), bytes.HasPrefix(data, []byte("PK\x05\x06")):
		return Zip
	case len(data) >= 262 && string(data[257:262]) == "ustar":
		return Tar
	case len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b:
		return Gzip
	}
	return None
}

// ContentType is the media type a stored source is served with.
func ContentType(data []byte) string {
	switch Detect(data) {
	case Zip:
		return "application/zip"
	case Tar:
		return "application/x-tar"
	case Gzip:
		return "application/gzip"
	}
	return "application/json"
}

// File is one document of a many-file upload: its name (a label only) and
// its bytes.
type File struct {
	Name string
	Data []byte
}

// skipped reports entries that are not results: directories, and the
// metadata files archivers add (macOS's __MACOSX/ and ._ forks, .DS_Store).
func skipped(name string) bool {
	name = strings.ReplaceAll(name, `\`, "/")
	if strings.HasSuffix(name, "/") || strings.HasPrefix(name, "__MACOSX/") || strings.Contains(name, "/__MACOSX/") {
		return true
	}
	return strings.HasPrefix(path.Base(name), ".")
}

// label makes an entry or part name safe to show and to store: valid UTF-8,
// no NUL, bounded length. Names are never used as paths.
func label(name string) string {
	name = strings.ToValidUTF8(strings.ReplaceAll(name, "\x00", ""), "?")
	if r := []rune(name); len(r) > 200 {
		name = string(r[:200]) + "…"
	}
	return name
}
