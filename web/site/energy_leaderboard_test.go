package site_test

import (
	"encoding/json"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestLeaderboardTokensPerJoule: /leaderboard?metric=tokens_per_joule
// ranks only runs with a measured board power, most tokens per joule
// first, each row with its bar, and says how many runs it left out; the
// tok/s board of the same cell ranks them all, with bars too.
func TestLeaderboardTokensPerJoule(t *testing.T) {
	s := webtest.NewSite(t)
	// 0.7.8: 152.2 tok/s on 388 W at 0×1 (0.392 tok/J); the 2-GPU
	// lil-bench run: 95.8 tok/s on 329 W (0.291); 0.2.0: no power.
	h100 := webtest.UploadSample(t, s, "llm-inference-bench/benchmark_results_0.7.8.json")
	lil := webtest.UploadSample(t, s, "lil-bench/lil_bench_result_2gpu.json")
	old := webtest.UploadSample(t, s, "llm-inference-bench/benchmark_results_0.2.0.json")

	resp, body := s.Get(t, "/leaderboard?lang=en&metric=tokens_per_joule")
	if resp.StatusCode != 200 {
		t.Fatalf("leaderboard = %d", resp.StatusCode)
	}
	if got := rankedRuns(body); !slices.Equal(got, []string{h100, lil}) {
		t.Errorf("ranked %v, want %v (most tokens per joule first, the run without power left out)", got, []string{h100, lil})
	}
	for _, want := range []string{
		"0.392 tok/J", "0.291 tok/J",
		"1 run without a power measurement in this cell is not ranked.",
		`<rect width="100"`, `<rect width="74"`, // 0.291 ÷ 0.392
		"it is not the machine", // the power is the GPU boards'

	} {
		if !strings.Contains(body, want) {
			t.Errorf("the tokens-per-joule board lacks %q", want)
		}
	}
	_, body = s.Get(t, "/leaderboard?lang=en")
	if got := rankedRuns(body); len(got) != 3 || !slices.Contains(got, old) {
		t.Errorf("the tok/s board ranks %v, want all three runs", got)
	}
	if strings.Contains(body, "without a power measurement") || strings.Count(body, `<svg class="bar"`) != 3 {
		t.Error("the tok/s board should have a bar per row and no power count")
	}
	// An unknown metric is refused, naming the parameter.
	if resp, body := s.Get(t, "/leaderboard?lang=en&metric=watts"); resp.StatusCode != 400 || !strings.Contains(body, "“metric”") {
		t.Errorf("?metric=watts = %d", resp.StatusCode)
	}

	// The API's board is the page's: the same runs in the same order, with
	// their values, and the runs left out for want of power.
	var board struct {
		Metric string
		Rows   []struct {
			Rank  int
			RunID string `json:"run_id"`
			Value float64
		}
		UnpoweredRuns *int `json:"unpowered_runs"`
	}
	getJSON(t, s, "/api/v1/leaderboard?metric=tokens_per_joule", 200, &board)
	if len(board.Rows) != 2 || board.Rows[0].RunID != h100 || board.Rows[1].RunID != lil ||
		board.Rows[0].Rank != 1 || board.Rows[1].Rank != 2 || math.Abs(board.Rows[0].Value-0.392) > 0.004 {
		t.Errorf("the API's tokens-per-joule board: %+v", board.Rows)
	}
	if board.Metric != "tokens_per_joule" || board.UnpoweredRuns == nil || *board.UnpoweredRuns != 1 {
		t.Errorf("the API's board: metric %q, unpowered runs %v", board.Metric, board.UnpoweredRuns)
	}
	board.UnpoweredRuns = nil
	getJSON(t, s, "/api/v1/leaderboard", 200, &board)
	if len(board.Rows) != 3 || board.UnpoweredRuns != nil || board.Metric != "total_tps" {
		t.Errorf("the API's tok/s board: %d rows, unpowered runs %v, metric %q", len(board.Rows), board.UnpoweredRuns, board.Metric)
	}
	var refused struct {
		Problems []struct{ Path string }
	}
	getJSON(t, s, "/api/v1/leaderboard?metric=watts", 422, &refused)
	if len(refused.Problems) != 1 || refused.Problems[0].Path != "metric" {
		t.Errorf("?metric=watts refused with %+v, want the parameter named", refused.Problems)
	}
}

// getJSON fetches path, wants status, and reads the answer into v.
func getJSON(t *testing.T, s *webtest.Site, path string, status int, v any) {
	t.Helper()
	resp, body := s.Get(t, path)
	if resp.StatusCode != status {
		t.Fatalf("%s = %d, want %d: %s", path, resp.StatusCode, status, body)
	}
	if err := json.Unmarshal([]byte(body), v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// TestLeaderboardClaimedMark: a claimed submitter name shows bare with a
// mark and one legend under the table, not the long wording on every row.
func TestLeaderboardClaimedMark(t *testing.T) {
	s := webtest.NewSite(t)
	file := webtest.ReadFile(t, "testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json")
	form, ct := webtest.MultipartBody(t, file, "benchmark_results.json", map[string]string{"submitter": "alice"})
	if resp, out := s.Post(t, ct, form); resp.StatusCode != 201 {
		t.Fatalf("upload = %d %v", resp.StatusCode, out)
	}
	_, body := s.Get(t, "/leaderboard?lang=en")
	if !strings.Contains(body, `<td>alice<span class="claimed-mark" aria-hidden="true">*</span> <span class="sr-only">(claimed, not verified)</span></td>`) {
		t.Error("the claimed name is not shown bare with its mark")
	}
	if strings.Count(body, "Claimed name, not verified") != 1 {
		t.Error("the legend of the claimed mark should show once")
	}
	if strings.Contains(body, "” (claimed, not verified)") {
		t.Error("a row still carries the long claimed wording")
	}
}

// rankedRuns lists the runs of a leaderboard page's rows, in order.
func rankedRuns(body string) []string {
	var ids []string
	for _, m := range regexp.MustCompile(`<tr data-run="([a-z0-9]+)"`).FindAllStringSubmatch(body, -1) {
		ids = append(ids, m[1])
	}
	return ids
}
