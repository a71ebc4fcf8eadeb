"""Python shared by the scripts in bench/ and e2e/ (bridgekit.py). Run them as modules from
the project's root, `python3 -m bench.bench_http ...`, as the Makefile does."""
