package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// apiCall is one request to a documented operation and the status it must
// answer.
type apiCall struct {
	path    string // with the path parameters filled in
	body    []byte
	headers []string
	status  int
}

// TestOpenAPI validates the document, calls every documented operation
// (each answer is checked against the document: status, headers, JSON
// shape), and checks that every /api route of the router is documented.
func TestOpenAPI(t *testing.T) {
	s := webtest.NewSite(t)
	doc, v := openAPIDocument(t, s)
	model, err := doc.BuildV3Model()
	if err != nil {
		t.Fatal(err)
	}
	if model.Model.Version != "3.1.0" {
		t.Errorf("OpenAPI %s, want 3.1.0", model.Model.Version)
	}

	calls := documentedCalls(t, s)
	documented := map[string]bool{}
	for path, item := range model.Model.Paths.PathItems.FromOldest() {
		for method := range item.GetOperations().FromOldest() {
			op := strings.ToUpper(method) + " " + path
			documented[op] = true
			if len(calls[op]) == 0 {
				t.Errorf("%s is documented but this test never calls it: add calls", op)
			}
			for _, c := range calls[op] {
				checkCall(t, s, v, strings.ToUpper(method), c)
			}
		}
	}
	for op := range calls {
		if !documented[op] {
			t.Errorf("%s is called here but not documented", op)
		}
	}
	// Every /api route the router serves is documented.
	routes, ok := s.Config.Handler.(chi.Routes)
	if !ok {
		t.Fatal("the site's handler is not a chi router")
	}
	err = chi.Walk(routes, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		route = strings.TrimSuffix(route, "/")
		if strings.HasPrefix(route, "/api/") && route != "/api/openapi.json" && !documented[method+" "+route] {
			t.Errorf("%s %s is served but not in /api/openapi.json (web/api/api_docs_openapi.json)", method, route)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func checkCall(t *testing.T, s *webtest.Site, v validator.Validator, method string, c apiCall) {
	t.Helper()
	req, _ := http.NewRequest(method, s.URL+c.path, bytes.NewReader(c.body))
	for _, h := range c.headers {
		k, val, _ := strings.Cut(h, ": ")
		req.Header.Set(k, val)
	}
	resp, err := s.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != c.status {
		t.Errorf("%s %s = %d, want %d: %s", method, c.path, resp.StatusCode, c.status, raw)
		return
	}
	resp.Body = io.NopCloser(bytes.NewReader(raw))
	vreq, _ := http.NewRequest(method, s.URL+c.path, nil)
	if ok, errs := v.ValidateHttpResponse(vreq, resp); !ok {
		for _, e := range errs {
			t.Errorf("%s %s → %d does not match the document: %s (%s)", method, c.path, c.status, e.Message, e.Reason)
		}
	}
}

// openAPIDocument fetches /api/openapi.json and validates it.
func openAPIDocument(t *testing.T, s *webtest.Site) (libopenapi.Document, validator.Validator) {
	t.Helper()
	resp, raw := s.Get(t, "/api/openapi.json")
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("/api/openapi.json = %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	doc, err := libopenapi.NewDocument([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	v, errs := validator.NewValidator(doc)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if ok, verrs := v.ValidateDocument(); !ok {
		for _, e := range verrs {
			t.Errorf("document: %s: %s", e.Message, e.Reason)
		}
	}
	return doc, v
}

// documentedCalls are the calls that exercise each documented operation,
// answers and refusals alike.
func documentedCalls(t *testing.T, s *webtest.Site) map[string][]apiCall {
	t.Helper()
	tok := webtest.MintToken(t, s, "documented", "")
	other := webtest.MintToken(t, s, "someone-else", "")
	anon := s.Seed(t)
	bearer, otherBearer := "Authorization: Bearer "+tok, "Authorization: Bearer "+other
	unknown, _ := accounts.NewToken()
	json := "Content-Type: application/json"
	seed := webtest.ReadFile(t, "testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json")
	v020 := webtest.ReadFile(t, "testdata/formats/llm-inference-bench/benchmark_results_0.2.0.json")
	lb := webtest.LilBenchBody(t, "testdata/formats/lil-bench/lil_bench_result_1gpu.json")
	_, owned := s.Post(t, "application/json", webtest.ReadFile(t, "testdata/formats/llm-inference-bench/benchmark_results_0.4.18.json"), bearer)
	ownedID := owned["id"].(string)
	orgRun := orgTokenRun(t, s)
	return map[string][]apiCall{
		"GET /api/v1/runs": {
			{"/api/v1/runs", nil, nil, 200},
			{"/api/v1/runs?sort=peak&hardware=rtx-3060-12gb", nil, nil, 200},
			{"/api/v1/runs?sort=sideways", nil, nil, 400},
		},
		"POST /api/v1/runs": {
			{"/api/v1/runs", v020, []string{json, bearer}, 201},
			{"/api/v1/runs", v020, []string{json}, 200}, // stored by the call before
			{"/api/v1/runs?dry_run=1", seed, []string{json}, 200},
			{"/api/v1/runs?dry_run=1", []byte(`{"metadata": {}}`), []string{json}, 422},
			{"/api/v1/runs", []byte(`{"metadata": {}}`), []string{json}, 422},
			{"/api/v1/runs", []byte(`{`), []string{json}, 400},
			{"/api/v1/runs", seed, []string{"Content-Type: text/plain"}, 415},
			{"/api/v1/runs", seed, []string{json, "Authorization: Bearer " + unknown.Secret}, 401},
		},
		"GET /api/v1/runs/{id}": {
			{"/api/v1/runs/" + anon, nil, nil, 200},
			{"/api/v1/runs/" + orgRun, nil, nil, 200}, // its submitter has an org
			{"/api/v1/runs/aaaaaaaaaa", nil, nil, 404},
		},
		"DELETE /api/v1/runs/{id}": {
			{"/api/v1/runs/" + ownedID, nil, nil, 401},
			{"/api/v1/runs/" + ownedID, nil, []string{otherBearer}, 403},
			{"/api/v1/runs/aaaaaaaaaa", nil, []string{bearer}, 404},
			{"/api/v1/runs/" + ownedID, nil, []string{bearer}, 204},
		},
		"POST /api/bench/runs": {
			{"/api/bench/runs", lb, []string{json, "Content-Encoding: gzip", bearer}, 201},
			{"/api/bench/runs", lb, []string{json, "Content-Encoding: gzip", bearer}, 200},
			{"/api/bench/runs", lb, []string{json, "Content-Encoding: gzip", "Authorization: Bearer " + unknown.Secret}, 401},
		},
		"GET /api/v1/leaderboard": {
			{"/api/v1/leaderboard", nil, nil, 200},
			{"/api/v1/leaderboard?metric=tokens_per_joule", nil, nil, 200},
			{"/api/v1/leaderboard?ctx=0&conc=1&metric=ttft_ms&queued=1&flagged=1&hardware=rtx-3060-12gb", nil, nil, 200},
			{"/api/v1/leaderboard?metric=watts", nil, nil, 422},
			{"/api/v1/leaderboard?ctx=007", nil, nil, 422},
		},
		"GET /api/v1/hardware": {{"/api/v1/hardware", nil, nil, 200}},
		"GET /api/v1/engines":  {{"/api/v1/engines", nil, nil, 200}},
		"GET /api/v1/models":   {{"/api/v1/models", nil, nil, 200}},
		"GET /api/v1/regressions": {
			{"/api/v1/regressions", nil, nil, 200},
			{"/api/v1/regressions?engine=vllm&hardware=rtx-3060-12gb&kind=regression", nil, nil, 200},
			{"/api/v1/regressions?kind=sideways", nil, nil, 400},
		},
		"GET /api/v1/calculator": {
			{"/api/v1/calculator?gpu=rtx-3060-12gb&model=Qwen/Qwen3.5-4B&weights=fp8&kv=int4", nil, nil, 200},
			{"/api/v1/calculator?gpu=apple-m4-max-128gb&model=meta-llama/Llama-3.1-8B", nil, nil, 200},
			{"/api/v1/calculator?gpu=no-such-gpu&model=Qwen/Qwen3.5-4B", nil, nil, 422},
		},
		"GET /api/v1/plan": {
			{"/api/v1/plan?hardware=rtx-3060-12gb&context=16384&min_user_tps=20", nil, nil, 200},
			{"/api/v1/plan?hardware=rtx-3090-24gb&gpus=2&preset=team", nil, nil, 200}, // estimates only
			{"/api/v1/plan?hardware=no-such-gpu", nil, nil, 422},
		},
		"GET /api/bench/whoami": {
			{"/api/bench/whoami", nil, []string{bearer}, 200},
			{"/api/bench/whoami", nil, nil, 401},
		},
	}
}

// orgTokenRun uploads a run with the token of an organisation's member,
// checks that its document names the organisation, and returns its id.
func orgTokenRun(t *testing.T, s *webtest.Site) string {
	t.Helper()
	ctx := context.Background()
	if err := s.Store.CreateSubmitter(ctx, "documented-member", "docs-lab"); err != nil {
		t.Fatal(err)
	}
	a, err := s.Store.AccountByHandle(ctx, "documented-member")
	if err != nil {
		t.Fatal(err)
	}
	tok, _ := accounts.NewToken()
	if err := s.Store.CreateOrgToken(ctx, a.ID, "docs-lab", tok.Hash, tok.Prefix); err != nil {
		t.Fatal(err)
	}
	_, out := s.Post(t, "application/json", webtest.ReadFile(t, "testdata/formats/lil-bench/lil_bench_result_2gpu.json"), "Authorization: Bearer "+tok.Secret)
	id, _ := out["id"].(string)
	if _, doc := s.Get(t, "/api/v1/runs/"+id); !strings.Contains(doc, `"org": {`) || !strings.Contains(doc, `"slug": "docs-lab"`) {
		t.Errorf("the org token's run %q does not name its org: %.300s", id, doc)
	}
	// The document describes it: Submitter has the org property.
	_, raw := s.Get(t, "/api/openapi.json")
	var doc struct {
		Components struct {
			Schemas struct {
				Submitter struct {
					AllOf []struct {
						Properties map[string]json.RawMessage `json:"properties"`
					} `json:"allOf"`
				} `json:"Submitter"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal([]byte(raw), &doc); err != nil {
		t.Fatal(err)
	}
	declared := false
	for _, part := range doc.Components.Schemas.Submitter.AllOf {
		_, ok := part.Properties["org"]
		declared = declared || ok
	}
	if !declared {
		t.Error("the Submitter schema does not declare org")
	}
	return id
}
