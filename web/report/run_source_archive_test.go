package report_test

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestArchiveSourceServedSafe: a tar uploaded with "../" and absolute
// names, a symlink and a hard link is served as a zip of its regular files
// under their base names, so extracting the download is harmless; the run
// keeps the uploaded bytes' hash, and the page says so.
func TestArchiveSourceServedSafe(t *testing.T) {
	s := webtest.NewSite(t)
	tarBytes, err := os.ReadFile(webtest.Path("testdata/regress/sweep_traversal_symlink.tar"))
	if err != nil {
		t.Fatal(err)
	}
	resp, out := s.Post(t, "application/x-tar", tarBytes)
	if resp.StatusCode != 201 {
		t.Fatalf("upload = %d: %v", resp.StatusCode, out)
	}
	id := out["id"].(string)
	resp, body := s.Get(t, "/runs/"+id+"/source")
	if ct := resp.Header.Get("Content-Type"); ct != "application/zip" {
		t.Fatalf("source served as %q", ct)
	}
	zr, err := zip.NewReader(bytes.NewReader([]byte(body)), int64(len(body)))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
		if strings.ContainsAny(f.Name, `/\`) || strings.HasPrefix(f.Name, ".") || !f.Mode().IsRegular() {
			t.Errorf("served entry %q (mode %v)", f.Name, f.Mode())
		}
	}
	if strings.Join(names, ",") != "c4.json,c8.json" {
		t.Errorf("served entries %v, want c4.json and c8.json", names)
	}
	sum := sha256.Sum256(tarBytes)
	if _, page := s.Get(t, "/runs/"+id+".json"); !strings.Contains(page, hex.EncodeToString(sum[:])) {
		t.Errorf("the run does not keep the uploaded bytes' SHA-256")
	}
	if _, page := s.Get(t, "/runs/"+id); !strings.Contains(page, "rebuilt") {
		t.Errorf("the report page does not say the archive is served rebuilt")
	}
	// The rebuilt zip is revalidated by its own ETag, which is not the
	// uploaded bytes' (a cache must not take one for the other).
	etag := resp.Header.Get("ETag")
	if etag == "" || strings.Trim(etag, `"`) == hex.EncodeToString(sum[:]) {
		t.Errorf("rebuilt source's ETag = %q", etag)
	}
	if again, _ := s.Get(t, "/runs/"+id+"/source", "If-None-Match: "+etag); again.StatusCode != 304 {
		t.Errorf("revalidating the source = %d, want 304", again.StatusCode)
	}
}
