package web

import "github.com/go-chi/chi/v5"

// accountStore is what the account area needs of the database.
type accountStore interface{}

// accountRoutes mounts the account area's pages: submitters, tokens, lil-bench uploads, run deletion (issue 4).
func (s *Server) accountRoutes(r chi.Router) {}

// accountAPI mounts the account area's API endpoints under /api/v1.
func (s *Server) accountAPI(api chi.Router) {}
