# Unit tests: the CUnit suites of tests/ (one suite per test_*.c), linked into
# one program against the ASan+UBSan copy of the library and run by
# `make check` (check-unit). `make unit` only builds it;
# `$(BUILD)/san/tests/unit SUITE...` runs some suites.
UNIT_SRCS := $(sort $(wildcard tests/*.c))
UNIT_OBJS := $(UNIT_SRCS:%.c=$(BUILD)/san/%.o)
UNIT := $(BUILD)/san/tests/unit

# The tests use POSIX 2008 and GNU interfaces (open_memstream, mkdtemp, fork,
# pipes) that a strict -std=c11 build hides.
$(UNIT_OBJS): CPPFLAGS += -D_GNU_SOURCE

$(UNIT): $(UNIT_OBJS) $(BUILD)/san/libtracecheck.a
	$(CC) $(SAN_FLAGS) -o $@ $(UNIT_OBJS) $(BUILD)/san/libtracecheck.a -lcunit $(LIBS)

.PHONY: unit check-unit
unit: $(UNIT)

# The docs suite runs the sanitized tracecheck next to the test program.
check-unit: $(UNIT) $(TRACECHECK_SAN)
	$(UNIT)

CHECK_TARGETS += check-unit

# check-real-traces: tracecheck's findings on real files written by the
# formats' own projects, in ../shared/traces (read in place, never copied
# into the repository), as tests/real_traces.txt lists them. Skipped when
# that folder is not there.
REAL_TRACES := $(abspath $(CURDIR)/../shared/traces)

.PHONY: check-real-traces
check-real-traces: $(TRACECHECK)
	@if [ -d $(REAL_TRACES) ]; then \
	    python3 tests/real_traces_check.py $(TRACECHECK) $(REAL_TRACES) tests/real_traces.txt; \
	else \
	    echo "check-real-traces: SKIPPED: no $(REAL_TRACES)"; \
	fi

CHECK_TARGETS += check-real-traces
