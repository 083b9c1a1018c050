# speedmatrix — `make run` serves the site, `make test` runs every test.
# Go 1.26 is the only thing assumed; the rest is installed or explained here.

GO      ?= go
BIN     := bin/speedmatrix
PKGS    := ./...
# Browser tests drive Debian's chromium; PostgreSQL's server binaries run the
# private database (and the tests' own when TEST_DATABASE_URL is not set).
APT     := $(shell command -v apt-get 2>/dev/null)

.PHONY: fonts run build test generate check-generated vet deps deps-postgres deps-chromium deps-axe bench clean fuzz-brief

## run: build and serve the site on ADDR (default 127.0.0.1:8080) with the
## private PostgreSQL under DATA_DIR (default ./data) unless DATABASE_URL is set.
run: build deps-postgres
	$(BIN) serve

build:
	$(GO) build -o $(BIN) ./cmd/speedmatrix

## test: vet, check the committed templ output is current, run all tests
## (each fuzz target's seed corpus among them), then every fuzz target briefly.
test: deps vet check-generated
	$(GO) test -count=1 -timeout 20m $(PKGS)
	@$(MAKE) --no-print-directory fuzz-brief

## fuzz-brief: every fuzz target (found by name) on FUZZ_EXECS generated
## inputs, one worker each. The long runs are in docs/fuzzing.md. A count,
## not a duration: with a duration Go 1.26 can fail a healthy target at its
## deadline ("context deadline exceeded", golang/go#75804).
FUZZ_EXECS ?= 3000x
fuzz-brief:
	@for f in $$(grep -rl --include='*_test.go' '^func Fuzz' cmd internal web); do \
	  for n in $$(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' $$f); do \
	    echo "fuzz $$n ./$$(dirname $$f) $(FUZZ_EXECS)"; \
	    out=$$($(GO) test -run '^$$' -fuzz "^$$n$$" -fuzztime $(FUZZ_EXECS) -fuzzminimizetime 100x -parallel 1 ./$$(dirname $$f) 2>&1) || \
	      { echo "$$out"; exit 1; }; \
	  done; \
	done

vet:
	$(GO) vet $(PKGS)

## generate: regenerate templ components (the CLI version is pinned in go.mod).
generate:
	$(GO) tool templ generate -path templates

## fonts: regenerate the font subsets the cards embed (internal/share/fonts)
## from every locale's strings; needs fonts-noto-core, fonts-noto-cjk and
## python3-fonttools, installed here as root when missing.
fonts:
	@if [ -n "$(APT)" ] && [ "$$(id -u)" = 0 ] && { ! /usr/bin/python3 -c 'import fontTools' 2>/dev/null || [ ! -f /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc ]; }; then \
	  apt-get install -y fonts-noto-core fonts-noto-cjk python3-fonttools; fi
	./scripts/fonts.sh

## check-generated: the *_templ.go files in git must match the .templ sources.
check-generated:
	@$(GO) tool templ generate -path templates >/dev/null
	@if [ -d .git ] && ! git diff --quiet -- templates; then \
		echo "templates/*_templ.go are stale: run 'make generate' and commit"; git diff --stat -- templates; exit 1; fi

## bench: the benchmarks recorded in docs/benchmarks.md.
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./internal/ingest ./internal/report ./web/site

deps: deps-postgres deps-chromium deps-axe

deps-postgres:
	@command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || \
	{ if [ -n "$(APT)" ] && [ "$$(id -u)" = 0 ]; then echo "installing PostgreSQL server binaries (apt-get install -y postgresql)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; \
	  else echo "PostgreSQL server binaries are missing: install them with 'apt-get install -y postgresql' (or set DATABASE_URL)"; exit 1; fi; }

deps-chromium:
	@command -v chromium >/dev/null 2>&1 || \
	{ if [ -n "$(APT)" ] && [ "$$(id -u)" = 0 ]; then echo "installing chromium for the browser tests (apt-get install -y chromium)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else echo "the browser tests need Chromium: install Debian's package with 'apt-get install -y chromium'"; exit 1; fi; }

## deps-axe: the accessibility test injects axe-core, pinned in
## web/browser/testdata/axe/package-lock.json; npm ci installs exactly that version.
AXE_DIR := web/browser/testdata/axe
deps-axe:
	@[ -f $(AXE_DIR)/node_modules/axe-core/axe.min.js ] || \
	{ command -v npm >/dev/null 2>&1 || { echo "the accessibility test needs npm (Debian: apt-get install -y npm) to install axe-core"; exit 1; }; \
	  echo "installing axe-core for the accessibility test (npm ci in $(AXE_DIR))"; \
	  npm ci --prefix $(AXE_DIR) --no-audit --no-fund --loglevel=error; }

clean:
	rm -rf bin
