#!/usr/bin/env bash
# Scaling within one input (make bench-scaling): how `tracecheck validate
# -j N` speeds up a single large trace as N grows, for the inputs that are
# shared out among threads (docs/design.md, "One input on several threads"):
# an XRay FDR trace (its buffers) and an ovni trace of many streams. The
# other formats are checked by one thread per input; one of each is
# measured too, so that the table shows it. Figures only: nothing here fails
# because a figure misses its target. See docs/benchmarks.md.
#
#   bench/scaling.sh
#
# Environment (make bench-scaling sets the first two):
#   TRACECHECK            the release tracecheck binary              (required)
#   BENCH_DIR             where the traces are cached                (required)
#   BENCH_RUNS            runs of each measurement                   (5)
#   BENCH_SEED            generator seed                             (1)
#   BENCH_SCALING_SIZE    bytes per trace                            (1 GiB)
#   BENCH_SCALING_MAX     the most threads measured                  (the CPUs)
#
# The thread counts are 1, 2, 4, ... below BENCH_SCALING_MAX, then
# BENCH_SCALING_MAX itself: on a 64-CPU machine 1, 2, 4, 8, 16, 32 and 64.
# A trace is cut into segments of at least 32 MiB (--split-min), so a
# machine with more CPUs needs a larger trace to use them all
# (BENCH_SCALING_SIZE=8G for 128 threads).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

: "${TRACECHECK:?set TRACECHECK to the tracecheck binary}"
: "${BENCH_DIR:?set BENCH_DIR to a directory for the benchmark traces}"
RUNS=${BENCH_RUNS:-5}
SEED=${BENCH_SEED:-1}
SIZE=${BENCH_SCALING_SIZE:-1G}
MAX=${BENCH_SCALING_MAX:-$(nproc)}

[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "BENCH_RUNS must be a positive integer, not '$RUNS'"
[[ $MAX =~ ^[1-9][0-9]*$ ]] || die "BENCH_SCALING_MAX must be a positive integer, not '$MAX'"
bench_setup

# gen NAME FORMAT ARGS...: BENCH_DIR/NAME made by tracecheck gen, once.
gen() {
    local out=$BENCH_DIR/$1 format=$2
    shift 2
    if [ ! -e "$out" ]; then
        echo "bench: generating $out ..." >&2
        rm -rf "$out.tmp"
        "$TRACECHECK" gen "$format" --seed "$SEED" --size "$SIZE" "$@" -o "$out.tmp" ||
            die "tracecheck gen $format failed"
        mv "$out.tmp" "$out"
    fi
    echo "$out"
}

XRAY=$(gen "scaling-xray-$SIZE.fdr" xray --version 5)
OVNI=$(gen "scaling-ovni-$SIZE" ovni --looms 2 --procs 4 --threads 8)
BASIC=$(gen "scaling-basic-$SIZE.xray" xray-basic)
PERF=$(gen "scaling-perf-$SIZE.rtd" perf --container rtd)
bytes() { find "$1" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }'; }
NSTREAMS=$(find "$OVNI" -name stream.obs | wc -l)

counts=()
for ((j = 1; j < MAX; j *= 2)); do counts+=("$j"); done
counts+=("$MAX")

LOAD_BEFORE=$(cut -d ' ' -f 1-3 /proc/loadavg)
echo "bench: warming the page cache ..." >&2
for t in "$XRAY" "$OVNI" "$BASIC" "$PERF"; do find "$t" -type f -exec cat {} + > /dev/null; done

echo "bench: measuring ($RUNS runs each) ..." >&2
names=(xray ovni basic perf)
declare -A PATH_OF=([xray]=$XRAY [ovni]=$OVNI [basic]=$BASIC [perf]=$PERF)
declare -A LABEL=([xray]="XRay FDR v5" [ovni]="ovni, $NSTREAMS streams" [basic]="XRay basic mode"
    [perf]="SiFive perf .rtd")
for n in "${names[@]}"; do
    p=${PATH_OF[$n]}
    b=$(bytes "$p")
    measure "sc_cat_$n" "$RUNS" "$b" -- bash -c 'find "$1" -type f -exec cat {} +' - "$p"
    for j in "${counts[@]}"; do
        measure "sc_${n}_$j" "$RUNS" "$b" -- "$TRACECHECK" validate -q -j "$j" "$p"
    done
done

{
    echo
    echo "tracecheck benchmark: validate -j N of one large input ('tracecheck gen --seed $SEED')"
    machine_lines
    echo "tools: $("$TRACECHECK" --version 2>/dev/null | head -n 1)"
    echo "load average (1, 5, 15 min) at start: $LOAD_BEFORE; at end: $(cut -d ' ' -f 1-3 /proc/loadavg)"
    echo "page cache warm; time = wall clock of a run; best = fastest of the runs; median = middle run;"
    echo "GB/s = 10^9 bytes of trace per second; peak RSS = largest maximum resident set size of the"
    echo "runs; speed-up = best time with -j 1 / best time with -j N"
    echo
    table_header
    for n in "${names[@]}"; do
        size=$(human "$(bytes "${PATH_OF[$n]}")")
        row "sc_cat_$n" "cat > /dev/null (baseline)" "${LABEL[$n]}"
        for j in "${counts[@]}"; do
            row "sc_${n}_$j" "tracecheck validate -j $j" "$size"
        done
    done
    echo
    printf '%-20s' "speed-up"
    for j in "${counts[@]}"; do printf '%8s' "-j $j"; done
    echo
    for n in "${names[@]}"; do
        printf '%-20s' "${LABEL[$n]}"
        for j in "${counts[@]}"; do
            awk -v a="${BEST[sc_${n}_1]}" -v b="${BEST[sc_${n}_$j]}" 'BEGIN { printf "%7.2fx", a / b }'
        done
        echo
    done
    echo
    target_header
    g=$(gbps "${BYTES[sc_xray_$MAX]}" "${BEST[sc_xray_$MAX]}")
    target_row "XRay FDR validate -j $MAX at least 2.5 GB/s" "$g GB/s" \
        "$(awk -v g="$g" 'BEGIN { print (g >= 2.5) }')"
    g=$(gbps "${BYTES[sc_ovni_$MAX]}" "${BEST[sc_ovni_$MAX]}")
    target_row "ovni ($NSTREAMS streams) validate -j $MAX at least 2 GB/s" "$g GB/s" \
        "$(awk -v g="$g" 'BEGIN { print (g >= 2) }')"
    window=$((16 * 1024)) # KiB: the mmap window of each thread
    target_row "XRay FDR peak RSS -j $MAX at most $MAX x 16 MiB + 8 MiB" \
        "$(mib "${RSS[sc_xray_$MAX]}") MiB" \
        "$(awk -v r="${RSS[sc_xray_$MAX]}" -v m="$MAX" -v w="$window" 'BEGIN { print (r <= m * w + 8192) }')"
    echo
    echo "logs: $LOG_DIR/; traces: $BENCH_DIR/"
} | tee "$BENCH_DIR/results-scaling.txt"
