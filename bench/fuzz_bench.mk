# The fuzzer effectiveness benchmark (docs/fuzzing.md, "Fuzzer effectiveness
# benchmark"): libFuzzer against the bugs of bench/fuzz_bench_bugs.tsv, each a
# patch of bench/bugs applied to a copy of the parsers, then coverage over time
# per harness. Results in $(FUZZ_BENCH_DIR): results.md/.csv/.json,
# coverage.csv, coverage.png.
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

# The bugs are patches, bench/bugs/NN-name.patch, each turning one expression
# of a parser into TC_BUG(NN, buggy, correct) (bench/fuzz_bench.h); parsers/
# holds none of them. The bench builds copy parsers/ to $(FB_SRC), apply
# every patch there (patch -p1, no fuzz), compile the files the patches name
# (their +++ lines) with the header force-included, and link them with the
# engine's other objects, as fuzz/fuzz.mk builds them, and the canaries
# (bench/fuzz_bench_canary.c):
#
#   $(BUILD)/fuzz/bench-libfuzzer/<target>  every bug in, each enabled at run time
#   $(BUILD)/fuzz/bench-regress/<target>    the same for replaying inputs
#   $(BUILD)/fuzz/cov/<target>              regression driver with llvm-cov instrumentation
FB_OUT := $(FUZZ_OUT)
# Not under $(FUZZ_OUT): fuzz/coverage.ignore leaves paths with a fuzz/ in
# them out of the coverage instrumentation.
FB_SRC := $(BUILD)/fuzz-bench-src
FB_PATCHES := $(sort $(wildcard bench/bugs/*.patch))
FB_HOOKED_SRCS := $(sort $(shell sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' $(FB_PATCHES) /dev/null))

# A fresh copy each time, so that a patch never meets one already applied;
# the stamp is older than the files patched. The parsers include headers of
# spec/ and generators/ by relative paths (../../spec/...): links to the tree's.
$(FB_SRC)/.patched: $(FB_PATCHES) bench/bugs $(wildcard parsers/*/*) bench/fuzz_bench.mk
	@rm -rf $(FB_SRC) && mkdir -p $(FB_SRC) && cp -R parsers $(FB_SRC)/
	@ln -s $(CURDIR)/spec $(CURDIR)/generators $(FB_SRC)/
	@touch $@.tmp
	$(call say,PATCH,$(FB_SRC))
	$(Q)for p in $(FB_PATCHES); do \
	    patch -p1 -F0 -f -N -s --no-backup-if-mismatch -d $(FB_SRC) -i $(CURDIR)/$$p >&2 || \
	        { echo "fuzz-bench: $$p does not apply to parsers/" >&2; exit 1; }; \
	done
	@mv $@.tmp $@
$(FB_HOOKED_SRCS:%=$(FB_SRC)/%): $(FB_SRC)/.patched ;

# The canaries carry no coverage instrumentation and no sanitizer: they must
# give the fuzzer no feedback of their own (as Magma's canaries).
$(FB_OUT)/bench-canary.o: bench/fuzz_bench_canary.c bench/fuzz_bench.h
	@mkdir -p $(@D)
	$(call say,CC-FB,$<)
	$(Q)$(FUZZ_CC) -std=c11 $(WARNINGS) -O1 -g -c $< -o $@

# $(1): the engine whose objects and flags the bench build reuses.
define FB_ENGINE_RULES
$(FB_OUT)/bench-$(1)/obj/%.o: $(FB_SRC)/%.c bench/fuzz_bench.h $$(FZ_$(1)_DEPS)
	@mkdir -p $$(@D)
	$$(call say,CC-FB,$$<)
	$$(Q)$$(FZ_$(1)_CC) $$(CPPFLAGS) $$(FUZZ_CFLAGS) -include bench/fuzz_bench.h $$(call fuzz_san,$(1)) \
	    $$(FZ_$(1)_OBJ) -MMD -MP -c $$< -o $$@

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

.PHONY: fuzz-bench-build check-fuzz-bench check-fuzz-bench-patches
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

# The patches against parsers/ as it is: each applies without fuzz (a dry
# run), names only library sources, and the table matches them; parsers/
# holds no TC_BUG. A parser change that breaks a patch fails here, by name.
check-fuzz-bench-patches:
	@fail=0; for p in $(FB_PATCHES); do \
	    patch -p1 -F0 -f -N -s --dry-run -i $$p >&2 || \
	        { echo "fuzz-bench: $$p does not apply to parsers/" >&2; fail=1; }; \
	done; \
	for f in $(filter-out $(FUZZ_LIB_SRCS),$(FB_HOOKED_SRCS)); do \
	    echo "fuzz-bench: a patch of bench/bugs changes $$f, not a library source" >&2; fail=1; \
	done; \
	[ $$fail = 0 ] || exit 1
	@bench/fuzz_bench.sh --check-bugs

CHECK_TARGETS += check-fuzz-bench check-fuzz-bench-patches
