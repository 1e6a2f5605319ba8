# make bench: throughput and peak memory figures (docs/benchmarks.md).
# Figures only: no target of `make check` depends on them.
#
#   make bench                              every figure (first run generates
#                                           and compresses the traces: minutes)
#   make bench BENCH_RUNS=3 BENCH_HUGE=no   fewer runs, no 4 GiB trace
#   make bench-xray | bench-xray-basic | bench-ovni | bench-dcfg | bench-perf |
#        bench-json | bench-jobs | bench-progress | bench-scaling   one of them
#   make bench-per-core                     the per-core table: each format's
#                                           trace, validate -j 1 against cat
#
# The traces are cached in $(BENCH_DIR); delete it to regenerate them.

BENCH_DIR ?= $(BUILD)/bench
BENCH_RUNS ?= 5
BENCH_SLOW_RUNS ?= 2
BENCH_LLVM_TIMEOUT ?= 300
BENCH_HUGE ?= auto
BENCH_SEED ?= 1
LLVM_XRAY ?= llvm-xray
OVNIEMU ?= ovniemu
BENCH_BASELINE_TIMEOUT ?= 600
BENCH_BASELINE_MEM_GIB ?= 12

.PHONY: bench bench-xray bench-xray-basic bench-ovni bench-json bench-dcfg bench-perf bench-jobs \
        bench-progress bench-scaling bench-per-core
bench: bench-xray bench-xray-basic bench-ovni bench-json bench-dcfg bench-perf bench-jobs \
       bench-progress bench-scaling bench-per-core

bench-xray: $(TRACECHECK)
	@TRACECHECK='$(TRACECHECK)' BENCH_DIR='$(BENCH_DIR)' LLVM_XRAY='$(LLVM_XRAY)' \
	    BENCH_RUNS='$(BENCH_RUNS)' BENCH_SLOW_RUNS='$(BENCH_SLOW_RUNS)' \
	    BENCH_LLVM_TIMEOUT='$(BENCH_LLVM_TIMEOUT)' BENCH_HUGE='$(BENCH_HUGE)' \
	    BENCH_SEED='$(BENCH_SEED)' bench/xray/xray.sh

bench-xray-basic: $(TRACECHECK)
	@TRACECHECK='$(TRACECHECK)' BENCH_DIR='$(BENCH_DIR)' LLVM_XRAY='$(LLVM_XRAY)' \
	    BENCH_RUNS='$(BENCH_RUNS)' BENCH_SLOW_RUNS='$(BENCH_SLOW_RUNS)' BENCH_SEED='$(BENCH_SEED)' \
	    BENCH_LLVM_TIMEOUT='$(BENCH_LLVM_TIMEOUT)' \
	    BENCH_BASELINE_MEM_GIB='$(BENCH_BASELINE_MEM_GIB)' bench/xray/xray_basic.sh

bench-ovni: $(TRACECHECK)
	@TRACECHECK='$(TRACECHECK)' BENCH_DIR='$(BENCH_DIR)' BENCH_RUNS='$(BENCH_RUNS)' \
	    BENCH_SLOW_RUNS='$(BENCH_SLOW_RUNS)' BENCH_SEED='$(BENCH_SEED)' OVNIEMU='$(OVNIEMU)' \
	    bench/ovni/ovni.sh

bench-dcfg: $(TRACECHECK)
	@TRACECHECK='$(TRACECHECK)' BENCH_DIR='$(BENCH_DIR)' BENCH_RUNS='$(BENCH_RUNS)' \
	    BENCH_SLOW_RUNS='$(BENCH_SLOW_RUNS)' BENCH_SEED='$(BENCH_SEED)' \
	    BENCH_BASELINE_TIMEOUT='$(BENCH_BASELINE_TIMEOUT)' \
	    BENCH_BASELINE_MEM_GIB='$(BENCH_BASELINE_MEM_GIB)' bench/dcfg/dcfg.sh

