// Command speedmatrix is the speedmatrix portal: it serves the site
// (`serve`), imports result files from the shell (`import`), stores
// synthetic demo runs (`demo`), backs up and restores (`backup`, `restore`),
// migrates the database (`migrate`) and asks a running server whether it is
// ready (`health`).
//
// Configuration comes from the environment:
//
//	ADDR          listen address (default 127.0.0.1:8080)
//	DATABASE_URL  PostgreSQL URL; empty runs a private cluster under DATA_DIR
//	DATA_DIR      where the private cluster lives (default ./data)
//	BASE_URL      public origin for absolute links; required with SMTP_URL or
//	              GITHUB_CLIENT_ID, whose mailed links and OAuth callback are
//	              built from it alone, never from a request's Host (unset and
//	              without either, pages link under the request's origin)
//	SMTP_URL, MAIL_FROM  mail for password resets and address confirmations
//	GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET  "Sign in with GitHub"
//	ALLOW_ANONYMOUS  false refuses uploads without a token (default true;
//	              true/false, yes/no, on/off, 1/0)
//	UPLOADS_PER_HOUR_ADDRESS, UPLOADS_PER_HOUR_TOKEN  upload rate limits
//	              (default 30 per address without a token, 120 per token;
//	              a negative number means no limit)
//	TRUSTED_PROXIES  reverse proxies (addresses or CIDRs) whose
//	              X-Forwarded-For names the client for the address limit
//
// A value that cannot be read stops every command with exit status 2 and a
// message naming the variable and what it accepts.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

const usage = `speedmatrix — LLM-inference speed test matrices, on the web

Usage:
  speedmatrix serve                       serve the site (ADDR, DATABASE_URL, DATA_DIR)
  speedmatrix import FILE... [--meta M] [--sweep]
                                          import result files; prints each run's URL
                                          (--sweep: the files of one sweep, one run)
  speedmatrix demo --runs N [--seed S]    store N synthetic runs, marked demo data
  speedmatrix submitter create HANDLE [--org ORG]
                                          add a submitter (uploads with their tokens)
  speedmatrix token create HANDLE         print a new upload token, once
  speedmatrix token revoke TOKEN-OR-PREFIX
                                          revoke a token
  speedmatrix account reset HANDLE        print a one-time password reset link
  speedmatrix account lookalikes          list handles and organisation slugs that look alike
  speedmatrix admin grant HANDLE          make an account an admin (moderation)
  speedmatrix run hide ID [REASON]        hide a run as a moderator (404, out of lists;
                                          kept; only an admin shows it again)
  speedmatrix backup FILE.tar.zst         write every run's file, facts and the accounts
  speedmatrix restore FILE.tar.zst        fill an empty database from a backup
  speedmatrix migrate                     apply database migrations and exit
  speedmatrix health                      ask the server on ADDR for /readyz: exit 0 when
                                          it answers 200, 1 otherwise (the image's HEALTHCHECK)
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
	switch args[0] {
	case "version":
		fmt.Fprintln(stdout, buildVersion())
		return 0
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	cfg, err := configFromEnv()
	if err != nil {
		// A misread setting (ALLOW_ANONYMOUS=banana) must stop the server
		// rather than quietly become a default.
		fmt.Fprintf(stderr, "speedmatrix: %v\n", strings.ReplaceAll(err.Error(), "\n", "\nspeedmatrix: "))
		return 2
	}
	switch args[0] {
	case "serve":
		err = serve(ctx, cfg, stdout)
	case "import":
		return importFiles(ctx, cfg, args[1:], stdout, stderr)
	case "demo":
		return demoRuns(ctx, cfg, args[1:], stdout, stderr)
	case "submitter":
		return submitterCommand(ctx, cfg, args[1:], stdout, stderr)
	case "token":
		return tokenCommand(ctx, cfg, args[1:], stdout, stderr)
	case "account":
		return accountCommand(ctx, cfg, args[1:], stdout, stderr)
	case "admin":
		return adminCommand(ctx, cfg, args[1:], stdout, stderr)
	case "run":
		return runCommand(ctx, cfg, args[1:], stdout, stderr)
	case "backup":
		return backupCommand(ctx, cfg, args[1:], stdout, stderr)
	case "restore":
		return restoreCommand(ctx, cfg, args[1:], stdout, stderr)
	case "migrate":
		err = migrateOnly(ctx, cfg, stdout)
	case "health":
		return healthCommand(ctx, cfg, stdout, stderr)
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
