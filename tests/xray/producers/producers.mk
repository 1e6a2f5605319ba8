# Real producers in the loop: traces written by the producers themselves must
# pass tracecheck (and the producers' own readers), and the producers' known
# bugs must be reported as such.
#
#   make check-producers      part of `make check`
#
# XRay: tests/xray/producers/xray_fdr_app.cc is built by every clang Debian 12
# ships (XRAY_CLANG_VERSIONS, .ci/deps.mk: 13, 14, 15, 16, 19, 22) with its
# XRay instrumentation and run under that clang's compiler-rt runtime, in FDR
# and in basic mode; tests/xray/producers/xray_clang.sh checks the traces with the
# sanitized tracecheck (alone, and with --binary: against the program that
# wrote them, and against another build) and with that version's llvm-xray
# (llvm-xray-N); tests/xray/producers/xray_map_check.sh checks that tracecheck
# reads the programs' instrumentation maps as llvm-xray extract does. The
# traces go to $(BUILD)/producers/clang-N/. A version whose clang++-N,
# llvm-xray-N or XRay runtime is not installed is skipped with a line that
# says so (`make deps` installs every one the apt sources have).
#
#   make check-producers-xray-clang-19     one version
#   make check-producers XRAY_CLANG_VERSIONS='14 22'

# -O1 with the program's functions noinline (and walk() without tail calls:
# see the head of xray_fdr_app.cc) keeps every call the program makes, in
# every version. threshold=1 instruments every function that is left.
XRAY_APP_FLAGS := -O1 -std=c++17 -Wall -Wextra -Werror -fxray-instrument \
    -fxray-instruction-threshold=1 -fxray-always-emit-customevents \
    -fxray-always-emit-typedevents -pthread
# The typed-event build: clang 13, 15 and 16 crash (a segmentation fault in
# the X86 assembly printer) compiling a typed-event site at -O1, so every
# version builds that one at -O0.
XRAY_TYPED_FLAGS := $(patsubst -O1,-O0,$(XRAY_APP_FLAGS))

PRODUCERS_DIR := $(BUILD)/producers
XRAY_PRODUCER_SRC := tests/xray/producers/xray_fdr_app.cc
XRAY_PRODUCER_DEPS := $(XRAY_PRODUCER_SRC) tests/xray/producers/producers.mk

# xray-clang-absent VERSION: why VERSION cannot be used, or nothing when it can
# (clang++-N and llvm-xray-N on PATH, and its XRay runtime in its resource
# directory). Make functions only: no program runs while the makefiles are read.
xray-on-path = $(firstword $(wildcard $(addsuffix /$(1),$(subst :, ,$(PATH)))))
xray-clang-runtime = $(firstword $(wildcard $(addprefix \
    $(dir $(realpath $(call xray-on-path,clang++-$(1))))../lib/clang/*/lib/,\
    linux/libclang_rt.xray-x86_64.a x86_64-pc-linux-gnu/libclang_rt.xray.a \
    x86_64-unknown-linux-gnu/libclang_rt.xray.a)))
xray-clang-absent = $(strip \
    $(if $(call xray-on-path,clang++-$(1)),\
      $(if $(call xray-on-path,llvm-xray-$(1)),\
        $(if $(call xray-clang-runtime,$(1)),,\
          no XRay runtime libclang_rt.xray next to clang++-$(1) (Debian package \
          $(if $(filter 13 15,$(1)),libclang-common-$(1)-dev,libclang-rt-$(1)-dev))),\
        llvm-xray-$(1) not found (Debian package llvm-$(1))),\
      clang++-$(1) not found (Debian package clang-$(1))))

# The instrumentation map as libtracecheck reads it for --binary, printed for
# tests/xray/producers/xray_map_check.sh to compare with llvm-xray extract.
XRAY_MAP_TOOL := $(PRODUCERS_DIR)/xray_map
$(XRAY_MAP_TOOL): tests/xray/producers/xray_map.c $(BUILD)/san/libtracecheck.a
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -std=c11 $(WARNINGS) $(SAN_FLAGS) $(LDFLAGS) -o $@ $< \
	    $(BUILD)/san/libtracecheck.a $(LIBS)

# One version's producer binaries and check.
#   $(PRODUCERS_DIR)/clang-N/xray_app        no typed-event sleds: llvm-xray
#                                            can read its instrumentation map
#   $(PRODUCERS_DIR)/clang-N/xray_app_typed  with typed events, at -O0
define xray-clang-rules
$(PRODUCERS_DIR)/clang-$(1)/xray_app: $(XRAY_PRODUCER_DEPS)
	@mkdir -p $$(@D)
	clang++-$(1) $(XRAY_APP_FLAGS) -DXRAY_FDR_APP_TYPED_EVENTS=0 $$< -o $$@

$(PRODUCERS_DIR)/clang-$(1)/xray_app_typed: $(XRAY_PRODUCER_DEPS)
	@mkdir -p $$(@D)
	clang++-$(1) $(XRAY_TYPED_FLAGS) $$< -o $$@

.PHONY: check-producers-xray-clang-$(1)
check-producers-xray-clang-$(1): $(TRACECHECK_SAN) $(PRODUCERS_DIR)/clang-$(1)/xray_app \
    $(PRODUCERS_DIR)/clang-$(1)/xray_app_typed tests/xray/producers/xray_clang.sh \
    tests/xray/producers/xray_log_facts.py $(XRAY_MAP_TOOL) tests/xray/producers/xray_map_check.sh
	@LLVM_XRAY=llvm-xray-$(1) tests/xray/producers/xray_map_check.sh $(1) '$(XRAY_MAP_TOOL)' \
	    '$(PRODUCERS_DIR)/clang-$(1)/xray_app' '$(PRODUCERS_DIR)/clang-$(1)/xray_app_typed' \
	    '$(PRODUCERS_DIR)/clang-$(1)/map'
	@LLVM_XRAY=llvm-xray-$(1) tests/xray/producers/xray_clang.sh $(1) '$(TRACECHECK_SAN)' '$(PRODUCERS_DIR)/clang-$(1)/xray_app' \
	    '$(PRODUCERS_DIR)/clang-$(1)/xray_app_typed' '$(PRODUCERS_DIR)/clang-$(1)'
endef

# A version that cannot be used is named, with the reason, every time.
define xray-clang-skip
.PHONY: check-producers-xray-clang-$(1)
check-producers-xray-clang-$(1):
	@echo "producers/xray: clang $(1): SKIPPED: $(2)"
endef

$(foreach v,$(XRAY_CLANG_VERSIONS),$(eval $(if $(call xray-clang-absent,$(v)),\
    $(call xray-clang-skip,$(v),$(call xray-clang-absent,$(v)) [make deps installs it when the apt sources have it]),\
    $(call xray-clang-rules,$(v)))))

.PHONY: check-producers check-producers-xray
check-producers: check-producers-xray
check-producers-xray: $(foreach v,$(XRAY_CLANG_VERSIONS),check-producers-xray-clang-$(v))

CHECK_TARGETS += check-producers
