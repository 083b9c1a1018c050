package browse

import (
	"net/url"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// RunsList is one page of /runs as the store answered it.
type RunsList struct {
	// URL is the page's address: the pager's links keep its filters.
	URL    *url.URL
	Filter store.RunFilter
	Sort   store.RunSort
	Items  []store.RunItem
	// Next is the cursor of the next page, "" on the last; Paged says the
	// reader paged on past the first.
	Next  string
	Paged bool
}

// runSorts are the orders /runs offers, in the order the form lists them.
var runSorts = []store.RunSort{store.SortNewest, store.SortSingle, store.SortPeak}

// NewRunsPage is /runs: the filter form with its sort, the runs, the pager.
func NewRunsPage(l *i18n.Localizer, list RunsList, choices Choices) RunsPage {
	form := Filters(l, "/runs", list.Filter, choices)
	sortSel := Select{Name: "sort", Label: l.T("browse.sort", nil)}
	for _, so := range runSorts {
		sortSel.Options = append(sortSel.Options, Option{Value: string(so),
			Label: l.T("browse.sort."+string(so), nil), Selected: so == list.Sort})
	}
	form.Selects = append(form.Selects, sortSel)
	p := RunsPage{Form: form, Runs: Runs(l, list.Items)}
	if list.Next != "" {
		p.NextHref = WithParam(list.URL, "after", list.Next)
	}
	if list.Paged {
		p.FirstHref = WithParam(list.URL, "after", "")
	}
	return p
}

// WithParam is u's path and query with one parameter set ("" removes it).
func WithParam(u *url.URL, name, value string) string {
	q := u.Query()
	if value == "" {
		q.Del(name)
	} else {
		q.Set(name, value)
	}
	if enc := q.Encode(); enc != "" {
		return u.Path + "?" + enc
	}
	return u.Path
}
