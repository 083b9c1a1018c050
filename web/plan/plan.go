package plan

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"

	"github.com/speedmatrix/speedmatrix/internal/calculator"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/plan"
	"github.com/speedmatrix/speedmatrix/internal/planview"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/templates"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// showsDemo is whether the planner answers with demo runs: the site lists
// them wherever they are stored, marked, as the leaderboard and the run
// lists do (an operator stores them only to try the site), so the planner
// does too, marked and ranked after the measured ones.
const showsDemo = true

// maxPicker bounds the measured hardware the picker lists.
const maxPicker = 500

// PlanPage is GET /plan: the form, and with a hardware chosen the measured
// setups ranked by the users they serve at the asked context and speed,
// and the calculator's estimates apart. A parameter the planner cannot use
// (or a hardware nobody measured and the calculator does not list) is
// answered 422 with the form and what is wrong; the first visit, with no
// question asked, is the bare form.
func (s *Handlers) PlanPage(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	l := i18n.FromContext(ctx)
	q := r.URL.Query()
	a, err := s.answer(ctx, q)
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(plan.Params, q.Has) {
		a.probs = nil // nothing asked yet: "hardware is missing" would greet every visitor
	}
	tables, err := calculator.Data()
	if err != nil {
		return err
	}
	lists, err := s.store.IdentityLists(ctx, []string{store.KindHardware}, maxPicker)
	if err != nil {
		return err
	}
	name, err := s.hardwareName(ctx, a.req.Hardware)
	if err != nil {
		return err
	}
	v := planview.Build(l, planview.Input{Request: a.req, Problems: a.probs, HardwareName: name, Result: a.res,
		Picker: planview.NewPicker(lists[store.KindHardware], tables)})
	status := http.StatusOK
	if len(a.probs) > 0 {
		status = http.StatusUnprocessableEntity
	}
	kit.KeptIf(w, r, a.kept())
	return kit.Render(w, r, status, templates.PlanPage(s.Base(r, l.T("plan.title", nil), l.T("plan.intro", nil)), v))
}

// PlanJSON is GET /api/v1/plan: the page's answer as JSON, or 422 in the
// API's error format naming each parameter it cannot use. It is answered
// fresh (two indexed queries): the page cache keeps pages, not the API.
func (s *Handlers) PlanJSON(w http.ResponseWriter, r *http.Request) error {
	a, err := s.answer(r.Context(), r.URL.Query())
	if err != nil {
		return err
	}
	if len(a.probs) > 0 {
		refused := problem.List{Kind: problem.Invalid}
		for _, p := range a.probs {
			refused.Add(p.Param, p.Message, nil)
		}
		return refused.Err()
	}
	return kit.WriteJSON(w, http.StatusOK, a.res.API())
}

// answered is one question and what the planner made of it.
type answered struct {
	req   plan.Request
	probs []plan.Problem
	res   *plan.Result // nil when there are problems
}

// answer reads the query and, when it has no problems, plans it. A
// hardware neither measured nor in the calculator's table is one more
// problem, of the hardware parameter; any other failure is the error.
func (s *Handlers) answer(ctx context.Context, q url.Values) (answered, error) {
	var a answered
	a.req, a.probs = plan.ParseRequest(q)
	if len(a.probs) > 0 {
		return a, nil
	}
	tables, err := calculator.Data()
	if err != nil {
		return a, err
	}
	a.res, err = plan.Plan(ctx, s.store, tables, a.req, showsDemo)
	if p := (plan.Problem{}); errors.As(err, &p) {
		a.probs, a.res = append(a.probs, p), nil
		return a, nil
	}
	return a, err
}

// kept says whether the page cache keeps the page: the bare form, and
// the questions the site's own links ask (a preset, from the home page's
// picker or the preset links, listing the first setups or as many as the
// page's link asks) of a hardware with something to show.
// Other questions are answered fresh: their numbers are as many as anyone
// cares to write, and pages kept for them would push out the pages people
// read.
func (a answered) kept() bool {
	if len(a.probs) > 0 {
		return false
	}
	if a.res == nil {
		return true
	}
	filtered := a.req.Model != "" || a.req.Engine != "" || a.req.Quantization != ""
	measured := a.res.SetupsTotal+a.res.UnmetTotal > 0
	linked := a.req.Limit == 0 || a.req.Limit == plan.MaxLimit
	return a.req.Preset != "" && linked && (measured || a.res.GPUKnown && !filtered)
}

// hardwareName is the catalog's name of the hardware identity slug, ""
// when nobody measured it (the view names it from the calculator's table).
func (s *Handlers) hardwareName(ctx context.Context, slug string) (string, error) {
	if slug == "" {
		return "", nil
	}
	name, err := s.store.IdentityName(ctx, store.KindHardware, slug)
	if errors.Is(err, store.ErrNotFound) {
		return "", nil
	}
	return name, err
}
