# Bridge proxy benchmarks; the top-level Makefile includes this file.
#   include bench/bridge.mk
# Knobs are environment variables read by bench/bridge_memory.py:
# BRIDGE_MEMORY_SECONDS (60), BRIDGE_MEMORY_WARMUP (15), BRIDGE_MEMORY_INTERVAL (5),
# BRIDGE_MEMORY_PHOTOS (8), BRIDGE_MEMORY_CONNECTIONS (8), BRIDGE_MEMORY_MAX_GROWTH (10).

.PHONY: bench-bridge-memory

bench-bridge-memory: deps ## 60 s of wrk on transcoded images: fails on any error or resident memory moving over 10%
	@test -d "$(CORPUS)/kodak" || { echo "bench-bridge-memory needs the Kodak photos: set WEBP_BRIDGE_CORPUS or place shared/corpus beside the project"; exit 1; }
ifneq ($(UNAME_S),Darwin)
	@command -v wrk >/dev/null || { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq wrk >/dev/null; }
endif
	$(SWIFT) build -c release --product webp-bridge
	python3 -m bench.bridge_memory .build/release/webp-bridge "$(CORPUS)"
