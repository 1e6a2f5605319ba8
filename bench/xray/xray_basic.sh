#!/usr/bin/env bash
# XRay basic-mode benchmark (make bench-xray-basic): throughput and peak
# memory of tracecheck on large basic-mode logs, against `cat` of the same
# file as the baseline and against LLVM's reader of these logs
# (llvm-xray convert). Figures only: nothing here fails because a figure
# misses its target. See docs/benchmarks.md.
#
#   bench/xray/xray_basic.sh
#
# Environment (make bench sets the first two):
#   TRACECHECK              the release tracecheck binary            (required)
#   BENCH_DIR               where the logs are cached                (required)
#   LLVM_XRAY               llvm-xray                                (llvm-xray)
#   BENCH_RUNS              runs of each fast measurement            (5)
#   BENCH_SLOW_RUNS         runs of llvm-xray convert                (2)
#   BENCH_SEED              generator seed                           (1)
#   BENCH_LLVM_TIMEOUT      seconds llvm-xray may take on a log      (300)
#   BENCH_BASELINE_MEM_GIB  address space llvm-xray may take         (12)
#
# Logs are generated once (tracecheck gen xray --mode basic) and kept in
# BENCH_DIR; delete them to regenerate them.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

: "${TRACECHECK:?set TRACECHECK to the tracecheck binary}"
: "${BENCH_DIR:?set BENCH_DIR to a directory for the benchmark logs}"
LLVM_XRAY=${LLVM_XRAY:-llvm-xray}
RUNS=${BENCH_RUNS:-5}
SLOW_RUNS=${BENCH_SLOW_RUNS:-2}
SEED=${BENCH_SEED:-1}
LLVM_TIMEOUT=${BENCH_LLVM_TIMEOUT:-300}
MEM_GIB=${BENCH_BASELINE_MEM_GIB:-12}

# The logs: version 3 (thread and process ids), 8 threads flushing their
# buffers in turn; the generator logs the argument of one call in five and,
# from version 2, makes some calls tail calls.
VERSION=3
THREADS=8

# Targets (see docs/benchmarks.md).
TARGET_GBPS=2.5
TARGET_RSS_MIB=64
TARGET_RATIO=20
TARGET_CAT_RATIO=2 # validate -j 1 on the 512 MiB log, against cat of it (medians)
RSS_FLAT_MIB=2 # peak RSS "independent of length": spread across lengths at most this

MIB=$((1 << 20))
GIB=$((1 << 30))

for n in RUNS SLOW_RUNS LLVM_TIMEOUT MEM_GIB; do
    [[ ${!n} =~ ^[1-9][0-9]*$ ]] || die "$n must be a positive integer, not '${!n}'"
done
for tool in timeout "$LLVM_XRAY"; do
    command -v "$tool" > /dev/null || die "$tool not found (run 'make deps')"
done

bench_setup

# gen NAME SIZE: BENCH_DIR/NAME.log, a basic-mode log of about SIZE bytes,
# checked valid once (a figure on an invalid log would measure an early
# stop), with NAME.log.mix saying what it holds.
gen() {
    local out=$BENCH_DIR/$1.log
    if [ ! -s "$out" ]; then
        echo "bench: generating $1 ($(human "$2"), version $VERSION, $THREADS threads, seed $SEED) ..." >&2
        "$TRACECHECK" gen xray --mode basic --version "$VERSION" --threads "$THREADS" \
            --seed "$SEED" --size "$2" -o "$out.tmp" || die "tracecheck gen failed for $1"
        "$TRACECHECK" validate --pedantic "$out.tmp" > "$LOG_DIR/$1.validate" 2>&1 ||
            die "tracecheck does not find the generated $1 valid: see $LOG_DIR/$1.validate"
        rm -f "$out.mix"
        mv "$out.tmp" "$out"
    fi
    if [ ! -s "$out.mix" ]; then
        echo "bench: counting the records of $1 ..." >&2
        mix "$out" > "$out.mix.tmp"
        mv "$out.mix.tmp" "$out.mix"
    fi
    echo "$out"
}

# mix FILE: its records by kind and its threads, counted on the canonical
# dump (about 40 s for 1 GiB, once).
mix() {
    "$TRACECHECK" dump "$1" | awk -F '"' '
        $4 == "function" { f[$8]++; match($0, /"tid":[0-9]+/); th[substr($0, RSTART, RLENGTH)] = 1 }
        $4 == "call_arg" { a++ }
        END {
            printf "%d records: %d Enter, %d EnterArg, %d Exit, %d TailExit, %d argument payloads; %d threads\n",
                f["enter"] + f["enter_args"] + f["exit"] + f["tail_exit"] + a,
                f["enter"], f["enter_args"], f["exit"], f["tail_exit"], a, length(th)
        }' || die "tracecheck dump failed on $1"
}

