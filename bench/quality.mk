# Bytes, CPU and perceptual scores per variant: the origin at fixed qualities and with `--quality auto`
# against thumbor at q80 (issue 29). The top-level Makefile includes this file after bench/origin.mk
# (whose thumbor venv rule it reuses):
#   include bench/quality.mk
# Knobs are environment variables read by bench/bench_quality.py: BENCH_ROUNDS (3), BENCH_QUALITY_AUTO
# (auto: the value given to `--quality`), BENCH_QUALITY_SWEEP_THUMBOR (50,60,70,90),
# BENCH_QUALITY_SWEEP_WEBP (60,70), BENCH_QUALITY_SWEEP_AVIF (40,50), BENCH_QUALITY_JOBS (2 photos scored
# at a time), BENCH_QUALITY_JSON (a file for every variant's scores).

.PHONY: bench-quality

# QUALITY_VENV and its rule (PyPI ssimulacra2) are in the top-level Makefile: `make demo` uses them too.

bench-quality: deps demo-photos $(THUMBOR_VENV)/bin/thumbor $(QUALITY_VENV)/bin/ssymulacra2 ## Bytes, CPU, SSIM, SSIMULACRA 2, butteraugli per variant: origin fixed and --quality auto vs thumbor q80
	@command -v butteraugli_main >/dev/null || { \
	  command -v apt-get >/dev/null || { echo "bench-quality needs butteraugli_main (libjxl's tools)"; exit 1; }; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq libjxl-devtools >/dev/null; }
	@test -d "$(CORPUS)/kodak" || echo "bench-quality: no Kodak photos (set WEBP_BRIDGE_CORPUS or place shared/corpus beside the project); demo photos only"
	$(SWIFT) build -c release --product webp-bridge
	$(SWIFT) build -c release --product origin-benchmark
	$(QUALITY_VENV)/bin/python -m bench.bench_quality .build/release/webp-bridge .build/release/origin-benchmark \
	  $(THUMBOR_VENV)/bin/thumbor $(if $(wildcard $(CORPUS)/kodak/*.png),kodak="$(CORPUS)/kodak") demo="$(DEMO_PHOTOS)"
