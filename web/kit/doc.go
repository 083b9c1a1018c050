// Package kit is what every area of the site (report, browse, upload,
// account, api, docs) builds its handlers from: the handler signature and
// the errors a handler returns (errors.go), rendering a page (render.go)
// and JSON (json.go), conditional answers (etag.go), telling the page cache
// not to keep an answer (cachehint.go), cookies and sessions (cookies.go,
// session.go), the upload gate (uploader.go), and the shared dependencies
// of every handler (server.go).
//
// kit sits below the areas and below web/site, which routes requests to the
// areas and turns a handler's error into a status and a page. It must not
// import any area or web/site.
package kit
