package templates

import (
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/paths"
)

// DraftForm is the preview's form: the fields the file left empty, open;
// the ones it filled behind a "change" disclosure, each showing the
// file's value; the problems found, in plain words, above it all.
type DraftForm struct {
	ID string
	// Files are the uploaded files' names.
	Files []string
	// Open are the fields the file did not fill, Filled the ones it did,
	// grouped like the upload form's fields.
	Open, Filled []FieldGroup
	// FromFile maps a field to what the file says for it.
	FromFile map[string]string
	// Form holds what the uploader typed and the refusal's messages.
	Form UploadForm
	// Notices are what looks wrong but does not stop publication (an
	// unknown GPU, failed cells), worded for the reader.
	Notices []string
	// SignInAs is the handle that must sign in to publish the draft, and
	// SignIn the sign-in page that returns to it; "" when publishing
	// needs no sign-in or it was not tried.
	SignInAs, SignIn string
}

// NewDraftForm splits the upload form's fields by what the file says.
// Values the uploader has not typed are the file's, so an untouched
// "change" field sends the file's value back unchanged.
func NewDraftForm(id string, files []string, fromFile map[string]string, form UploadForm, notices []string) DraftForm {
	d := DraftForm{ID: id, Files: files, FromFile: fromFile, Form: form, Notices: notices}
	if d.Form.Values == nil {
		d.Form.Values = map[string]string{}
	}
	for _, g := range UploadFields {
		open, filled := FieldGroup{Legend: g.Legend}, FieldGroup{Legend: g.Legend}
		for _, f := range g.Fields {
			if v := fromFile[f.Name]; v != "" {
				if _, typed := d.Form.Values[f.Name]; !typed {
					d.Form.Values[f.Name] = v
				}
				filled.Fields = append(filled.Fields, f)
			} else {
				open.Fields = append(open.Fields, f)
			}
		}
		if len(open.Fields) > 0 {
			d.Open = append(d.Open, open)
		}
		if len(filled.Fields) > 0 {
			d.Filled = append(d.Filled, filled)
		}
	}
	return d
}

// Action is the address the preview's forms post to.
func (d DraftForm) Action() string { return paths.Draft(d.ID) }

// FilledRefused reports whether a field behind the disclosure has a
// problem: the disclosure then opens, so the summary's link reaches it.
func (d DraftForm) FilledRefused() bool {
	for _, g := range d.Filled {
		for _, f := range g.Fields {
			if len(d.Form.Errors[f.Name]) > 0 {
				return true
			}
		}
	}
	return false
}

// joinNames lists the uploaded files' names, comma-separated.
func joinNames(names []string) string { return strings.Join(names, ", ") }
