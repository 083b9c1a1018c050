package flags

import "strings"

// Split cuts a command into words as a POSIX shell would, without
// expanding anything: blanks separate words, a backslash escapes the next
// character (a backslash before a line break joins the lines), single
// quotes keep everything up to the next one, double quotes keep
// everything but an escaped quote or backslash, and "#" at the start of
// a word comments out the rest of its line. Quotes inside a word are
// kept ('{"method":"mtp"}' stays JSON); a word wholly in one pair of
// quotes loses them. An unclosed quote runs to the end.
func Split(command string) []string {
	var words []string
	var b strings.Builder
	inWord, quoted := false, false
	flush := func() {
		if inWord {
			w := b.String()
			if quoted {
				w = unquote(w)
			}
			words = append(words, w)
		}
		b.Reset()
		inWord, quoted = false, false
	}
	for i := 0; i < len(command); i++ {
		ch := command[i]
		switch {
		case ch == '\\':
			if i+1 < len(command) {
				i++
				if command[i] == '\n' {
					continue
				}
				if command[i] == '\r' && i+1 < len(command) && command[i+1] == '\n' {
					i++
					continue
				}
				b.WriteByte(command[i])
			} else {
				b.WriteByte(ch)
			}
			inWord = true
		case ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == ';' || ch == '|' || ch == '&':
			flush()
		case ch == '#' && !inWord:
			for i < len(command) && command[i] != '\n' {
				i++
			}
		case ch == '\'' || ch == '"':
			end := closing(command, i)
			var part string
			if end == len(command) { // unclosed: to the end, closed
				part = command[i:] + string(ch)
			} else {
				part = command[i : end+1]
			}
			// A word that is one quoted string loses its quotes; one
			// that only contains them keeps them, as JSON needs.
			quoted = !inWord && (end+1 >= len(command) || isBlank(command[end+1]))
			b.WriteString(strings.ReplaceAll(part, `\`+string(ch), string(ch)))
			inWord = true
			i = end
		default:
			b.WriteByte(ch)
			inWord = true
		}
	}
	flush()
	return words
}

// closing is the index of the quote closing the one at i (skipping an
// escaped one inside double quotes), or len(s) when none does.
func closing(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		if q == '"' && s[j] == '\\' {
			j++
			continue
		}
		if s[j] == q {
			return j
		}
	}
	return len(s)
}

func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ';' || c == '|' || c == '&'
}
