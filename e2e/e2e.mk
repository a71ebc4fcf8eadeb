# Real browsers through the bridge: `include e2e/e2e.mk` from the Makefile
# (after demo.mk). See e2e/run.sh for what it checks and how.
.PHONY: e2e

e2e: deps ## Chromium and WebKitGTK through the bridge (legacy and --rewrite-html paths); installs them
	bash e2e/run.sh
