package templates

import (
	"context"
	"strconv"
)

// errorStatuses are the status codes with a message of their own.
var errorStatuses = map[int]bool{400: true, 401: true, 403: true, 404: true, 405: true, 410: true, 413: true, 415: true, 422: true,
	429: true, 500: true, 503: true, 507: true}

// statusText words an HTTP status for a reader.
func statusText(ctx context.Context, code int) string {
	if errorStatuses[code] {
		return t(ctx, "error.status."+strconv.Itoa(code))
	}
	return t(ctx, "error.status.other")
}

// ErrorTitle is the <title> of an error page, for the handler's NewBase.
func ErrorTitle(ctx context.Context, code int) string {
	return td(ctx, "error.title", map[string]any{"Code": strconv.Itoa(code)})
}

func defaultErrorMessage(ctx context.Context, code int) string {
	switch {
	case code == 404:
		return t(ctx, "error.not_found")
	case code >= 500:
		return t(ctx, "error.internal")
	}
	return ""
}
