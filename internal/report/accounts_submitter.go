package report

import "github.com/speedmatrix/speedmatrix/internal/i18n"

// Submitter is how every page, list, leaderboard row, export and image
// names who uploaded a run: a verified account by its handle, a name typed
// without a token or session as claimed, with a mark and words of its own
// ("“alice” (claimed, not verified)"), so a reader can never take one for
// the other. "" when no name was given.
func Submitter(l *i18n.Localizer, name string, verified bool) string {
	switch {
	case name == "":
		return ""
	case verified:
		return name
	default:
		return l.T("account.submitter.claimed", map[string]any{"Name": name})
	}
}

// SubmitterBy is Submitter in a sentence: "by @alice" for an account,
// "by “alice” (claimed, not verified)" for a typed name.
func SubmitterBy(l *i18n.Localizer, name string, verified bool) string {
	switch {
	case name == "":
		return ""
	case verified:
		return l.T("run.by", map[string]any{"Handle": name})
	default:
		return l.T("account.submitter.by_claimed", map[string]any{"Label": Submitter(l, name, false)})
	}
}

// SubmitterByFor is SubmitterBy naming the organisation a verified
// submitter uploaded the run for: "by @alice for ACME". A claimed name is
// never an organisation's.
func SubmitterByFor(l *i18n.Localizer, name string, verified bool, org string) string {
	if name == "" || !verified || org == "" {
		return SubmitterBy(l, name, verified)
	}
	return l.T("run.by_for", map[string]any{"Handle": name, "Org": org})
}

// SubmitterLine is SubmitterByFor for an export, where no mark beside the
// name can say more: "by @alice · verified submitter" (or "by @alice for
// ACME · verified submitter") for an account, "by “alice” (claimed, not
// verified)" for a typed name, "" without one. Markdown, BBCode, text,
// the card and the SVGs all state it.
func SubmitterLine(l *i18n.Localizer, name string, verified bool, org string) string {
	by := SubmitterByFor(l, name, verified, org)
	if by == "" || !verified {
		return by
	}
	return by + l.T("common.dot_sep", nil) + l.T("account.run.verified", nil)
}
