# The SiFive perf generator at the command line: valid traces of several
# seeds and sizes, in both containers (.rtd Nexus, .itc text) and all three
# count types, pass `tracecheck validate` with no finding at all and are
# reproducible; the trace of every mutator, in each container its rule
# exists in, is reported with its rule at its severity (exit status 1 for
# an error, 0 otherwise; --pedantic for a pedantic rule) and no other
# error.
PERF_GEN_CHECK_DIR := $(BUILD)/gen-check-perf

.PHONY: check-gen-perf
check-gen-perf: $(TRACECHECK)
	@rm -rf $(PERF_GEN_CHECK_DIR) && mkdir -p $(PERF_GEN_CHECK_DIR)
	@n=0; for seed in 1 2 3; do for c in rtd text; do for ct in raw delta xor; do \
	  for size in 0 20K 1M; do \
	    ext=$$([ $$c = text ] && echo itc || echo rtd); \
	    f=$(PERF_GEN_CHECK_DIR)/valid-$$seed-$$ct-$$size.$$ext; \
	    args="--seed $$seed --size $$size --count-type $$ct --container $$c"; \
	    $(TRACECHECK) gen perf $$args -o $$f || exit 1; \
	    out=$$($(TRACECHECK) validate --color never $$f) || \
	        { echo "tracecheck rejects $$f ($$args):"; echo "$$out"; exit 1; }; \
	    echo "$$out" | grep -q " 0 errors, 0 warnings, 0 notes" || \
	        { echo "findings on $$f ($$args):"; echo "$$out"; exit 1; }; \
	    $(TRACECHECK) gen perf $$args -o $$f.again.$$ext && cmp -s $$f $$f.again.$$ext || \
	        { echo "gen perf $$args is not deterministic"; exit 1; }; \
	    rm -f $$f $$f.again.$$ext; n=$$((n + 1)); \
	  done; done; done; done; \
	echo "perf generator: $$n valid traces without a finding, reproducible"
	@n=0; $(TRACECHECK) gen perf --list-mutators | awk '{print $$1, $$2}' | \
	while read rule where; do \
	  sev=$$($(TRACECHECK) rules --format perf | awk -v r=$$rule '$$1 == r {print $$2}'); \
	  ped=$$($(TRACECHECK) rules --format perf | grep "^$$rule " | grep -q -- '--pedantic only' && \
	         echo --pedantic); \
	  want=$$([ "$$sev" = error ] && echo 1 || echo 0); \
	  for c in $$(echo $$where | tr , ' '); do for seed in 1 2 3; do \
	    ext=$$([ $$c = text ] && echo itc || echo rtd); \
	    f=$(PERF_GEN_CHECK_DIR)/$$rule-$$seed.$$ext; \
	    $(TRACECHECK) gen perf --seed $$seed --size 30K --container $$c --violate $$rule \
	        -o $$f || exit 1; \
	    out=$$($(TRACECHECK) validate --color never $$ped $$f); st=$$?; \
	    others=$$(echo "$$out" | grep ": error: " | grep -v ": error: $$rule: "); \
	    if [ $$st != $$want ] || ! echo "$$out" | grep -q ": $$sev: $$rule: " || \
	       [ -n "$$others" ]; then \
	        echo "gen perf --seed $$seed --container $$c --violate $$rule: exit $$st," \
	             "expected $$rule alone:"; \
	        echo "$$out"; exit 1; fi; \
	    rm -f $$f; n=$$((n + 1)); \
	  done; done; \
	  echo $$n > $(PERF_GEN_CHECK_DIR)/mutated; \
	done && echo "perf mutators: $$(cat $(PERF_GEN_CHECK_DIR)/mutated) traces, each reported" \
	    "with its rule alone"

CHECK_TARGETS += check-gen-perf
