package web

import "github.com/go-chi/chi/v5"

// shareStore is what the share area needs of the database.
type shareStore interface{}

// shareRoutes mounts the share area's pages: link previews, exports (.csv, .md, …), embeds and cards (issue 4).
func (s *Server) shareRoutes(r chi.Router) {}
