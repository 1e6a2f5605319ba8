# One input on several threads reports what one thread reports: every XRay
# input and ovni trace of the repository and of ../shared/traces (when
# present), with -j 1 and with -j 4 in small segments, by the ASan/UBSan
# build.
#   make check-split [TRACES=DIR]
.PHONY: check-split
check-split: $(TRACECHECK_SAN)
	@tests/split/check-split $(TRACECHECK_SAN) --traces '$(TRACES)'

CHECK_TARGETS += check-split
