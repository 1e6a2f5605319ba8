# The fuzzer effectiveness benchmark (docs/fuzzing.md, "Fuzzer effectiveness
# benchmark"): libFuzzer against the bugs planted in parsers/ with TC_BUG
# (bench/fuzz_bench_bugs.tsv), then coverage over time per harness. Results in
# $(FUZZ_BENCH_DIR): results.md/.csv/.json, coverage.csv, coverage.png.
#
#   make fuzz-bench [FUZZ_BENCH_SECONDS=60] [FUZZ_BENCH_BUGS="4 7"] [FUZZ_BENCH_COV=no]
FUZZ_BENCH_DIR ?= $(BUILD)/fuzz-bench
FUZZ_BENCH_SECONDS ?= 60
FUZZ_BENCH_BUGS ?= all
FUZZ_BENCH_PER_BUG ?= 0
FUZZ_BENCH_JOBS ?= 2
FUZZ_BENCH_COV ?= yes
FUZZ_BENCH_COV_SECONDS ?= 60
FUZZ_BENCH_COV_INTERVAL ?= 10
FUZZ_BENCH_COV_TARGETS ?=
fb_empty :=
fb_space := $(fb_empty) $(fb_empty)
# target:seed+seed:dict for every harness, as `make fuzz` runs it.
FUZZ_BENCH_HARNESSES = $(foreach t,$(FUZZ_TARGETS),$(t):$(subst $(fb_space),+,$(strip \
    $(call fuzz_seeds,$(t)))):$(call fuzz_dict,$(t)))

.PHONY: fuzz-bench
fuzz-bench: fuzz-bench-build
	@FUZZ_BENCH_HARNESSES='$(FUZZ_BENCH_HARNESSES)' FUZZ_BENCH_SECONDS='$(FUZZ_BENCH_SECONDS)' \
	    FUZZ_BENCH_BUGS='$(FUZZ_BENCH_BUGS)' FUZZ_BENCH_PER_BUG='$(FUZZ_BENCH_PER_BUG)' \
	    FUZZ_BENCH_JOBS='$(FUZZ_BENCH_JOBS)' FUZZ_BENCH_COV='$(FUZZ_BENCH_COV)' \
	    FUZZ_BENCH_COV_SECONDS='$(FUZZ_BENCH_COV_SECONDS)' \
	    FUZZ_BENCH_COV_INTERVAL='$(FUZZ_BENCH_COV_INTERVAL)' \
	    FUZZ_BENCH_COV_TARGETS='$(FUZZ_BENCH_COV_TARGETS)' \
	    bench/fuzz_bench.sh $(FUZZ_OUT) $(FUZZ_BENCH_DIR)

# ---- builds ----

# The fuzz-bench builds reuse fuzz/fuzz.mk's objects and rules. They compile only
# the files that hold a TC_BUG again, with -DTC_FUZZBENCH, and link them with
# the engine's other objects and the canaries (bench/fuzz_bench_canary.c):
#
#   $(BUILD)/fuzz/bench-libfuzzer/<target>  every bug in, each enabled at run time
#   $(BUILD)/fuzz/bench-regress/<target>    the same for replaying inputs
#   $(BUILD)/fuzz/cov/<target>              regression driver with llvm-cov instrumentation
FB_HOOKED_SRCS := $(shell grep -lw TC_BUG $(FUZZ_LIB_SRCS) 2>/dev/null)
FB_OUT := $(FUZZ_OUT)

# The canaries carry no coverage instrumentation and no sanitizer: they must
# give the fuzzer no feedback of their own (as Magma's canaries).
$(FB_OUT)/bench-canary.o: bench/fuzz_bench_canary.c parsers/common/fuzzbench.h
	@mkdir -p $(@D)
	$(call say,CC-FB,$<)
	$(Q)$(FUZZ_CC) -std=c11 $(WARNINGS) -DTC_FUZZBENCH -O1 -g -c $< -o $@

