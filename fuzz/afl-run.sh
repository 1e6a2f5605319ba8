#!/bin/bash
# One AFL++ campaign of a harness built in persistent mode, bounded in time,
# for `make fuzz ENGINE=afl` and the AFL++ smoke run of `make check`.
#
#   afl-run.sh BINARY SECONDS SEED_DIR OUT_DIR JOBS DICT|- [CMPLOG_BINARY]
#
# JOBS > 1 runs one main instance (-M main) and JOBS-1 secondaries (-S s2 ...)
# sharing OUT_DIR, the way a campaign scales out over cores (and, with the
# output directory synchronised, over machines). A CMPLOG_BINARY (built with
# AFL_LLVM_CMPLOG=1) is given to the main instance for input-to-state
# comparisons. An existing OUT_DIR is resumed.
#
# Exit status 0, or 1 when an instance failed to run or saved a crash or a
# hang; the reproducers are named.
set -u

if [ $# -lt 6 ]; then
    echo "usage: $0 BINARY SECONDS SEED_DIR OUT_DIR JOBS DICT|- [CMPLOG_BINARY]" >&2
    exit 2
fi
bin=$1 seconds=$2 seeds=$3 out=$4 jobs=$5 dict=$6 cmplog=${7:-}
name=$(basename "$bin")

# What a CI container needs: no CPU frequency governor to check, no core
# pattern to fix, no terminal, no free core to bind to, and a resumable output.
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1
export AFL_NO_AFFINITY=1 AFL_AUTORESUME=1
export AFL_FORKSRV_INIT_TMOUT=${AFL_FORKSRV_INIT_TMOUT:-30000}

mkdir -p "$out" || exit 1
common=(-i "$seeds" -o "$out" -V "$seconds" -t "${FUZZ_AFL_TIMEOUT:-5000}")
[ "$dict" != - ] && common+=(-x "$dict")

pids=()
for ((i = 1; i <= jobs; i++)); do
    if [ "$i" -eq 1 ]; then
        role=(-M main)
        [ -n "$cmplog" ] && role+=(-c "$cmplog")
        inst=main
    else
        role=(-S "s$i")
        inst="s$i"
    fi
    afl-fuzz "${common[@]}" "${role[@]}" -- "$bin" >"$out/$inst.log" 2>&1 &
    pids+=($!)
done
rc=0
for p in "${pids[@]}"; do
    wait "$p" || rc=1
done

total=0 rate=0 queue=0
for s in "$out"/*/fuzzer_stats; do
    [ -f "$s" ] || continue
    e=$(awk -F: '/^execs_done/ {gsub(/ /, "", $2); print $2}' "$s")
    r=$(awk -F: '/^execs_per_sec/ {gsub(/ /, "", $2); print int($2)}' "$s")
    q=$(awk -F: '/^corpus_count/ {gsub(/ /, "", $2); print $2}' "$s")
    total=$((total + ${e:-0})) rate=$((rate + ${r:-0})) queue=$((queue + ${q:-0}))
done
persistent=""
grep -q "Persistent mode binary detected" "$out/main.log" 2>/dev/null && persistent=", persistent mode"

found=$(find "$out" -path '*/crashes/id:*' -o -path '*/hangs/id:*' 2>/dev/null | sort)
if [ "$rc" -ne 0 ] || [ "$total" -eq 0 ]; then
    echo "fuzz: $name: afl-fuzz did not run properly; log: $out/main.log" >&2
    tail -20 "$out/main.log" >&2
    exit 1
fi
if [ -n "$found" ]; then
    echo "fuzz: $name FAILED under AFL++; reproducers:" >&2
    echo "$found" | sed 's/^/    /' >&2
    echo "fuzz: replay one with the regression driver build of $name" >&2
    exit 1
fi
echo "fuzz: $name (AFL++, $jobs instance(s)$persistent): $total executions (${rate}/s) in ${seconds}s, queue $queue inputs, no crash or hang"
