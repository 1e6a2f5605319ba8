# The generator against LLVM's own reader: valid traces of every version LLVM
# reads (little-endian; version 1 with zero padding, its default) must be
# accepted by `llvm-xray fdr-dump --verify` and by `llvm-xray convert`, and
# the same options must give the same bytes.
GEN_CHECK_DIR := $(BUILD)/gen-check

.PHONY: check-gen-llvm
check-gen-llvm: $(TRACECHECK)
	@rm -rf $(GEN_CHECK_DIR) && mkdir -p $(GEN_CHECK_DIR)
	@n=0; for v in 1 2 3 4 5; do for seed in 1 2 3; do for size in 200 4K 100K 2M; do \
	    f=$(GEN_CHECK_DIR)/v$$v-s$$seed-$$size.xray; \
	    $(TRACECHECK) gen xray --version $$v --seed $$seed --size $$size --threads $$seed -o $$f || exit 1; \
	    llvm-xray fdr-dump --verify $$f > /dev/null 2>$$f.err || \
	        { echo "llvm-xray fdr-dump --verify rejects $$f:"; cat $$f.err; exit 1; }; \
	    llvm-xray convert --output-format=yaml --output=/dev/null $$f 2>$$f.err || \
	        { echo "llvm-xray convert rejects $$f:"; cat $$f.err; exit 1; }; \
	    $(TRACECHECK) validate -q $$f > /dev/null || { echo "tracecheck rejects $$f"; exit 1; }; \
	    $(TRACECHECK) gen xray --version $$v --seed $$seed --size $$size --threads $$seed -o $$f.again && \
	    cmp -s $$f $$f.again || { echo "gen is not deterministic for $$f"; exit 1; }; \
	    n=$$((n + 1)); done; done; done; \
	echo "generator: $$n traces (versions 1-5) accepted by llvm-xray fdr-dump --verify and convert, reproducible"

CHECK_TARGETS += check-gen-llvm

# The basic-mode generator (gen xray --mode basic) against LLVM's own reader:
# valid logs of versions 1 to 3 in both byte orders (LLVM reads big-endian
# ones through its retry), several threads and sizes, are accepted by
# `llvm-xray convert` (it has no fdr-dump for basic mode), have no finding
# at all under --pedantic, and are reproducible. A header-only log is valid
# but LLVM rejects it (docs/llvm-xray.md): that departure is checked to be
# still there, so that a fix upstream is noticed. Then the log of every
# basic-mode mutator is reported with its rule at its severity and no other
# error.
GEN_BASIC_CHECK_DIR := $(BUILD)/gen-check-basic

.PHONY: check-gen-xray-basic
check-gen-xray-basic: $(TRACECHECK)
	@rm -rf $(GEN_BASIC_CHECK_DIR) && mkdir -p $(GEN_BASIC_CHECK_DIR)
	@n=0; for v in 1 2 3; do for be in "" --big-endian; do for seed in 1 2 3; do \
	  for size in 100 4K 100K 2M; do \
	    f=$(GEN_BASIC_CHECK_DIR)/v$$v$$be-s$$seed-$$size.xray; \
	    args="--mode basic --version $$v $$be --seed $$seed --size $$size --threads $$seed"; \
	    $(TRACECHECK) gen xray $$args -o $$f || exit 1; \
	    llvm-xray convert -f yaml $$f > /dev/null 2>$$f.err || \
	        { echo "llvm-xray convert rejects $$f ($$args):"; cat $$f.err; exit 1; }; \
	    out=$$($(TRACECHECK) validate --pedantic --color never $$f) || \
	        { echo "tracecheck rejects $$f ($$args):"; echo "$$out"; exit 1; }; \
	    echo "$$out" | grep -q " 0 errors, 0 warnings, 0 notes" || \
	        { echo "findings on $$f ($$args):"; echo "$$out"; exit 1; }; \
	    $(TRACECHECK) gen xray $$args -o $$f.again && cmp -s $$f $$f.again || \
	        { echo "gen xray $$args is not deterministic"; exit 1; }; \
	    rm -f $$f $$f.again $$f.err; n=$$((n + 1)); \
	  done; done; done; done; \
	f=$(GEN_BASIC_CHECK_DIR)/header-only.xray; \
	$(TRACECHECK) gen xray --mode basic --size 0 -o $$f && $(TRACECHECK) validate -q $$f > /dev/null && \
	! llvm-xray convert -f yaml $$f > /dev/null 2>&1 || \
	    { echo "llvm-xray convert now accepts a header-only basic-mode log: update" \
	           "docs/llvm-xray.md (conformance/tools/llvm-xray-doc)"; exit 1; }; \
	echo "basic-mode generator: $$n logs (versions 1-3, both byte orders) accepted by" \
	     "llvm-xray convert, without a finding, reproducible; a header-only log valid, as" \
	     "documented rejected by llvm-xray convert"
	@n=0; for rule in $$($(TRACECHECK) gen xray --mode basic --list-mutators | awk '{print $$1}'); do \
	  sev=$$($(TRACECHECK) rules --format xray-basic | awk -v r=$$rule '$$1 == r {print $$2}'); \
	  versions=$$($(TRACECHECK) gen xray --mode basic --list-mutators | \
	             awk -v r=$$rule '$$1 == r {gsub("v", "", $$2); gsub(",", " ", $$2); print $$2}'); \
	  want=$$([ "$$sev" = error ] && echo 1 || echo 0); \
	  for v in $$versions; do for run in "1" "2 --big-endian --threads 3"; do \
	    f=$(GEN_BASIC_CHECK_DIR)/$$rule-$$v.xray; \
	    $(TRACECHECK) gen xray --mode basic --version $$v --size 30K --violate $$rule \
	        --seed $$run -o $$f || exit 1; \
	    out=$$($(TRACECHECK) validate --pedantic --color never $$f); st=$$?; \
	    others=$$(echo "$$out" | grep ": error: " | grep -v ": error: $$rule: "); \
	    if [ $$st != $$want ] || ! echo "$$out" | grep -q ": $$sev: $$rule: " || \
	       [ -n "$$others" ]; then \
	        echo "gen xray --mode basic --version $$v --seed $$run --violate $$rule: exit" \
	             "$$st, expected $$rule alone:"; echo "$$out"; exit 1; fi; \
	    rm -f $$f; n=$$((n + 1)); \
	  done; done; done; \
	echo "basic-mode mutators: $$n logs, each reported with its rule alone"

CHECK_TARGETS += check-gen-xray-basic

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
