# The conformance suite (docs/conformance.md).
#
#   make conformance     the suite against tracecheck, then against llvm-xray,
#                        llvm-xray-N (every other LLVM Debian 12 ships),
#                        ovniemu, ovnidump, ovnisort and dqr (each with its
#                        expected-failure list; a tool not on PATH has its
#                        cases not-installed);
#                        reports in $(BUILD)/reports/conformance-*.{txt,json,tap,xml},
#                        and the HTML matrix of them all, conformance-matrix.html
#
# make check runs:
#   check-conformance-san       the suite against the ASan/UBSan build, as TAP
#   check-conformance-coverage  every rule has a case; no case names an unknown rule
#   check-conformance-llvm-xray llvm-xray departs exactly where xfail/llvm-xray.txt says,
#                               and each installed llvm-xray-N where xfail/llvm-xray-N.txt does
#   check-conformance-ovni-tools the ovniemu/ovnidump/ovnisort adapters' mechanics
#                               with test doubles; the tools themselves against their
#                               lists when they are on PATH (the lists are checked
#                               either way)
#   check-conformance-dqr       the dqr adapter's mechanics with test doubles; dqr
#                               itself against xfail/dqr.txt when it is on PATH
#   check-conformance-cases     conformance/make-cases reproduces the committed cases
#   check-conformance-doc       docs/llvm-xray.md is generated from xfail/llvm-xray*.txt
#   check-conformance-reports   every report kind names the suite version and reports a
#                               listed case that passes as xpass (exit status 1)
#   check-conformance-html      the HTML matrix in headless Chromium: rows, cells, totals,
#                               pruned view and filter; a screenshot in $(BUILD)/reports/
#   check-conformance-generate  conformance --generate finds a planted fault and
#                               llvm-xray's departures, shrinks them, and is deterministic

CONF_REPORTS := $(BUILD)/reports
CONF_JOBS ?= 2
CONF_FLAGS ?=
# Directories searched for the third-party tools before PATH (--tool-path):
#   make conformance TOOL_PATH=/opt/ovni/bin:/opt/trace-decoder
TOOL_PATH ?=
TOOL_FLAGS := $(if $(TOOL_PATH),--tool-path '$(TOOL_PATH)')

# The default case directory is the source tree's: the program is often built
# outside it (BUILD=/tmp/...). A packaged program is built with
# TC_SOURCE_DIR= (debian/rules): it must find its installed cases
# (../share/tracecheck/cases), not those of a build tree that is gone, and
# the build path stays out of the binary.
TC_SOURCE_DIR ?= $(CURDIR)
$(BUILD)/obj/cli/cmd_conformance.o $(BUILD)/san/cli/cmd_conformance.o: \
    CPPFLAGS += $(if $(TC_SOURCE_DIR),-DTC_SOURCE_DIR='"$(TC_SOURCE_DIR)"')

# LLVM's reader of every version Debian 12 ships besides the default one
# (llvm-xray is LLVM 14's): the runner knows each as llvm-xray-N (the program
# of Debian's llvm-N package), and each has its list, xfail/llvm-xray-N.txt,
# measured on that version. The versions are those lists'; test-html-matrix
# checks that they are the runner's (conformance/adapters/tools.c, versioned_tools).
LLVM_XRAY_VERSIONS := $(sort $(patsubst conformance/xfail/llvm-xray-%.txt,%,\
    $(wildcard conformance/xfail/llvm-xray-[0-9]*.txt)))
LLVM_XRAY_VERSIONED := $(addprefix llvm-xray-,$(LLVM_XRAY_VERSIONS))

.PHONY: conformance conformance-all conformance-tracecheck conformance-llvm-xray \
        $(addprefix conformance-,$(LLVM_XRAY_VERSIONED)) \
        conformance-ovniemu conformance-ovnidump conformance-ovnisort
# Like make check, the README's first command installs the Debian packages it
# needs first (.ci/deps.mk): as root it runs `make deps` when one is missing.
conformance: ensure-deps
	@$(MAKE) --no-print-directory conformance-all
