package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"
)

// pair is one request's two answers.
type pair struct {
	N       int    `json:"n"`
	Name    string `json:"name"` // the address, or the upload step
	Pattern string `json:"pattern"`
	Old     answer `json:"old"`
	New     answer `json:"new"`
	// Diff says what differs: "status", "header NAME", "body", "extra",
	// "framing"; empty when the answers are the same.
	Diff []string `json:"diff,omitempty"`
}

// differences lists what differs between two answers.
func differences(a, b answer) []string {
	var d []string
	if a.Status != b.Status || a.Err != b.Err {
		d = append(d, "status")
	}
	for _, k := range slices.Sorted(maps.Keys(union(a.Header, b.Header))) {
		if a.Header[k] != b.Header[k] {
			d = append(d, "header "+k)
		}
	}
	if a.Hash != b.Hash {
		d = append(d, "body")
	}
	if a.Extra != b.Extra {
		d = append(d, "extra")
	}
	if a.Framing != b.Framing {
		d = append(d, "framing")
	}
	return d
}

// framingOnly is whether the answers differ only in how the body's end
// was told.
func framingOnly(diff []string) bool { return len(diff) == 1 && diff[0] == "framing" }

func union(a, b map[string]string) map[string]string {
	m := maps.Clone(a)
	if m == nil {
		m = map[string]string{}
	}
	maps.Copy(m, b)
	return m
}

// recorder keeps a comparison's records: every pair in NAME.jsonl, the
// bodies of differing ones in NAME-bodies/, and what the summary needs.
type recorder struct {
	name   string
	dir    string
	jsonl  *os.File
	groups map[string]*group
}

// group is the pairs of one pattern.
type group struct {
	total, differ int
	framing       int // differing in framing alone
	kinds         map[string]int
	first         *pair // the first that differs
}

func newRecorder(out, name string) (*recorder, error) {
	dir := filepath.Join(out, name+"-bodies")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	f, err := os.Create(filepath.Join(out, name+".jsonl"))
	if err != nil {
		return nil, err
	}
	return &recorder{name: name, dir: dir, jsonl: f, groups: map[string]*group{}}, nil
}

// add records p, comparing its answers.
func (r *recorder) add(p *pair) error {
	p.Diff = differences(p.Old, p.New)
	g := r.groups[p.Pattern]
	if g == nil {
		g = &group{kinds: map[string]int{}}
		r.groups[p.Pattern] = g
	}
	g.total++
	if framingOnly(p.Diff) {
		g.framing++
	} else if len(p.Diff) > 0 {
		g.differ++
		for _, k := range p.Diff {
			g.kinds[k]++
		}
		if g.first == nil {
			g.first = p
		}
		base := filepath.Join(r.dir, fmt.Sprintf("%05d", p.N))
		if err := os.WriteFile(base+".old", p.Old.body, 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(base+".new", p.New.body, 0o644); err != nil {
			return err
		}
	}
	line, err := json.Marshal(p)
	if err != nil {
		return err
	}
	_, err = r.jsonl.Write(append(line, '\n'))
	return err
}

// summary prints the counts by pattern, then each pattern's first
// difference, and closes the records.
func (r *recorder) summary(w io.Writer) error {
	total, differ, framed := 0, 0, 0
	for _, g := range r.groups {
		total += g.total
		differ += g.differ
		framed += g.framing
	}
	fmt.Fprintf(w, "\n== %s: %d answers, %d identical, %d differ; %d of the identical framed otherwise (records: %s)\n",
		r.name, total, total-differ, differ, framed, r.jsonl.Name())
	fmt.Fprintf(w, "%-52s %6s %6s %6s %7s  %s\n", "pattern", "total", "same", "differ", "framing", "what differs")
	patterns := slices.Sorted(maps.Keys(r.groups))
	for _, p := range patterns {
		g := r.groups[p]
		var kinds []string
		for _, k := range slices.Sorted(maps.Keys(g.kinds)) {
			kinds = append(kinds, fmt.Sprintf("%s×%d", k, g.kinds[k]))
		}
		fmt.Fprintf(w, "%-52s %6d %6d %6d %7d  %s\n", p, g.total, g.total-g.differ, g.differ, g.framing, strings.Join(kinds, " "))
	}
	for _, p := range patterns {
		if f := r.groups[p].first; f != nil {
			r.explain(w, f)
		}
	}
	return r.jsonl.Close()
}

// explain prints one differing pair: status, headers, and a unified diff
// excerpt of the bodies.
func (r *recorder) explain(w io.Writer, p *pair) {
	fmt.Fprintf(w, "\n-- %s: first difference #%d %s\n", p.Pattern, p.N, clip(p.Name))
	for _, d := range p.Diff {
		switch {
		case d == "status":
			fmt.Fprintf(w, "   status: %d %s → %d %s\n", p.Old.Status, p.Old.Err, p.New.Status, p.New.Err)
		case strings.HasPrefix(d, "header "):
			k := strings.TrimPrefix(d, "header ")
			fmt.Fprintf(w, "   %s: %q → %q\n", k, clip(p.Old.Header[k]), clip(p.New.Header[k]))
		case d == "extra":
			fmt.Fprintf(w, "   extra: %s\n       → %s\n", p.Old.Extra, p.New.Extra)
		case d == "framing":
			fmt.Fprintf(w, "   framing: %s → %s\n", p.Old.Framing, p.New.Framing)
		}
	}
	if slices.Contains(p.Diff, "body") {
		fmt.Fprintf(w, "   body: %d → %d bytes\n", p.Old.Len, p.New.Len)
		fmt.Fprint(w, bodyDiff(r.dir, p))
	}
}

func clip(s string) string {
	if len(s) > 160 {
		return s[:160] + "…"
	}
	return s
}

// diffLines is how much of a body's diff the summary shows.
const diffLines = 30

// bodyDiff is the unified diff of two bodies split into lines (HTML at
// each tag, JSON indented), cut to diffLines; "" for binary bodies.
func bodyDiff(dir string, p *pair) string {
	if !utf8.Valid(p.Old.body) || !utf8.Valid(p.New.body) {
		return "   (binary)\n"
	}
	a, b := filepath.Join(dir, "diff-a"), filepath.Join(dir, "diff-b")
	if os.WriteFile(a, lines(p.Old.body), 0o644) != nil || os.WriteFile(b, lines(p.New.body), 0o644) != nil {
		return ""
	}
	defer os.Remove(a)
	defer os.Remove(b)
	out, _ := exec.Command("diff", "-u", a, b).Output() // exit 1: they differ
	all := strings.Split(string(out), "\n")
	if len(all) > 2 {
		all = all[2:] // the file names
	}
	if len(all) > diffLines {
		all = append(all[:diffLines], fmt.Sprintf("… (%d lines more)", len(all)-diffLines))
	}
	var sb strings.Builder
	for _, l := range all {
		if len(l) > 160 {
			l = l[:160] + "…"
		}
		sb.WriteString("   " + l + "\n")
	}
	return sb.String()
}

// lines splits a body for a line diff.
func lines(b []byte) []byte {
	var buf bytes.Buffer
	if json.Valid(b) && json.Indent(&buf, b, "", " ") == nil {
		return append(buf.Bytes(), '\n')
	}
	return append(bytes.ReplaceAll(b, []byte("><"), []byte(">\n<")), '\n')
}
