// Package plan answers "what should I run on this hardware?": from the
// runs measured on one hardware identity, for each setup (model, engine,
// quantization) the most simultaneous users whose measured cell at the
// asked context gives each of them the asked speed; and, apart, the decode
// calculator's upper bounds for the models nobody measured there. It is
// pure: the store decides each setup's answer where the bests are kept
// (Setup), the web layer hands it the parsed query (ParseRequest), and it
// ranks, filters and bounds the answers (Measured), never deciding a
// cell's status again.
package plan

import (
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
)

// Preset is a named use: the context, users and speed a question of that
// kind usually means.
type Preset struct {
	Name       string
	Context    int
	Users      int
	MinUserTPS float64
}

// Presets are the uses the page offers as one click, in the order shown.
var Presets = []Preset{
	{Name: "chat", Context: 8192, Users: 1, MinUserTPS: 20},
	{Name: "team", Context: 16384, Users: 8, MinUserTPS: 20},
	{Name: "documents", Context: 65536, Users: 1, MinUserTPS: 10},
}

// PresetNamed is the preset called name.
func PresetNamed(name string) (Preset, bool) {
	for _, p := range Presets {
		if p.Name == name {
			return p, true
		}
	}
	return Preset{}, false
}

// The query's limits: beyond them no deployment exists to plan for.
const (
	MaxContext    = 10 << 20
	MaxUsers      = 4096
	MaxGPUs       = 64
	MaxUserTPS    = 100000
	maxFilterSize = 100
)

// An answer lists DefaultLimit setups of each kind (those that meet the
// request, and the rest), ranked, and counts the others; limit= asks for
// up to MaxLimit. The bound keeps the cells, runs and rows a page reads
// and shows the same on a hardware with a hundred setups measured as on
// one with a dozen; the best ten answer the question, and the filters
// narrow it.
const (
	DefaultLimit = 10
	MaxLimit     = 200
)

// Request is one question, as the query gives it.
type Request struct {
	// Hardware is the hardware identity measured runs are filed under: the
	// catalog's slug, whose "Nx-" prefix carries the GPU count
	// ("2x-rtx-3090-24gb"). Device is that slug without the count (the
	// calculator's GPU id) and GPUs the count (1 without a prefix).
	Hardware, Device string
	GPUs             int
	// Context is the tokens already in each request; Users how many must
	// be served at once (0: any number, ranked by how many); MinUserTPS
	// the decode speed each request needs.
	Context    int
	Users      int
	MinUserTPS float64
	// Preset names the preset the values came from, "" when none did or
	// when a value was changed from it.
	Preset string
	// Model, Engine and Quantization keep only the setups they match
	// (Matches); empty keeps all.
	Model, Engine, Quantization string
	// Limit is how many setups of each kind the answer lists (0:
	// DefaultLimit).
	Limit int
}

// ShownLimit is how many setups of each kind the answer lists.
func (r Request) ShownLimit() int {
	if r.Limit > 0 {
		return r.Limit
	}
	return DefaultLimit
}

// Problem is one query parameter the planner cannot use: Param names it
// as the address spells it, Message is the locale id of what is wrong.
type Problem struct {
	Param, Message string
}

// Error says which parameter is wrong and how, in English, for logs and
// the API's problem document.
func (p Problem) Error() string {
	return fmt.Sprintf("%s: %s", p.Param, problemText[p.Message])
}

// The problems' message ids, and their English for Error.
const (
	MsgRequired = "plan.error.required"
	MsgNumber   = "plan.error.number"
	MsgRange    = "plan.error.range"
	MsgUnknown  = "plan.error.unknown"
	MsgSlug     = "plan.error.slug"
	MsgCount    = "plan.error.count"
)

var problemText = map[string]string{
	MsgRequired: "missing",
	MsgNumber:   "not a number",
	MsgRange:    "out of range",
	MsgUnknown:  "unknown",
	MsgSlug:     "not an identity (lowercase letters, digits and dashes)",
	MsgCount:    "disagrees with the GPU count the hardware names",
}

// Params are the query parameters ParseRequest reads: the page's cache
// key is its path, these and the language, nothing else.
var Params = []string{"hardware", "gpus", "preset", "context", "min_user_tps", "users", "model", "engine", "quantization", "limit"}

