package web

import (
	"net/http"

	"github.com/speedmatrix/speedmatrix/templates"
)

// uploadAsField is the upload form's "Upload as" choice: "" for the
// signed-in account itself, else the slug of one of its organisations.
const uploadAsField = "as"

// uploadFor is who with the organisation the form chose: only a signed-in
// member may upload for an organisation (403 otherwise, so a forged form
// cannot borrow one). A token's upload keeps its own organisation, and a
// choice beside a token is refused, never silently dropped.
func (s *Server) uploadFor(r *http.Request, who uploaderID, as string) (uploaderID, error) {
	if as == "" {
		return who, nil
	}
	if who.accountID == 0 {
		return who, errNotMember
	}
	m, err := s.store.MemberOrg(r.Context(), who.accountID, as)
	if err != nil {
		return who, err
	}
	who.org = m.Slug
	return who, nil
}

// fillUploadAs tells the form who the upload will be shown under and, for
// a signed-in account, offers its organisations, chosen stays chosen.
func (s *Server) fillUploadAs(r *http.Request, form *templates.UploadForm, who uploaderID, chosen string) error {
	form.As = who.handle
	if who.accountID == 0 {
		return nil
	}
	member, _, err := s.store.AccountOrgs(r.Context(), who.accountID)
	if err != nil {
		return err
	}
	for _, m := range member {
		form.Orgs = append(form.Orgs, templates.OrgChoice{Slug: m.Slug, Name: m.Name, Chosen: m.Slug == chosen})
	}
	return nil
}
