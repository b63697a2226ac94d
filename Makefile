# Everyday commands; README.md opens with `make demo` and `make test`.
SWIFT ?= swift

.PHONY: build test demo fmt clean

build:
	$(SWIFT) build

# Unit and integration tests: the integration tests start the real onthemap-server.
test:
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Builds everything and starts the whole system locally, with demo data and no internet.
demo:
	./scripts/demo.sh

fmt:
	$(SWIFT) format --in-place --recursive Sources Tests Package.swift

clean:
	rm -rf .build run