conformance-all: conformance-tracecheck conformance-llvm-xray \
                 $(addprefix conformance-,$(LLVM_XRAY_VERSIONED)) conformance-ovniemu \
                 conformance-ovnidump conformance-ovnisort

conformance-tracecheck: $(TRACECHECK)
	$(TRACECHECK) conformance --cases conformance/cases -j $(CONF_JOBS) \
	    --report-dir $(CONF_REPORTS) $(CONF_FLAGS)

# LLVM's readers, and libovni's tools (docs/ovni-tools.md):
# PATH=/opt/ovni/bin:$$PATH make conformance
conformance-llvm-xray $(addprefix conformance-,$(LLVM_XRAY_VERSIONED)) \
conformance-ovniemu conformance-ovnidump conformance-ovnisort: conformance-%: $(TRACECHECK)
	$(TRACECHECK) conformance $(TOOL_FLAGS) --impl $* --cases conformance/cases -j $(CONF_JOBS) \
	    --xfail conformance/xfail/$*.txt --report-dir $(CONF_REPORTS) $(CONF_FLAGS)

# SiFive's decoder (docs/dqr.md): PATH=/opt/trace-decoder/bin:$$PATH make conformance
# It takes about 10 ms a case; three cases make it loop without end (@timeout
# in its list), so its timeout is shorter than the runner's default.
DQR_TIMEOUT ?= 3
.PHONY: conformance-dqr check-conformance-dqr
conformance-all: conformance-dqr
conformance-dqr: $(TRACECHECK)
	$(TRACECHECK) conformance $(TOOL_FLAGS) --impl dqr --cases conformance/cases -j $(CONF_JOBS) \
	    --timeout $(DQR_TIMEOUT) --xfail conformance/xfail/dqr.txt \
	    --report-dir $(CONF_REPORTS) $(CONF_FLAGS)

# Test doubles stand in for dqr (not in Debian), run by the ASan/UBSan build;
# then dqr itself, when on PATH, must depart exactly where its list says.
check-conformance-dqr: $(TRACECHECK) $(TRACECHECK_SAN)
	@conformance/tools/perf/test-dqr-adapter $(TRACECHECK_SAN) conformance/cases
	@$(TRACECHECK) conformance $(TOOL_FLAGS) --impl dqr --cases conformance/cases -j $(CONF_JOBS) -q \
	    --timeout $(DQR_TIMEOUT) --xfail conformance/xfail/dqr.txt \
	    --report-dir $(CONF_REPORTS) || \
	    { echo "dqr departs from conformance/xfail/dqr.txt: see" \
	           "$(CONF_REPORTS)/conformance-dqr.txt (docs/dqr.md)" >&2; exit 1; }

CHECK_TARGETS += check-conformance-dqr

.PHONY: check-conformance-san check-conformance-coverage check-conformance-llvm-xray \
        check-conformance-cases check-conformance-doc check-conformance-ovni-tools

# TAP on a file for CI; the exit status says whether anything did not pass.
check-conformance-san: $(TRACECHECK_SAN)
	@mkdir -p $(CONF_REPORTS)/san
	@ASAN_OPTIONS=detect_leaks=1 $(TRACECHECK_SAN) conformance --cases conformance/cases \
	    -j $(CONF_JOBS) --timeout 60 --report tap > $(CONF_REPORTS)/san/conformance-tracecheck.tap \
	    || { grep -A8 '^not ok' $(CONF_REPORTS)/san/conformance-tracecheck.tap | grep -v '# TODO' >&2; \
	         echo "conformance (ASan/UBSan): failures above; TAP in $(CONF_REPORTS)/san/" >&2; exit 1; }

check-conformance-coverage: $(TRACECHECK)
	@$(TRACECHECK) conformance --cases conformance/cases --coverage

# Each version that is installed; one that is not shows its cases as
# not-installed in its summary line.
check-conformance-llvm-xray: $(TRACECHECK)
	@for t in llvm-xray $(LLVM_XRAY_VERSIONED); do \
	    $(TRACECHECK) conformance $(TOOL_FLAGS) --impl $$t --cases conformance/cases -j $(CONF_JOBS) -q \
	        --xfail conformance/xfail/$$t.txt --report-dir $(CONF_REPORTS) || \
	    { echo "$$t departs from conformance/xfail/$$t.txt: see" \
	           "$(CONF_REPORTS)/conformance-$$t.txt (docs/llvm-xray.md)" >&2; exit 1; }; done

