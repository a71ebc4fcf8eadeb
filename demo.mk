# The demo's sample photos: `include demo.mk` from the Makefile.
#
# `make demo-photos` fetches Debian's mate-backgrounds package (real
# photographs, 46 MB) with `apt-get download` into .build/demo-cache and
# unpacks it there with `dpkg -x`: nothing is installed on the system, and
# nothing is committed. It runs `apt-get update` only when the first
# download fails (a fresh machine has no package lists). Idempotent: once
# the photos are there it only says where they are.
#
# `webp-bridge demo` finds them there by itself (run from the project root),
# or takes `--images $(DEMO_PHOTOS)`.
.PHONY: demo-photos

DEMO_CACHE   ?= .build/demo-cache
DEMO_PHOTOS  := $(DEMO_CACHE)/mate-backgrounds/usr/share/backgrounds/mate/nature

demo-photos: ## Fetch the demo's sample photos (Debian's mate-backgrounds) into .build/demo-cache
	@set -e; \
	if ls $(DEMO_PHOTOS)/*.jpg >/dev/null 2>&1; then \
	  echo "demo photos: $(DEMO_PHOTOS) ($$(ls $(DEMO_PHOTOS)/*.jpg | wc -l) JPEGs)"; exit 0; \
	fi; \
	if ! command -v apt-get >/dev/null || ! command -v dpkg >/dev/null; then \
	  echo "demo-photos needs apt-get and dpkg (Debian or Ubuntu); elsewhere run 'webp-bridge demo --images DIR' with a folder of JPEGs"; exit 1; \
	fi; \
	mkdir -p $(DEMO_CACHE)/debs; \
	cd $(DEMO_CACHE)/debs; \
	if ! ls mate-backgrounds_*.deb >/dev/null 2>&1; then \
	  apt-get download mate-backgrounds 2>/dev/null || { \
	    echo "apt-get download failed; updating the package lists and trying again"; \
	    $(SUDO) apt-get update -qq && apt-get download mate-backgrounds; }; \
	fi; \
	deb=$$(ls -t mate-backgrounds_*.deb | head -n 1); \
	rm -rf ../mate-backgrounds.partial; \
	dpkg -x "$$deb" ../mate-backgrounds.partial; \
	rm -rf ../mate-backgrounds; \
	mv ../mate-backgrounds.partial ../mate-backgrounds; \
	cd - >/dev/null; \
	echo "demo photos: $(DEMO_PHOTOS) ($$(ls $(DEMO_PHOTOS)/*.jpg | wc -l) JPEGs from $$deb)"
