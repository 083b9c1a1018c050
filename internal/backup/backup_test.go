package backup_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/backup"
	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/demo"
	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/web/site"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// origin is both sites' BASE_URL, so absolute links in the JSON match.
const origin = "https://speedmatrix.example"

// TestRoundTrip fills a database as `serve` fills an empty one (the demo
// runs and 120 synthetic ones), adds files of other tools with form
// fields over them, a submitter in an organisation with a live and a
// revoked token, a verified run and a hidden one, and people who signed
// up in the browser with every fact an account can have (people_test.go);
// backs it up, restores into an empty database and compares every run's
// JSON, the lists, every backed-up table row for row, and what each person
// can do.
func TestRoundTrip(t *testing.T) {
	ctx := context.Background()
	src, _ := dbtest.New(t)
	ids, tok := fill(t, ctx, src)
	p := fillPeople(t, ctx, src)
	var buf bytes.Buffer
	n, err := backup.Write(ctx, &buf, src, "test")
	if err != nil {
		t.Fatal(err)
	}
	if want := len(ids) + len(p.runs) - 1; n != want { // one of them deleted
		t.Fatalf("backup holds %d runs, the database %d", n, want)
	}
	t.Logf("backup of %d runs: %d bytes", n, buf.Len())
	noSecrets(t, buf.Bytes(), p.secrets())
	dst, _ := dbtest.New(t)
	got, err := backup.Restore(ctx, bytes.NewReader(buf.Bytes()), dst)
	if err != nil || got != n {
		t.Fatalf("restore: %d runs, %v", got, err)
	}
	a, b := siteServer(t, src), siteServer(t, dst)
	for _, id := range append(ids, p.runs...) {
		for _, path := range []string{"/runs/" + id + ".json", "/runs/" + id + "/source", "/api/v1/runs/" + id} {
			same(t, a, b, path)
		}
	}
	for _, path := range []string{"/api/v1/runs?limit=100", "/api/v1/runs?limit=100&page=2", "/api/v1/hardware",
		"/api/v1/models", "/api/v1/engines", "/leaderboard?lang=en", "/submitters/restorer?lang=en", "/orgs/lab?lang=en",
		"/submitters/bob?lang=en"} {
		same(t, a, b, path)
	}
	if code, _ := fetch(t, b, "/api/v1/runs/"+p.deleted); code != 410 {
		t.Errorf("the deleted run answers %d after the restore, want 410", code)
	}
	sameTables(t, ctx, src, dst)
	p.check(t, ctx, src, dst)
	if h, err := dst.TokenSubmitter(ctx, accounts.Hash(tok)); err != nil || h != "restorer" {
		t.Errorf("the restored token names %q, %v", h, err)
	}
	// A new account after the restore gets a fresh id, not a restored one's.
	if err := dst.CreateSubmitter(ctx, "newcomer", "lab"); err != nil {
		t.Errorf("new submitter after restore: %v", err)
	}
	if _, err := backup.Restore(ctx, bytes.NewReader(buf.Bytes()), dst); err == nil {
		t.Error("a restore over stored runs succeeded")
	}
}

// sameTables fails when a backed-up table differs between the databases.
func sameTables(t *testing.T, ctx context.Context, a, b *store.Store) {
	t.Helper()
	ta, tb := tables(t, ctx, a), tables(t, ctx, b)
	for _, table := range store.BackupTables {
		if !slices.Equal(ta[table.Name], tb[table.Name]) {
			t.Errorf("table %s differs after the restore:\n%s\n%s", table.Name,
				strings.Join(ta[table.Name], "\n"), strings.Join(tb[table.Name], "\n"))
		}
	}
}

// tables reads every backed-up table's rows as a backup writes them.
func tables(t *testing.T, ctx context.Context, st *store.Store) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := st.Snapshot(ctx, func(snap *store.BackupSnapshot) error {
		for _, table := range store.BackupTables {
			err := snap.EachRow(ctx, table, func(row []byte) error {
				out[table.Name] = append(out[table.Name], string(row))
				return nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// same fails when path answers differently on the two sites.
func same(t *testing.T, a, b *httptest.Server, path string) {
	t.Helper()
	ca, ba := fetch(t, a, path)
	cb, bb := fetch(t, b, path)
	if ca != cb || !bytes.Equal(ba, bb) {
		i := 0
		for i < len(ba) && i < len(bb) && ba[i] == bb[i] {
			i++
		}
		t.Errorf("%s: %d (%d bytes) before, %d (%d bytes) after the restore; from byte %d: %q / %q", path, ca, len(ba), cb, len(bb),
			i, ba[max(i-60, 0):min(i+40, len(ba))], bb[max(i-60, 0):min(i+40, len(bb))])
	}
}

func fetch(t *testing.T, s *httptest.Server, path string) (int, []byte) {
	t.Helper()
	resp, err := s.Client().Get(s.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, body
}

func siteServer(t *testing.T, st *store.Store) *httptest.Server {
	b, err := i18n.Default()
	if err != nil {
		t.Fatal(err)
	}
	s := httptest.NewServer(site.New(site.Config{Store: st, Bundle: b, BaseURL: origin, Version: "test",
		Logger: slog.New(slog.DiscardHandler)}))
	t.Cleanup(s.Close)
	return s
}

// fill stores the runs and accounts of the round trip and returns every
// run's id (hidden included) and the live token.
func fill(t *testing.T, ctx context.Context, st *store.Store) ([]string, string) {
	t.Helper()
	if _, err := demo.Load(ctx, st); err != nil {
		t.Fatal(err)
	}
	if _, err := demo.LoadSynthetic(ctx, st, 1, 120, 0, nil); err != nil {
		t.Fatal(err)
	}
	if err := st.CreateSubmitter(ctx, "restorer", "lab"); err != nil {
		t.Fatal(err)
	}
	var live string
	for i := range 2 {
		tok, err := accounts.NewToken()
		if err != nil {
			t.Fatal(err)
		}
		if err := st.CreateToken(ctx, "restorer", tok.Hash, tok.Prefix); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			live = tok.Secret
		} else if _, err := st.RevokeToken(ctx, tok.Hash, ""); err != nil {
			t.Fatal(err)
		}
	}
	uploads := map[string]ingest.Upload{}
	for _, name := range []string{"vllm_bench_serve_synth_concurrency.json", "llama_bench.json", "genai_perf_profile_export.json", "sglang_bench_serving_latest.jsonl"} {
		data, err := os.ReadFile("../../testdata/formats/other-tools/" + name)
		if err != nil {
			t.Fatal(err)
		}
		u := ingest.Upload{Files: []archive.File{{Name: name, Data: data}},
			Fields: map[string]string{"gpu_name": "RTX 4090 (" + name + ")", "vram_gb": "24", "hardware_type": "Discrete GPU"}}
		if strings.HasPrefix(name, "llama") {
			u.Account = "restorer"
		}
		uploads[name] = u
	}
	for name, u := range uploads {
		res, err := ingest.Ingest(ctx, st, u)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if strings.HasPrefix(name, "genai") {
			if err := st.HideRun(ctx, res.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	var ids []string
	err := st.EachBackupRun(ctx, func(b store.BackupRun) error {
		ids = append(ids, b.Run.ID)
		return nil
	})
	if err != nil || len(ids) != 2+120+4 {
		t.Fatalf("%d runs stored, %v", len(ids), err)
	}
	return ids, live
}