bench-perf: $(TRACECHECK)
	@TRACECHECK='$(TRACECHECK)' BENCH_DIR='$(BENCH_DIR)' BENCH_RUNS='$(BENCH_RUNS)' \
	    BENCH_SLOW_RUNS='$(BENCH_SLOW_RUNS)' BENCH_SEED='$(BENCH_SEED)' bench/perf/perf.sh

bench-per-core: $(TRACECHECK)
	@TRACECHECK='$(TRACECHECK)' BENCH_DIR='$(BENCH_DIR)' BENCH_RUNS='$(BENCH_RUNS)' \
	    BENCH_SEED='$(BENCH_SEED)' bench/per_core.sh
bench-progress: $(TRACECHECK)
	@TRACECHECK='$(TRACECHECK)' BENCH_DIR='$(BENCH_DIR)' BENCH_RUNS='$(BENCH_RUNS)' \
	    BENCH_SEED='$(BENCH_SEED)' bench/progress.sh

# Threads within one input: 1, 2, 4 ... BENCH_SCALING_MAX (default: the CPUs).
BENCH_SCALING_SIZE ?= 1G
BENCH_SCALING_MAX ?=
bench-scaling: $(TRACECHECK)
	@TRACECHECK='$(TRACECHECK)' BENCH_DIR='$(BENCH_DIR)' BENCH_RUNS='$(BENCH_RUNS)' \
	    BENCH_SEED='$(BENCH_SEED)' BENCH_SCALING_SIZE='$(BENCH_SCALING_SIZE)' \
	    BENCH_SCALING_MAX='$(BENCH_SCALING_MAX)' bench/scaling.sh

bench-jobs: $(TRACECHECK)
	@TRACECHECK='$(TRACECHECK)' BENCH_DIR='$(BENCH_DIR)' BENCH_RUNS='$(BENCH_RUNS)' \
	    BENCH_SEED='$(BENCH_SEED)' bench/jobs.sh

# The JSON layer's choice (docs/design.md): tc_json against yajl on speed
# (two 200 MiB documents made by json_compare itself) and on strictness.
JSON_COMPARE := $(BUILD)/obj/bench/json_compare
BENCH_JSON_SIZE ?= 209715200

$(JSON_COMPARE): bench/json_compare.c tests/json_cases.c tests/ot.h $(BUILD)/libtracecheck.a
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(CC) $(CPPFLAGS) -D_GNU_SOURCE $(CFLAGS_ALL) -o $@ bench/json_compare.c \
	    tests/json_cases.c $(BUILD)/libtracecheck.a -lyajl $(LIBS)

bench-json: $(JSON_COMPARE)
	@set -eo pipefail; . bench/lib.sh; mkdir -p '$(BENCH_DIR)'; files=; \
	for k in dcfg trace; do \
	    f='$(BENCH_DIR)'/json-$$k-$(BENCH_JSON_SIZE).json; files="$$files $$f"; \
	    if [ ! -s "$$f" ]; then \
	        echo "bench: generating $$f ..." >&2; \
	        $(JSON_COMPARE) gen $$k $(BENCH_JSON_SIZE) "$$f.tmp"; mv "$$f.tmp" "$$f"; \
	    fi; \
	    warm "$$f"; \
	done; \
	{ echo; echo "JSON layer: tc_json (parsers/common/json.c) against yajl" \
	    "$$(dpkg-query -W -f='$${Version}' libyajl2 2>/dev/null)"; \
	  machine_lines; \
	  echo "load average (1, 5, 15 min) at start: $$(cut -d ' ' -f 1-3 /proc/loadavg)"; echo; \
	  $(JSON_COMPARE) speed $(BENCH_RUNS) $$files; echo; \
	  $(JSON_COMPARE) strict; } | tee '$(BENCH_DIR)/results-json.txt'

# The fuzzer effectiveness benchmark, make fuzz-bench (docs/fuzzing.md): its
# builds, and check-fuzz-bench, which make check runs.
include bench/fuzz_bench.mk
