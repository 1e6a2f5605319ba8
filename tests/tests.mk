# Unit tests: the CUnit suites of tests/ and of its folders (tests/<format>/,
# one suite per test_*.c), linked into one program against the ASan+UBSan
# copy of the library and run by `make check` (check-unit). `make unit` only
# builds it; `$(BUILD)/san/tests/unit SUITE...` runs some suites.
UNIT_SRCS := $(sort $(wildcard tests/*.c tests/*/*.c))
UNIT_OBJS := $(UNIT_SRCS:%.c=$(BUILD)/san/%.o)
UNIT := $(BUILD)/san/tests/unit
# The suites, found in the sources: one TC_SUITE(register_<name>_suite) line
# each (tests/suites.h, tests/unit_main.c), rewritten only when it changes.
UNIT_SUITES := $(BUILD)/san/tests/suites.inc
$(UNIT_SUITES): $(UNIT_SRCS)
	@mkdir -p $(@D)
	@grep -ho '^void register_[a-z0-9_]*_suite(void)' $(UNIT_SRCS) | \
	    sed 's/^void \(.*\)(void)$$/TC_SUITE(\1)/' > $@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi
$(UNIT_OBJS): CPPFLAGS += -I$(BUILD)/san/tests
$(UNIT_OBJS): | $(UNIT_SUITES)

# The tests use POSIX 2008 and GNU interfaces (open_memstream, mkdtemp, fork,
# pipes) that a strict -std=c11 build hides.
$(UNIT_OBJS): CPPFLAGS += -D_GNU_SOURCE

$(UNIT): $(UNIT_OBJS) $(BUILD)/san/libtracecheck-tools.a $(BUILD)/san/libtracecheck.a
	$(call say,LD,$@)
	$(Q)$(CC) $(SAN_FLAGS) $(LDFLAGS) -o $@ $(UNIT_OBJS) $(BUILD)/san/libtracecheck-tools.a \
	    $(BUILD)/san/libtracecheck.a -lcunit $(LIBS)

.PHONY: unit check-unit
unit: $(UNIT)

# The docs suite runs the sanitized tracecheck next to the test program.
check-unit: $(UNIT) $(TRACECHECK_SAN)
	$(UNIT)

CHECK_TARGETS += check-unit


# The program tests/perf/test_perf_binary.c judges perf traces against (perf's
# --binary): built without a C library, 32-bit when the compiler and linker
# can (SiFive's bare-metal RV32 programs are ELFCLASS32), else of the
# machine's class; and a copy stripped of its symbols. Functions aligned, so
# that their starts are even addresses, as perf records write them.
PERF_PROG := $(BUILD)/tests/perf-binary/prog
PERF_PROG_FLAGS := -nostdlib -static -ffreestanding -fno-pie -fno-stack-protector \
                   -fno-asynchronous-unwind-tables -falign-functions=16 -O0 -w

$(PERF_PROG): tests/perf/binary/prog.c
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(CC) -m32 $(PERF_PROG_FLAGS) -o $@ $< 2>/dev/null || $(CC) $(PERF_PROG_FLAGS) -o $@ $<
	$(Q)objcopy --strip-all $@ $@.stripped

$(UNIT): | $(PERF_PROG)
