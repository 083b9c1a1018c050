package upload_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// draftOf uploads file through the form in browser b and returns its
// preview's address.
func draftOf(t *testing.T, b *browserClient, file []byte) string {
	t.Helper()
	body, ct := webtest.MultipartBody(t, file, "run.json", nil)
	resp, page := b.send(t, "POST", "/upload", ct, body)
	draft := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(draft, "/upload/drafts/") {
		t.Fatalf("upload = %d → %q, want 303 to a preview: %.300s", resp.StatusCode, draft, page)
	}
	return draft
}

// publish posts the preview's form with "publish" and fields typed.
func publish(t *testing.T, b *browserClient, draft string, fields url.Values) (*http.Response, string) {
	t.Helper()
	form := url.Values{"action": {"publish"}}
	for k, v := range fields {
		form[k] = v
	}
	return b.send(t, "POST", draft, "application/x-www-form-urlencoded", []byte(form.Encode()))
}

// publishRun publishes the preview with fields typed and returns the run
// its 303 leads to.
func publishRun(t *testing.T, b *browserClient, draft string, fields url.Values) string {
	t.Helper()
	resp, page := publish(t, b, draft, fields)
	loc := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/runs/") {
		t.Fatalf("publish = %d → %q, want 303 to the run: %.300s", resp.StatusCode, loc, page)
	}
	return strings.TrimSuffix(strings.TrimPrefix(loc, "/runs/"), "#share")
}

// TestDraftParsedOnce: a draft's file is parsed once, when it is
// uploaded; its preview and its publication derive the run from the parse
// the draft kept. So a draft whose stored file was spoiled after the
// upload still shows and publishes the run its file made, with the fields
// typed on it. A draft without a kept parse (made before parses were
// kept) is parsed from its file when used: it publishes, and with a
// spoiled file it is refused.
func TestDraftParsedOnce(t *testing.T) {
	s := webtest.NewSite(t)
	b := newBrowserClient(t, s)
	conn := webtest.MustConn(t, s)
	spoil := func(draft string) {
		t.Helper()
		if _, err := conn.Exec(context.Background(), `UPDATE drafts SET file_data = ARRAY['not a benchmark'::bytea] WHERE id = $1`,
			strings.TrimPrefix(draft, "/upload/drafts/")); err != nil {
			t.Fatal(err)
		}
	}
	forget := func(draft string) {
		t.Helper()
		if _, err := conn.Exec(context.Background(), `UPDATE drafts SET parsed = NULL WHERE id = $1`,
			strings.TrimPrefix(draft, "/upload/drafts/")); err != nil {
			t.Fatal(err)
		}
	}
	file := webtest.ReadFile(t, webtest.LilBenchFile)

	draft := draftOf(t, b, file)
	spoil(draft)
	if resp, page := b.send(t, "GET", draft, "", nil); resp.StatusCode != http.StatusOK || !strings.Contains(page, "GLM-4.5-Air-FP8") {
		t.Fatalf("preview of a draft whose file was spoiled = %d, want 200 with the run its file made: %.300s", resp.StatusCode, page)
	}
	update := url.Values{"action": {"update"}, "os": {"Ubuntu 24.04"}}
	if resp, page := b.send(t, "POST", draft, "application/x-www-form-urlencoded", []byte(update.Encode())); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("updating the preview = %d: %.300s", resp.StatusCode, page)
	}
	id := publishRun(t, b, draft, url.Values{"os": {"Ubuntu 24.04"}, "quantization": {"FP8 (typed)"}})
	_, report := s.Get(t, "/runs/"+id)
	for _, want := range []string{"GLM-4.5-Air-FP8", "FP8 (typed)", "Ubuntu 24.04"} {
		if !strings.Contains(report, want) {
			t.Errorf("the published run's report lacks %q", want)
		}
	}

	// A draft without a kept parse: its file is read.
	other := webtest.ReadFile(t, "testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json")
	old := draftOf(t, b, other)
	forget(old)
	publishRun(t, b, old, nil)
	old = draftOf(t, b, webtest.ReadFile(t, "testdata/formats/llm-inference-bench/benchmark_results_0.4.18.json"))
	forget(old)
	spoil(old)
	if resp, _ := publish(t, b, old, nil); resp.StatusCode == http.StatusSeeOther {
		t.Error("a draft without a kept parse published without reading its spoiled file")
	}
}

// TestDraftPublishesAsTheIngest: a run published from its draft's kept
// parse is stored exactly as the same file with the same fields ingested
// directly (as the API does): every row of every table that holds a run's
// rows, found in the catalog, and the run's own row, but for the run's id,
// its upload time and the form's claim.
func TestDraftPublishesAsTheIngest(t *testing.T) {
	file := webtest.ReadFile(t, webtest.LilBenchFile)
	fields := url.Values{"quantization": {"FP8 (typed)"}, "os": {"Ubuntu 24.04"}, "gpu_count": {"2"}}

	viaDraft := webtest.NewSite(t)
	b := newBrowserClient(t, viaDraft)
	id := publishRun(t, b, draftOf(t, b, file), fields)

	direct := webtest.NewSite(t)
	typed := map[string]string{}
	for k := range fields {
		typed[k] = fields.Get(k)
	}
	res, err := ingest.Ingest(context.Background(), direct.Store, ingest.Upload{Files: []archive.File{{Name: "run.json", Data: file}}, Fields: typed})
	if err != nil {
		t.Fatal(err)
	}
	got, want := storedRows(t, viaDraft, id), storedRows(t, direct, res.ID)
	if len(want) < 20 {
		t.Fatalf("%d rows of the ingested run, want its cells and more", len(want))
	}
	if !slices.Equal(got, want) {
		for i := range max(len(got), len(want)) {
			if i >= len(got) || i >= len(want) || got[i] != want[i] {
				t.Fatalf("published from the draft: %d rows, ingested: %d; first difference at %d:\n%.600s\n%.600s",
					len(got), len(want), i, at(got, i), at(want, i))
			}
		}
	}
}

func at(rows []string, i int) string {
	if i < len(rows) {
		return rows[i]
	}
	return "(none)"
}

// storedRows is every row stored of run id, as text prefixed by its table:
// the runs row and the rows of every table with a run_id column, without
// the run's id (named "<run>" where a value holds it), its upload time and
// its claim.
func storedRows(t *testing.T, s *webtest.Site, id string) []string {
	t.Helper()
	conn := webtest.MustConn(t, s)
	ctx := context.Background()
	rows, _ := conn.Query(ctx, `SELECT table_name::text FROM information_schema.columns
WHERE table_schema = 'public' AND column_name = 'run_id' ORDER BY 1`)
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	read := func(table, sql string) {
		rows, _ := conn.Query(ctx, sql, id)
		got, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatalf("%s: %v", table, err)
		}
		for _, r := range got {
			out = append(out, table+" "+strings.ReplaceAll(r, id, "<run>"))
		}
	}
	// The form's anonymous publication gives the browser a claim; the
	// claim's hash is the door's, not the file's.
	read("runs", `SELECT (to_jsonb(r) - 'id' - 'uploaded_at' - 'claim_hash')::text FROM runs r WHERE id = $1`)
	for _, table := range tables {
		read(table, `SELECT (to_jsonb(c) - 'run_id' - 'uploaded_at')::text FROM `+pgx.Identifier{table}.Sanitize()+` c WHERE run_id = $1 ORDER BY 1`)
	}
	return out
}
