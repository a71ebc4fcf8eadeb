# The origin's variants against thumbor's; the top-level Makefile includes this file.
#   include bench/origin.mk
# Knobs are environment variables read by bench/bench_origin.py: BENCH_ROUNDS (3),
# BENCH_PER_PHOTO (8 variants per photo and round), BENCH_ROUND_SECONDS (60, the bound of one
# server's round), BENCH_ORIGIN_BASELINE (another webp-bridge binary to run as a third server,
# "before", so a change is measured against the build before it in the same run).

.PHONY: bench-origin bench-webp-settings bench-origin-paths bench-webp-tuning

THUMBOR_VENV   ?= .build/thumbor-venv
THUMBOR_SPEC   ?= thumbor==7.8.*

$(THUMBOR_VENV)/bin/thumbor:
	python3 -m venv $(THUMBOR_VENV) || { rm -rf $(THUMBOR_VENV); \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq python3-venv >/dev/null \
	  && python3 -m venv $(THUMBOR_VENV); }
	timeout 900 $(THUMBOR_VENV)/bin/pip install -q '$(THUMBOR_SPEC)'

bench-origin: deps $(THUMBOR_VENV)/bin/thumbor ## Variants on a miss: origin vs thumbor (PyPI, .build/thumbor-venv), Kodak + demo photos
	@test -d "$(CORPUS)/kodak" || { echo "bench-origin needs the Kodak photos: set WEBP_BRIDGE_CORPUS or place shared/corpus beside the project"; exit 1; }
	@ls $(DEMO_PHOTOS)/*.jpg >/dev/null 2>&1 || echo "bench-origin: no demo photos ('make demo-photos' fetches them); Kodak only"
	$(SWIFT) build -c release --product webp-bridge
	$(SWIFT) build -c release --product origin-benchmark
	python3 -m bench.bench_origin .build/release/webp-bridge .build/release/origin-benchmark \
	  $(THUMBOR_VENV)/bin/thumbor kodak="$(CORPUS)/kodak" $(if $(wildcard $(DEMO_PHOTOS)/*.jpg),demo="$(DEMO_PHOTOS)")

WEBP_SETTINGS_WIDTH ?= 750

bench-webp-settings: deps ## Decode/resize/encode stages and each libwebp method/threads/sharp-YUV setting on the demo photos
	@ls $(DEMO_PHOTOS)/*.jpg >/dev/null 2>&1 || { echo "bench-webp-settings needs the demo photos: make demo-photos"; exit 1; }
	$(SWIFT) build -c release --product origin-benchmark
	.build/release/origin-benchmark encoder $(WEBP_SETTINGS_WIDTH) $(DEMO_PHOTOS)/*.jpg

bench-origin-paths: deps ## A JPEG's WebP variant through RGBA and through its Y'CbCr planes: CPU ms per stage, bytes, SSIM
	@ls $(DEMO_PHOTOS)/*.jpg >/dev/null 2>&1 || { echo "bench-origin-paths needs the demo photos: make demo-photos"; exit 1; }
	$(SWIFT) build -c release --product origin-benchmark
	.build/release/origin-benchmark paths $(WEBP_SETTINGS_WIDTH) $(DEMO_PHOTOS)/*.jpg

# libwebp's finer settings on the origin's own paths (JPEG planes, PNG RGBA): "key=value,..." separated
# by ";" (keys in Benchmarks/OriginBenchmark/TuningSweep.swift); the table in docs/benchmarks.md came from these.
WEBP_TUNING ?= default;m=3;m=2;m=2,f=100;m=2,f=100,sns=25,q=78.5;m=2,f=100,sns=25,q=82;seg=1;seg=1,q=78;sns=0,q=78;strong=0;af=1

bench-webp-tuning: deps ## libwebp's finer settings (segments, SNS, filter, method/quality) on demo JPEGs and Kodak PNGs: CPU, bytes, SSIM
	@test -d "$(CORPUS)/kodak" || { echo "bench-webp-tuning needs the Kodak photos: set WEBP_BRIDGE_CORPUS"; exit 1; }
	$(SWIFT) build -c release --product origin-benchmark
	@if ls $(DEMO_PHOTOS)/*.jpg >/dev/null 2>&1; then \
	  .build/release/origin-benchmark tuning $(WEBP_SETTINGS_WIDTH) '$(WEBP_TUNING)' $(DEMO_PHOTOS)/*.jpg; \
	else echo "bench-webp-tuning: no demo photos ('make demo-photos' fetches them); Kodak only"; fi
	.build/release/origin-benchmark tuning 500 '$(WEBP_TUNING)' $(CORPUS)/kodak/*.png
