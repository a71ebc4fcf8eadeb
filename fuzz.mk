# libFuzzer targets (`include fuzz.mk` from the Makefile; not part of `make test`).
# Built with the toolchain's own libFuzzer and ASan runtimes (-sanitize=fuzzer,address)
# into .build-fuzz, so the normal .build is left alone. See docs/development.md "Fuzzing".
FUZZ_TARGETS  := decode transcode variant processing rewrite request-head html
FUZZ_SECONDS  ?= 300
FUZZ_SCRATCH  := .build-fuzz
FUZZ_BIN      := $(FUZZ_SCRATCH)/release
FUZZ_BUILD    := nice -n 10 $(SWIFT) build -c release --scratch-path $(FUZZ_SCRATCH) \
                 -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING
# Image targets read the shared corpus in place; inputs beyond FUZZ_MAX_LEN are cut
# there (the Kodak photos are 0.5 MB; a smaller input is mutated much faster).
FUZZ_IMAGE_SEEDS := $(CORPUS)/edge $(CORPUS)/webp-conformance $(CORPUS)/kodak
FUZZ_IMAGE_MAX_LEN ?= 131072
# The origin's variants encode (and search) every input: small inputs, and small seeds only.
fuzz-run-variant: FUZZ_IMAGE_SEEDS := $(CORPUS)/edge $(CORPUS)/webp-conformance
fuzz-run-variant: FUZZ_IMAGE_MAX_LEN := 16384
export FUZZ_SECONDS

.PHONY: fuzz fuzz-build $(addprefix fuzz-,$(FUZZ_TARGETS)) $(addprefix fuzz-run-,$(FUZZ_TARGETS))

fuzz: deps fuzz-build ## Fuzz every target for FUZZ_SECONDS (default 300) each (make fuzz-TARGET: one); crashers go to Fuzz/Crashers/
	@rm -f $(FUZZ_SCRATCH)/logs/summary.txt; failed=0; \
	for target in $(FUZZ_TARGETS); do $(MAKE) --no-print-directory fuzz-run-$$target || failed=1; done; \
	echo; cat $(FUZZ_SCRATCH)/logs/summary.txt; exit $$failed

fuzz-build: deps
	@for target in $(FUZZ_TARGETS); do $(FUZZ_BUILD) --product fuzz-$$target 2>&1 | grep -E 'error|warning:|Compiling|complete' || exit 1; done

$(addprefix fuzz-,$(FUZZ_TARGETS)): fuzz-%: deps
	$(FUZZ_BUILD) --product fuzz-$*
	@$(MAKE) --no-print-directory fuzz-run-$*

fuzz-run-decode fuzz-run-transcode fuzz-run-variant:
	@FUZZ_MAX_LEN=$${FUZZ_MAX_LEN:-$(FUZZ_IMAGE_MAX_LEN)} Fuzz/run-fuzzer.sh $(@:fuzz-run-%=%) \
	  $(FUZZ_BIN)/$(@:fuzz-run-%=fuzz-%) $(FUZZ_IMAGE_SEEDS)

fuzz-run-processing fuzz-run-rewrite fuzz-run-request-head fuzz-run-html:
	@Fuzz/run-fuzzer.sh $(@:fuzz-run-%=%) $(FUZZ_BIN)/$(@:fuzz-run-%=fuzz-%) Fuzz/Seeds/$(@:fuzz-run-%=%)
