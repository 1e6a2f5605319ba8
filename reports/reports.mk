# Report writers of `tracecheck validate` (docs/reports.md).
#
# SARIF's helpUri and informationUri are absolute URIs into the
# documentation: by default the source tree this program is built from
# (`validate --docs-uri` names a published copy instead).
TC_DOCS_URI ?= file://$(CURDIR)/
$(BUILD)/obj/reports/report.o $(BUILD)/san/reports/report.o: \
    CPPFLAGS += -DTC_DOCS_URI='"$(TC_DOCS_URI)"'

# `validate -j N` runs worker threads.
LIBS += -pthread

# check-reports: the reports of real inputs, every valid and invalid case of
# every format, read back by independent tools: SARIF validated against the
# official 2.1.0 schema (python3-jsonschema) when ../shared/schemas holds it,
# JUnit XML and the HTML page (which is well-formed XML too) parsed by
# xmllint (libxml2-utils).
SARIF_SCHEMA := $(abspath $(CURDIR)/../shared/schemas/sarif-schema-2.1.0.json)
# Every group of cases, each entry of it an input (a group directory itself
# may look like a trace: one named "ovni" does).
REPORT_CASES := $(notdir $(patsubst %/,%,$(wildcard conformance/cases/*/)))
REPORTS_CHECK := $(BUILD)/reports-check

.PHONY: check-reports
check-reports: $(TRACECHECK)
	@rm -rf $(REPORTS_CHECK)
	@for f in $(REPORT_CASES); do \
	    set -- conformance/cases/$$f/*; \
	    $(TRACECHECK) validate -q --report-dir $(REPORTS_CHECK)/$$f "$$@" >/dev/null; \
	    rc=$$?; [ $$rc -le 1 ] || { echo "check-reports: validate $$f exited $$rc" >&2; exit 1; }; \
	done
	@for f in $(REPORT_CASES); do \
	    xmllint --noout $(REPORTS_CHECK)/$$f/validate.xml $(REPORTS_CHECK)/$$f/validate.html || exit 1; \
	    echo "  XML    $(REPORTS_CHECK)/$$f/validate.{xml,html}: well-formed"; done
	@if [ -f $(SARIF_SCHEMA) ]; then \
	    python3 reports/sarif_schema_check.py $(SARIF_SCHEMA) \
	        $(foreach f,$(REPORT_CASES),$(REPORTS_CHECK)/$(f)/validate.sarif); \
	else \
	    echo "check-reports: SKIPPED the SARIF schema validation: no $(SARIF_SCHEMA)"; \
	fi
	@echo "reports: SARIF, JUnit XML and HTML of every format read back"

CHECK_TARGETS += check-reports
