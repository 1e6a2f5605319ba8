# The real traces of ../shared/traces (files written by the formats' own
# projects), read in place by the ASan/UBSan build and compared with
# tests/real-traces/expected.tsv; SKIPPED when the folder is absent.
#   make check-real-traces [TRACES=DIR]
TRACES ?= $(abspath $(CURDIR)/../shared/traces)

.PHONY: check-real-traces
check-real-traces: $(TRACECHECK_SAN)
	@tests/real-traces/check-real-traces $(TRACECHECK_SAN) --traces '$(TRACES)'

CHECK_TARGETS += check-real-traces
