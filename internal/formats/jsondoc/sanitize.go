package jsondoc

import "bytes"

// nonFinite are the tokens Python writes for float nan and ±inf.
var nonFinite = [][]byte{[]byte("NaN"), []byte("Infinity"), []byte("-Infinity")}

// Sanitize returns data with every bare NaN, Infinity and -Infinity outside
// strings turned into a JSON string of the same text, so the codec reads
// the document and Object.Float can give the value back. Data without such
// tokens is returned as is.
func Sanitize(data []byte) []byte {
	return replaceNonFinite(data, func(tok []byte) []byte { return append(append([]byte{'"'}, tok...), '"') })
}

// SanitizeToNull is Sanitize for decoders into typed fields: every bare NaN,
// Infinity and -Infinity becomes null, so a non-finite number reads as "not
// given". The structure, and so every JSON path, is unchanged.
func SanitizeToNull(data []byte) []byte {
	return replaceNonFinite(data, func([]byte) []byte { return []byte("null") })
}

// replaceNonFinite rewrites the non-finite tokens outside strings with what
// with returns for each.
func replaceNonFinite(data []byte, with func(tok []byte) []byte) []byte {
	if !bytes.Contains(data, []byte("NaN")) && !bytes.Contains(data, []byte("Infinity")) {
		return data
	}
	out := make([]byte, 0, len(data)+16)
	inString, escaped := false, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			out = append(out, c)
			continue
		}
		if c == '"' {
			inString = true
			out = append(out, c)
			continue
		}
		if tok := nonFiniteAt(data[i:]); tok != nil {
			out = append(out, with(tok)...)
			i += len(tok) - 1
			continue
		}
		out = append(out, c)
	}
	return out
}

func nonFiniteAt(rest []byte) []byte {
	for _, tok := range nonFinite {
		if bytes.HasPrefix(rest, tok) {
			return tok
		}
	}
	return nil
}
