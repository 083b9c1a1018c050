package report

import (
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Badge is a short mark beside a run's name with a longer explanation.
type Badge struct {
	// Kind is "quick" or "integrity-stock", "integrity-modified",
	// "integrity-unverified", for styling and tests.
	Kind, Label, Title string
}

// integrityKinds are the integrity statuses lil-bench writes.
var integrityKinds = map[string]bool{"stock": true, "modified": true, "unverified": true}

// accountMarks words what the page says about who uploaded a run and how it
// was measured: the verified-submitter mark, the quick-profile badge and
// the integrity badge.
func accountMarks(r *run.Run, l *i18n.Localizer) (verified string, badges []Badge) {
	if r.SubmitterVerified && r.Submitter != "" {
		verified = l.T("account.run.verified", nil)
	}
	if r.Profile == "quick" {
		badges = append(badges, Badge{Kind: "quick", Label: l.T("account.run.quick", nil),
			Title: l.T("account.run.quick_title", nil)})
	}
	if integrityKinds[r.Integrity] {
		badges = append(badges, Badge{Kind: "integrity-" + r.Integrity,
			Label: l.T("account.run.integrity."+r.Integrity, nil),
			Title: l.T("account.run.integrity."+r.Integrity+"_title", nil)})
	}
	return verified, badges
}
