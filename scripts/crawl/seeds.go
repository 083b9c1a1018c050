package main

import (
	"net/url"
	"strings"
)

// languages are the site's languages, as ?lang= names them.
var languages = []string{"en", "ja", "zh-Hans", "ko", "de", "es", "fr", "pt-BR"}

// sitePages are the addresses every crawl starts from, before any link.
var sitePages = []string{
	"/", "/sitemap.xml", "/robots.txt", "/favicon.ico", "/healthz", "/readyz",
	"/runs", "/runs?sort=oldest", "/runs?sort=fastest", "/runs?quant=awq", "/runs?engine=vllm",
	"/leaderboard", "/leaderboard?metric=per_request_tps", "/leaderboard?metric=ttft_ms",
	"/leaderboard?ctx=4096", "/leaderboard?ctx=16384&conc=8", "/leaderboard?conc=32&metric=ttft_ms",
	"/leaderboard?flagged=1", "/leaderboard?queued=1", "/leaderboard?engine=vllm", "/leaderboard?quant=awq",
	"/search?q=h100", "/search?q=qwen", "/compare", "/history",
	"/calculator", "/docs/calculator", "/docs/formats", "/docs/api", "/api/openapi.json",
	"/start", "/bench", "/bench/token", "/upload", "/login", "/signup", "/login/forgot",
	"/account", "/account/runs", "/signup/confirm", "/account/reset",
	"/api/v1/runs", "/api/v1/runs?limit=5", "/api/v1/hardware", "/api/v1/engines", "/api/v1/models",
	"/api/v1/calculator", "/api/bench/whoami",
}

// errorPages are addresses that must be refused: missing things, a 300
// characters id, values no page accepts. Error pages repeat some of what
// was asked, which is where a change of how much shows.
func errorPages() []string {
	long := strings.Repeat("a", 300)
	junk := url.QueryEscape(strings.Repeat("<b>x</b>\"'&", 30))
	return []string{
		"/runs/aaaaaaaaaa", "/runs/aaaaaaaaaa.json", "/runs/aaaaaaaaaa.csv", "/runs/aaaaaaaaaa/card.png",
		"/runs/" + long, "/runs/" + long + ".json", "/runs/" + long + "/embed", "/runs/AAAA", "/runs/%ZZ",
		"/hardware/" + long, "/models/no-such-model", "/submitters/nobody", "/orgs/" + long,
		"/compare/with/aaaaaaaaaa", "/compare?runs=aaaaaaaaaa,bbbbbbbbbb", "/compare?runs=" + junk,
		"/leaderboard?metric=" + junk, "/leaderboard?ctx=abc", "/leaderboard?conc=007", "/leaderboard?flagged=2",
		"/runs?sort=" + junk, "/runs?after=garbage", "/runs?after=" + junk, "/history?cell=" + junk,
		"/history?model=" + long, "/search?q=" + junk, "/calculator?gpu=" + junk, "/calculator?acceptance=2",
		"/api/v1/runs?limit=abc", "/api/v1/runs?after=" + junk, "/api/v1/runs/aaaaaaaaaa", "/api/v1/runs/" + long,
		"/api/v1/nothing", "/api/v1/calculator?gpu=" + junk, "/api/bench/nothing", "/static/nothing.css",
		"/upload/drafts/" + strings.Repeat("a", 26), "/nothing", "/" + long, "/sitemap-xx.xml",
		"/runs/aaaaaaaaaa?lang=" + junk, "/?lang=" + junk, "/docs/nothing",
		// Return addresses a client gives: only the site's own are kept.
		"/login?next=%2F%2Fevil.example%2F", "/login?next=https%3A%2F%2Fevil.example%2F",
		"/login?next=%2F%5Cevil.example", "/login?next=%2Faccount%2Fruns", "/signup?next=%2F%2Fevil.example",
	}
}

// foreignHost is the Host a few addresses are also asked under: a page's
// links come from BASE_URL, never from what a client says it asked.
const foreignHost = "evil.example"

// foreignHostPages are those addresses (a run's appended).
var foreignHostPages = []string{"/", "/runs", "/sitemap.xml", "/robots.txt", "/api/v1/runs?limit=2",
	"/login?next=%2Faccount", "/upload", "/docs/api", "/nothing"}

// runAddresses are every address of one run: the report and its twins.
func runAddresses(id string) []string {
	r := "/runs/" + id
	return []string{r, r + ".json", r + ".csv", r + ".md", r + ".txt", r + ".bbcode", r + "/source",
		r + "/card.png", r + "/grid.svg", r + "/badge.svg", r + "/embed", "/compare/with/" + id,
		"/api/v1/runs/" + id, "/compare?runs=" + id}
}

// seeds are the first addresses: the site's pages in every language, the
// error addresses, and every address of the given runs (the uploaded
// samples), their reports in every language.
func seeds(runs []string) []string {
	var out []string
	for _, p := range sitePages {
		out = append(out, p)
	}
	for _, l := range languages {
		out = append(out, "/sitemap-"+l+".xml")
		for _, p := range []string{"/", "/runs", "/leaderboard", "/docs/formats", "/calculator", "/upload"} {
			out = append(out, withLang(p, l))
		}
	}
	out = append(out, errorPages()...)
	for i, id := range runs {
		out = append(out, runAddresses(id)...)
		// Every language of the report and its text twins, for a few runs.
		if i < 6 {
			for _, l := range languages[1:] {
				for _, p := range []string{"/runs/" + id, "/runs/" + id + ".md", "/runs/" + id + "/card.png"} {
					out = append(out, withLang(p, l))
				}
			}
		}
	}
	return out
}

func withLang(p, lang string) string {
	if strings.Contains(p, "?") {
		return p + "&lang=" + lang
	}
	return p + "?lang=" + lang
}
