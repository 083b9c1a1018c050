package i18n

import "time"

// agoDays is how far back a list says "3 days ago" rather than a date: past
// a month, a reader compares runs by their dates.
const agoDays = 30

// Date writes t's calendar day in the language's numeric notation
// ("Mar 14, 2025", "14.03.2025", "2025年3月14日"): the message date.layout
// is a Go time layout, so each locale orders and punctuates it itself.
func (l *Localizer) Date(t time.Time) string {
	layout := l.T("date.layout", nil)
	if layout == "date.layout" { // no messages at all
		layout = time.DateOnly
	}
	return t.UTC().Format(layout)
}

// Ago words t for a list of uploads seen at now: "today", "yesterday",
// "3 days ago" (with the language's plural forms) within a month, the date
// after. Days are UTC calendar days, so one page says the same of every
// run uploaded on one day; a t after now (clock skew) is "today".
func (l *Localizer) Ago(t, now time.Time) string {
	days := calendarDays(t.UTC(), now.UTC())
	switch {
	case days <= 0:
		return l.T("date.today", nil)
	case days == 1:
		return l.T("date.yesterday", nil)
	case days <= agoDays:
		return l.N("date.days_ago", days, nil)
	}
	return l.Date(t)
}

// calendarDays counts midnights from a to b.
func calendarDays(a, b time.Time) int {
	da := time.Date(a.Year(), a.Month(), a.Day(), 0, 0, 0, 0, time.UTC)
	db := time.Date(b.Year(), b.Month(), b.Day(), 0, 0, 0, 0, time.UTC)
	return int(db.Sub(da).Hours() / 24)
}