# llvm ID LOG FORMAT: llvm-xray convert of LOG to FORMAT on standard output,
# bounded in time and address space (ulimit -v) since it holds every record
# of the log in memory; FAILED[ID] says why when a run did not finish.
declare -A FAILED
llvm() {
    local id=$1 log=$2 format=$3
    measure "$id" "$SLOW_RUNS" "$(size_of "$log")" --may-fail -- timeout "$LLVM_TIMEOUT" \
        bash -c 'ulimit -v "$1"; shift; exec "$@"' - $((MEM_GIB << 20)) \
        "$LLVM_XRAY" convert --output-format="$format" "$log"
    case $MEASURE_STATUS in
        0) ;;
        124) FAILED[$id]="did not finish within $LLVM_TIMEOUT s" ;;
        *) FAILED[$id]="failed (status $MEASURE_STATUS: $(tail -n 1 "$LOG_DIR/$id.stderr" | cut -c 1-60))" ;;
    esac
    if [ -n "${FAILED[$id]:-}" ]; then echo "bench: $id ${FAILED[$id]}" >&2; fi
}

L1G=$(gen xray-basic-v3-8t-1g "$GIB")
# The per-core figure's log: 'tracecheck gen xray-basic' with its defaults.
L512=$BENCH_DIR/xray-basic-512m.log
if [ ! -s "$L512" ]; then
    echo "bench: generating xray-basic-512m (512 MiB, seed $SEED) ..." >&2
    "$TRACECHECK" gen xray-basic --seed "$SEED" --size $((512 * MIB)) -o "$L512.tmp" ||
        die "tracecheck gen failed for xray-basic-512m"
    mv "$L512.tmp" "$L512"
fi
S512=$(size_of "$L512")
L256=$(gen xray-basic-v3-8t-256m $((256 * MIB)))
S1G=$(size_of "$L1G")
S256=$(size_of "$L256")

LOAD_BEFORE=$(cut -d ' ' -f 1-3 /proc/loadavg)
echo "bench: warming the page cache ..." >&2
warm "$L1G" "$L256" "$L512"

echo "bench: measuring ($RUNS runs each; $SLOW_RUNS of llvm-xray) ..." >&2
measure b_cat_1g "$RUNS" "$S1G" -- cat -- "$L1G"
measure b_validate_1g "$RUNS" "$S1G" -- "$TRACECHECK" validate "$L1G"
measure b_validate_256m "$RUNS" "$S256" -- "$TRACECHECK" validate "$L256"
measure b_pedantic_1g "$RUNS" "$S1G" -- "$TRACECHECK" validate --pedantic "$L1G"
# The per-core figure: one thread against cat of the same file, each RUNS
# times one after the other (make bench-per-core takes them in turn).
measure b_cat_512m "$RUNS" "$S512" -- cat -- "$L512"
measure b_validate_j1_512m "$RUNS" "$S512" -- "$TRACECHECK" validate -j 1 "$L512"
# convert has no output that costs nothing; raw (the records written back
# as a basic-mode log) costs least, so its time is mostly reading. YAML, the
# output the conformance adapter asks for, on the shorter log only.
llvm b_llvm_1g "$L1G" raw
llvm b_llvm_256m "$L256" raw
llvm b_llvm_yaml_256m "$L256" yaml

# ---------------------------------------------------------------------------
# Report.

# llvm_row ID INPUT: row, or a line saying why there is no figure.
llvm_row() {
    local label="llvm-xray convert ${3:-raw}"
    if [ -n "${FAILED[$1]:-}" ]; then
        printf '%-32s %-22s %s\n' "$label" "$2" "${FAILED[$1]}"
    else
        row "$1" "$label" "$2"
    fi
}

