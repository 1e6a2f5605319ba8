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

# The ovni generator at the command line: valid traces of several shapes,
# sizes and both byte orders pass `tracecheck validate` with no finding at
# all, the same options write the same files, and the trace of every
# mutator is reported with its rule (at its severity) and no other error.
OVNI_GEN_CHECK_DIR := $(BUILD)/gen-check-ovni

.PHONY: check-gen-ovni
check-gen-ovni: $(TRACECHECK)
	@rm -rf $(OVNI_GEN_CHECK_DIR) && mkdir -p $(OVNI_GEN_CHECK_DIR)
	@n=0; for shape in "1 1 1" "2 2 2" "3 1 4"; do set -- $$shape; \
	  for seed in 1 2; do for be in "" --big-endian; do for size in 0 50K 2M; do \
	    d=$(OVNI_GEN_CHECK_DIR)/valid-$$1$$2$$3-$$seed$$be-$$size; \
	    args="--looms $$1 --procs $$2 --threads $$3 --seed $$seed --size $$size $$be"; \
	    $(TRACECHECK) gen ovni $$args -o $$d || exit 1; \
	    out=$$($(TRACECHECK) validate --color never $$d) || { echo "tracecheck rejects $$d:"; echo "$$out"; exit 1; }; \
	    echo "$$out" | grep -q " 0 errors, 0 warnings, 0 notes" || \
	        { echo "findings on $$d ($$args):"; echo "$$out"; exit 1; }; \
	    $(TRACECHECK) gen ovni $$args -o $$d.again && diff -r $$d $$d.again > /dev/null || \
	        { echo "gen ovni $$args is not deterministic"; exit 1; }; \
	    rm -rf $$d $$d.again; n=$$((n + 1)); \
	  done; done; done; done; \
	echo "ovni generator: $$n valid traces without a finding, reproducible"
	@n=0; for rule in $$($(TRACECHECK) gen ovni --list-mutators | awk '{print $$1}'); do \
	  sev=$$($(TRACECHECK) rules --format ovni | awk -v r=$$rule '$$1 == r {print $$2}'); \
	  for seed in 1 2; do for be in "" --big-endian; do \
	    d=$(OVNI_GEN_CHECK_DIR)/$$rule-$$seed$$be; \
	    $(TRACECHECK) gen ovni --seed $$seed --size 30K $$be --violate $$rule -o $$d || exit 1; \
	    out=$$($(TRACECHECK) validate --color never $$d); st=$$?; \
	    want=$$([ "$$sev" = error ] && echo 1 || echo 0); \
	    others=$$(echo "$$out" | grep ": error: " | grep -v ": error: $$rule: "); \
	    if [ $$st != $$want ] || ! echo "$$out" | grep -q ": $$sev: $$rule: " || [ -n "$$others" ]; then \
	        echo "gen ovni --seed $$seed $$be --violate $$rule: exit $$st, expected $$rule alone:"; \
	        echo "$$out"; exit 1; fi; \
	    rm -rf $$d; n=$$((n + 1)); \
	  done; done; done; \
	echo "ovni mutators: $$n traces, each reported with its rule alone"

CHECK_TARGETS += check-gen-ovni
