// Package flags reads an inference server's launch command into flag →
// value, per engine, so that two commands can be compared flag by flag:
// "--max-num-seqs 128", "--max-num-seqs=128" and "--max_num_seqs 128" are
// one flag with one value, llama.cpp's "-c 8192" is "--ctx-size 8192", and
// a flag given without a value ("--enforce-eager") is "true".
//
// It reads the words the way a shell splits them (quotes, backslash line
// continuations, # comments), finds where the engine's own arguments
// begin (after "vllm serve", "sglang.launch_server", "llama-server", or a
// container image named after the engine) and leaves what comes before
// (environment variables, docker's own flags) out.
package flags

import (
	"slices"
	"strings"
)

// Engines the parser knows by name; any other name is read by the generic
// rules (long flags only, no aliases).
const (
	VLLM     = "vllm"
	SGLang   = "sglang"
	LlamaCpp = "llama.cpp"
)

// True is the value of a flag given without one.
const True = "true"

// Command is a launch command read into flags.
type Command struct {
	// Engine is the engine whose rules read the command: VLLM, SGLang,
	// LlamaCpp or "" (generic).
	Engine string
	// Values maps a flag's canonical name (lower case, dashes, without the
	// leading dashes: "max-num-seqs") to its value; a flag given several
	// times has its values joined by ", " in order.
	Values map[string]string
	// Names are the flags in the order the command first gives them.
	Names []string
	// Args are the words that are neither a flag nor a flag's value (the
	// model of "vllm serve MODEL").
	Args []string
}

// Value is the value of flag name (canonical or as the command could
// spell it, "-c" for llama.cpp), and whether the command gives it.
func (c Command) Value(name string) (string, bool) {
	v, ok := c.Values[c.rules().canonical(name)]
	return v, ok
}

func (c Command) rules() *rules { return rulesOf(c.Engine) }

// Parse reads command under engine's rules. engine is matched loosely
// ("vLLM", "llama-cpp", "llamacpp" all name theirs). It never fails: a
// word it cannot place is kept in Args.
func Parse(engine, command string) Command {
	e := EngineOf(engine)
	r := rulesOf(e)
	c := Command{Engine: e, Values: map[string]string{}}
	words := Split(command)
	words = words[start(words):]
	for i := 0; i < len(words); i++ {
		w := words[i]
		if !isFlag(w) {
			c.Args = append(c.Args, w)
			continue
		}
		name, value, hasValue := strings.Cut(w, "=")
		if !hasValue {
			if n, v, ok := r.glued(name); ok {
				name, value, hasValue = n, v, true
			}
		}
		name = r.canonical(name)
		if name == "" {
			c.Args = append(c.Args, w)
			continue
		}
		if neg, ok := r.negated(name); ok && !hasValue {
			name, value, hasValue = neg, "false", true
		}
		if !hasValue {
			switch {
			case r.boolean(name):
				value = True
			case i+1 < len(words) && !isFlag(words[i+1]):
				i++
				value = words[i]
			default:
				value = True
			}
		}
		c.add(name, unquote(value))
	}
	return c
}

// add records one occurrence of flag name.
func (c *Command) add(name, value string) {
	if old, ok := c.Values[name]; ok {
		c.Values[name] = old + ", " + value
		return
	}
	c.Values[name] = value
	c.Names = append(c.Names, name)
}

// isFlag reports whether w is a flag rather than a value: it starts with
// a dash and is not a number ("-1" is a value of "--seed").
func isFlag(w string) bool {
	if len(w) < 2 || w[0] != '-' || w == "--" {
		return false
	}
	rest := strings.TrimLeft(w, "-")
	return rest != "" && !isNumber(rest)
}

func isNumber(s string) bool {
	digits := false
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits = true
		case r == '.' || r == 'e' || r == 'E' || r == '+' || r == '-':
		default:
			return false
		}
	}
	return digits
}

// unquote removes one pair of quotes around the whole of v, as a shell
// would have ("--x='a b'" reaches the server as "a b").
func unquote(v string) string {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1]
	}
	return v
}

// entryWords mark where an engine's own arguments begin: the word that
// holds one of them names the program or its image ("vllm", a container
// image "vllm/vllm-openai:v0.8.5", "python -m sglang.launch_server",
// "./llama-server").
var entryWords = []string{"vllm", "sglang", "llama-server", "llama_cpp", "llama.cpp"}

// start is the index of the first word that belongs to the engine: after
// the first entry word (and vLLM's "serve"), or 0 when none is found.
func start(words []string) int {
	for i, w := range words {
		if isFlag(w) || strings.Contains(w, "=") {
			continue
		}
		lw := strings.ToLower(w)
		if !slices.ContainsFunc(entryWords, func(e string) bool { return strings.Contains(lw, e) }) {
			continue
		}
		if i+1 < len(words) && words[i+1] == "serve" {
			i++
		}
		return i + 1
	}
	return 0
}
