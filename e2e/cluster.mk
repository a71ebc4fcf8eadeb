# Origins and the bridge behind nginx's cache (deploy/nginx/webp-bridge.conf), the recipe's Accept
# classes against the table AcceptHeader is tested with, and the soak: `include e2e/cluster.mk` from
# the Makefile (after demo.mk). None is part of `make test`.
# Knobs (environment): CLUSTER_SECONDS (60), CLUSTER_CLIENTS (8), CLUSTER_BURST (16), CLUSTER_OUT;
# SOAK_MINUTES (30), SOAK_WARMUP, SOAK_CLIENTS (4), SOAK_*_RATE, SOAK_MAX_GROWTH (10), SOAK_WINDOW (5), SOAK_OUT.
.PHONY: e2e-cluster nginx-classes soak cluster-tools

CLUSTER_TOOLS := nginx-light webp libjpeg-turbo-progs libavif-bin

cluster-tools: deps
ifneq ($(UNAME_S),Darwin)
	@missing=$$(for p in $(CLUSTER_TOOLS); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || echo $$p; done); \
	if [ -n "$$missing" ] && ! { [ "$$missing" = nginx-light ] && command -v nginx >/dev/null; }; then \
	  echo "installing: $$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi
endif

nginx-classes: cluster-tools ## The nginx recipe's format class for every row of the Accept table, both tiers
	timeout --signal=TERM 120 python3 -m e2e.nginx_classes

# The demo's photos (`make demo-photos`, what `make demo` fetches), as JPEGs and as 768-px PNG copies:
# nothing from the project's private corpus.
e2e-cluster: cluster-tools nginx-classes demo-photos ## Two origins and a bridge behind nginx's cache: 60 s of mixed clients, a replica killed
	$(SWIFT) build -c release --product webp-bridge
	timeout --signal=TERM 280 python3 -m e2e.cluster .build/release/webp-bridge "$(DEMO_PHOTOS)"

soak: cluster-tools ## Origin and bridge for SOAK_MINUTES (30) with upstream faults: fails on growth or a broken image
	@test -d "$(CORPUS)/kodak" || { echo "soak needs the Kodak photos: set WEBP_BRIDGE_CORPUS or place shared/corpus beside the project"; exit 1; }
	$(SWIFT) build -c release --product webp-bridge
	python3 -m e2e.soak .build/release/webp-bridge "$(CORPUS)/kodak"
