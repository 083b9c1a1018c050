package export

import (
	"bytes"
	"encoding/json"

	"github.com/speedmatrix/speedmatrix/internal/catalog"
)

// Submitter is who uploaded a run, as the run document and the run list
// both give it: a verified account (proven by a token or a signed-in
// browser) with the slug of its page, or a name typed without either
// (claimed), which has no slug and no page. Every field is empty when the
// upload named nobody.
type Submitter struct {
	catalog.Identity
	Verified bool `json:"verified"`
}

// NewSubmitter is the submitter of a run uploaded as name; only a verified
// name gets a slug, since a claimed one has no page to link to.
func NewSubmitter(name string, verified bool) Submitter {
	if verified {
		return Submitter{Identity: catalog.Submitter(name), Verified: true}
	}
	return Submitter{Identity: catalog.Identity{Name: name}}
}

// UnmarshalJSON reads the object, and also the plain string documents
// written before the submitter became one (stored sources and exports in
// the wild are still that shape).
func (s *Submitter) UnmarshalJSON(data []byte) error {
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '"' {
		*s = Submitter{}
		return json.Unmarshal(t, &s.Name)
	}
	type plain Submitter // without this method
	var p plain
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	*s = Submitter(p)
	return nil
}
