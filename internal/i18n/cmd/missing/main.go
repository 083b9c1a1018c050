// Command missing prints, for each locale, the messages English has and the
// locale lacks, with their English text, as TOML lines to translate and
// append to that locale's file. With -append it appends them itself, as a
// block marked for translation; the locale tests then fail until each line
// is translated (a string equal to English is refused unless listed in
// locales/identical.toml).
//
//	go run ./internal/i18n/cmd/missing              # every locale's gap
//	go run ./internal/i18n/cmd/missing -lang ko     # one locale
//	go run ./internal/i18n/cmd/missing -append      # write the gaps into locales/
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
)

func main() {
	dir := flag.String("dir", "locales", "the directory of the locale files")
	lang := flag.String("lang", "", "only this locale (default: every one)")
	appendTo := flag.Bool("append", false, "append each gap to its locale's file instead of printing it")
	flag.Parse()
	gaps, err := i18n.Gaps(os.DirFS(*dir))
	if err != nil {
		fmt.Fprintln(os.Stderr, "missing:", err)
		os.Exit(1)
	}
	for _, g := range gaps {
		if (*lang != "" && g.Tag != *lang) || len(g.Missing) == 0 {
			continue
		}
		if err := emit(*dir, g, *appendTo); err != nil {
			fmt.Fprintln(os.Stderr, "missing:", err)
			os.Exit(1)
		}
	}
}

// emit prints g, or appends it to its locale file.
func emit(dir string, g i18n.Gap, appendTo bool) error {
	var w io.Writer = os.Stdout
	if appendTo {
		f, err := os.OpenFile(filepath.Join(dir, g.Tag+".toml"), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
		fmt.Printf("%s.toml: appended %d messages to translate\n", g.Tag, len(g.Missing))
	}
	if !appendTo {
		fmt.Fprintf(w, "# ---- %s.toml: %d missing ----\n", g.Tag, len(g.Missing))
	}
	fmt.Fprintf(w, "\n# TODO(%s): translate from English, then delete this line.\n", g.Tag)
	for _, m := range g.Missing {
		if _, err := fmt.Fprintln(w, m.TOML()); err != nil {
			return err
		}
	}
	return nil
}
