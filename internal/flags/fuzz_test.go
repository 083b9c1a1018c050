package flags

import (
	"strings"
	"testing"
)

// FuzzParse: any command under any engine's rules parses without panic;
// every flag is recorded once under a non-empty canonical name with no
// leading dash, and has a value; parsing is deterministic.
func FuzzParse(f *testing.F) {
	f.Add("vllm", seedCommand)
	f.Add("llama.cpp", "llama-server -m x.gguf -c 8192 -ngl 99 --seed -1 -fa on")
	f.Add("sglang", "python -m sglang.launch_server --model-path m --tp 2 'x")
	f.Add("", `a "b \" c" \`+"\n"+` --d=e # f`)
	f.Fuzz(func(t *testing.T, engine, cmd string) {
		c := Parse(engine, cmd)
		if len(c.Names) != len(c.Values) {
			t.Fatalf("%d names, %d values", len(c.Names), len(c.Values))
		}
		for _, n := range c.Names {
			if n == "" || strings.HasPrefix(n, "-") {
				t.Fatalf("bad canonical name %q", n)
			}
			if _, ok := c.Values[n]; !ok {
				t.Fatalf("name %q without value", n)
			}
		}
		again := Parse(engine, cmd)
		if len(again.Values) != len(c.Values) {
			t.Fatal("not deterministic")
		}
		for n, v := range c.Values {
			if again.Values[n] != v {
				t.Fatalf("not deterministic at %q", n)
			}
		}
	})
}
