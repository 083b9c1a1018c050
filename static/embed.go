// Package static holds the site's own CSS and JavaScript, embedded so the
// binary serves them itself: no CDN, no build step.
package static

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"sync"
)

// FS holds css/, js/ and img/ (the favicon). Serve it under Prefix, e.g.
// http.StripPrefix(static.Prefix, http.FileServerFS(static.FS)).
//
//go:embed css js img
var FS embed.FS

// Prefix is the URL path the files are served under.
const Prefix = "/static/"

var versions = sync.OnceValue(func() map[string]string {
	v := map[string]string{}
	for _, name := range []string{"css/site.css", "css/heat.css", "js/copy.js", "js/upload.js", "js/calc.js", Favicon} {
		b, err := FS.ReadFile(name)
		if err != nil {
			continue
		}
		sum := sha256.Sum256(b)
		v[name] = hex.EncodeToString(sum[:4])
	}
	return v
})

// URL returns the address of an embedded file with a content hash in the
// query, so pages can tell browsers to cache it for good and a new release
// still reaches them.
func URL(name string) string {
	if v, ok := versions()[name]; ok {
		return Prefix + name + "?v=" + v
	}
	return Prefix + name
}

// Favicon is the site's icon, as a name in FS.
const Favicon = "img/favicon.ico"
