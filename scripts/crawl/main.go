// Command crawl compares two running speedmatrix servers, an old build and
// a new one, answer by answer: it is the Go half of scripts/crawldiff.sh,
// which prepares the two databases and servers and says how to read what
// this prints.
//
//	crawl upload -old http://127.0.0.1:18321 -new http://127.0.0.1:18322 \
//	    -host 127.0.0.1:18320 -out DIR -secrets-old S,M,MR,SR -secrets-new ... DIR...
//	crawl accounts -old ... -new ... -host ... -out DIR -secrets-old ... -secrets-new ... DIR...
//	crawl pages  -old ... -new ... -host ... -out DIR -n 3000 [-runs DIR/runs.txt]
//
// upload posts every sample file under the given directories to both
// servers in the same order, through the API (multipart and raw) and
// through the browser's form, draft and publish; accounts signs two
// submitters in and has them upload, moderate, hide, show and edit, and
// asks their account pages (account.go); pages crawls both sites
// breadth-first from a fixed list of addresses, following links of the
// site's own origin, up to n addresses. Both send each request to the old
// server and the new one with the same Host (that of BASE_URL, which both
// servers are given), so the links they print are the same; each answer's
// status, headers and body are compared after the two builds' version
// strings and the random ids of drafts are replaced by placeholders. The
// summary goes to stdout, grouped by route pattern with the first
// difference of each; every answer's record goes to DIR/NAME.jsonl and the
// bodies of differing answers to DIR/NAME-bodies/. The exit status is 0
// whether or not answers differ (differences are for a person to judge),
// 2 for a usage error.
//
// Loopback only: it refuses other servers, since it posts files and
// fetches thousands of pages.
package main

import (
	"flag"
	"fmt"
	"net/url"
	"os"
	"strings"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	var c config
	fs.StringVar(&c.old.url, "old", "", "the old build's server (http://127.0.0.1:PORT)")
	fs.StringVar(&c.new.url, "new", "", "the new build's server")
	fs.StringVar(&c.host, "host", "", "the Host both are asked under: BASE_URL's host")
	fs.StringVar(&c.old.version, "old-version", "", "the old build's version (`speedmatrix version`), replaced in answers")
	fs.StringVar(&c.new.version, "new-version", "", "the new build's version")
	fs.StringVar(&c.out, "out", "", "directory for the records and the differing bodies")
	n := fs.Int("n", 3000, "pages: how many addresses to crawl")
	runs := fs.String("runs", "", "pages: file of run ids (one a line) whose every address is crawled first")
	secretsOld := fs.String("secrets-old", "", "upload, accounts: `SOLO,MEMBER,MEMBER_RESET,SOLO_RESET`, the old database's upload tokens of crawl-solo and crawl-member and their password reset secrets")
	secretsNew := fs.String("secrets-new", "", "upload, accounts: the same on the new database")
	_ = fs.Parse(os.Args[2:])
	if err := c.check(); err != nil {
		fmt.Fprintln(os.Stderr, "crawl:", err)
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "upload":
		err = uploadAll(&c, fs.Args(), [2]secrets{readSecrets(*secretsOld), readSecrets(*secretsNew)})
	case "accounts":
		err = accountsAll(&c, fs.Args(), [2]secrets{readSecrets(*secretsOld), readSecrets(*secretsNew)})
	case "pages":
		err = crawlPages(&c, *n, *runs)
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "crawl:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: crawl upload|accounts|pages -old URL -new URL -host HOST -out DIR [flags] [DIR...]")
	os.Exit(2)
}

// config is what both subcommands share: the two servers and where the
// records go.
type config struct {
	old, new side
	host     string
	out      string
}

// side is one of the two servers.
type side struct {
	url     string
	version string
	uploads bool // the answers are to uploads: their times are now
}

func (c *config) check() error {
	for _, s := range []string{c.old.url, c.new.url} {
		u, err := url.Parse(s)
		if err != nil || u.Scheme != "http" || u.Hostname() != "127.0.0.1" {
			return fmt.Errorf("-old and -new must be http://127.0.0.1:PORT, not %q", s)
		}
	}
	if c.host == "" || strings.ContainsAny(c.host, "/ ") {
		return fmt.Errorf("-host must be BASE_URL's host, such as 127.0.0.1:18320")
	}
	if c.out == "" {
		return fmt.Errorf("-out is needed")
	}
	return os.MkdirAll(c.out, 0o755)
}
