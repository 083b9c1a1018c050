package ingest

import "github.com/speedmatrix/speedmatrix/internal/run"

// EditableFields are the metadata fields an uploader may change after the
// upload: facts that no browse group, slug, title or status depends on, so
// an edit never moves a run between lists or changes a number. The stored
// file never changes; the run says when it was edited.
var EditableFields = []string{"os", "driver", "backend", "build", "launch_command", "served_model", "revision"}

// ParseEdit reads the editable fields through get with the same rules as
// an upload's (lengths, text), refusing with problems named by field.
func ParseEdit(get func(name string) string) (run.MetaEdit, error) {
	editable := map[string]bool{}
	for _, f := range EditableFields {
		editable[f] = true
	}
	m, err := ParseMeta(func(name string) string {
		if editable[name] {
			return get(name)
		}
		return ""
	})
	if err != nil {
		return run.MetaEdit{}, err
	}
	return run.MetaEdit{OS: m.Hardware.OS, Driver: m.Hardware.Driver, Backend: m.Engine.Backend, Build: m.Engine.Build,
		LaunchCommand: m.Engine.LaunchCommand, ServedModel: m.Model.ServedName, Revision: m.Model.Revision}, nil
}
