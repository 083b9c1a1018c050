// Package paths builds the site's addresses of a run and of the identity
// pages runs link to. Forum links must work for years, so every page,
// export, API answer and CLI line takes an address from here rather than
// gluing "/runs/" to an id itself.
package paths

import "net/url"

// Run is the path of a run's report page, /runs/{id}.
func Run(id string) string { return "/runs/" + url.PathEscape(id) }

// RunFile is the path of one of a run's twins: a suffix such as ".json" or
// ".csv", or a sub-path such as "/source" or "/card.png".
func RunFile(id, suffix string) string { return Run(id) + suffix }

// RunURL is the absolute address of a run's report page under origin
// (scheme and host, no trailing slash).
func RunURL(origin, id string) string { return origin + Run(id) }

// Draft is the address of an upload's preview before it is published.
func Draft(id string) string { return "/upload/drafts/" + url.PathEscape(id) }
