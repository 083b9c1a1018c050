package archive

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"strconv"

	"github.com/speedmatrix/speedmatrix/internal/problem"
)

// At is the path problems of the file named name are reported under:
// the archive is read as an object of files, so a problem in a file's
// document reads $["c4.json"].results[2].
func At(name string) string { return "$[" + strconv.Quote(name) + "]" }

// Read returns the files of a zip, a tar or a gzipped tar, in archive order,
// leaving out directories, links and archivers' metadata files. Limits
// (MaxFiles, MaxFileBytes, MaxTotalBytes) are counted on the bytes actually
// inflated. A gzip stream that is not a tar is one file named "".
func Read(data []byte) ([]File, error) {
	switch Detect(data) {
	case Zip:
		return readZip(data)
	case Tar:
		return readTar(bytes.NewReader(data))
	case Gzip:
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, unreadable(err)
		}
		inner, err := take(zr, MaxTotalBytes, "$")
		if err != nil {
			return nil, err
		}
		if Detect(inner) == Tar {
			return readTar(bytes.NewReader(inner))
		}
		return []File{{Data: inner}}, nil
	}
	return nil, problem.New(problem.Malformed, "$", "problem.formats.archive_read", map[string]any{"Detail": "not a zip or tar archive"})
}

func readZip(data []byte) ([]File, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		// An insecure name ("../x") is only a label here: nothing is
		// extracted to disk.
		return nil, unreadable(err)
	}
	var files []File
	total := 0
	for _, f := range zr.File {
		if f.FileInfo().IsDir() || skipped(f.Name) || !f.Mode().IsRegular() {
			continue
		}
		if len(files) == MaxFiles {
			return nil, tooMany()
		}
		name := label(f.Name)
		rc, err := f.Open()
		if err != nil {
			return nil, unreadableFile(name, err)
		}
		b, err := take(rc, min(MaxFileBytes, MaxTotalBytes-total), name)
		rc.Close()
		if err != nil {
			return nil, err
		}
		total += len(b)
		files = append(files, File{Name: name, Data: b})
	}
	return files, nil
}

func readTar(r io.Reader) ([]File, error) {
	tr := tar.NewReader(r)
	var files []File
	total := 0
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return files, nil
		}
		if err != nil {
			return nil, unreadable(err)
		}
		// archive/tar reports a pre-POSIX regular file (type flag NUL) as
		// TypeReg, or as TypeDir when its name ends in "/".
		if h.Typeflag != tar.TypeReg || skipped(h.Name) {
			continue
		}
		if len(files) == MaxFiles {
			return nil, tooMany()
		}
		name := label(h.Name)
		b, err := take(tr, min(MaxFileBytes, MaxTotalBytes-total), name)
		if err != nil {
			return nil, err
		}
		total += len(b)
		files = append(files, File{Name: name, Data: b})
	}
}

// take reads at most limit bytes of r; more is a TooLarge problem naming
// the file (or the whole archive when the total is what ran out).
func take(r io.Reader, limit int, name string) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, int64(limit)+1))
	if err != nil {
		return nil, unreadableFile(name, err)
	}
	if len(b) <= limit {
		return b, nil
	}
	if name == "$" || limit < MaxFileBytes {
		return nil, problem.New(problem.TooLarge, "$", "problem.formats.archive_total_large", map[string]any{"MaxMiB": MaxTotalBytes >> 20})
	}
	return nil, problem.New(problem.TooLarge, At(name), "problem.formats.archive_file_large", map[string]any{"File": name, "MaxMiB": MaxFileBytes >> 20})
}

func tooMany() error {
	return problem.New(problem.TooLarge, "$", "problem.formats.archive_too_many", map[string]any{"Max": MaxFiles})
}

func unreadable(err error) error {
	return problem.New(problem.Malformed, "$", "problem.formats.archive_read", map[string]any{"Detail": err.Error()})
}

func unreadableFile(name string, err error) error {
	if name == "$" {
		return unreadable(err)
	}
	return problem.New(problem.Malformed, At(name), "problem.formats.archive_read", map[string]any{"Detail": name + ": " + err.Error()})
}
