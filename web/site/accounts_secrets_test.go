package site_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/web/site"
)

// lockedBuffer is a log destination shared by the server's goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestTokensNeverInClear uses a token every way there is (whoami, uploads,
// a deletion, a revocation, failures) with the server logging everything,
// then looks for the token in the log and in every table of the database.
func TestTokensNeverInClear(t *testing.T) {
	var logs lockedBuffer
	s := newPolicySite(t, site.UploadPolicy{}, slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	tok := mintToken(t, s, "careful", "an-org")
	lilBench(t, s, "GET", "/api/bench/whoami", tok, nil)
	_, out := lilBench(t, s, "POST", "/api/bench/runs", tok, lilBenchBody(t, "../../testdata/formats/lil-bench/lil_bench_result_2gpu.json"))
	seed := readFile(t, "../../testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json")
	_, out2 := s.post(t, "application/json", seed, "Authorization: Bearer "+tok)
	s.post(t, "application/json", []byte("{not json"), "Authorization: Bearer "+tok)
	s.do(t, "DELETE", "/api/v1/runs/"+out2["id"].(string), nil, "Authorization: Bearer "+tok)
	if _, err := s.store.RevokeToken(context.Background(), nil, tok[:11]); err != nil {
		t.Fatal(err)
	}
	lilBench(t, s, "GET", "/api/bench/whoami", tok, nil)
	if out["id"] == nil || !strings.Contains(logs.String(), "run deleted") {
		t.Fatalf("the scenario did not run (upload %v; log %q)", out, logs.String())
	}

	secrets := []string{tok, tok[11:], hex.EncodeToString([]byte(tok))}
	for _, secret := range secrets {
		if strings.Contains(logs.String(), secret) {
			t.Errorf("the log shows the token (%.16s…)", secret)
		}
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, s.url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, _ := conn.Query(ctx, `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`)
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil || len(tables) < 5 {
		t.Fatalf("tables %v, %v", tables, err)
	}
	for _, table := range tables {
		var text string
		err := conn.QueryRow(ctx, `SELECT coalesce(string_agg(t::text, E'\n'), '') FROM `+pgx.Identifier{table}.Sanitize()+` t`).Scan(&text)
		if err != nil {
			t.Fatal(err)
		}
		for _, secret := range secrets {
			if strings.Contains(text, secret) {
				t.Errorf("table %s holds the token in clear", table)
			}
		}
		if table == "tokens" && !strings.Contains(text, tok[:11]) {
			t.Errorf("the tokens table lacks the token's shown prefix: the scan looks at the wrong text")
		}
	}
}
