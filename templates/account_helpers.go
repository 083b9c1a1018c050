package templates

import (
	"context"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
)

// nt is t for a message with plural forms, counted by n.
func nt(ctx context.Context, id string, n int) string {
	return i18n.FromContext(ctx).N(id, n, nil)
}
