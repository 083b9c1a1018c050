// Package webtest holds what the web packages' tests share: a test site
// over a fresh database (NewSite; NewCountedSite with the page cache's
// counters), a copy of the seed run (SeedCopy), a signed-in or anonymous
// browser (Visitor), the lil-bench client, sample files by their path in
// the repository, and the fakes (GitHub, a clock) the tests drive the site
// with. It is imported only by tests; nothing the server runs imports it.
package webtest
