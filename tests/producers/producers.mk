# Real producers in the loop: traces written by the producers themselves must
# pass tracecheck (and the producers' own readers), and the producers' known
# bugs must be reported as such.
#
#   make check-producers      part of `make check`
#
# XRay FDR: tests/producers/xray_fdr_app.cc is built with clang's XRay
# instrumentation and run under compiler-rt's FDR runtime; the traces go to
# $(BUILD)/producers/xray/, tests/producers/xray_fdr.sh checks them with the
# sanitized tracecheck and with llvm-xray.

XRAY_CXX ?= clang++
LLVM_XRAY ?= llvm-xray
XRAY_APP_FLAGS := -O1 -std=c++17 -Wall -Wextra -Werror -fxray-instrument \
    -fxray-instruction-threshold=1 -fxray-always-emit-customevents \
    -fxray-always-emit-typedevents -pthread

PRODUCERS_DIR := $(BUILD)/producers
XRAY_APP := $(PRODUCERS_DIR)/xray_fdr_app
# Same program without typed-event sleds: llvm-xray can read its
# instrumentation map (see the head of xray_fdr_app.cc).
XRAY_APP_NOTYPED := $(PRODUCERS_DIR)/xray_fdr_app_notyped

$(XRAY_APP): tests/producers/xray_fdr_app.cc tests/producers/producers.mk
	@mkdir -p $(@D)
	$(XRAY_CXX) $(XRAY_APP_FLAGS) $< -o $@

$(XRAY_APP_NOTYPED): tests/producers/xray_fdr_app.cc tests/producers/producers.mk
	@mkdir -p $(@D)
	$(XRAY_CXX) $(XRAY_APP_FLAGS) -DXRAY_FDR_APP_TYPED_EVENTS=0 $< -o $@

.PHONY: check-producers check-producers-xray
check-producers: check-producers-xray

check-producers-xray: $(TRACECHECK_SAN) $(XRAY_APP) $(XRAY_APP_NOTYPED)
	@LLVM_XRAY='$(LLVM_XRAY)' tests/producers/xray_fdr.sh '$(TRACECHECK_SAN)' \
	    '$(XRAY_APP)' '$(XRAY_APP_NOTYPED)' '$(PRODUCERS_DIR)/xray'

CHECK_TARGETS += check-producers
