# Everyday commands; README.md opens with `make demo` and `make test`.
SWIFT ?= swift

.PHONY: build test bench man demo demo-stop fmt clean

build:
	$(SWIFT) build

# Unit and integration tests: the integration tests start the real server, daemon and client.
test:
	$(SWIFT) build --build-tests
	# A bound, so a hung test fails CI with its output instead of eating the whole time budget.
	timeout 40m $(SWIFT) test --skip-build
	# The server's suite again, on a real PostgreSQL 15 that the tests start in a temporary directory
	# (the replica and fault suites, which always use PostgreSQL, already ran above).
	@if [ -x /usr/lib/postgresql/15/bin/initdb ]; then \
		ONTHEMAP_TEST_DATABASE=postgres timeout 15m $(SWIFT) test --skip-build --filter OnTheMapServerTests \
			--skip ReplicaTests --skip DatabaseFaultTests --skip ConnectionTimeoutTests --skip ServerCommandTests; \
	else echo "SKIPPED: the server's suite on PostgreSQL (PostgreSQL 15 is not installed: apt-get install postgresql)"; fi
	# The client as installed and measured (static, linked in start-up order) passes the same
	# end-to-end tests.
	client="$$(./scripts/build-client.sh)" && ONTHEMAP_CLIENT="$$client" timeout 10m $(SWIFT) test --skip-build --filter OnTheMapCLITests

# Release builds and side-by-side measurements; rewrites docs/benchmarks.md.
bench:
	./scripts/bench.sh

# Man pages from the command definitions (swift-argument-parser's generate-manual plugin).
man:
	$(SWIFT) package --allow-writing-to-package-directory generate-manual --product onthemap --date 2026-11-22 --output-directory docs/man
	$(SWIFT) package --allow-writing-to-package-directory generate-manual --product onthemapd --date 2026-11-22 --output-directory docs/man
	$(SWIFT) package --allow-writing-to-package-directory generate-manual --product onthemap-server --date 2026-11-22 --output-directory docs/man

# Builds everything and starts the whole system locally, with demo data and no internet.
demo:
	./scripts/demo.sh

# Stops what `make demo` started.
demo-stop:
	-@for p in daemon server; do [ -f run/$$p.pid ] && kill $$(cat run/$$p.pid) 2>/dev/null; rm -f run/$$p.pid; done; echo stopped

fmt:
	$(SWIFT) format --in-place --recursive Sources Tests Package.swift

clean:
	rm -rf .build run
