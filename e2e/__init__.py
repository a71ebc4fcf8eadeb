"""The end-to-end drivers and checks (`make e2e`, `make e2e-cluster`, ...); run as modules from the
project's root: `python3 -m e2e.NAME`."""
