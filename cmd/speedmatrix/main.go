// Command speedmatrix is the speedmatrix portal: it serves the site
// (`serve`), imports result files from the shell (`import`) and migrates
// the database (`migrate`).
//
// Configuration comes from the environment:
//
//	ADDR          listen address (default 127.0.0.1:8080)
//	DATABASE_URL  PostgreSQL URL; empty runs a private cluster under DATA_DIR
//	DATA_DIR      where the private cluster lives (default ./data)
//	BASE_URL      public origin for absolute links (default: the request's)
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

const usage = `speedmatrix — LLM-inference speed test matrices, on the web

Usage:
  speedmatrix serve                       serve the site (ADDR, DATABASE_URL, DATA_DIR)
  speedmatrix import FILE... [--meta M]   import result files; prints each run's URL
  speedmatrix migrate                     apply database migrations and exit
  speedmatrix version                     print the build version
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run dispatches a subcommand and returns the process's exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	cfg := configFromEnv()
	var err error
	switch args[0] {
	case "serve":
		err = serve(ctx, cfg, stdout)
	case "import":
		return importFiles(ctx, cfg, args[1:], stdout, stderr)
	case "migrate":
		err = migrateOnly(ctx, cfg, stdout)
	case "version":
		fmt.Fprintln(stdout, buildVersion())
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
	default:
		fmt.Fprintf(stderr, "speedmatrix: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
	if err != nil {
		fmt.Fprintln(stderr, "speedmatrix:", err)
		return 1
	}
	return 0
}
