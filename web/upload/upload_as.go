package upload

import (
	"net/http"

	"github.com/speedmatrix/speedmatrix/templates"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// uploadAsField is the upload form's "Upload as" choice: "" for the
// signed-in account itself, else the slug of one of its organisations.
const uploadAsField = "as"

// uploadFor is who with the organisation the form chose: only a signed-in
// member may upload for an organisation (403 otherwise, so a forged form
// cannot borrow one). A token's upload keeps its own organisation, and a
// choice beside a token is refused, never silently dropped.
func (s *Handlers) uploadFor(r *http.Request, who kit.UploaderID, as string) (kit.UploaderID, error) {
	if as == "" {
		return who, nil
	}
	if who.AccountID == 0 {
		return who, kit.ErrNotMember
	}
	m, err := s.store.MemberOrg(r.Context(), who.AccountID, as)
	if err != nil {
		return who, err
	}
	who.Org = m.Slug
	return who, nil
}

// fillUploadAs tells the form who the upload will be shown under and, for
// a signed-in account, offers its organisations, chosen stays chosen.
func (s *Handlers) fillUploadAs(r *http.Request, form *templates.UploadForm, who kit.UploaderID, chosen string) error {
	form.As = who.Handle
	if who.AccountID == 0 {
		return nil
	}
	member, _, err := s.store.AccountOrgs(r.Context(), who.AccountID)
	if err != nil {
		return err
	}
	for _, m := range member {
		form.Orgs = append(form.Orgs, templates.OrgChoice{Slug: m.Slug, Name: m.Name, Chosen: m.Slug == chosen})
	}
	return nil
}
