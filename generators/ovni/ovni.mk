# The ovni generator at the command line: valid traces of several shapes,
# sizes and both byte orders pass `tracecheck validate` with no finding at
# all, the same options write the same files, and the trace of every
# mutator is reported with its rule (at its severity) and no other error.
# When libovni's tools are on PATH (docs/ovni-tools.md), the little-endian
# valid traces must also be accepted by `ovniemu -l`, `ovnidump` and
# `ovnisort` (exit 0): the generator writes other models' events as
# libovni's models define them, and a trace its emulator can play.
OVNI_GEN_CHECK_DIR := $(BUILD)/gen-check-ovni

.PHONY: check-gen-ovni
check-gen-ovni: $(TRACECHECK)
	@rm -rf $(OVNI_GEN_CHECK_DIR) && mkdir -p $(OVNI_GEN_CHECK_DIR)
	@n=0; m=0; tools=; command -v ovniemu > /dev/null && command -v ovnidump > /dev/null && \
	  command -v ovnisort > /dev/null && tools=1; \
	for shape in "1 1 1" "2 2 2" "3 1 4"; do set -- $$shape; \
	  for seed in 1 2; do for be in "" --big-endian; do for size in 0 50K 2M; do \
	    d=$(OVNI_GEN_CHECK_DIR)/valid-$$1$$2$$3-$$seed$$be-$$size; \
	    args="--looms $$1 --procs $$2 --threads $$3 --seed $$seed --size $$size $$be"; \
	    $(TRACECHECK) gen ovni $$args -o $$d || exit 1; \
	    out=$$($(TRACECHECK) validate --color never $$d) || { echo "tracecheck rejects $$d:"; echo "$$out"; exit 1; }; \
	    echo "$$out" | grep -q " 0 errors, 0 warnings, 0 notes" || \
	        { echo "findings on $$d ($$args):"; echo "$$out"; exit 1; }; \
	    $(TRACECHECK) gen ovni $$args -o $$d.again && diff -r $$d $$d.again > /dev/null || \
	        { echo "gen ovni $$args is not deterministic"; exit 1; }; \
	    if [ -n "$$tools" ] && [ -z "$$be" ]; then \
	      ovniemu -l $$d > /dev/null 2> $$d.err || { echo "ovniemu -l rejects $$d ($$args):"; \
	          grep -m 3 ERROR $$d.err; exit 1; }; \
	      ovnidump $$d > /dev/null 2> $$d.err || { echo "ovnidump rejects $$d ($$args):"; \
	          grep -m 3 ERROR $$d.err; exit 1; }; \
	      ovnisort $$d 2> $$d.err || { echo "ovnisort rejects $$d ($$args):"; \
	          grep -m 3 ERROR $$d.err; exit 1; }; \
	      m=$$((m + 1)); fi; \
	    rm -rf $$d $$d.again $$d.err; n=$$((n + 1)); \
	  done; done; done; done; \
	echo "ovni generator: $$n valid traces without a finding, reproducible"; \
	if [ -n "$$tools" ]; then echo "ovni generator: $$m little-endian valid traces accepted by" \
	    "ovniemu -l, ovnidump and ovnisort ($$(command -v ovniemu))"; \
	else echo "ovni generator: libovni's tools not on PATH, not run on the valid traces"; fi
	@n=0; for rule in $$($(TRACECHECK) gen ovni --list-mutators | awk '{print $$1}'); do \
	  sev=$$($(TRACECHECK) rules --format ovni | awk -v r=$$rule '$$1 == r {print $$2}'); \
	  for seed in 1 2; do for be in "" --big-endian; do \
	    d=$(OVNI_GEN_CHECK_DIR)/$$rule-$$seed$$be; \
	    $(TRACECHECK) gen ovni --seed $$seed --size 30K $$be --violate $$rule -o $$d || exit 1; \
	    out=$$($(TRACECHECK) validate --color never $$d); st=$$?; \
	    want=$$([ "$$sev" = error ] && echo 1 || echo 0); \
	    others=$$(echo "$$out" | grep ": error: " | grep -v ": error: $$rule: "); \
	    if [ $$st != $$want ] || ! echo "$$out" | grep -q ": $$sev: $$rule: " || [ -n "$$others" ]; then \
	        echo "gen ovni --seed $$seed $$be --violate $$rule: exit $$st, expected $$rule alone:"; \
	        echo "$$out"; exit 1; fi; \
	    rm -rf $$d; n=$$((n + 1)); \
	  done; done; done; \
	echo "ovni mutators: $$n traces, each reported with its rule alone"

CHECK_TARGETS += check-gen-ovni
