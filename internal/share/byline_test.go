package share

import (
	"os"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/report/reporttest"
)

// TestCardBylineKeepsTheMark: a claimed name too long for the card is
// shortened in the name, so "(claimed, not verified)" is always drawn; a
// verified one keeps its "verified submitter". SHARE_CARD_OUT=FILE.png
// writes the card with the long claimed name, to look at.
func TestCardBylineKeepsTheMark(t *testing.T) {
	l := localizer(t, "en")
	r := reporttest.Run()
	r.Submitter = strings.Repeat("mallory-the-very-long-name-", 6)
	line := fittedByline(r, l, cardBySize, cardByWidth)
	if !strings.HasSuffix(line, "(claimed, not verified)") || !strings.Contains(line, "…") ||
		textWidth(line, cardBySize, false) > cardByWidth {
		t.Errorf("claimed byline %q (%.0f px of %d)", line, textWidth(line, cardBySize, false), cardByWidth)
	}
	if out := os.Getenv("SHARE_CARD_OUT"); out != "" {
		png, err := Card(r, l)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(out, png, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	r.Submitter, r.SubmitterVerified = "Sandberg", true
	if line := fittedByline(r, l, cardBySize, cardByWidth); line != "by @Sandberg · verified submitter" {
		t.Errorf("verified byline %q", line)
	}
	r.Submitter = ""
	if line := fittedByline(r, l, cardBySize, cardByWidth); line != "" {
		t.Errorf("byline without a name %q", line)
	}
}
