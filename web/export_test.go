package web

// WithGitHubEndpoints points GitHub sign-in at a fake OAuth server: the
// authorize and token addresses and the API's base. Tests only.
func WithGitHubEndpoints(cfg *Config, authURL, tokenURL, apiURL string) {
	cfg.githubEndpoints = &githubEndpoints{AuthURL: authURL, TokenURL: tokenURL, APIURL: apiURL}
}
