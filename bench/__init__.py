"""The benchmark drivers (`make bench-*`); run as modules from the project's root: `python3 -m bench.NAME`."""
