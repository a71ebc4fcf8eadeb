# Image pipeline benchmarks; the top-level Makefile includes this file.
#   include bench/pipeline.mk

LOADER_MEMORY_REQUESTS ?= 200000
LOADER_MEMORY_FLAGS    ?= --requests $(LOADER_MEMORY_REQUESTS) --concurrency 8 --warm-up 20000 --interval 20000 --time-limit 900

# The same check through ImagePipeline.image(for:): distinct URLs from a live
# ImageOrigin, both caches bounded and full after warm-up.
PIPELINE_MEMORY_REQUESTS ?= 200000
PIPELINE_MEMORY_FLAGS    ?= --through pipeline --requests $(PIPELINE_MEMORY_REQUESTS) --concurrency 8 --warm-up 20000 --interval 20000 --time-limit 900

# Extra flags for pipeline-benchmark (see `pipeline-benchmark --help`), e.g. --rounds 11 --check.
PIPELINE_BENCH_FLAGS   ?=

.PHONY: bench-loader-memory bench-pipeline bench-pipeline-memory

bench-loader-memory: deps ## Resident memory over 200,000 loopback requests: curl (must stay within 10%) and URLSession
	$(SWIFT) build -c release --product loader-memory
	.build/release/loader-memory --loader curl $(LOADER_MEMORY_FLAGS) --max-growth 10
	.build/release/loader-memory --loader urlsession $(LOADER_MEMORY_FLAGS)

bench-pipeline: deps ## ImagePipeline vs the codec alone: memory-hit latency, disk hits, network + decode from a local origin
	$(SWIFT) build -c release --product pipeline-benchmark
	WEBP_BRIDGE_CORPUS="$(CORPUS)" .build/release/pipeline-benchmark $(PIPELINE_BENCH_FLAGS)

bench-pipeline-memory: deps ## Resident memory over 200,000 images through ImagePipeline.image(for:) (must stay within 10%)
	$(SWIFT) build -c release --product loader-memory
	.build/release/loader-memory $(PIPELINE_MEMORY_FLAGS) --max-growth 10