// ParseRequest reads the planner's query: hardware (an identity slug,
// required), gpus (a count for a slug without one), preset (chat, team,
// documents: the defaults of context, users and min_user_tps), context,
// min_user_tps, users, the filters model, engine and quantization, and
// limit (how many setups of each kind to list, 1 to MaxLimit).
// Without a preset or values, the first preset's apply. Every unusable
// parameter is one Problem; the Request holds defaults in their place.
// Whether the hardware exists is the caller's to check (UnknownHardware).
func ParseRequest(q url.Values) (Request, []Problem) {
	var probs []Problem
	bad := func(param, msg string) { probs = append(probs, Problem{Param: param, Message: msg}) }
	get := func(k string) string { return strings.TrimSpace(q.Get(k)) }

	r := Request{}
	p := Presets[0]
	if name := get("preset"); name != "" {
		var ok bool
		if p, ok = PresetNamed(name); !ok {
			bad("preset", MsgUnknown)
			p = Presets[0]
		}
	}
	r.Context, r.Users, r.MinUserTPS = p.Context, p.Users, p.MinUserTPS

	num := func(param string, lo, hi int, dst *int) {
		s := get(param)
		if s == "" {
			return
		}
		v, err := strconv.Atoi(s)
		switch {
		case err != nil:
			bad(param, MsgNumber)
		case v < lo || v > hi:
			bad(param, MsgRange)
		default:
			*dst = v
		}
	}
	num("context", 0, MaxContext, &r.Context)
	num("users", 0, MaxUsers, &r.Users)
	num("limit", 1, MaxLimit, &r.Limit)
	if s := get("min_user_tps"); s != "" {
		v, err := strconv.ParseFloat(s, 64)
		switch {
		case err != nil || math.IsNaN(v) || math.IsInf(v, 0):
			bad("min_user_tps", MsgNumber)
		case v <= 0 || v > MaxUserTPS:
			bad("min_user_tps", MsgRange)
		default:
			r.MinUserTPS = v
		}
	}
	if r.Context == p.Context && r.Users == p.Users && r.MinUserTPS == p.MinUserTPS {
		r.Preset = p.Name
	}

	r.Hardware = strings.ToLower(get("hardware"))
	gpus := 0
	num("gpus", 1, MaxGPUs, &gpus)
	switch {
	case r.Hardware == "":
		bad("hardware", MsgRequired)
	case !isSlug(r.Hardware):
		bad("hardware", MsgSlug)
		r.Hardware = ""
	default:
		r.Device, r.GPUs = splitCount(r.Hardware)
		if gpus > 0 && r.GPUs > 1 && gpus != r.GPUs {
			bad("gpus", MsgCount)
		} else if gpus > 0 {
			r.GPUs = gpus
		}
		r.Hardware = identity(r.Device, r.GPUs)
	}

	for _, f := range []struct {
		param string
		dst   *string
	}{{"model", &r.Model}, {"engine", &r.Engine}, {"quantization", &r.Quantization}} {
		v := strings.ToLower(get(f.param))
		if v != "" && (!isSlug(v) || len(v) > maxFilterSize) {
			bad(f.param, MsgSlug)
			continue
		}
		*f.dst = v
	}
	return r, probs
}

// UnknownHardware is the problem of a hardware that neither a measured
// run nor the calculator's table knows, for the caller to return when its
// look-ups found neither.
func UnknownHardware() Problem { return Problem{Param: "hardware", Message: MsgUnknown} }

// Query is the request as the planner's address holds it, parameters in a
// fixed order and the count folded into the hardware, so one question has
// one address (the page is cached by it).
func (r Request) Query() string {
	v := url.Values{}
	set := func(k, s string) {
		if s != "" {
			v.Set(k, s)
		}
	}
	set("hardware", r.Hardware)
	if p, ok := PresetNamed(r.Preset); ok && p.Context == r.Context && p.Users == r.Users && p.MinUserTPS == r.MinUserTPS {
		set("preset", p.Name)
	} else {
		set("context", strconv.Itoa(r.Context))
		set("min_user_tps", strconv.FormatFloat(r.MinUserTPS, 'f', -1, 64))
		set("users", strconv.Itoa(r.Users))
	}
	set("model", r.Model)
	set("engine", r.Engine)
	set("quantization", r.Quantization)
	if r.Limit > 0 && r.Limit != DefaultLimit {
		set("limit", strconv.Itoa(r.Limit))
	}
	return v.Encode()
}

// WithPreset is r asking what preset p asks, on the same hardware and
// filters: the presets' links.
func (r Request) WithPreset(p Preset) Request {
	r.Preset, r.Context, r.Users, r.MinUserTPS = p.Name, p.Context, p.Users, p.MinUserTPS
	return r
}

// NeedUsers is the users a setup must serve to meet the request: Users,
// or one when any number will do.
func (r Request) NeedUsers() int { return max(r.Users, 1) }

// splitCount reads the catalog's "Nx-" count prefix off a hardware slug.
func splitCount(slug string) (device string, count int) {
	if n := strings.Index(slug, "x-"); n > 0 {
		if c, err := strconv.Atoi(slug[:n]); err == nil && c > 0 {
			return slug[n+2:], c
		}
	}
	return slug, 1
}

// identity is the catalog's hardware slug of count devices.
func identity(device string, count int) string {
	if count > 1 {
		return strconv.Itoa(count) + "x-" + device
	}
	return device
}

// isSlug reports whether s is spelled as the catalog spells identities,
// so a filter or hardware that never could match says so at once.
func isSlug(s string) bool {
	if s == "" || len(s) > 200 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_') {
			return false
		}
	}
	return true
}

// Matches reports whether a filter value f keeps an identity slug s: f is
// s, a family of it (s begins with f and a dash), or a whole run of its
// dash-separated words ("4b" keeps "qwen3-5-4b", not "qwen3-14b").
func Matches(f, s string) bool {
	return f == "" || s == f || strings.Contains("-"+s+"-", "-"+f+"-")
}
