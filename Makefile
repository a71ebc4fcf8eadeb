# WebPBridge — every target installs what it needs first.
SHELL := /bin/bash
.DEFAULT_GOAL := help

SWIFT        ?= swift
UNAME_S      := $(shell uname -s)
DEBIAN_PKGS  := pkg-config libwebp-dev libavif-dev libavif-bin libturbojpeg0-dev libspng-dev libgif-dev libmicrohttpd-dev libcurl4-openssl-dev webp libjpeg-turbo-progs curl time
BREW_PKGS    := pkg-config webp libavif jpeg-turbo libspng giflib libmicrohttpd curl
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: help deps build release lint portability test test-scripts test-tsan test-asan demo bench-codecs bench-http clean

CORPUS       ?= $(if $(WEBP_BRIDGE_CORPUS),$(WEBP_BRIDGE_CORPUS),../shared/corpus)

help: ## List the targets
	@grep -hE '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-14s %s\n", $$1, $$2}'

deps: ## Install the system libraries and tools (Debian apt / macOS Homebrew) when missing
ifeq ($(UNAME_S),Darwin)
	@missing=$$(for p in $(BREW_PKGS); do brew list --versions $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then echo "installing: $$missing"; brew install $$missing; fi
else
	@missing=$$(for p in $(DEBIAN_PKGS); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing: $$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi
endif

build: deps ## Debug build
	$(SWIFT) build

release: deps ## Release build (.build/release/webp-bridge)
	$(SWIFT) build -c release

# swift format does not report lines it cannot break (string literals, comments), so lint also
# counts columns itself, against the lineLength of .swift-format.
LINE_LIMIT   := $(or $(shell sed -n 's/.*"lineLength": *\([0-9]*\).*/\1/p' .swift-format),120)

lint: ## swift format lint --strict (the checked-in .swift-format), then no line longer than its lineLength
	$(SWIFT) format lint --strict --recursive --parallel Sources Tests Tools Benchmarks $(wildcard Fuzz)
	@find Sources Tests Tools Benchmarks $(wildcard Fuzz) -name '*.swift' -print0 | xargs -0 awk -v limit=$(LINE_LIMIT) \
	  'length > limit { printf "%s:%d: %d columns (limit %d)\n", FILENAME, FNR, length, limit; long = 1 } END { exit long }'

# The Apple view of the manifest (WEBP_BRIDGE_MANIFEST_PLATFORM=apple): every target an Apple build compiles is
# scanned (no system library, no unguarded Linux import, no API above the floor, no Swift above the tools
# version); then every Apple-only file is compiled against the SDK stand-ins in Tests/StandIns, and the
# stand-in check must catch each mutation of Tests/StandIns/mutations.sh (docs/platforms.md).
portability: ## Check that what an Apple build compiles would build there (docs/development.md: Portability check)
	$(SWIFT) build --product portability-check
	"$$($(SWIFT) build --show-bin-path)/portability-check" --swift "$(SWIFT)"
	SWIFTC="$(SWIFT)c" Tests/StandIns/typecheck.sh
	SWIFTC="$(SWIFT)c" Tests/StandIns/mutations.sh

test: deps lint portability test-scripts ## Run the whole test suite (corpus suites need ../shared/corpus); lint, portability and test-scripts first
	$(SWIFT) test

# The Python that bench/ and e2e/ share (scripts/bridgekit.py): sniff on synthetic bytes, waits, process
# groups, metrics; and every script there imports and uses it. A few seconds; writes nothing in the tree.
test-scripts: ## Unit tests of scripts/bridgekit.py, the helpers bench/ and e2e/ share
	PYTHONDONTWRITEBYTECODE=1 python3 -m unittest scripts.test_bridgekit

test-tsan: deps ## The whole suite under ThreadSanitizer (own build folder: .build-tsan)
	WEBP_BRIDGE_SANITIZER=thread $(SWIFT) test --sanitize=thread --scratch-path .build-tsan $(TSAN_FLAGS)

test-asan: deps ## The whole suite under AddressSanitizer (own build folder: .build-asan)
	WEBP_BRIDGE_SANITIZER=address ASAN_OPTIONS="quarantine_size_mb=16" \
	  LSAN_OPTIONS="suppressions=$(CURDIR)/sanitizers/lsan.supp:print_suppressions=0" \
	  $(SWIFT) test --sanitize=address --scratch-path .build-asan $(ASAN_FLAGS)

QUALITY_VENV     ?= .build/quality-venv
SSIMULACRA2_SPEC ?= ssimulacra2==0.3.0

# PyPI's ssimulacra2 (numpy, SciPy and Pillow come with it); its command is spelt `ssymulacra2`.
$(QUALITY_VENV)/bin/ssymulacra2:
	python3 -m venv $(QUALITY_VENV) || { rm -rf $(QUALITY_VENV); \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq python3-venv >/dev/null \
	  && python3 -m venv $(QUALITY_VENV); }
	timeout 900 $(QUALITY_VENV)/bin/pip install -q '$(SSIMULACRA2_SPEC)'

demo: deps demo-photos $(QUALITY_VENV)/bin/ssymulacra2 ## The news front page through the bridge and a tuned origin: bytes saved, SSIM, SSIMULACRA 2, demo-report.html
	$(SWIFT) build -c release --product webp-bridge
	.build/release/webp-bridge demo --images "$(DEMO_PHOTOS)" --ssimulacra2 $(QUALITY_VENV)/bin/python $(DEMO_FLAGS)

bench/bin/codecs_bench: bench/codecs_bench.c
	@mkdir -p bench/bin
	cc -O2 -o $@ $< $$(pkg-config --cflags --libs libwebp libturbojpeg spng libavif)

bench-codecs: deps bench/bin/codecs_bench ## Swift codecs vs C (and Pillow if installed, avifenc/avifdec for AVIF) on the Kodak photos
	@test -d "$(CORPUS)/kodak" || { echo "bench-codecs needs the Kodak photos: set WEBP_BRIDGE_CORPUS or place shared/corpus beside the project"; exit 1; }
	$(SWIFT) build -c release --product codecs-benchmark
	python3 -m bench.bench_codecs "$(CORPUS)" bench/bin/codecs_bench .build/release/codecs-benchmark

bench-http: deps ## Origin and bridge vs nginx on the same bytes; bridge transcodes vs codec-only (installs wrk, nginx)
	@test -d "$(CORPUS)/kodak" || { echo "bench-http needs the Kodak photos: set WEBP_BRIDGE_CORPUS or place shared/corpus beside the project"; exit 1; }
ifneq ($(UNAME_S),Darwin)
	@for tool in wrk nginx; do command -v $$tool >/dev/null || missing="$$missing $$tool"; done; \
	if [ -n "$$missing" ]; then $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq wrk nginx-light >/dev/null; fi
endif
	$(SWIFT) build -c release --product webp-bridge
	$(SWIFT) build -c release --product HTTPServerBenchmark
	$(SWIFT) build -c release --product codecs-benchmark
	python3 -m bench.bench_http .build/release/webp-bridge "$(CORPUS)" .build/release/HTTPServerBenchmark .build/release/codecs-benchmark

clean: ## Remove build output
	rm -rf .build .build-tsan .build-asan bench/bin

include bench/rewrite.mk
include bench/bridge.mk
include bench/origin.mk
include bench/quality.mk
include bench/pipeline.mk
include demo.mk
include e2e/e2e.mk
include e2e/cluster.mk
include fuzz.mk
