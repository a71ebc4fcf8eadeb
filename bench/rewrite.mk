# URL rewriting throughput: `include bench/rewrite.mk` from the Makefile.
# Rewrites a deterministic mixed list of 100,000 URLs (matching, foreign,
# signed, already WebP; several dialects) on one thread; reports URLs/s
# (best and median of 7 runs). Target: at least 200,000 URLs/s.
.PHONY: bench-rewrite

bench-rewrite: deps ## URL rewriting throughput (URLs/s, one core)
	$(SWIFT) build -c release --product rewrite-benchmark
	.build/release/rewrite-benchmark 100000 7
