package account_test

import (
	"context"
	"encoding/hex"
	"log/slog"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/web/site"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestTokensNeverInClear uses a token every way there is (whoami, uploads,
// a deletion, a revocation, failures) with the server logging everything,
// then looks for the token in the log and in every table of the database.
func TestTokensNeverInClear(t *testing.T) {
	var logs webtest.LockedBuffer
	s := webtest.NewPolicySite(t, site.UploadPolicy{}, slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	tok := webtest.MintToken(t, s, "careful", "an-org")
	webtest.LilBench(t, s, "GET", "/api/bench/whoami", tok, nil)
	_, out := webtest.LilBench(t, s, "POST", "/api/bench/runs", tok, webtest.LilBenchBody(t, "testdata/formats/lil-bench/lil_bench_result_2gpu.json"))
	seed := webtest.ReadFile(t, "testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json")
	_, out2 := s.Post(t, "application/json", seed, "Authorization: Bearer "+tok)
	s.Post(t, "application/json", []byte("{not json"), "Authorization: Bearer "+tok)
	s.Do(t, "DELETE", "/api/v1/runs/"+out2["id"].(string), nil, "Authorization: Bearer "+tok)
	if _, err := s.Store.RevokeToken(context.Background(), nil, tok[:11]); err != nil {
		t.Fatal(err)
	}
	webtest.LilBench(t, s, "GET", "/api/bench/whoami", tok, nil)
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
	conn, err := pgx.Connect(ctx, s.DBURL)
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
