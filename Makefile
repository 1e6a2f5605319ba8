# tracecheck: the one entry point. See README.md.
#
#   make               the tracecheck program and libtracecheck (build/)
#   make check         every test: unit (CUnit, ASan+UBSan), conformance, regression
#                      corpus, real clang XRay traces, fuzz smoke of every harness
#   make conformance   the conformance suite against tracecheck; reports in build/reports/
#   make fuzz TARGET=xray_parse SECONDS=600    a libFuzzer campaign
#   make bench         throughput and memory figures against baselines
#   make install PREFIX=/usr/local
#   make deps          install the Debian packages everything needs (as root)

.DEFAULT_GOAL := all
.SUFFIXES:
.DELETE_ON_ERROR:
SHELL := /bin/bash

ifeq ($(origin CC),default)
CC := clang
endif
ifeq ($(origin CXX),default)
CXX := clang++
endif

BUILD ?= build
PREFIX ?= /usr/local
# `make V=1` shows the commands.
ifeq ($(V),1)
Q :=
say = @true
else
Q := @
say = @printf '  %-6s %s\n' $(1) $(2)
endif
WERROR ?= -Werror

# CPPFLAGS, CFLAGS and LDFLAGS from the environment are honoured (a package
# build passes dpkg-buildflags' hardening flags so): CPPFLAGS is appended to,
# CFLAGS replaces the default -O2 -g, LDFLAGS goes on every link line.
# Flags given on make's command line override these assignments; give
# CPPFLAGS in the environment (CPPFLAGS=... make) to keep -Iinclude.
CPPFLAGS += -Iinclude -Ispec -D_FILE_OFFSET_BITS=64
# `make SIMD=scalar`: a build whose parsers use no vector kernel
# (parsers/common/simd.h), to compare with (tests/compat/compare-builds).
ifeq ($(SIMD),scalar)
CPPFLAGS += -DTC_SIMD_FORCE_SCALAR
endif
WARNINGS := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla $(WERROR)
CFLAGS ?= -O2 -g
CFLAGS_ALL := -std=c11 $(WARNINGS) -fPIC $(CFLAGS)
SAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
LIBS := -lz -lbz2 -lzstd -lcjson -lelf -lstdc++ -lm

# libtracecheck is the parsers: reading and checking, what its header
# (include/tracecheck/tracecheck.h) promises. The tools' parts (generators,
# the report writers, the conformance runner and its adapters) are an
# internal archive that the program, the tests and the fuzzers link.
LIB_SRCS := $(sort $(wildcard parsers/common/*.c parsers/*/*.c))
TOOL_SRCS := $(sort $(wildcard generators/common/*.c generators/*/*.c reports/*.c \
               conformance/runner/*.c conformance/adapters/*.c conformance/adapters/*/*.c))
CLI_SRCS := $(sort $(wildcard cli/*.c))

LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
CLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/obj/%.o)
SAN_LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/san/%.o)
TOOL_OBJS := $(TOOL_SRCS:%.c=$(BUILD)/obj/%.o)
SAN_TOOL_OBJS := $(TOOL_SRCS:%.c=$(BUILD)/san/%.o)
SAN_CLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/san/%.o)

TRACECHECK := $(BUILD)/tracecheck
TRACECHECK_SAN := $(BUILD)/san/tracecheck

.PHONY: all
all: $(TRACECHECK) $(BUILD)/libtracecheck.a $(BUILD)/libtracecheck.so

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

$(BUILD)/san/%.o: %.c
	@mkdir -p $(@D)
	$(call say,CC-SAN,$<)
	$(Q)$(CC) $(CPPFLAGS) -std=c11 $(WARNINGS) $(SAN_FLAGS) -MMD -MP -c $< -o $@

$(BUILD)/libtracecheck.a: $(LIB_OBJS)
	@rm -f $@
	$(call say,AR,$@)
	$(Q)ar rcs $@ $^

$(BUILD)/san/libtracecheck.a: $(SAN_LIB_OBJS)
	@rm -f $@
	$(call say,AR,$@)
	$(Q)ar rcs $@ $^

$(BUILD)/libtracecheck-tools.a: $(TOOL_OBJS)
	@rm -f $@
	$(call say,AR,$@)
	$(Q)ar rcs $@ $^

$(BUILD)/san/libtracecheck-tools.a: $(SAN_TOOL_OBJS)
	@rm -f $@
	$(call say,AR,$@)
	$(Q)ar rcs $@ $^

$(TRACECHECK): $(CLI_OBJS) $(BUILD)/libtracecheck-tools.a $(BUILD)/libtracecheck.a
	$(call say,LD,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJS) $(BUILD)/libtracecheck-tools.a \
	    $(BUILD)/libtracecheck.a $(LIBS)

$(TRACECHECK_SAN): $(SAN_CLI_OBJS) $(BUILD)/san/libtracecheck-tools.a $(BUILD)/san/libtracecheck.a
	$(call say,LD,$@)
	$(Q)$(CC) $(SAN_FLAGS) $(LDFLAGS) -o $@ $(SAN_CLI_OBJS) $(BUILD)/san/libtracecheck-tools.a \
	    $(BUILD)/san/libtracecheck.a $(LIBS)

# Not those of $(BUILD)/deb: the package build's copy of the tree has its own
# build directory, whose dependency files name this tree's targets.
-include $(shell find $(BUILD) -path '$(BUILD)/deb' -prune -o -name '*.d' -print 2>/dev/null)

include .ci/deps.mk
include tests/tests.mk
include conformance/conformance.mk
include fuzz/fuzz.mk
include bench/bench.mk
include docs/docs.mk
include generators/generators.mk
include tests/xray/producers/producers.mk
include tests/real-traces/real-traces.mk
include tests/split/split.mk
include tests/ci/ci.mk
include tests/shards/shards.mk
include tests/layers/layers.mk
include tests/toy/toy.mk
include parsers/install.mk
include reports/reports.mk
include tests/deb/deb.mk

.PHONY: check
check: ensure-deps
	@$(MAKE) --no-print-directory check-all

# install, uninstall and the shared library: parsers/install.mk

.PHONY: clean
clean:
	rm -rf $(BUILD)

.PHONY: check-all
check-all: $(CHECK_TARGETS)
	@echo "make check: all passed"
