package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/internal/problem"
)

// importFiles is `speedmatrix import FILE... [--meta META.json] [--sweep]`:
// every file goes through the same ingest as an upload (with --sweep, the
// files together, as one run). It prints each run's URL and
// exits 1 when any file was refused.
func importFiles(ctx context.Context, cfg config, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	metaPath := fs.String("meta", "", "JSON `file` of metadata fields (gpu_name, engine_version, …) for every file")
	sweep := fs.Bool("sweep", false, "the files are one sweep of one setup: import them as one run")
	files, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "speedmatrix import: no files given")
		return 2
	}
	var fields map[string]string
	if *metaPath != "" {
		raw, err := os.ReadFile(*metaPath)
		if err == nil {
			fields, err = ingest.FieldsFromJSON(raw)
		}
		if err != nil {
			fmt.Fprintf(stderr, "%s: %s\n", *metaPath, describe(err))
			return 1
		}
	}
	db, err := openDatabase(ctx, cfg, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "speedmatrix:", err)
		return 1
	}
	defer db.Close(context.WithoutCancel(ctx))
	base := cfg.BaseURL
	if base == "" {
		base = "http://" + cfg.Addr
	}
	// Each file is one upload, or with --sweep all of them together.
	uploads := make([][]string, 0, len(files))
	for _, name := range files {
		if *sweep {
			uploads = [][]string{files}
			break
		}
		uploads = append(uploads, []string{name})
	}
	failed := 0
	for _, names := range uploads {
		res, err := importUpload(ctx, db, names, fields)
		if err != nil {
			failed++
			fmt.Fprintf(stderr, "%s: %s\n", strings.Join(names, ", "), describe(err))
			continue
		}
		note := ""
		if !res.Created {
			note = " (already imported)"
		}
		fmt.Fprintf(stdout, "%s%s\n", paths.RunURL(base, res.ID), note)
	}
	if failed > 0 {
		return 1
	}
	return 0
}

// importUpload reads the named files (inflating .gz ones) as one upload
// and ingests it, as the API would the same files in one request.
func importUpload(ctx context.Context, db *database, names []string, fields map[string]string) (*ingest.Result, error) {
	parts := make([]ingest.Part, 0, len(names))
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		parts = append(parts, ingest.Part{Name: name, Body: f, Gzipped: strings.HasSuffix(name, ".gz")})
	}
	files, err := ingest.Open(parts...)
	if err != nil {
		return nil, err
	}
	return ingest.Ingest(ctx, db.Store, ingest.Upload{Files: files, Fields: fields})
}

// describe words an error for the shell, in English: a refusal lists every
// problem with its path.
func describe(err error) string {
	pe, ok := problem.As(err)
	if !ok {
		return err.Error()
	}
	b, _ := i18n.Default()
	l := b.Localizer(i18n.English)
	lines := make([]string, 0, len(pe.Problems))
	for _, p := range pe.Problems {
		lines = append(lines, p.Path+": "+l.T(p.Key, p.Data))
	}
	return "refused: " + strings.Join(lines, "\n  ")
}

// parseInterleaved lets flags come after the file names
// (`import a.json b.json --meta m.json`), as people type them.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return files, nil
		}
		files = append(files, args[0])
		args = args[1:]
	}
}
