package ingest

import (
	"strings"
	"sync"

	"golang.org/x/text/unicode/norm"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// enum is a metadata field that takes one of a few values. Uploaders type
// what they see, so each value is accepted as its token and as the label
// the site shows for it (message id labelPrefix+token) in every language.
type enum struct {
	values      []string
	labelPrefix string
}

// enums holds every field of Kind "enum" in MetaFields.
var enums = map[string]enum{
	"hardware_type": {values: hardwareTypes(), labelPrefix: "hardware."},
}

func hardwareTypes() []string {
	out := make([]string, len(run.HardwareTypes))
	for i, t := range run.HardwareTypes {
		out[i] = string(t)
	}
	return out
}

// spellings maps every accepted spelling of every enum, folded, to its
// token; built once from the embedded locales.
var spellings = sync.OnceValue(func() map[string]map[string]string {
	b, _ := i18n.Default() // a broken locale file fails the i18n tests
	out := map[string]map[string]string{}
	for name, e := range enums {
		m := map[string]string{}
		for _, v := range e.values {
			m[fold(v)] = v
			for _, lang := range i18n.Languages {
				if label := b.Localizer(lang.Tag).T(e.labelPrefix+v, nil); label != e.labelPrefix+v {
					m[fold(label)] = v
				}
			}
		}
		out[name] = m
	}
	return out
})

// lookup returns the token field name's value v stands for.
func (e enum) lookup(name, v string) (string, bool) {
	token, ok := spellings()[name][fold(v)]
	return token, ok
}

// fold makes spellings comparable: full-width letters as ASCII (NFKC),
// any case, "_" and "-" as spaces, runs of spaces as one.
func fold(s string) string {
	s = strings.ToLower(norm.NFKC.String(s))
	s = strings.NewReplacer("_", " ", "-", " ").Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

// accepted lists the tokens of e for a refusal's message.
func (e enum) accepted() string { return strings.Join(e.values, ", ") }
