package paths

import (
	"fmt"
	"net/url"
)

// The pages of the identities runs are filed under, by their catalog slug.
// A slug is escaped like a run's id: it names one path segment.

// Hardware is the path of a hardware page, /hardware/{slug}.
func Hardware(slug string) string { return "/hardware/" + url.PathEscape(slug) }

// Engine is the path of an engine page, /engines/{slug}.
func Engine(slug string) string { return "/engines/" + url.PathEscape(slug) }

// Model is the path of a model page (a base model or a variant), /models/{slug}.
func Model(slug string) string { return "/models/" + url.PathEscape(slug) }

// Submitter is the path of a submitter page, /submitters/{handle}.
func Submitter(slug string) string { return "/submitters/" + url.PathEscape(slug) }

// Org is the path of an organisation's page, /orgs/{slug}.
func Org(slug string) string { return "/orgs/" + url.PathEscape(slug) }

// RunCell is a run's report with one decode cell highlighted: ?cell= names
// it for the grid, and the fragment scrolls to it (the grid styles :target).
func RunCell(id string, context, concurrency int) string {
	cell := fmt.Sprintf("%d-%d", context, concurrency)
	return Run(id) + "?cell=" + cell + "#cell-" + cell
}