# $(1): the engine whose objects and flags the bench build reuses.
define FB_ENGINE_RULES
$(FB_OUT)/bench-$(1)/obj/%.o: %.c $$(FZ_$(1)_DEPS)
	@mkdir -p $$(@D)
	$$(call say,CC-FB,$$<)
	$$(Q)$$(FZ_$(1)_CC) $$(CPPFLAGS) $$(FUZZ_CFLAGS) -DTC_FUZZBENCH $$(call fuzz_san,$(1)) $$(FZ_$(1)_OBJ) \
	    -MMD -MP -c $$< -o $$@

FB_$(1)_OBJS := $$(patsubst %.c,$(FB_OUT)/bench-$(1)/obj/%.o,$(FB_HOOKED_SRCS)) \
    $$(patsubst %.c,$(FUZZ_OUT)/$(1)/obj/%.o,$$(filter-out $(FB_HOOKED_SRCS),\
        $(FUZZ_LIB_SRCS) $(FUZZ_HELPER_SRCS))) $(FB_OUT)/bench-canary.o
endef

define FB_TARGET_RULES
$(FB_OUT)/bench-$(1)/$(2): $(call fuzz_target_objs,$(1),$(2)) $$(FB_$(1)_OBJS) $$(FZ_$(1)_MAIN)
	$$(call say,LD-FB,$$@)
	$$(Q)$$(FZ_$(1)_$(3)) $$(call fuzz_san,$(1)) -o $$@ $$^ $$(FZ_$(1)_LINK) \
	    $(if $(filter CXX,$(3)),$$(FUZZ_LLVM_LIBS)) $$(LIBS)
endef

$(foreach e,libfuzzer regress,$(eval $(call FB_ENGINE_RULES,$(e))))
$(foreach e,libfuzzer regress,$(foreach t,$(FUZZ_C_TARGETS),$(eval $(call FB_TARGET_RULES,$(e),$(t),CC))))
$(foreach e,libfuzzer regress,$(foreach t,$(FUZZ_CXX_TARGETS),$(eval $(call FB_TARGET_RULES,$(e),$(t),CXX))))

# Coverage: the regression driver built with clang's source-based coverage.
FZ_cov_CC := $(FUZZ_CC)
FZ_cov_CXX := $(FUZZ_CXX)
FZ_cov_OBJ := -fprofile-instr-generate -fcoverage-mapping
FZ_cov_LINK := -fprofile-instr-generate
FZ_cov_MAIN := $(FUZZ_OUT)/cov/obj/fuzz/regression_driver.o
$(eval $(call FUZZ_ENGINE_RULES,cov))
$(foreach t,$(FUZZ_C_TARGETS),$(eval $(call FUZZ_TARGET_RULES,cov,$(t),CC)))
$(foreach t,$(FUZZ_CXX_TARGETS),$(eval $(call FUZZ_TARGET_RULES,cov,$(t),CXX)))

.PHONY: fuzz-bench-build check-fuzz-bench
fuzz-bench-build: $(FUZZ_TARGETS:%=$(FB_OUT)/bench-libfuzzer/%) \
    $(FUZZ_TARGETS:%=$(FB_OUT)/bench-regress/%) $(FUZZ_TARGETS:%=$(FUZZ_OUT)/libfuzzer/%) \
    $(FUZZ_TARGETS:%=$(FUZZ_OUT)/cov/%)

# The mechanism, in a few seconds: a known input that triggers bug 4 (a space
# in an ovni event's MCV) fails ovni_stream with the bug enabled, passes with
# it disabled, and the canary records it reached and triggered both times.
check-fuzz-bench: $(FB_OUT)/bench-regress/ovni_stream
	@rm -rf $(FB_OUT)/bench-check && mkdir -p $(FB_OUT)/bench-check
	@printf 'ovni\001\000\000\000\000O L\001\000\000\000\000\000\000\000' \
	    > $(FB_OUT)/bench-check/mcv-space.obs
	@bench/fuzz_bench.sh --check $< 4 $(FB_OUT)/bench-check/mcv-space.obs $(FB_OUT)/bench-check

CHECK_TARGETS += check-fuzz-bench
