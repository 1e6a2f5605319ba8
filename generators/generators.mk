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
