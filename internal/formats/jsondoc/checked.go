package jsondoc

import (
	"bytes"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Checked is JSON text the codec has read whole and accepted: its syntax,
// its UTF-8, each object's names given once, its nesting. What is decoded
// from it is not checked for those again: the second check was a third of
// the decode of an llm-inference-bench file, whose cells have 85 names
// each. Only the codec makes one, reading a document (ReadTop) or a
// Checked field of a value it decodes (the bench document lil-bench
// embeds), so the text of every Checked has been checked.
type Checked struct {
	text []byte
}

// checked are the options for reading checked text.
var checked = json.JoinOptions(options, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))

// Decode reads the text into v as Decode does: a value of the wrong type
// is a problem that names its path.
func (c Checked) Decode(v any) error {
	if err := json.Unmarshal(c.text, v, checked); err != nil {
		return problemOf(c.text, err)
	}
	return nil
}

// Bytes returns the text; the caller must not change it.
func (c Checked) Bytes() []byte { return c.text }

// UnmarshalJSONFrom keeps the next value dec reads, checked as dec checks
// everything it reads.
func (c *Checked) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	v, err := dec.ReadValue()
	if err != nil {
		return err
	}
	c.text = bytes.Clone(v)
	return nil
}

// Top is a document that is one JSON object, read once: checked whole,
// and its members by name, each value undecoded, to tell the format by.
type Top struct {
	Checked
	members map[string]jsontext.Value
}

// ReadTop reads data as one JSON object (or null, which has no members);
// ok is false when it is not one, or not JSON the codec accepts, and the
// problem is left to the reader that takes data instead.
func ReadTop(data []byte) (top *Top, ok bool) {
	var members map[string]jsontext.Value
	if json.Unmarshal(data, &members) != nil {
		return nil, false
	}
	return &Top{Checked: Checked{text: data}, members: members}, true
}

// Member returns the value of the member name (the name exactly as
// written, once unescaped), nil when the object has none.
func (t *Top) Member(name string) jsontext.Value { return t.members[name] }

// Members returns every member, for a reader that detects a format by
// its keys.
func (t *Top) Members() map[string]jsontext.Value { return t.members }