{
    echo
    echo "tracecheck benchmark: XRay basic-mode logs from 'tracecheck gen xray --mode basic" \
        "--version $VERSION --threads $THREADS --seed $SEED'"
    echo "1 GiB log: $(cat "$L1G.mix")"
    echo "256 MiB log: $(cat "$L256.mix")"
    machine_lines
    echo "tools: $("$TRACECHECK" --version 2>/dev/null | head -n 1), $("$LLVM_XRAY" --version 2>/dev/null |
        grep -m1 -o 'LLVM version [0-9.]*')"
    echo "load average (1, 5, 15 min) at start: $LOAD_BEFORE; at end: $(cut -d ' ' -f 1-3 /proc/loadavg)"
    echo "page cache warm; time = wall clock of a run; best = fastest of the runs; median = middle run;"
    echo "GB/s = 10^9 bytes of log per second; peak RSS = largest maximum resident set size of the runs;"
    echo "MiB = 2^20 bytes; llvm-xray limited to $LLVM_TIMEOUT s and $MEM_GIB GiB of address space"
    echo
    table_header
    row b_cat_1g "cat > /dev/null (baseline)" "$(human "$S1G")"
    row b_validate_1g "tracecheck validate" "$(human "$S1G")"
    row b_validate_256m "tracecheck validate" "$(human "$S256")"
    row b_pedantic_1g "tracecheck validate --pedantic" "$(human "$S1G")"
    row b_cat_512m "cat > /dev/null (baseline)" "$(human "$S512") (gen xray-basic)"
    row b_validate_j1_512m "tracecheck validate -j 1" "$(human "$S512") (gen xray-basic)"
    llvm_row b_llvm_1g "$(human "$S1G")"
    llvm_row b_llvm_256m "$(human "$S256")"
    llvm_row b_llvm_yaml_256m "$(human "$S256")" yaml

    echo
    target_header
    g=$(gbps "$S1G" "${BEST[b_validate_1g]}")
    target_row "validate throughput >= $TARGET_GBPS GB/s (basic, 1 GiB)" \
        "$g GB/s (median $(gbps "$S1G" "${MED[b_validate_1g]}"))" \
        "$(awk -v g="$g" -v t="$TARGET_GBPS" 'BEGIN { print (g >= t) }')"
    ratio=$(awk -v a="${MED[b_validate_j1_512m]}" -v b="${MED[b_cat_512m]}" 'BEGIN { printf "%.2f", a / b }')
    target_row "validate -j 1 <= ${TARGET_CAT_RATIO}x cat, medians (basic, 512 MiB)" \
        "$(printf '%sx (%.3f s vs %.3f s)' "$ratio" "${MED[b_validate_j1_512m]}" "${MED[b_cat_512m]}")" \
        "$(awk -v r="$ratio" -v t="$TARGET_CAT_RATIO" 'BEGIN { print (r <= t) }')"
    printf '%-60s %-34s %s\n' "  its peak RSS (-j 1, basic 512 MiB)" "$(mib "${RSS[b_validate_j1_512m]}") MiB" ""
    r=$(mib "${RSS[b_validate_1g]}")
    target_row "validate peak RSS < $TARGET_RSS_MIB MiB (basic, 1 GiB)" "$r MiB" \
        "$(awk -v r="$r" -v t="$TARGET_RSS_MIB" 'BEGIN { print (r < t) }')"
    lo=${RSS[b_validate_256m]} hi=${RSS[b_validate_1g]}
    if [ "$hi" -lt "$lo" ]; then t=$lo; lo=$hi; hi=$t; fi
    target_row "validate peak RSS flat across lengths (spread <= $RSS_FLAT_MIB MiB)" \
        "$(mib "${RSS[b_validate_256m]}"), $(mib "${RSS[b_validate_1g]}") MiB (256 MiB, 1 GiB)" \
        "$(awk -v lo="$lo" -v hi="$hi" -v t="$RSS_FLAT_MIB" 'BEGIN { print ((hi - lo) / 1024 <= t) }')"
    # Against llvm-xray on the 1 GiB log, or on the 256 MiB one when it
    # could not do the 1 GiB log within its limits.
    if [ -z "${FAILED[b_llvm_1g]:-}" ]; then
        ours=b_validate_1g theirs=b_llvm_1g on="1 GiB"
    else
        ours=b_validate_256m theirs=b_llvm_256m on="256 MiB"
    fi
    if [ -n "${FAILED[$theirs]:-}" ]; then
        printf '%-60s %-34s %s\n' "validate >= ${TARGET_RATIO}x faster than llvm-xray convert" \
            "no figure: llvm-xray ${FAILED[$theirs]}" n/a
    else
        ratio=$(awk -v a="${BEST[$theirs]}" -v b="${BEST[$ours]}" 'BEGIN { printf "%.1f", a / b }')
        target_row "validate >= ${TARGET_RATIO}x faster than llvm-xray convert ($on)" \
            "$(printf '%sx (%.2f s vs %.3f s)' "$ratio" "${BEST[$theirs]}" "${BEST[$ours]}")" \
            "$(awk -v r="$ratio" -v t="$TARGET_RATIO" 'BEGIN { print (r >= t) }')"
    fi
    if [ -n "${FAILED[b_llvm_1g]:-}" ]; then
        echo "note: llvm-xray convert ${FAILED[b_llvm_1g]} on the 1 GiB log; compared on 256 MiB"
    fi
    echo
    echo "logs: $LOG_DIR/; basic-mode logs: $BENCH_DIR/"
} | tee "$BENCH_DIR/results-xray-basic.txt"
