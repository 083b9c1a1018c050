package i18n

import "context"

type ctxKey struct{}

// WithLocalizer returns ctx carrying l, for templ components to read.
func WithLocalizer(ctx context.Context, l *Localizer) context.Context {
	return context.WithValue(ctx, ctxKey{}, l)
}

// FromContext returns the request's localizer, or an English one when the
// context has none (a background job, a test), so rendering never fails for
// want of a language.
func FromContext(ctx context.Context) *Localizer {
	if l, ok := ctx.Value(ctxKey{}).(*Localizer); ok && l != nil {
		return l
	}
	// A broken embedded locale file leaves b nil: ids are then shown raw
	// rather than failing every page; the locale tests catch it first.
	b, _ := Default()
	return b.Localizer(English)
}
