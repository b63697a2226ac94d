# Everyday commands; README.md opens with `make demo` and `make test`.
SWIFT ?= swift
# How many tests run at once. Each runs on threads of its own (the `.ownThreads` trait), so a test
# waiting on a process never stalls another; this bounds the load they put on the machine together.
TEST_WIDTH ?= 4
SWIFT_TEST = $(SWIFT) test --skip-build --experimental-maximum-parallelization-width $(TEST_WIDTH)
# A crash in a test (or in a program it runs) prints the crashed thread's frames last, without the
# registers and the list of images that would otherwise follow them: a CI log shows only its tail.
# Not `enable=yes`: a static program (the release client) cannot find swift-backtrace and says so.
export SWIFT_BACKTRACE ?= interactive=no,registers=none,images=none

.PHONY: build test bench man demo demo-stop fmt clean release install uninstall deb

# Where `make install` puts things; DESTDIR stages them (packaging). scripts/install.sh lists the
# finer settings (BINDIR, SYSTEMUNITDIR, USERUNITDIR, completion directories, STRIP, ...).
PREFIX ?= /usr/local
DESTDIR ?=
DEB_COMPRESSION ?= xz
export PREFIX DESTDIR
# The release programs, as scripts/build-release.sh reports them.
RELEASE_ENV = .build/release-products.env

build:
	$(SWIFT) build

# Unit and integration tests: the integration tests start the real server, daemon and client.
test:
	# Nothing a build or a run writes is tracked (byte code, .build, Package.resolved).
	./scripts/check-tree.sh
	# Every import declared in Package.swift: an undeclared one builds here and fails on a fresh clone.
	./scripts/check-imports.py
	$(SWIFT) build --build-tests
	# A bound, so a hung test fails CI with its output instead of eating the whole time budget.
	timeout 40m $(SWIFT_TEST)
	# The server's suite again, on a real PostgreSQL 15 that the tests start in a temporary directory
	# (the replica, fault and refusal suites, which always use PostgreSQL, already ran above).
	@if [ -x /usr/lib/postgresql/15/bin/initdb ]; then \
		ONTHEMAP_TEST_DATABASE=postgres timeout 15m $(SWIFT_TEST) --filter OnTheMapServerTests \
			--skip ReplicaTests --skip DatabaseFaultTests --skip ConnectionTimeoutTests --skip ServerCommandTests \
			--skip PostgresRefusalTests; \
	else echo "SKIPPED: the server's suite on PostgreSQL (PostgreSQL 15 is not installed: apt-get install postgresql)"; fi

# Release builds and side-by-side measurements; rewrites docs/benchmarks.md.
bench:
	./scripts/bench.sh

# The man pages in docs/man are written by hand (mdoc): swift-argument-parser's generate-manual
# repeated the exit status and the global options under every command and had no ENVIRONMENT,
# FILES or EXAMPLES. This checks them as the tests do: mandoc's lint (the "referenced manual not
# found" notes are about what this machine has installed, not about the pages), then ManPageTests,
# which also finds any option of any command that its page does not mention.
man:
	@status=0; for page in docs/man/*.1; do \
		found="$$(mandoc -T lint "$$page" 2>&1 | grep -v -e 'referenced manual not found' -e 'outdated mandoc.db')"; \
		[ -z "$$found" ] || { echo "$$found"; status=1; }; \
	done; exit $$status
	$(SWIFT) build --build-tests
	$(SWIFT_TEST) --filter ManPageTests

# Builds everything and starts the whole system locally, with demo data and no internet.
demo:
	./scripts/demo.sh

# Stops what `make demo` started (in ONTHEMAP_DEMO_DIR when it was given one).
demo-stop:
	-@dir="$${ONTHEMAP_DEMO_DIR:-run}"; for p in daemon server; do [ -f "$$dir/$$p.pid" ] && kill $$(cat "$$dir/$$p.pid") 2>/dev/null; rm -f "$$dir/$$p.pid"; done; echo stopped

# The three release programs, from one release build with the Swift runtime linked in.
release:
	mkdir -p .build
	./scripts/build-release.sh >$(RELEASE_ENV).tmp && mv $(RELEASE_ENV).tmp $(RELEASE_ENV)

# Programs, systemd units, man pages, completions, clients/ and docs under $(DESTDIR)$(PREFIX).
install: release
	set -a && . ./$(RELEASE_ENV) && ./scripts/install.sh install

uninstall:
	./scripts/install.sh uninstall

# dist/onthemap_VERSION_ARCH.deb and dist/onthemap-server_VERSION_ARCH.deb (see scripts/build-deb.sh);
# DEB_COMPRESSION=gzip builds faster than the default xz.
deb: release
	set -a && . ./$(RELEASE_ENV) && DEB_COMPRESSION=$(DEB_COMPRESSION) ./scripts/build-deb.sh

fmt:
	$(SWIFT) format --in-place --recursive Sources Tests Package.swift

clean:
	rm -rf .build run dist
