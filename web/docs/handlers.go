// Package docs serves the pages that explain: getting started, what the
// benchmark measures, the file formats, and the decode calculator with its
// documentation. They read nothing from the database. It must not import
// web/site or another area.
package docs

import "github.com/speedmatrix/speedmatrix/web/kit"

// Handlers serve the docs area's addresses.
type Handlers struct{ *kit.Server }

// New returns the docs area's handlers.
func New(k *kit.Server) *Handlers { return &Handlers{Server: k} }
