# Fuzzing (docs/fuzzing.md). Every harness fuzz/<folder>/<target>.c or .cc is built
# three ways, each with the library sources compiled into its own objects:
#
#   $(BUILD)/fuzz/libfuzzer/<target>  clang -fsanitize=fuzzer,address,undefined
#   $(BUILD)/fuzz/afl/<target>        afl-clang-fast, persistent mode (libAFLDriver), ASan+UBSan
#   $(BUILD)/fuzz/regress/<target>    fuzz/regression_driver.c: replays files, ASan+UBSan
#
#   make fuzz TARGET=xray_parse SECONDS=600 [ENGINE=libfuzzer|afl] [JOBS=N]
#   make fuzz-build        every harness for every engine
#   make fuzz-docs         regenerate the allow-list table in docs/fuzzing.md
#
# make check runs check-fuzz-regress (every harness replays its seed corpus
# and corpus/*/regressions), check-fuzz-smoke (SMOKE_SECONDS of libFuzzer per
# harness), check-fuzz-afl (AFL_SMOKE_SECONDS of AFL++ on xray_parse, and on
# ovni_lean with its custom mutator library) and check-fuzz-docs (the
# allow-list tables of docs/fuzzing.md).

# Per format, a lean harness (one parse of raw bytes, judged by oracles: the
# one for campaigns) and deep ones (input paths, options, generators,
# differentials); docs/fuzzing.md lists them. Each folder of fuzz/ lists its
# harnesses in its harnesses.mk: FUZZ_C_TARGETS and FUZZ_CXX_TARGETS (the
# harness T is fuzz/<folder>/T.c or .cc), FUZZ_LEAN_OF (LEAN:DEEP, the deep
# harness that takes the same bytes: the lean one reads its seeds and
# dictionary), FUZZ_SEEDS_T and FUZZ_DICT_T (none when not set: a harness
# named *_roundtrip reads its input as a stream of choices, dcfg_dom as a
# graph), FUZZ_MUTATOR_T, and FUZZ_EXTRA_T (sources of one harness alone).
# Every other .c of fuzz/common/ and of a format's folder is part of the
# harness kit, linked into every harness, except the programs that write
# the docs' tables (*_allowlist_doc.c).
FUZZ_C_TARGETS :=
FUZZ_CXX_TARGETS :=
FUZZ_LEAN_OF :=
FUZZ_MUTATORS :=
FUZZ_DIRS := common $(filter-out common,$(patsubst fuzz/%/harnesses.mk,%,$(sort $(wildcard fuzz/*/harnesses.mk))))
include $(FUZZ_DIRS:%=fuzz/%/harnesses.mk)
FUZZ_TARGETS := $(FUZZ_C_TARGETS) $(FUZZ_CXX_TARGETS)
FUZZ_ENGINES := libfuzzer afl regress
# The harness T's source.
fuzz_src = $(firstword $(wildcard $(FUZZ_DIRS:%=fuzz/%/$(1).c) $(FUZZ_DIRS:%=fuzz/%/$(1).cc)))
# The folder of fuzz/ that holds the harness T.
fuzz_dir = $(patsubst fuzz/%/,%,$(dir $(call fuzz_src,$(1))))

FUZZ_OUT := $(BUILD)/fuzz
FUZZ_LIB_SRCS := $(LIB_SRCS) $(filter generators/%,$(TOOL_SRCS))
FUZZ_TARGET_SRCS := $(foreach t,$(FUZZ_TARGETS),$(call fuzz_src,$(t)))
FUZZ_HELPER_SRCS := $(filter-out $(FUZZ_TARGET_SRCS) %_allowlist_doc.c,\
    $(sort $(wildcard $(FUZZ_DIRS:%=fuzz/%/*.c))))
# Every input that ever made a harness fail, with a note: each format's.
FUZZ_REGRESSIONS := $(sort $(wildcard corpus/*/regressions))
fuzz_deep = $(or $(patsubst $(1):%,%,$(filter $(1):%,$(FUZZ_LEAN_OF))),$(1))
fuzz_seeds = $(strip $(FUZZ_SEEDS_$(call fuzz_deep,$(1))))
fuzz_dict = $(or $(FUZZ_DICT_$(call fuzz_deep,$(1))),-)
# Structure-aware mutators (fuzz/<folder>/<name>_mutator.c), per harness:
# libFuzzer takes them from the harness (LLVMFuzzerCustomMutator), AFL++ as a
# library (AFL_CUSTOM_MUTATOR_LIBRARY) built from fuzz/afl_mutator.c.
$(foreach t,$(FUZZ_TARGETS),$(if $(FUZZ_MUTATOR_$(t)),\
    $(eval FUZZ_AFL_MUTATOR_$(t) := $(FUZZ_OUT)/afl/$(FUZZ_MUTATOR_$(t))-mutator.so)))
FUZZ_AFL_MUTATORS := $(FUZZ_MUTATORS:%=$(FUZZ_OUT)/afl/%-mutator.so)
fuzz_mutator_src = $(firstword $(wildcard $(FUZZ_DIRS:%=fuzz/%/$(1)_mutator.c)))
fuzz_afl_env = $(if $(FUZZ_AFL_MUTATOR_$(1)),AFL_CUSTOM_MUTATOR_LIBRARY=$(abspath $(FUZZ_AFL_MUTATOR_$(1))))

# Per harness: 23 harnesses at 8 s cost less than the 14 at 15 s of before
# (3 min 10 s of fuzzing, half that with make -j2).
SMOKE_SECONDS ?= 8
AFL_SMOKE_SECONDS ?= 5
AFL_SMOKE_TARGET ?= xray_parse
FUZZ_MAX_LEN ?= 8192
export FUZZ_MAX_LEN

# ---- toolchains ----

# clang whatever CC the main build uses: libFuzzer and the sanitizers need it.
FUZZ_CC ?= clang
FUZZ_CXX ?= clang++
AFL_CC ?= afl-clang-fast
AFL_CXX ?= afl-clang-fast++
AFL_DRIVER ?= /usr/lib/afl/libAFLDriver.a
LLVM_CONFIG ?= $(firstword $(shell command -v llvm-config-14 llvm-config 2>/dev/null) llvm-config)
# Asked of llvm-config once, and only when a C++ harness is built. LLVM's
# headers are system headers here: they are not clean under our warnings.
fuzz_llvm = $(shell $(LLVM_CONFIG) $(1) 2>/dev/null)
FUZZ_LLVM_CXXFLAGS = $(eval FUZZ_LLVM_CXXFLAGS := $(patsubst -I%,-isystem %,$(filter-out \
    -std=%,$(call fuzz_llvm,--cxxflags))))$(FUZZ_LLVM_CXXFLAGS)
FUZZ_LLVM_LIBS = $(eval FUZZ_LLVM_LIBS := $(call fuzz_llvm,--ldflags) \
    -Wl,-rpath,$(call fuzz_llvm,--libdir) $(call fuzz_llvm,--libs xray support))$(FUZZ_LLVM_LIBS)

FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
# Campaign builds (libFuzzer, AFL++) leave out UBSan's alignment check, as
# OSS-Fuzz's UBSan set does: comparison tracing (-fsanitize=fuzzer,
# AFL++'s CmpLog) reports its `ptr & 7 == 0` before each load like any
# comparison, a quarter of a lean DCFG execution, and the answer is the same
# every time, so it steers nothing. The regression driver's build, which
# replays every corpus in `make check` and every finding in triage, keeps
# the whole of UBSan.
FUZZ_SAN_CAMPAIGN := $(FUZZ_SAN) -fno-sanitize=alignment
FUZZ_DEBUG := -O1 -g -fno-omit-frame-pointer
# FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION (the libFuzzer/OSS-Fuzz convention)
# lowers limits that only cost time, such as the edges a DCFG-trace dump prints
# per chunk, so that no single input is a slow unit.
FUZZ_CFLAGS := -std=c11 $(WARNINGS) $(FUZZ_DEBUG) -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
FUZZ_CXXFLAGS := -std=c++17 -Wall -Wextra -Wshadow $(WERROR) $(FUZZ_DEBUG)

# Per engine: compilers, flags for objects, flags and objects for the link.
FZ_libfuzzer_CC := $(FUZZ_CC)
FZ_libfuzzer_CXX := $(FUZZ_CXX)
FZ_libfuzzer_OBJ := -fsanitize=fuzzer-no-link -fsanitize-coverage-ignorelist=fuzz/coverage.ignore
# What an engine's objects depend on beyond their sources and headers.
FZ_libfuzzer_DEPS := fuzz/coverage.ignore
FZ_libfuzzer_LINK := -fsanitize=fuzzer
FZ_afl_CC := AFL_QUIET=1 $(AFL_CC)
FZ_afl_CXX := AFL_QUIET=1 $(AFL_CXX)
FZ_afl_OBJ :=
FZ_afl_LINK := $(AFL_DRIVER)
FZ_regress_CC := $(FUZZ_CC)
FZ_regress_CXX := $(FUZZ_CXX)
FZ_regress_OBJ :=
FZ_regress_LINK :=
FZ_regress_MAIN := $(FUZZ_OUT)/regress/obj/fuzz/regression_driver.o
# AFL++'s CmpLog twin of the AFL build (campaigns only): comparisons logged
# for input-to-state mutation; no sanitizers, as AFL++ recommends.
FZ_aflcmplog_CC := AFL_QUIET=1 AFL_LLVM_CMPLOG=1 $(AFL_CC)
FZ_aflcmplog_CXX := AFL_QUIET=1 AFL_LLVM_CMPLOG=1 $(AFL_CXX)
FZ_aflcmplog_OBJ :=
FZ_aflcmplog_LINK := $(AFL_DRIVER)
fuzz_san = $(if $(filter aflcmplog,$(1)),,$(if $(filter regress,$(1)),$(FUZZ_SAN),$(FUZZ_SAN_CAMPAIGN)))

# ---- objects and programs ----

define FUZZ_ENGINE_RULES
$(FUZZ_OUT)/$(1)/obj/%.o: %.c $$(FZ_$(1)_DEPS)
	@mkdir -p $$(@D)
	$$(call say,CC-FZ,$$<)
	$$(Q)$$(FZ_$(1)_CC) $$(CPPFLAGS) $$(FUZZ_CFLAGS) $$(call fuzz_san,$(1)) $$(FZ_$(1)_OBJ) \
	    -MMD -MP -c $$< -o $$@

$(FUZZ_OUT)/$(1)/obj/%.o: %.cc $$(FZ_$(1)_DEPS)
	@mkdir -p $$(@D)
	$$(call say,CXX-FZ,$$<)
	$$(Q)$$(FZ_$(1)_CXX) $$(CPPFLAGS) $$(FUZZ_LLVM_CXXFLAGS) $$(FUZZ_CXXFLAGS) $$(call fuzz_san,$(1)) \
	    $$(FZ_$(1)_OBJ) -MMD -MP -c $$< -o $$@

FZ_$(1)_LIBOBJS := $$(patsubst %.c,$(FUZZ_OUT)/$(1)/obj/%.o,$(FUZZ_LIB_SRCS) $(FUZZ_HELPER_SRCS))
endef

# A target's own objects: the harness, and the sources of it alone.
fuzz_target_objs = $(patsubst %.cc,$(FUZZ_OUT)/$(1)/obj/%.o,$(patsubst %.c,$(FUZZ_OUT)/$(1)/obj/%.o,\
    $(call fuzz_src,$(2)))) \
    $(patsubst %.cc,$(FUZZ_OUT)/$(1)/obj/%.o,$(patsubst %.c,$(FUZZ_OUT)/$(1)/obj/%.o,$(FUZZ_EXTRA_$(2))))

# $(1) engine, $(2) target, $(3) C or CXX (the linker and LLVM's libraries).
define FUZZ_TARGET_RULES
$(FUZZ_OUT)/$(1)/$(2): $(call fuzz_target_objs,$(1),$(2)) $$(FZ_$(1)_LIBOBJS) $$(FZ_$(1)_MAIN)
	$$(call say,LD-FZ,$$@)
	$$(Q)$$(FZ_$(1)_$(3)) $$(call fuzz_san,$(1)) -o $$@ $$^ $$(FZ_$(1)_LINK) \
	    $(if $(filter CXX,$(3)),$$(FUZZ_LLVM_LIBS)) $$(LIBS)
endef

$(foreach e,$(FUZZ_ENGINES) aflcmplog,$(eval $(call FUZZ_ENGINE_RULES,$(e))))
$(foreach e,$(FUZZ_ENGINES) aflcmplog,$(foreach t,$(FUZZ_C_TARGETS),\
    $(eval $(call FUZZ_TARGET_RULES,$(e),$(t),CC))))
$(foreach e,$(FUZZ_ENGINES) aflcmplog,$(foreach t,$(FUZZ_CXX_TARGETS),\
    $(eval $(call FUZZ_TARGET_RULES,$(e),$(t),CXX))))

.PHONY: fuzz-build fuzz-build-libfuzzer fuzz-build-afl fuzz-build-regress
fuzz-build: fuzz-build-libfuzzer fuzz-build-afl fuzz-build-regress
fuzz-build-libfuzzer: $(FUZZ_TARGETS:%=$(FUZZ_OUT)/libfuzzer/%)
fuzz-build-afl: $(FUZZ_TARGETS:%=$(FUZZ_OUT)/afl/%) $(FUZZ_AFL_MUTATORS)
fuzz-build-regress: $(FUZZ_TARGETS:%=$(FUZZ_OUT)/regress/%)

# ---- campaigns ----

TARGET ?= xray_parse
SECONDS ?= 600
ENGINE ?= libfuzzer
JOBS ?= 1
FUZZ_CORPUS = $(FUZZ_OUT)/corpus/$(TARGET)

# The campaign corpus starts as the seed corpus (and the regressions).
.PHONY: fuzz fuzz-seed-corpus
fuzz-seed-corpus:
	@if [ -z "$(filter $(TARGET),$(FUZZ_TARGETS))" ]; then \
	    echo "make fuzz: TARGET is one of: $(FUZZ_TARGETS)" >&2; exit 2; fi
	@mkdir -p $(FUZZ_CORPUS)
	@if [ -z "$$(ls -A $(FUZZ_CORPUS))" ]; then \
	    find $(call fuzz_seeds,$(TARGET)) $(FUZZ_REGRESSIONS) -type f ! -name '*.md' ! -name '*.note' \
	        ! -name '.*' -exec cp {} $(FUZZ_CORPUS)/ \; ; fi

ifeq ($(ENGINE),afl)
fuzz: fuzz-seed-corpus $(FUZZ_OUT)/afl/$(TARGET) $(FUZZ_OUT)/aflcmplog/$(TARGET) \
    $(FUZZ_AFL_MUTATOR_$(TARGET))
	$(call fuzz_afl_env,$(TARGET)) fuzz/afl-run.sh $(FUZZ_OUT)/afl/$(TARGET) $(SECONDS) $(FUZZ_CORPUS) \
	    $(FUZZ_OUT)/afl-out/$(TARGET) $(JOBS) $(call fuzz_dict,$(TARGET)) \
	    $(FUZZ_OUT)/aflcmplog/$(TARGET)
else ifeq ($(ENGINE),libfuzzer)
fuzz: fuzz-seed-corpus $(FUZZ_OUT)/libfuzzer/$(TARGET)
	fuzz/libfuzzer-run.sh $(FUZZ_OUT)/libfuzzer/$(TARGET) $(SECONDS) $(FUZZ_CORPUS) \
	    $(FUZZ_OUT)/artifacts/$(TARGET) $(JOBS) $(call fuzz_dict,$(TARGET))
else
fuzz:
	@echo "make fuzz: ENGINE is libfuzzer or afl" >&2; exit 2
endif

# ---- checks ----

.PHONY: check-fuzz check-fuzz-regress check-fuzz-smoke check-fuzz-afl check-fuzz-docs fuzz-docs
check-fuzz: check-fuzz-regress check-fuzz-smoke check-fuzz-afl check-fuzz-docs

# Every harness replays every input that ever mattered.
check-fuzz-regress: $(FUZZ_TARGETS:%=check-fuzz-regress-%)
check-fuzz-regress-%: $(FUZZ_OUT)/regress/%
	@$< $(call fuzz_seeds,$*) $(FUZZ_REGRESSIONS)

# A bounded libFuzzer run per harness, from the seed corpus, in a scratch
# corpus (corpus/ is never written).
check-fuzz-smoke: $(FUZZ_TARGETS:%=check-fuzz-smoke-%)
check-fuzz-smoke-%: $(FUZZ_OUT)/libfuzzer/%
	@rm -rf $(FUZZ_OUT)/smoke/$*
	@fuzz/libfuzzer-run.sh $< $(SMOKE_SECONDS) $(FUZZ_OUT)/smoke/$*/corpus \
	    $(FUZZ_OUT)/smoke/$*/artifacts 1 $(call fuzz_dict,$*) $(call fuzz_seeds,$*) \
	    $(FUZZ_REGRESSIONS)

# A few seconds of AFL++ on one persistent-mode build: the AFL builds work.
check-fuzz-afl: $(FUZZ_OUT)/afl/$(AFL_SMOKE_TARGET)
	@rm -rf $(FUZZ_OUT)/afl-smoke && mkdir -p $(FUZZ_OUT)/afl-smoke/seeds
	@find $(call fuzz_seeds,$(AFL_SMOKE_TARGET)) -type f ! -name '.*' \
	    -exec cp {} $(FUZZ_OUT)/afl-smoke/seeds/ \;
	@fuzz/afl-run.sh $< $(AFL_SMOKE_SECONDS) $(FUZZ_OUT)/afl-smoke/seeds \
	    $(FUZZ_OUT)/afl-smoke/out 1 $(call fuzz_dict,$(AFL_SMOKE_TARGET))

# docs/fuzzing.md's allow-list table is generated from fuzz/xray/xray_llvm_allowlist.h.
FUZZ_DOC := docs/fuzzing.md
$(FUZZ_OUT)/allowlist_doc: fuzz/xray/xray_allowlist_doc.c fuzz/xray/xray_llvm_allowlist.h
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(FUZZ_CC) -std=c11 $(WARNINGS) -o $@ $<

fuzz_doc_splice = awk -v table=$(1) ' \
    /<!-- allowlist:begin -->/ { print; while ((getline line < table) > 0) print line; skip = 1; next } \
    /<!-- allowlist:end -->/ { skip = 0 } !skip' $(FUZZ_DOC)

fuzz-docs: $(FUZZ_OUT)/allowlist_doc
	@$< > $(FUZZ_OUT)/allowlist.md
	@$(call fuzz_doc_splice,$(FUZZ_OUT)/allowlist.md) > $(FUZZ_OUT)/fuzzing.md.new
	@mv $(FUZZ_OUT)/fuzzing.md.new $(FUZZ_DOC)
	@echo "fuzz-docs: $(FUZZ_DOC) updated"

check-fuzz-docs: $(FUZZ_OUT)/allowlist_doc
	@$< > $(FUZZ_OUT)/allowlist.md
	@$(call fuzz_doc_splice,$(FUZZ_OUT)/allowlist.md) | cmp -s - $(FUZZ_DOC) || \
	    { echo "$(FUZZ_DOC): the allow-list table differs from fuzz/xray/xray_llvm_allowlist.h;" \
	        "run 'make fuzz-docs'" >&2; exit 1; }
	@echo "fuzz: docs/fuzzing.md's allow-list matches fuzz/xray/xray_llvm_allowlist.h"

CHECK_TARGETS += check-fuzz-regress check-fuzz-smoke check-fuzz-afl check-fuzz-docs

# ---- ovni and JSON (docs/fuzzing.md) ----

# A mutator as AFL++ loads it: a plain shared object (it runs inside
# afl-fuzz, so neither instrumented nor sanitized).
define FUZZ_AFL_MUTATOR_RULE
$(FUZZ_OUT)/afl/$(1)-mutator.so: fuzz/afl_mutator.c $(call fuzz_mutator_src,$(1)) \
    $(patsubst %.c,%.h,$(call fuzz_mutator_src,$(1))) fuzz/common/mutator.h
	@mkdir -p $$(@D)
	$$(call say,LD,$$@)
	$$(Q)$$(FUZZ_CC) -std=c11 $$(WARNINGS) -O2 -g -fPIC -shared \
	    -DMUTATOR_HEADER='"$(patsubst fuzz/%,%,$(patsubst %.c,%.h,$(call fuzz_mutator_src,$(1))))"' \
	    -DMUTATE=$(1)_mutate -DCROSS_OVER=$(1)_cross_over \
	    -DDESCRIPTION='"$$(FUZZ_MUTATOR_DESCRIPTION_$(1))"' -o $$@ fuzz/afl_mutator.c \
	    $(call fuzz_mutator_src,$(1))
endef
$(foreach m,$(FUZZ_MUTATORS),$(eval $(call FUZZ_AFL_MUTATOR_RULE,$(m))))

# A few seconds of AFL++ on ovni_lean with its custom mutator: the library
# loads, and its mutations run the harness without a failure; the other
# mutator libraries build (they share fuzz/afl_mutator.c).
check-fuzz-afl-ovni: $(FUZZ_OUT)/afl/ovni_lean $(FUZZ_AFL_MUTATORS)
	@rm -rf $(FUZZ_OUT)/afl-smoke-ovni && mkdir -p $(FUZZ_OUT)/afl-smoke-ovni/seeds
	@find $(call fuzz_seeds,ovni_lean) -type f ! -name '.*' \
	    -exec cp {} $(FUZZ_OUT)/afl-smoke-ovni/seeds/ \;
	@$(call fuzz_afl_env,ovni_lean) fuzz/afl-run.sh $< $(AFL_SMOKE_SECONDS) \
	    $(FUZZ_OUT)/afl-smoke-ovni/seeds $(FUZZ_OUT)/afl-smoke-ovni/out 1 \
	    $(call fuzz_dict,ovni_lean)
	@grep -q "Loading custom mutator library" $(FUZZ_OUT)/afl-smoke-ovni/out/main.log || \
	    { echo "fuzz: afl-fuzz did not load $(FUZZ_AFL_MUTATOR_ovni_lean)" >&2; exit 1; }

# docs/fuzzing.md's table of differences from cJSON is generated from
# fuzz/common/json_cjson_allowlist.h, as the XRay one is from its header.
$(FUZZ_OUT)/json_allowlist_doc: fuzz/common/json_allowlist_doc.c fuzz/common/json_cjson_allowlist.h
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(FUZZ_CC) -std=c11 $(WARNINGS) -o $@ $<

fuzz_json_doc_splice = awk -v table=$(1) ' \
    /<!-- json-allowlist:begin -->/ { print; while ((getline line < table) > 0) print line; skip = 1; next } \
    /<!-- json-allowlist:end -->/ { skip = 0 } !skip' $(FUZZ_DOC)

.PHONY: fuzz-docs-json check-fuzz-docs-json check-fuzz-afl-ovni
fuzz-docs: fuzz-docs-json
fuzz-docs-json: $(FUZZ_OUT)/json_allowlist_doc
	@$< > $(FUZZ_OUT)/json_allowlist.md
	@$(call fuzz_json_doc_splice,$(FUZZ_OUT)/json_allowlist.md) > $(FUZZ_OUT)/fuzzing.md.json
	@mv $(FUZZ_OUT)/fuzzing.md.json $(FUZZ_DOC)
	@echo "fuzz-docs: $(FUZZ_DOC) updated (cJSON differences)"

check-fuzz-docs-json: $(FUZZ_OUT)/json_allowlist_doc
	@$< > $(FUZZ_OUT)/json_allowlist.md
	@$(call fuzz_json_doc_splice,$(FUZZ_OUT)/json_allowlist.md) | cmp -s - $(FUZZ_DOC) || \
	    { echo "$(FUZZ_DOC): the cJSON table differs from fuzz/common/json_cjson_allowlist.h;" \
	        "run 'make fuzz-docs'" >&2; exit 1; }
	@echo "fuzz: docs/fuzzing.md's cJSON table matches fuzz/common/json_cjson_allowlist.h"

check-fuzz: check-fuzz-afl-ovni check-fuzz-docs-json
CHECK_TARGETS += check-fuzz-afl-ovni check-fuzz-docs-json

# ---- OSS-Fuzz and ClusterFuzzLite (docs/fuzzing.md) ----

# fuzz/build.sh reads what to build from here, so that the harnesses, their
# seeds and dictionaries are listed once: "lib SRC...", "regressions DIR...",
# "max_len N", then "target NAME c|c++ DICT|- SEEDDIR..." and "source NAME
# SRC" per harness, and "extra NAME SRC..." for the sources of one harness
# alone.
.PHONY: print-fuzz-ossfuzz
print-fuzz-ossfuzz:
	@echo "lib $(FUZZ_LIB_SRCS) $(FUZZ_HELPER_SRCS)"
	@echo "regressions $(FUZZ_REGRESSIONS)"
	@echo "max_len $(FUZZ_MAX_LEN)"
	@$(foreach t,$(FUZZ_C_TARGETS),echo "target $(t) c $(call fuzz_dict,$(t)) $(call fuzz_seeds,$(t))";)
	@$(foreach t,$(FUZZ_CXX_TARGETS),echo "target $(t) c++ $(call fuzz_dict,$(t)) $(call fuzz_seeds,$(t))";)
	@$(foreach t,$(FUZZ_TARGETS),echo "source $(t) $(call fuzz_src,$(t))";)
	@$(foreach t,$(FUZZ_TARGETS),$(if $(FUZZ_EXTRA_$(t)),echo "extra $(t) $(FUZZ_EXTRA_$(t))";))

# fuzz/build.sh run as OSS-Fuzz runs it (libFuzzer, ASan), what it puts in
# $OUT checked against the lists above, each fuzzer run over its seed corpus,
# and .clusterfuzzlite/ and the cflite_*.yml workflows checked offline.
.PHONY: check-fuzz-ossfuzz
check-fuzz-ossfuzz:
	@fuzz/ossfuzz-check.sh $(FUZZ_OUT)/ossfuzz
check-fuzz: check-fuzz-ossfuzz
CHECK_TARGETS += check-fuzz-ossfuzz

# ---- campaigns at scale, and triage (docs/fuzzing.md, "Running a campaign", "Triage") ----
#
#   make fuzz-campaign TARGET=T JOBS=N HOURS=H|MINUTES=M [SYNC_DIR=D] [ENGINE=afl|libfuzzer] [HOST_ID=b]
#   make fuzz-status [SYNC_DIR=D]
#   make fuzz-triage TARGET=T [SYNC_DIR=D] [PROMOTE=1]

# The UBSan-only AFL++ build, for half of a campaign's secondaries: without
# ASan it runs several times faster; the main and the other secondaries keep
# ASan for memory errors. -fno-sanitize=address after the sanitizer flags takes ASan out.
FZ_aflubsan_CC := $(FZ_afl_CC)
FZ_aflubsan_CXX := $(FZ_afl_CXX)
FZ_aflubsan_OBJ := -fno-sanitize=address
FZ_aflubsan_LINK := -fno-sanitize=address $(AFL_DRIVER)
$(eval $(call FUZZ_ENGINE_RULES,aflubsan))
$(foreach t,$(FUZZ_C_TARGETS),$(eval $(call FUZZ_TARGET_RULES,aflubsan,$(t),CC)))
$(foreach t,$(FUZZ_CXX_TARGETS),$(eval $(call FUZZ_TARGET_RULES,aflubsan,$(t),CXX)))

# A campaign is AFL++ unless ENGINE is given (make fuzz's default is libFuzzer).
CAMPAIGN_ENGINE := $(if $(filter file,$(origin ENGINE)),afl,$(ENGINE))
HOURS ?= 1
MINUTES ?=
HOST_ID ?=
PROMOTE ?=
# AFL++ shares make fuzz ENGINE=afl's output directory (each resumes the
# other); libFuzzer gets corpus/ and artifacts/ in a directory of its own.
SYNC_DIR ?= $(if $(filter afl,$(CAMPAIGN_ENGINE)),$(FUZZ_OUT)/afl-out/$(TARGET),$(FUZZ_OUT)/libfuzzer-out/$(TARGET))
CAMPAIGN_BINS_afl = $(FUZZ_OUT)/afl/$(TARGET) $(FUZZ_OUT)/aflcmplog/$(TARGET) \
    $(FUZZ_OUT)/aflubsan/$(TARGET) $(FUZZ_AFL_MUTATOR_$(TARGET))
CAMPAIGN_BINS_libfuzzer = $(FUZZ_OUT)/libfuzzer/$(TARGET)
# Triage replays and minimises with the libFuzzer build, and minimises an
# AFL++ queue with afl-cmin on the AFL++ build.
TRIAGE_BINS_afl = $(FUZZ_OUT)/afl/$(TARGET) $(FUZZ_OUT)/libfuzzer/$(TARGET)
TRIAGE_BINS_libfuzzer = $(FUZZ_OUT)/libfuzzer/$(TARGET)

.PHONY: fuzz-campaign fuzz-status fuzz-triage fuzz-target-check
fuzz-target-check:
	@if [ -z "$(filter $(TARGET),$(FUZZ_TARGETS))" ]; then \
	    echo "make: TARGET is one of: $(FUZZ_TARGETS)" >&2; exit 2; fi
	@case "$(CAMPAIGN_ENGINE)" in afl|libfuzzer) ;; \
	    *) echo "make: ENGINE is afl or libfuzzer" >&2; exit 2;; esac

