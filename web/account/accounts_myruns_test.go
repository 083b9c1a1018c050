package account_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestMyRuns: an account's own runs are listed, hidden and shown again,
// and deleted only with the confirmation, after which the address answers
// 410 Gone; another account can touch none of it.
func TestMyRuns(t *testing.T) {
	s := webtest.NewSite(t)
	v := webtest.NewVisitor(t, s)
	v.Signup("owner", "owner@example.com", webtest.Password)
	file := webtest.ReadFile(t, "testdata/formats/lil-bench/lil_bench_result_2gpu.json")
	body, ct := webtest.MultipartBody(t, file, "run.json", nil)
	resp, _ := v.Upload(body, ct)
	id := strings.TrimSuffix(strings.TrimPrefix(resp.Header.Get("Location"), "/runs/"), "#share")
	if resp.StatusCode != 303 || id == "" {
		t.Fatalf("upload = %d", resp.StatusCode)
	}
	if _, page := v.Get("/account/runs?lang=en"); !strings.Contains(page, `data-run="`+id+`" data-hidden="false"`) {
		t.Fatalf("/account/runs does not list the run %s", id)
	}
	// Editing the details: the report says so, the file stays as uploaded.
	_, before := s.Get(t, "/runs/"+id+"/source")
	if resp, form := v.Get("/account/runs/" + id + "/edit"); resp.StatusCode != 200 || !strings.Contains(form, `name="driver"`) {
		t.Fatalf("edit form = %d", resp.StatusCode)
	}
	if resp, _ := v.Post("/account/runs/"+id+"/edit", url.Values{"driver": {strings.Repeat("x", 300)}}); resp.StatusCode != 422 {
		t.Errorf("a 300-character driver = %d, want 422", resp.StatusCode)
	}
	if resp, _ := v.Post("/account/runs/"+id+"/edit", url.Values{"driver": {"580.65.06"}, "os": {"Debian 13"}}); resp.StatusCode != 303 {
		t.Fatalf("edit = %d, want 303 to the report", resp.StatusCode)
	}
	_, report := s.Get(t, "/runs/"+id+"?lang=en")
	if !strings.Contains(report, "580.65.06") || !strings.Contains(report, "Details edited by the uploader") {
		t.Error("the report lacks the edited driver or the edited mark")
	}
	if _, after := s.Get(t, "/runs/"+id+"/source"); after != before || after == "" {
		t.Error("editing changed the stored file")
	}
	intruder := webtest.NewVisitor(t, s)
	intruder.Signup("intruder", "intruder@example.com", webtest.Password)
	if resp, _ := intruder.Post("/account/runs/"+id+"/edit", url.Values{"os": {"mine now"}}); resp.StatusCode != 403 {
		t.Errorf("another account editing = %d, want 403", resp.StatusCode)
	}
	if resp, _ := intruder.Post("/account/runs/"+id+"/delete", url.Values{"confirm": {"yes"}}); resp.StatusCode != 403 {
		t.Errorf("another account deleting = %d, want 403", resp.StatusCode)
	}
	if resp, _ := v.Post("/account/runs/"+id+"/hide", url.Values{}); resp.StatusCode != 200 {
		t.Errorf("hide = %d", resp.StatusCode)
	}
	if resp, _ := s.Get(t, "/runs/"+id); resp.StatusCode != 404 {
		t.Errorf("hidden run = %d, want 404", resp.StatusCode)
	}
	if _, page := v.Get("/account/runs"); !strings.Contains(page, `data-run="`+id+`" data-hidden="true"`) {
		t.Error("the hidden run is not listed as hidden")
	}
	if resp, _ := v.Post("/account/runs/"+id+"/show", url.Values{}); resp.StatusCode != 200 {
		t.Errorf("show = %d", resp.StatusCode)
	}
	if resp, _ := s.Get(t, "/runs/"+id); resp.StatusCode != 200 {
		t.Errorf("shown again = %d, want 200", resp.StatusCode)
	}
	if _, list := s.Get(t, "/runs"); !strings.Contains(list, id) {
		t.Error("the run shown again is not back in /runs")
	}
	// Without the confirmation nothing is deleted.
	if _, page := v.Post("/account/runs/"+id+"/delete?lang=en", url.Values{}); !strings.Contains(page, "Nothing was deleted") {
		t.Error("an unconfirmed delete does not say nothing was deleted")
	}
	if resp, _ := s.Get(t, "/runs/"+id); resp.StatusCode != 200 {
		t.Fatalf("an unconfirmed delete removed the run (%d)", resp.StatusCode)
	}
	v.Post("/account/runs/"+id+"/hide", url.Values{})
	if resp, _ := v.Post("/account/runs/"+id+"/delete", url.Values{"confirm": {"yes"}}); resp.StatusCode != 200 {
		t.Errorf("delete = %d", resp.StatusCode)
	}
	resp, page := s.Get(t, "/runs/"+id+"?lang=en")
	if resp.StatusCode != 410 || !strings.Contains(page, "deleted by the person who uploaded it") {
		t.Errorf("deleted run = %d, want 410 with a short page", resp.StatusCode)
	}
	if resp, _ := s.Get(t, "/runs/zzzzzzzzzz"); resp.StatusCode != 404 {
		t.Errorf("a run that never was = %d, want 404", resp.StatusCode)
	}
}

