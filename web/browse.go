package web

import "github.com/go-chi/chi/v5"

// browseStore is what the browse area needs of the database.
type browseStore interface{}

// browseRoutes mounts the browse area's pages: /runs, /leaderboard, /hardware/{slug}, /engines/{slug}, /models/{slug},
// /submitters/{handle} and the read API's lists (issue 3, issue 4 §3).
func (s *Server) browseRoutes(r chi.Router) {}

// browseAPI mounts the browse area's API endpoints under /api/v1.
func (s *Server) browseAPI(api chi.Router) {}
