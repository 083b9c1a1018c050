package site

import "github.com/speedmatrix/speedmatrix/web/account"

// WithGitHubEndpoints points GitHub sign-in at a fake OAuth server: the
// authorize and token addresses and the API's base. Tests only: it is
// exported (not in an _test.go file) because the sign-in tests live in
// the account and browser packages, which cannot see site's test files.
func WithGitHubEndpoints(cfg *Config, authURL, tokenURL, apiURL string) {
	cfg.githubEndpoints = &account.GitHubEndpoints{AuthURL: authURL, TokenURL: tokenURL, APIURL: apiURL}
}