// TestClaimRun: an anonymous form upload can be claimed by the browser
// that sent it, once; another browser cannot, nor after 24 hours.
func TestClaimRun(t *testing.T) {
	s := webtest.NewSite(t)
	v := webtest.NewVisitor(t, s)
	file := webtest.ReadFile(t, "testdata/formats/lil-bench/lil_bench_result_2gpu.json")
	body, ct := webtest.MultipartBody(t, file, "run.json", map[string]string{"submitter": "someone"})
	resp, _ := v.Upload(body, ct)
	id := strings.TrimSuffix(strings.TrimPrefix(resp.Header.Get("Location"), "/runs/"), "#share")
	if resp.StatusCode != 303 || !strings.Contains(resp.Header.Get("Set-Cookie"), "claim-"+id+"=") {
		t.Fatalf("anonymous upload = %d, claim cookie %q", resp.StatusCode, resp.Header.Get("Set-Cookie"))
	}
	other := webtest.NewVisitor(t, s)
	other.Signup("thief", "thief@example.com", webtest.Password)
	if _, page := other.Post("/account/runs/"+id+"/claim?lang=en", url.Values{}); !strings.Contains(page, "cannot be claimed") {
		t.Error("another browser's claim was not refused")
	}
	v.Signup("claimer", "claimer@example.com", webtest.Password)
	if _, page := v.Get("/account/runs"); !strings.Contains(page, `data-claim="`+id+`"`) {
		t.Fatal("/account/runs does not offer the run to claim")
	}
	// A day later the same browser cannot claim it either.
	ctx := t.Context()
	conn := webtest.MustConn(t, s)
	if _, err := conn.Exec(ctx, `UPDATE runs SET uploaded_at = now() - interval '25 hours' WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	if _, page := v.Post("/account/runs/"+id+"/claim?lang=en", url.Values{}); !strings.Contains(page, "cannot be claimed") {
		t.Error("a claim after 25 hours was not refused")
	}
	// Within the day it works (a new upload, a new cookie).
	body, ct = webtest.MultipartBody(t, webtest.ReadFile(t, "testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json"), "b.json", nil)
	v2 := webtest.NewVisitor(t, s)
	resp, _ = v2.Upload(body, ct)
	id2 := strings.TrimSuffix(strings.TrimPrefix(resp.Header.Get("Location"), "/runs/"), "#share")
	if resp := v2.Login("claimer@example.com", webtest.Password, "/"); resp.StatusCode != 303 {
		t.Fatal("sign-in")
	}
	if _, page := v2.Post("/account/runs/"+id2+"/claim?lang=en", url.Values{}); !strings.Contains(page, "is now yours") {
		t.Errorf("a claim within the day was refused")
	}
	if _, page := s.Get(t, "/submitters/claimer"); !strings.Contains(page, id2) {
		t.Error("the claimed run is not on the account's page")
	}
	if _, page := v2.Post("/account/runs/"+id2+"/claim?lang=en", url.Values{}); !strings.Contains(page, "cannot be claimed") {
		t.Error("a second claim was not refused")
	}
}