fuzz-campaign: fuzz-target-check fuzz-seed-corpus $(CAMPAIGN_BINS_$(CAMPAIGN_ENGINE))
	$(call fuzz_afl_env,$(TARGET)) fuzz/campaign.sh --engine $(CAMPAIGN_ENGINE) \
	    --bin-dir $(FUZZ_OUT) --sync-dir $(SYNC_DIR) --jobs $(JOBS) \
	    --duration $(if $(MINUTES),$(MINUTES)m,$(HOURS)h) --dict $(call fuzz_dict,$(TARGET)) \
	    $(if $(filter afl,$(CAMPAIGN_ENGINE)),--seeds $(FUZZ_CORPUS),\
	        $(foreach d,$(call fuzz_seeds,$(TARGET)) $(FUZZ_REGRESSIONS),--seeds $(d))) \
	    $(if $(HOST_ID),--host-id $(HOST_ID)) $(TARGET)

fuzz-status:
	@fuzz/campaign.sh --status $(SYNC_DIR)

fuzz-triage: fuzz-target-check $(FUZZ_OUT)/regress/$(TARGET) $(TRIAGE_BINS_$(CAMPAIGN_ENGINE))
	fuzz/triage.sh --bin-dir $(FUZZ_OUT) --regressions corpus/$(call fuzz_dir,$(TARGET))/regressions \
	    $(if $(filter 1 yes,$(PROMOTE)),--promote $(firstword $(call fuzz_seeds,$(TARGET)))) \
	    $(TARGET) $(SYNC_DIR)

# make check's test of fuzz/triage.sh: a synthetic campaign (AFL++ instance
# directories and libFuzzer artifacts) of fuzz/selftest_crash.c, which fails
# in two distinct places, with duplicates; filed into a scratch directory,
# never corpus/*/regressions.
define FUZZ_SELFTEST_RULES
$(FUZZ_OUT)/$(1)/selftest_crash: $(FUZZ_OUT)/$(1)/obj/fuzz/selftest_crash.o $$(FZ_$(1)_MAIN)
	$$(call say,LD-FZ,$$@)
	$$(Q)$$(FZ_$(1)_CC) $$(call fuzz_san,$(1)) -o $$@ $$^ $$(FZ_$(1)_LINK)
endef
$(foreach e,libfuzzer afl regress,$(eval $(call FUZZ_SELFTEST_RULES,$(e))))

.PHONY: check-fuzz-triage
check-fuzz-triage: $(foreach e,libfuzzer afl regress,$(FUZZ_OUT)/$(e)/selftest_crash)
	@fuzz/test-triage.sh $(FUZZ_OUT) $(FUZZ_OUT)/triage-selftest
check-fuzz: check-fuzz-triage
CHECK_TARGETS += check-fuzz-triage
