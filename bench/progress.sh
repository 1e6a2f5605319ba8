#!/usr/bin/env bash
# What the progress line costs (make bench-progress): `tracecheck validate`
# of one large XRay FDR trace with standard error a terminal (the progress
# line drawn, four times a second) and not (no line), both under script(1)
# so that the pseudo-terminal's relay is in both, against `cat` of the same
# file. Figures only: nothing here fails because a figure misses its target.
# See docs/benchmarks.md.
#
#   bench/progress.sh
#
# Environment (make bench-progress sets the first two):
#   TRACECHECK            the release tracecheck binary             (required)
#   BENCH_DIR             where the trace is cached                 (required)
#   BENCH_RUNS            runs of each measurement                  (5)
#   BENCH_SEED            generator seed                            (1)
#   BENCH_PROGRESS_SIZE   bytes of the trace (3 GiB: the line shows from 1 s on)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

: "${TRACECHECK:?set TRACECHECK to the tracecheck binary}"
: "${BENCH_DIR:?set BENCH_DIR to a directory for the benchmark traces}"
RUNS=${BENCH_RUNS:-5}
SEED=${BENCH_SEED:-1}
SIZE=${BENCH_PROGRESS_SIZE:-$((3 << 30))}
for n in RUNS SIZE; do
    [[ ${!n} =~ ^[1-9][0-9]*$ ]] || die "$n must be a positive integer, not '${!n}'"
done
command -v script > /dev/null || die "script(1) is missing (Debian package bsdutils)"
bench_setup
FILE=$BENCH_DIR/progress-$SEED-$SIZE.xray
if [ ! -s "$FILE" ]; then
    echo "bench: generating $(human "$SIZE") of XRay FDR in $FILE ..." >&2
    "$TRACECHECK" gen xray --seed "$SEED" --size "$SIZE" -o "$FILE.tmp" ||
        die "tracecheck gen xray failed"
    mv "$FILE.tmp" "$FILE"
fi
BYTES=$(size_of "$FILE")
q=$(printf '%q' "$TRACECHECK")
f=$(printf '%q' "$FILE")

LOAD_BEFORE=$(cut -d ' ' -f 1-3 /proc/loadavg)
warm "$FILE"
echo "bench: measuring ($RUNS runs each) ..." >&2
measure pg_cat "$RUNS" "$BYTES" -- cat -- "$FILE"
# Interleaved, so that a change of load hits both alike.
for ((i = 1; i <= RUNS; i++)); do
    measure "pg_off$i" 1 "$BYTES" -- script -qec "$q validate -q $f 2>/dev/null" /dev/null
    measure "pg_on$i" 1 "$BYTES" -- script -qec "$q validate -q $f" /dev/null
done
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
off=() on=()
for ((i = 1; i <= RUNS; i++)); do off+=("${MED[pg_off$i]}"); on+=("${MED[pg_on$i]}"); done
MED[pg_off]=$(median "${off[@]}"); BEST[pg_off]=$(printf '%s\n' "${off[@]}" | sort -g | head -n 1)
MED[pg_on]=$(median "${on[@]}"); BEST[pg_on]=$(printf '%s\n' "${on[@]}" | sort -g | head -n 1)
for id in pg_off pg_on; do
    RSS[$id]=${RSS[${id}1]}; BYTES[$id]=$BYTES; RUNS_OF[$id]=$RUNS
done
cost=$(awk -v a="${MED[pg_off]}" -v b="${MED[pg_on]}" 'BEGIN { printf "%.1f", 100 * (b - a) / a }')

{
    echo
    echo "tracecheck benchmark: the progress line of validate, one XRay FDR trace of $(human "$BYTES")"
    machine_lines
    echo "tools: $("$TRACECHECK" --version 2>/dev/null | head -n 1)"
    echo "load average (1, 5, 15 min) at start: $LOAD_BEFORE; at end: $(cut -d ' ' -f 1-3 /proc/loadavg)"
    echo "page cache warm; both validate runs under script(1), stderr its terminal (line on) or"
    echo "/dev/null (line off), alternating; time = wall clock of a run"
    echo
    table_header
    row pg_cat "cat > /dev/null (baseline)" "$(human "$BYTES")"
    row pg_off "validate, no progress line" "$(human "$BYTES")"
    row pg_on "validate, progress line" "$(human "$BYTES")"
    echo
    target_header
    target_row "the progress line costs less than 3% (median against median)" \
        "${cost}% (${MED[pg_on]} s vs ${MED[pg_off]} s)" \
        "$(awk -v c="$cost" 'BEGIN { print (c < 3) }')"
    echo
    echo "logs: $LOG_DIR/; trace: $FILE"
} | tee "$BENCH_DIR/results-progress.txt"
