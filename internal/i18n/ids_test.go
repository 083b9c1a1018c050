package i18n

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// idLiteral matches a quoted message id in Go or templ source. Ids ending
// in "." are prefixes of composed ids, checked separately below;
// "hardware.*" ids are only ever composed, and the ingest uses
// "hardware.gpu_name" as a JSON path, so they are not scanned.
var idLiteral = regexp.MustCompile(`"((?:site|nav|common|unit|status|reason|provenance|decode_mode|prefill_mode|run|home|upload|error|problem|account|docs|calc|plan|date)\.[A-Za-z0-9_.-]*[A-Za-z0-9_-])"`)

// TestMessageIDsExist fails when code anywhere in the module names a
// message id English lacks, including branches no render test reaches
// (localizers return the id itself in production, so nothing else would).
func TestMessageIDsExist(t *testing.T) {
	en := readLocale(t, English)
	root := filepath.Join("..", "..")
	found := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			// web/webtest is test code that is not in _test.go files
			// (the areas' tests share it): its strings are file names and
			// form values, not message ids.
			if path != root && strings.HasPrefix(name, ".") || name == "node_modules" || name == "testdata" || name == "webtest" {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, "_test.go") || strings.HasSuffix(name, "_templ.go") ||
			!(strings.HasSuffix(name, ".go") || strings.HasSuffix(name, ".templ")) {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range idLiteral.FindAllStringSubmatch(string(src), -1) {
			found++
			if _, ok := en[m[1]]; !ok {
				t.Errorf("%s: message id %q is not in en.toml", path, m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found < 50 {
		t.Errorf("found only %d message ids; is the scan looking in the right place?", found)
	}
	composed := []string{}
	for _, s := range run.Statuses {
		composed = append(composed, "status."+string(s), "status.meaning."+string(s))
	}
	for _, h := range run.HardwareTypes {
		composed = append(composed, "hardware."+string(h))
	}
	for _, p := range []run.Provenance{run.Measured, run.Imported} {
		composed = append(composed, "provenance."+string(p))
	}
	for _, c := range []run.ReasonCode{run.ReasonNoOutput, run.ReasonLoop, run.ReasonLegacyZero, run.ReasonAbsent, run.ReasonNoRate, run.ReasonKVBudget} {
		composed = append(composed, "reason."+string(c))
	}
	composed = append(composed, "decode_mode."+run.DecodeDuration, "decode_mode."+run.DecodeRequestCount,
		"prefill_mode."+run.PrefillIntegrated, "prefill_mode."+run.PrefillStandalone, "prefill_mode."+run.PrefillSkipped)
	for _, id := range composed {
		if _, ok := en[id]; !ok {
			t.Errorf("composed message id %q is not in en.toml", id)
		}
	}
}
