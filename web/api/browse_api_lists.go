package api

import (
	"net/http"
	"net/url"

	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// apiIdentity is one item of the read API's lists: an identity, its runs,
// its page and its runs in the API.
type apiIdentity struct {
	catalog.Identity
	Runs    int64             `json:"runs"`
	URL     string            `json:"url"`
	RunsURL string            `json:"runs_url"`
	Base    *catalog.Identity `json:"base,omitempty"`
}

// IdentityList is one of the lists of GET /api/v1/hardware, /engines and
// /models: the field the answer names its list by, the kind, the /runs
// filter parameter and the page of an identity.
type IdentityList struct {
	field, kind, param string
	page               func(string) string
}

var (
	HardwareList = IdentityList{"hardware", store.KindHardware, "hardware", paths.Hardware}
	EngineList   = IdentityList{"engines", store.KindEngine, "engine", paths.Engine}
	ModelList    = IdentityList{"models", store.KindModel, "model", paths.Model}
)

// Identities serves one of the lists: every identity of its kind with
// runs, most runs first (model variants carry their base model).
func (s *Handlers) Identities(list IdentityList) kit.HandlerFunc {
	field, kind, param, page := list.field, list.kind, list.param, list.page
	return func(w http.ResponseWriter, r *http.Request) error {
		list, err := s.store.CountIdentities(r.Context(), kind)
		if err != nil {
			return err
		}
		origin := s.Origin(r)
		out := make([]apiIdentity, 0, len(list))
		for _, c := range list {
			it := apiIdentity{Identity: c.Identity, Runs: c.Runs, URL: origin + page(c.Slug),
				RunsURL: origin + "/api/v1/runs?" + url.Values{param: {c.Slug}}.Encode()}
			if kind == store.KindModel && c.Base.Slug != "" {
				base := c.Base
				it.Base = &base
			}
			out = append(out, it)
		}
		w.Header().Set("Cache-Control", "no-cache")
		return kit.WriteJSON(w, http.StatusOK, map[string][]apiIdentity{field: out})
	}
}
