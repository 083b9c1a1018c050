package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/formats/formatstest"
)

// TestImportSweep is `speedmatrix import --sweep`: the files of one sweep
// are one run (one URL), the same files again are that run, and a file of
// another model refuses them all, named on stderr.
func TestImportSweep(t *testing.T) {
	_, url := dbtest.New(t)
	t.Setenv("DATABASE_URL", url)
	t.Setenv("BASE_URL", "https://sm.example")
	dir := t.TempDir()
	var names []string
	for _, f := range formatstest.VLLMSweep(t, "meta-llama/Llama-3.1-8B-Instruct", []int{1000, 4000}, []int{1, 2}) {
		names = append(names, filepath.Join(dir, f.Name))
		if err := os.WriteFile(names[len(names)-1], f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), append([]string{"import", "--sweep"}, names...), &stdout, &stderr); code != 0 ||
		!regexp.MustCompile(`^https://sm\.example/runs/[a-z2-7]{10}\n$`).MatchString(stdout.String()) {
		t.Fatalf("import --sweep = %d, stdout %q, stderr %q; want one run's URL", code, stdout.String(), stderr.String())
	}
	first := stdout.String()
	stdout.Reset()
	reversed := []string{names[3], names[2], names[1], names[0]}
	if code := run(context.Background(), append([]string{"import", "--sweep"}, reversed...), &stdout, &stderr); code != 0 ||
		!strings.HasPrefix(stdout.String(), strings.TrimSpace(first)+" (already imported)") {
		t.Errorf("the same files reversed = %d %q, want %s (already imported)", code, stdout.String(), first)
	}
	odd := formatstest.VLLMSweep(t, "Qwen/Qwen3-8B", []int{16000}, []int{1})[0]
	oddPath := filepath.Join(dir, "qwen.json")
	if err := os.WriteFile(oddPath, odd.Data, 0o644); err != nil {
		t.Fatal(err)
	}
	stderr.Reset()
	if code := run(context.Background(), append([]string{"import", "--sweep", oddPath}, names...), &stdout, &stderr); code != 1 ||
		!strings.Contains(stderr.String(), `$["qwen.json"]`) || !strings.Contains(stderr.String(), "Qwen/Qwen3-8B") {
		t.Errorf("mixed models = %d, stderr %q; want 1 naming qwen.json", code, stderr.String())
	}
}
