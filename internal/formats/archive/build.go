package archive

import (
	"archive/zip"
	"bytes"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Canonical is the files of a many-file upload as they are stored and
// read: the same files give the same list in whatever order they arrived.
// They are sorted by name then content, and names are cut to their last
// element (a part's name is the uploader's label; a zip that unpacks
// outside its folder would be a gift to whoever downloads it). Equal names
// get " (2)", " (3)" … before the extension, so every name is unique.
func Canonical(files []File) []File {
	sorted := make([]File, len(files))
	for i, f := range files {
		sorted[i] = File{Name: baseName(f.Name), Data: f.Data}
	}
	slices.SortStableFunc(sorted, func(a, b File) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return bytes.Compare(a.Data, b.Data)
	})
	seen := map[string]bool{}
	for i, f := range sorted {
		name := f.Name
		for n := 2; seen[name]; n++ {
			ext := path.Ext(f.Name)
			name = strings.TrimSuffix(f.Name, ext) + " (" + strconv.Itoa(n) + ")" + ext
		}
		seen[name] = true
		sorted[i].Name = name
	}
	return sorted
}

// Build stores files, in Canonical form, as one zip: the run's source, so
// it can be downloaded whole and derived again. The zip has no timestamps,
// so the same files give the same bytes; Read gives back Canonical(files).
func Build(files []File) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range Canonical(files) {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: f.Name, Method: zip.Deflate})
		if err == nil {
			_, err = w.Write(f.Data)
		}
		if err != nil {
			// Writing to memory fails only on a bug.
			panic("archive.Build: " + err.Error())
		}
	}
	if err := zw.Close(); err != nil {
		panic("archive.Build: " + err.Error())
	}
	return buf.Bytes()
}

// baseName is the last element of a part's name, "file.json" when none.
func baseName(name string) string {
	name = label(strings.ReplaceAll(name, `\`, "/"))
	name = path.Base(strings.TrimRight(name, "/"))
	if name == "" || name == "." || name == "/" || name == ".." {
		return "file.json"
	}
	if strings.HasPrefix(name, ".") {
		// Read leaves out hidden files; the stored zip must read back whole.
		name = "_" + name[1:]
	}
	return name
}

// Safe rebuilds an uploaded zip or tar for download: its regular files
// only (Read leaves out links, directories and hidden files) under their
// base names, as Build writes them. An archive's names and links are only
// labels here, but whoever extracts the original download would follow
// "../" names and symlinks; the run still keeps the uploaded bytes.
func Safe(data []byte) ([]byte, error) {
	files, err := Read(data)
	if err != nil {
		return nil, err
	}
	return Build(files), nil
}

// IsArchiveType reports the content types a run's source has when it is
// an archive of result files (a .tar.gz is stored inflated, as a tar).
func IsArchiveType(contentType string) bool {
	return contentType == "application/zip" || contentType == "application/x-tar"
}