# Test doubles stand in for the tools (libovni is not in Debian), run by the
# ASan/UBSan build (the runner's copying and judging are checked too); then the
# real tools, when on PATH, must depart exactly where their lists say.
check-conformance-ovni-tools: $(TRACECHECK) $(TRACECHECK_SAN)
	@conformance/tools/ovni/test-ovni-adapter $(TRACECHECK_SAN) conformance/cases
	@for t in ovniemu ovnidump ovnisort; do \
	    $(TRACECHECK) conformance $(TOOL_FLAGS) --impl $$t --cases conformance/cases -j $(CONF_JOBS) -q \
	        --xfail conformance/xfail/$$t.txt --report-dir $(CONF_REPORTS) || \
	    { echo "$$t departs from conformance/xfail/$$t.txt: see" \
	           "$(CONF_REPORTS)/conformance-$$t.txt (docs/ovni-tools.md)" >&2; exit 1; }; done

check-conformance-cases: $(TRACECHECK)
	@conformance/make-cases --check --tracecheck $(TRACECHECK)

check-conformance-doc:
	@conformance/tools/xray/llvm-xray-doc --check

CHECK_TARGETS += check-conformance-coverage check-conformance-cases check-conformance-doc \
                 check-conformance-san check-conformance-llvm-xray check-conformance-ovni-tools

# The HTML matrix of tracecheck and every known tool (an absent one skipped):
# $(BUILD)/reports/conformance-matrix.html, a page to open from disk.
.PHONY: conformance-matrix
conformance-all: conformance-matrix
conformance-matrix: $(TRACECHECK)
	$(TRACECHECK) conformance $(TOOL_FLAGS) --cases conformance/cases -j $(CONF_JOBS) -q --report html \
	    --report-dir $(CONF_REPORTS) $(CONF_FLAGS)

.PHONY: check-conformance-reports check-conformance-html
check-conformance-reports: $(TRACECHECK)
	@conformance/tools/test-conformance-reports $(TRACECHECK) conformance/cases

check-conformance-html: $(TRACECHECK)
	@conformance/tools/test-html-matrix $(TRACECHECK) conformance/cases $(CONF_REPORTS)/html

CHECK_TARGETS += check-conformance-reports check-conformance-html

# conformance --generate (docs/conformance.md): a planted faulty reader found
# and its case shrunk, determinism per seed, Ctrl-C, with the ASan/UBSan
# build; then llvm-xray's departures found by a run of 400 traces (30 s at
# most), with the plain build (the run's speed is the point).
.PHONY: check-conformance-generate
check-conformance-generate: $(TRACECHECK) $(TRACECHECK_SAN)
	@conformance/tools/test-generate $(TRACECHECK_SAN) $(TRACECHECK)
CHECK_TARGETS += check-conformance-generate

# The README's first command on a fresh machine: `make conformance` installs
# the Debian packages before it compiles anything (as `make check` does). Shown
# with a dry run in which one package is missing: the install comes first.
.PHONY: check-conformance-first-command
check-conformance-first-command:
	@out=$$($(MAKE) -n --no-print-directory conformance BUILD=$(BUILD)/first-command \
	    DEB_PACKAGES=tracecheck-no-such-package 2>&1); \
	install=$$(printf '%s\n' "$$out" | grep -n -m1 -e 'apt-get install' -e "run 'make deps'" | cut -d: -f1); \
	compile=$$(printf '%s\n' "$$out" | grep -n -m1 -e ' -c .*\.c -o ' | cut -d: -f1); \
	if [ -z "$$install" ] || [ -z "$$compile" ] || [ "$$install" -gt "$$compile" ]; then \
	    echo "make conformance compiles (line $${compile:-none}) before it installs the" \
	         "missing packages (line $${install:-none}):" >&2; \
	    printf '%s\n' "$$out" | head -20 >&2; exit 1; fi; \
	echo "make conformance: missing packages are installed first (dry run)"

CHECK_TARGETS += check-conformance-first-command
