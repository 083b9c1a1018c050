package site

import (
	"slices"

	"github.com/speedmatrix/speedmatrix/web/account"
)

// WithGitHubEndpoints points GitHub sign-in at a fake OAuth server: the
// authorize and token addresses and the API's base. Tests only.
func WithGitHubEndpoints(cfg *Config, authURL, tokenURL, apiURL string) {
	cfg.githubEndpoints = &account.GitHubEndpoints{AuthURL: authURL, TokenURL: tokenURL, APIURL: apiURL}
}

// CachedRoutePatterns are the route patterns the page cache keeps, sorted.
// Tests only.
func CachedRoutePatterns() []string {
	out := make([]string, 0, len(cachedRoutes))
	for p := range cachedRoutes {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}
