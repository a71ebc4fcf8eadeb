# A real browser through the bridge: `include e2e/e2e.mk` from the Makefile
# (after demo.mk). See e2e/run.sh for what it checks and how.
.PHONY: e2e

e2e: deps ## Headless Chromium through the bridge (reverse and forward): every image renders, transcoded
	bash e2e/run.sh
