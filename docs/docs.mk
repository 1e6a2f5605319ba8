# docs/rules/FORMAT.md are generated from the catalogue (spec/rules.def) and
# committed so they can be read without building; `make check` fails when
# they are stale. One page per format the program knows (rules --formats).
DOC_FORMATS = $$($(TRACECHECK) rules --formats | awk '{print $$1}')

.PHONY: docs check-docs
docs: $(TRACECHECK)
	@mkdir -p docs/rules
	@for f in $(DOC_FORMATS); do $(TRACECHECK) rules --markdown --format $$f > docs/rules/$$f.md; done
	@for f in $(DOC_FORMATS); do for p in $$($(TRACECHECK) rules --format $$f --pages); do \
	    mkdir -p docs/$$(dirname $$p) && $(TRACECHECK) rules --format $$f --page $$p > docs/$$p; \
	done; done

check-docs: $(TRACECHECK)
	@for f in $(DOC_FORMATS); do \
	    $(TRACECHECK) rules --markdown --format $$f | diff -u docs/rules/$$f.md - >/dev/null || \
	    { echo "docs/rules/$$f.md is stale: run 'make docs'" >&2; exit 1; }; done
	@for f in $(DOC_FORMATS); do for p in $$($(TRACECHECK) rules --format $$f --pages); do \
	    $(TRACECHECK) rules --format $$f --page $$p | diff -u docs/$$p - >/dev/null || \
	    { echo "docs/$$p is stale: run 'make docs'" >&2; exit 1; }; done; done
	@echo "docs: rule pages and the formats' generated pages up to date"
	@tests/walkthroughs-check $(TRACECHECK) docs/walkthroughs.md

CHECK_TARGETS += check-docs
