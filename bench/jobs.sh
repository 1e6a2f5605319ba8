#!/usr/bin/env bash
# Parallel validation benchmark (make bench-jobs): how `tracecheck validate
# -j N` scales with the number of threads on a directory of many traces,
# from 1 to the machine's CPUs (and twice that, to show what more threads
# than CPUs give), against `cat` of the same files. Figures only: nothing
# here fails because a figure misses its target. See docs/benchmarks.md.
#
#   bench/jobs.sh
#
# Environment (make bench-jobs sets the first two):
#   TRACECHECK          the release tracecheck binary               (required)
#   BENCH_DIR           where the traces are cached                 (required)
#   BENCH_RUNS          runs of each measurement                    (5)
#   BENCH_SEED          generator seed of the first trace           (1)
#   BENCH_JOBS_FILES    traces per format                           (32)
#   BENCH_JOBS_SIZE     bytes per trace                             (16 MiB)
#
# The directory holds BENCH_JOBS_FILES XRay FDR traces and as many SiFive
# perf .rtd traces (tracecheck gen, seeds BENCH_SEED, BENCH_SEED + 1, ...),
# made once and kept in BENCH_DIR/jobs; delete it to make them again.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

: "${TRACECHECK:?set TRACECHECK to the tracecheck binary}"
: "${BENCH_DIR:?set BENCH_DIR to a directory for the benchmark traces}"
RUNS=${BENCH_RUNS:-5}
SEED=${BENCH_SEED:-1}
FILES=${BENCH_JOBS_FILES:-32}
SIZE=${BENCH_JOBS_SIZE:-$((16 << 20))}

for n in RUNS FILES SIZE; do
    [[ ${!n} =~ ^[1-9][0-9]*$ ]] || die "$n must be a positive integer, not '${!n}'"
done
bench_setup
DIR=$BENCH_DIR/jobs-$FILES-$SIZE

if [ ! -d "$DIR" ]; then
    echo "bench: generating $((2 * FILES)) traces of $(human "$SIZE") in $DIR ..." >&2
    rm -rf "$DIR.tmp" && mkdir -p "$DIR.tmp"
    for ((i = 0; i < FILES; i++)); do
        s=$((SEED + i))
        "$TRACECHECK" gen xray --seed "$s" --size "$SIZE" -o "$DIR.tmp/t$i.xray" ||
            die "tracecheck gen xray failed"
        "$TRACECHECK" gen perf --seed "$s" --size "$SIZE" -o "$DIR.tmp/t$i.rtd" ||
            die "tracecheck gen perf failed"
    done
    "$TRACECHECK" validate -q "$DIR.tmp" > "$LOG_DIR/jobs.validate" 2>&1 ||
        die "tracecheck does not find the generated traces valid: see $LOG_DIR/jobs.validate"
    mv "$DIR.tmp" "$DIR"
fi
TOTAL=$(find "$DIR" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
NFILES=$(find "$DIR" -type f | wc -l)
CPUS=$(nproc)

# The thread counts: 1, 2, 4, ... up to the CPUs, the CPUs, and twice them.
counts=()
for ((j = 1; j < CPUS; j *= 2)); do counts+=("$j"); done
counts+=("$CPUS" $((2 * CPUS)))

LOAD_BEFORE=$(cut -d ' ' -f 1-3 /proc/loadavg)
echo "bench: warming the page cache ..." >&2
find "$DIR" -type f -exec cat {} + > /dev/null

echo "bench: measuring ($RUNS runs each) ..." >&2
measure jb_cat "$RUNS" "$TOTAL" -- bash -c 'find "$1" -type f -exec cat {} +' - "$DIR"
for j in "${counts[@]}"; do
    measure "jb_j$j" "$RUNS" "$TOTAL" -- "$TRACECHECK" validate -q -j "$j" "$DIR"
done

{
    echo
    echo "tracecheck benchmark: validate -j N over $NFILES traces ($FILES XRay, $FILES perf .rtd)"
    machine_lines
    echo "tools: $("$TRACECHECK" --version 2>/dev/null | head -n 1)"
    echo "load average (1, 5, 15 min) at start: $LOAD_BEFORE; at end: $(cut -d ' ' -f 1-3 /proc/loadavg)"
    echo "page cache warm; time = wall clock of a run; best = fastest of the runs; median = middle run;"
    echo "GB/s = 10^9 bytes of trace files per second; peak RSS = largest maximum resident set size"
    echo "of the runs; speed-up = best time with -j 1 / best time with -j N"
    echo
    table_header
    row jb_cat "cat > /dev/null (baseline)" "$NFILES files $(human "$TOTAL")"
    for j in "${counts[@]}"; do
        row "jb_j$j" "tracecheck validate -j $j" "$NFILES files $(human "$TOTAL")"
    done
    echo
    printf '%-28s %10s %10s\n' "threads" "speed-up" "per CPU"
    for j in "${counts[@]}"; do
        used=$((j < CPUS ? j : CPUS))
        awk -v a="${BEST[jb_j1]}" -v b="${BEST[jb_j$j]}" -v j="$j" -v u="$used" \
            'BEGIN { printf "%-28s %9.2fx %9.0f%%\n", "-j " j, a / b, 100 * a / b / u }'
    done
    echo
    target_header
    s=$(awk -v a="${BEST[jb_j1]}" -v b="${BEST[jb_j$CPUS]}" 'BEGIN { printf "%.2f", a / b }')
    target_row "validate -j $CPUS at least $(awk -v c="$CPUS" 'BEGIN { printf "%.1f", 0.8 * c }')x -j 1 ($CPUS CPUs)" \
        "${s}x (${BEST[jb_j1]} s vs ${BEST[jb_j$CPUS]} s)" \
        "$(awk -v s="$s" -v c="$CPUS" 'BEGIN { print (s >= 0.8 * c) }')"
    echo
    echo "logs: $LOG_DIR/; traces: $DIR/"
} | tee "$BENCH_DIR/results-jobs.txt"
