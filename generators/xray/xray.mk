# The generator against LLVM's own reader: valid traces of every version LLVM
# reads (little-endian; version 1 with zero padding, its default) must be
# accepted by `llvm-xray fdr-dump --verify` and by `llvm-xray convert`, and
# the same options must give the same bytes.
GEN_CHECK_DIR := $(BUILD)/gen-check

.PHONY: check-gen-llvm
check-gen-llvm: $(TRACECHECK)
	@rm -rf $(GEN_CHECK_DIR) && mkdir -p $(GEN_CHECK_DIR)
	@n=0; for v in 1 2 3 4 5; do for seed in 1 2 3; do for size in 200 4K 100K 2M; do \
	    f=$(GEN_CHECK_DIR)/v$$v-s$$seed-$$size.xray; \
	    $(TRACECHECK) gen xray --version $$v --seed $$seed --size $$size --threads $$seed -o $$f || exit 1; \
	    llvm-xray fdr-dump --verify $$f > /dev/null 2>$$f.err || \
	        { echo "llvm-xray fdr-dump --verify rejects $$f:"; cat $$f.err; exit 1; }; \
	    llvm-xray convert --output-format=yaml --output=/dev/null $$f 2>$$f.err || \
	        { echo "llvm-xray convert rejects $$f:"; cat $$f.err; exit 1; }; \
	    $(TRACECHECK) validate -q $$f > /dev/null || { echo "tracecheck rejects $$f"; exit 1; }; \
	    $(TRACECHECK) gen xray --version $$v --seed $$seed --size $$size --threads $$seed -o $$f.again && \
	    cmp -s $$f $$f.again || { echo "gen is not deterministic for $$f"; exit 1; }; \
	    n=$$((n + 1)); done; done; done; \
	echo "generator: $$n traces (versions 1-5) accepted by llvm-xray fdr-dump --verify and convert, reproducible"

CHECK_TARGETS += check-gen-llvm

# The basic-mode generator (gen xray --mode basic) against LLVM's own reader:
# valid logs of versions 1 to 3 in both byte orders (LLVM reads big-endian
# ones through its retry), several threads and sizes, are accepted by
# `llvm-xray convert` (it has no fdr-dump for basic mode), have no finding
# at all under --pedantic, and are reproducible. A header-only log is valid
# but LLVM rejects it (docs/llvm-xray.md): that departure is checked to be
# still there, so that a fix upstream is noticed. Then the log of every
# basic-mode mutator is reported with its rule at its severity and no other
# error.
GEN_BASIC_CHECK_DIR := $(BUILD)/gen-check-basic

.PHONY: check-gen-xray-basic
check-gen-xray-basic: $(TRACECHECK)
	@rm -rf $(GEN_BASIC_CHECK_DIR) && mkdir -p $(GEN_BASIC_CHECK_DIR)
	@n=0; for v in 1 2 3; do for be in "" --big-endian; do for seed in 1 2 3; do \
	  for size in 100 4K 100K 2M; do \
	    f=$(GEN_BASIC_CHECK_DIR)/v$$v$$be-s$$seed-$$size.xray; \
	    args="--mode basic --version $$v $$be --seed $$seed --size $$size --threads $$seed"; \
	    $(TRACECHECK) gen xray $$args -o $$f || exit 1; \
	    llvm-xray convert -f yaml $$f > /dev/null 2>$$f.err || \
	        { echo "llvm-xray convert rejects $$f ($$args):"; cat $$f.err; exit 1; }; \
	    out=$$($(TRACECHECK) validate --pedantic --color never $$f) || \
	        { echo "tracecheck rejects $$f ($$args):"; echo "$$out"; exit 1; }; \
	    echo "$$out" | grep -q " 0 errors, 0 warnings, 0 notes" || \
	        { echo "findings on $$f ($$args):"; echo "$$out"; exit 1; }; \
	    $(TRACECHECK) gen xray $$args -o $$f.again && cmp -s $$f $$f.again || \
	        { echo "gen xray $$args is not deterministic"; exit 1; }; \
	    rm -f $$f $$f.again $$f.err; n=$$((n + 1)); \
	  done; done; done; done; \
	f=$(GEN_BASIC_CHECK_DIR)/header-only.xray; \
	$(TRACECHECK) gen xray --mode basic --size 0 -o $$f && $(TRACECHECK) validate -q $$f > /dev/null && \
	! llvm-xray convert -f yaml $$f > /dev/null 2>&1 || \
	    { echo "llvm-xray convert now accepts a header-only basic-mode log: update" \
	           "docs/llvm-xray.md (conformance/tools/xray/llvm-xray-doc)"; exit 1; }; \
	echo "basic-mode generator: $$n logs (versions 1-3, both byte orders) accepted by" \
	     "llvm-xray convert, without a finding, reproducible; a header-only log valid, as" \
	     "documented rejected by llvm-xray convert"
	@n=0; for rule in $$($(TRACECHECK) gen xray --mode basic --list-mutators | awk '{print $$1}'); do \
	  sev=$$($(TRACECHECK) rules --format xray-basic | awk -v r=$$rule '$$1 == r {print $$2}'); \
	  versions=$$($(TRACECHECK) gen xray --mode basic --list-mutators | \
	             awk -v r=$$rule '$$1 == r {gsub("v", "", $$2); gsub(",", " ", $$2); print $$2}'); \
	  want=$$([ "$$sev" = error ] && echo 1 || echo 0); \
	  for v in $$versions; do for run in "1" "2 --big-endian --threads 3"; do \
	    f=$(GEN_BASIC_CHECK_DIR)/$$rule-$$v.xray; \
	    $(TRACECHECK) gen xray --mode basic --version $$v --size 30K --violate $$rule \
	        --seed $$run -o $$f || exit 1; \
	    out=$$($(TRACECHECK) validate --pedantic --color never $$f); st=$$?; \
	    others=$$(echo "$$out" | grep ": error: " | grep -v ": error: $$rule: "); \
	    if [ $$st != $$want ] || ! echo "$$out" | grep -q ": $$sev: $$rule: " || \
	       [ -n "$$others" ]; then \
	        echo "gen xray --mode basic --version $$v --seed $$run --violate $$rule: exit" \
	             "$$st, expected $$rule alone:"; echo "$$out"; exit 1; fi; \
	    rm -f $$f; n=$$((n + 1)); \
	  done; done; done; \
	echo "basic-mode mutators: $$n logs, each reported with its rule alone"

CHECK_TARGETS += check-gen-xray-basic
