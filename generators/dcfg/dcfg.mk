# The DCFG generator at the command line: valid pairs (OUT.dcfg.json,
# OUT.trace.json) of several shapes and sizes pass `tracecheck validate
# --pair DCFG TRACE` (the DCFG validated, then the trace checked against it)
# with no finding at all, and are reproducible; each mutator's pair,
# validated the same way, is reported with its rule at its severity (exit
# status 1 for an error, 0 for a warning) and nothing else of error or
# warning severity. --format dcfg-trace because a mutated top level is not
# detectable as a DCFG-trace; the DCFG after --pair is read as a DCFG.
DCFG_GEN_CHECK_DIR := $(BUILD)/gen-check-dcfg

.PHONY: check-gen-dcfg
check-gen-dcfg: $(TRACECHECK)
	@rm -rf $(DCFG_GEN_CHECK_DIR) && mkdir -p $(DCFG_GEN_CHECK_DIR)
	@$(TRACECHECK) validate --help | grep -q -- '--pair DCFG' || \
	    { echo "tracecheck validate has no --pair DCFG"; exit 1; }
	@n=0; for shape in "" "--procs 1 --threads 1" "--procs 2 --threads 3" "--procs 3 --threads 2"; do \
	  for seed in 1 2; do for size in 0 1K 50K 2M; do \
	    d=$(DCFG_GEN_CHECK_DIR)/valid-$$seed-$$size; args="$$shape --seed $$seed --size $$size"; \
	    $(TRACECHECK) gen dcfg $$args -o $$d || exit 1; \
	    out=$$($(TRACECHECK) validate --color never --format dcfg-trace \
	           --pair $$d.dcfg.json $$d.trace.json) || \
	        { echo "tracecheck rejects the pair $$d ($$args):"; echo "$$out"; exit 1; }; \
	    echo "$$out" | grep -q " 2 inputs, 2 valid, 0 invalid; 0 errors, 0 warnings, 0 notes" || \
	        { echo "findings on the pair $$d ($$args):"; echo "$$out"; exit 1; }; \
	    $(TRACECHECK) gen dcfg $$args -o $$d.again && cmp -s $$d.dcfg.json $$d.again.dcfg.json && \
	        cmp -s $$d.trace.json $$d.again.trace.json || \
	        { echo "gen dcfg $$args is not deterministic"; exit 1; }; \
	    rm -f $$d.* ; n=$$((n + 1)); \
	  done; done; done; \
	echo "dcfg generator: $$n valid pairs without a finding (validate --pair), reproducible"
	@n=0; for rule in $$($(TRACECHECK) gen dcfg --list-mutators | awk '{print $$1}'); do \
	  sev=$$($(TRACECHECK) rules | awk -v r=$$rule '$$1 == r {print $$2}'); \
	  want=$$([ "$$sev" = error ] && echo 1 || echo 0); \
	  for run in "1" "2" "3 --procs 2 --threads 3"; do set -- $$run; \
	    d=$(DCFG_GEN_CHECK_DIR)/$$rule-$$1; \
	    $(TRACECHECK) gen dcfg --seed $$run --size 30K --violate $$rule -o $$d || exit 1; \
	    out=$$($(TRACECHECK) validate --color never --format dcfg-trace \
	           --pair $$d.dcfg.json $$d.trace.json); st=$$?; \
	    others=$$(echo "$$out" | grep -E ": (error|warning): " | grep -v ": $$sev: $$rule: "); \
	    if [ $$st != $$want ] || ! echo "$$out" | grep -q ": $$sev: $$rule: " || \
	       [ -n "$$others" ]; then \
	        echo "gen dcfg --seed $$run --violate $$rule: exit $$st, expected $$rule alone:"; \
	        echo "$$out"; exit 1; fi; \
	    rm -f $$d.*; n=$$((n + 1)); \
	  done; done; \
	echo "dcfg mutators: $$n pairs (validate --pair), each reported with its rule alone"

CHECK_TARGETS += check-gen-dcfg
