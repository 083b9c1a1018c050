package upload

import (
	"net/http"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/templates"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// renderUploadSignIn is the upload page that asks to sign in first.
func (s *Handlers) renderUploadSignIn(w http.ResponseWriter, r *http.Request, status int) error {
	l := i18n.FromContext(r.Context())
	w.Header().Set("Cache-Control", "no-store")
	return kit.Render(w, r, status, templates.UploadSignInPage(s.PrivateBase(r, l.T("upload.title", nil)), kit.LoginURL("/upload")))
}
