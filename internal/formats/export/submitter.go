package export

import (
	"bytes"

	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/formats/jsondoc"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Submitter is who uploaded a run, as the run document and the run list
// both give it: a verified account (proven by a token or a signed-in
// browser) with the slug of its page, or a name typed without either
// (claimed), which has no slug and no page. Every field is empty when the
// upload named nobody. Org is the organisation a verified member uploaded
// the run for, absent otherwise.
type Submitter struct {
	catalog.Identity
	Verified bool              `json:"verified"`
	Org      *catalog.Identity `json:"org,omitempty"`
}

// NewSubmitter is the submitter of a run uploaded as name (for org, when
// its slug is set); only a verified name gets a slug and an organisation,
// since a claimed one has no page to link to and belongs to nobody.
func NewSubmitter(name string, verified bool, org run.Org) Submitter {
	if !verified {
		return Submitter{Identity: catalog.Identity{Name: name}}
	}
	s := Submitter{Identity: catalog.Submitter(name), Verified: true}
	if org.Slug != "" {
		s.Org = &catalog.Identity{Slug: org.Slug, Name: org.Name}
	}
	return s
}

// UnmarshalJSON reads the object, and also the plain string documents
// written before the submitter became one (stored sources and exports in
// the wild are still that shape).
func (s *Submitter) UnmarshalJSON(data []byte) error {
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '"' {
		*s = Submitter{}
		return jsondoc.Unmarshal(t, &s.Name)
	}
	type plain Submitter // without this method
	var p plain
	if err := jsondoc.Unmarshal(data, &p); err != nil {
		return err
	}
	*s = Submitter(p)
	return nil
}
