package templates

import (
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/a-h/templ"

	"github.com/speedmatrix/speedmatrix/internal/calculator"
	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/plan"
	"github.com/speedmatrix/speedmatrix/internal/planview"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// planResult is an answer on one RTX 3060: two setups that meet the
// request (one read from total ÷ users), one that meets nothing, and the
// calculator's estimates.
func planResult(t *testing.T) *plan.Result {
	t.Helper()
	tb, err := calculator.Data()
	if err != nil {
		t.Fatal(err)
	}
	setup := func(id, model string, users int, speed, total float64) plan.Setup {
		s := plan.Setup{Key: plan.SetupKey{Model: model, ModelBase: model, Engine: "vllm", Quantization: "fp8"},
			ModelName: model, EngineName: "vLLM", QuantizationName: "FP8", MaxUsers: users, PerRequestTPS: speed,
			ContextUsed: 32768, Raised: true}
		if users > 0 {
			s.RunID = id
			s.Cell = &run.DecodeCell{Context: 32768, Concurrency: users, Status: run.Valid,
				Metrics: run.Metrics{TotalTPS: &total, TTFTms: run.F(250)}}
		}
		return s
	}
	setups := []plan.Setup{setup("run1", "qwen3-5-4b", 4, 28, 112), setup("run3", "llama-3-1-8b", 0, 0, 0)}
	derived := setup("run2", "gemma-3-4b", 1, 31, 31)
	derived.Derived = true
	setups = append(setups, derived)
	r := plan.Request{Hardware: "rtx-3060-12gb", Device: "rtx-3060-12gb", GPUs: 1, Context: 20000, MinUserTPS: 25}
	res := &plan.Result{Request: r, Answer: plan.Measured(r, setups, false),
		Runs:   map[string]*run.Run{"run1": {Engine: run.Engine{LaunchCommand: "vllm serve Qwen/Qwen3.5-4B-FP8 --max-model-len 32768"}}},
		Bounds: map[string]calculator.CellBound{"run1": {BoundTPS: 200, Efficiency: 0.56, OK: true}}}
	res.GPU, res.GPUKnown = tb.GPUByID("rtx-3060-12gb")
	res.Estimates = plan.Estimates(r, tb, res.GPU, setups)
	return res
}

func TestPlanPageLocales(t *testing.T) {
	res := planResult(t)
	tb, _ := calculator.Data()
	picker := planview.NewPicker([]catalog.Identity{{Slug: "rtx-3060-12gb", Name: "RTX 3060 12GB"}}, tb)
	for _, lang := range i18n.Languages {
		doc := render(t, lang.Tag, func(l *i18n.Localizer) templ.Component {
			v := planview.Build(l, planview.Input{Request: res.Request, HardwareName: "RTX 3060 12GB", Result: res, Picker: picker})
			return PlanPage(base(l, "/plan?"+res.Request.Query(), l.T("plan.title", nil)), v)
		})
		rows := doc.Find("ol.plan-rows > li.plan-row")
		if rows.Length() != 2 {
			t.Fatalf("%s: %d ranked rows, want 2", lang.Tag, rows.Length())
		}
		// Ranked by users served: the 4-user setup first, its bar full.
		if w, _ := rows.First().Find("svg.users rect").Attr("width"); w != "100" {
			t.Errorf("%s: first bar %q, want 100", lang.Tag, w)
		}
		if w, _ := rows.Eq(1).Find("svg.users rect").Attr("width"); w != "25" {
			t.Errorf("%s: second bar %q, want 25 (1 of 4 users)", lang.Tag, w)
		}
		btn := rows.First().Find("button.copy")
		if id, _ := btn.Attr("data-copy"); id == "" || doc.Find("pre#"+id).Text() != res.Runs["run1"].Engine.LaunchCommand {
			t.Errorf("%s: the copy button does not name the launch command", lang.Tag)
		}
		if rows.Eq(1).Find("dd small").Length() == 0 {
			t.Errorf("%s: the derived per-user speed is not marked", lang.Tag)
		}
		if doc.Find(".plan-unmet li").Length() != 1 {
			t.Errorf("%s: the setup that meets nothing is not listed apart", lang.Tag)
		}
		est := doc.Find("#estimates li.plan-estimate")
		if est.Length() == 0 || est.Find(".tag").Length() != est.Length() {
			t.Errorf("%s: %d estimates, each must be labelled", lang.Tag, est.Length())
		}
		if doc.Find("#measured .plan-estimate").Length() != 0 {
			t.Errorf("%s: an estimate among the measured rows", lang.Tag)
		}
		if opt := doc.Find("#plan-hardware option[selected]"); opt.AttrOr("value", "") != "rtx-3060-12gb" {
			t.Errorf("%s: the hardware is not selected", lang.Tag)
		}
		if href := doc.Find(".plan-presets a").First().AttrOr("href", ""); !strings.Contains(href, "preset=chat") || !strings.Contains(href, "hardware=rtx-3060-12gb") {
			t.Errorf("%s: preset link %q", lang.Tag, href)
		}
	}
}

func TestPlanPageProblems(t *testing.T) {
	q, _ := url.ParseQuery("hardware=rtx-3060-12gb&context=-1&gpus=x")
	r, probs := plan.ParseRequest(q)
	doc := render(t, "de", func(l *i18n.Localizer) templ.Component {
		return PlanPage(base(l, "/plan", "Planer"), planview.Build(l, planview.Input{Request: r, Problems: probs}))
	})
	items := doc.Find("#plan-errors li")
	if items.Length() != 2 || items.First().Find("a").AttrOr("href", "") != "#plan-context" {
		t.Errorf("problems: %q", items.Text())
	}
	if doc.Find("#measured").Length() != 0 {
		t.Error("an answer is shown beside the problems")
	}
}

func TestGPUPicker(t *testing.T) {
	tb, _ := calculator.Data()
	p := planview.NewPicker([]catalog.Identity{{Slug: "rtx-3060-12gb", Name: "RTX 3060 12GB"}, {Slug: "2x-rtx-3090-24gb", Name: "2× RTX 3090 24GB"}}, tb)
	doc := render(t, "ja", func(l *i18n.Localizer) templ.Component { return GPUPicker(p) })
	if doc.Find("form[action='/plan'] select[name=hardware] optgroup").Length() != 2 {
		t.Error("the picker does not list measured and table hardware apart")
	}
	if n := doc.Find("option[value='rtx-3060-12gb']").Length(); n != 1 {
		t.Errorf("the 3060 is listed %d times, want once", n)
	}
	if doc.Find("select[name=preset] option").Length() != len(plan.Presets) {
		t.Error("the picker does not offer every preset")
	}
}

// TestPlanPageListsTheBest: past the limit, the page lists the best
// setups, says how many of how many, and links the longer list.
func TestPlanPageListsTheBest(t *testing.T) {
	var setups []plan.Setup
	for i := range plan.DefaultLimit + 5 {
		k := plan.SetupKey{Model: "model-" + strconv.Itoa(i), Engine: "vllm", Quantization: "fp8"}
		setups = append(setups, plan.Setup{Key: k, ModelName: k.Model, RunID: "run" + strconv.Itoa(i), MaxUsers: 1 + i,
			PerRequestTPS: 30, ContextUsed: 8192})
	}
	r := plan.Request{Hardware: "rtx-3060-12gb", Device: "rtx-3060-12gb", GPUs: 1, Context: 8192, MinUserTPS: 20, Preset: "chat"}
	res := &plan.Result{Request: r, Answer: plan.Measured(r, setups, false)}
	for _, lang := range []string{"en", "ja"} {
		doc := render(t, lang, func(l *i18n.Localizer) templ.Component {
			return PlanPage(base(l, "/plan?"+r.Query(), "plan"), planview.Build(l, planview.Input{Request: r, Result: res}))
		})
		if n := doc.Find("ol.plan-rows > li.plan-row").Length(); n != plan.DefaultLimit {
			t.Errorf("%s: %d rows, want %d", lang, n, plan.DefaultLimit)
		}
		more := doc.Find("#measured p.plan-more")
		total := strconv.Itoa(plan.DefaultLimit + 5)
		if !strings.Contains(more.Text(), total) || !strings.Contains(more.Find("a").AttrOr("href", ""), "limit=200") {
			t.Errorf("%s: the list does not say it is cut: %q", lang, more.Text())
		}
	}
}
