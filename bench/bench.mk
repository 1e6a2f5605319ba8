# make bench: throughput and peak memory figures (docs/benchmarks.md).
# Figures only: no target of `make check` depends on them.
#
#   make bench                              every figure (first run generates
#                                           and compresses the traces: minutes)
#   make bench BENCH_RUNS=3 BENCH_HUGE=no   fewer runs, no 4 GiB trace
#
# The traces are cached in $(BENCH_DIR); delete it to regenerate them.

BENCH_DIR ?= $(BUILD)/bench
BENCH_RUNS ?= 5
BENCH_SLOW_RUNS ?= 2
BENCH_LLVM_TIMEOUT ?= 300
BENCH_HUGE ?= auto
BENCH_SEED ?= 1
LLVM_XRAY ?= llvm-xray

.PHONY: bench bench-xray bench-ovni
bench: bench-xray bench-ovni

bench-xray: $(TRACECHECK)
	@TRACECHECK='$(TRACECHECK)' BENCH_DIR='$(BENCH_DIR)' LLVM_XRAY='$(LLVM_XRAY)' \
	    BENCH_RUNS='$(BENCH_RUNS)' BENCH_SLOW_RUNS='$(BENCH_SLOW_RUNS)' \
	    BENCH_LLVM_TIMEOUT='$(BENCH_LLVM_TIMEOUT)' BENCH_HUGE='$(BENCH_HUGE)' \
	    BENCH_SEED='$(BENCH_SEED)' bench/xray.sh

bench-ovni: $(TRACECHECK)
	@TRACECHECK='$(TRACECHECK)' BENCH_DIR='$(BENCH_DIR)' BENCH_RUNS='$(BENCH_RUNS)' \
	    BENCH_SLOW_RUNS='$(BENCH_SLOW_RUNS)' BENCH_SEED='$(BENCH_SEED)' bench/ovni.sh
