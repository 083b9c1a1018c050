package web

import "github.com/go-chi/chi/v5"

// compareStore is what the compare area needs of the database.
type compareStore interface{}

// compareRoutes mounts the compare area's pages: /compare?runs=a,b and the charts (issue 3).
func (s *Server) compareRoutes(r chi.Router) {}
