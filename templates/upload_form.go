package templates

import (
	"strconv"

	"github.com/a-h/templ"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// UploadForm is the upload page's state: what the user typed (kept on a
// refused upload) and the problems, already worded in their language.
type UploadForm struct {
	// Values maps a field name to what the user entered.
	Values map[string]string
	// Errors maps a field name ("file", "gpu_count", …) to its messages.
	Errors map[string][]string
	// General holds problems that belong to no one field (the file's
	// content, a JSON path inside it).
	General []string
	// Discarded says the page follows a discarded preview.
	Discarded bool
	// As is the handle of the signed-in account the upload will be
	// shown under, verified; "" when signed out.
	As string
	// Orgs are the organisations the signed-in account may upload for
	// ("Upload as: me / ORG").
	Orgs []OrgChoice
}

// OrgChoice is one organisation of the "Upload as" choice.
type OrgChoice struct {
	Slug, Name string
	Chosen     bool
}

// FieldKind says how a field is entered.
type FieldKind int

// Field kinds.
const (
	TextField FieldKind = iota
	NumberField
	SelectField
	TextareaField
)

// Field is one input of the upload form. Its label and help are the
// messages "upload.field.<Name>" and "upload.help.<Name>".
type Field struct {
	Name string
	Kind FieldKind
	// Options are the select's values; their labels are "<OptionsNS><value>".
	Options   []string
	OptionsNS string
	// Attrs are extra input attributes (inputmode, step, maxlength, …).
	Attrs templ.Attributes
}

// FieldGroup is one fieldset; Legend is a message id.
type FieldGroup struct {
	Legend string
	Fields []Field
}

func text(name string, max int) Field {
	return Field{Name: name, Attrs: templ.Attributes{"maxlength": strconv.Itoa(max)}}
}

// number fields are type=text with a numeric keyboard, so a refused value
// ("12 GB") comes back as typed instead of being blanked by the browser;
// the handler checks the number. mode is "numeric" or "decimal".
func number(name, mode string) Field {
	return Field{Name: name, Kind: NumberField, Attrs: templ.Attributes{"inputmode": mode, "maxlength": "16"}}
}

func hardwareTypes() []string {
	out := make([]string, len(run.HardwareTypes))
	for i, h := range run.HardwareTypes {
		out[i] = string(h)
	}
	return out
}

// UploadFields are the metadata fields of the upload form, grouped as the
// report page groups them. The names are the multipart field names the
// upload handler reads.
var UploadFields = []FieldGroup{
	{Legend: "upload.group.submitter", Fields: []Field{text("submitter", 64)}},
	{Legend: "upload.group.hardware", Fields: []Field{
		{Name: "hardware_type", Kind: SelectField, Options: hardwareTypes(), OptionsNS: "hardware."},
		text("gpu_name", 120), number("gpu_count", "numeric"), number("vram_gb", "decimal"),
		text("cpu_name", 120), number("cpu_cores", "numeric"), number("ram_gb", "decimal"),
		text("os", 120), text("driver", 120),
	}},
	{Legend: "upload.group.engine", Fields: []Field{
		text("engine_name", 64), text("engine_version", 64), text("quantization", 64),
		text("backend", 64), text("build", 200),
		{Name: "launch_command", Kind: TextareaField, Attrs: templ.Attributes{"maxlength": "8000", "spellcheck": "false"}},
	}},
	{Legend: "upload.group.model", Fields: []Field{
		text("model_id", 200), text("served_model", 200), text("revision", 120),
	}},
}

// fieldID is the HTML id of a field's input; its errors and help hang off it.
func fieldID(name string) string { return "f-" + name }

// describedBy lists the ids of a field's help and, when it has any, errors.
func describedBy(name string, form UploadForm) string {
	ids := fieldID(name) + "-help"
	if len(form.Errors[name]) > 0 {
		ids += " " + fieldID(name) + "-error"
	}
	return ids
}

// Refused reports whether the form comes back with problems.
func (f UploadForm) Refused() bool { return len(f.General) > 0 || len(f.Errors) > 0 }

// FieldError is one field's problem, as the summary above the form lists it.
type FieldError struct {
	Name, Message string
}

// FieldErrors lists every field's problems in the order of the form, the
// file first.
func (f UploadForm) FieldErrors() []FieldError {
	names := []string{"file"}
	for _, g := range UploadFields {
		for _, fl := range g.Fields {
			names = append(names, fl.Name)
		}
	}
	var out []FieldError
	for _, n := range names {
		for _, m := range f.Errors[n] {
			out = append(out, FieldError{Name: n, Message: m})
		}
	}
	return out
}

// fileNote is the id of the note that shows a field's value in the file,
// for aria-describedby ("" when the file says nothing).
func fileNote(name, fromFile string) string {
	if fromFile == "" {
		return ""
	}
	return " " + fieldID(name) + "-file"
}

// anyChosen says one of the organisations is the chosen "Upload as".
func anyChosen(orgs []OrgChoice) bool {
	for _, o := range orgs {
		if o.Chosen {
			return true
		}
	}
	return false
}
