#!/usr/bin/env bash
# SiFive perf benchmark (make bench-perf): throughput and peak memory of
# tracecheck on large Nexus .rtd traces of perf data, against `cat` of the
# same file as the baseline. Figures only: nothing here fails because a
# figure misses its target. See docs/benchmarks.md.
#
#   bench/perf/perf.sh
#
# Environment (make bench-perf sets the first two):
#   TRACECHECK          the release tracecheck binary               (required)
#   BENCH_DIR           where the traces are cached                 (required)
#   BENCH_RUNS          runs of each fast measurement               (5)
#   BENCH_SLOW_RUNS     runs of tracecheck dump                     (2)
#   BENCH_SEED          generator seed                              (1)
#
# Traces are generated once (tracecheck gen perf) and kept in BENCH_DIR;
# delete them to regenerate them.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

: "${TRACECHECK:?set TRACECHECK to the tracecheck binary}"
: "${BENCH_DIR:?set BENCH_DIR to a directory for the benchmark traces}"
RUNS=${BENCH_RUNS:-5}
SLOW_RUNS=${BENCH_SLOW_RUNS:-2}
SEED=${BENCH_SEED:-1}

# Targets (see docs/benchmarks.md).
TARGET_MBPS=1000
TARGET_CAT_RATIO=6 # validate -j 1 of the 256 MiB trace: at most this many times cat's time
RSS_FLAT_MIB=2 # peak RSS "independent of length": spread across lengths at most this

MIB=$((1 << 20))
GIB=$((1 << 30))

for n in RUNS SLOW_RUNS; do
    [[ ${!n} =~ ^[1-9][0-9]*$ ]] || die "$n must be a positive integer, not '${!n}'"
done
bench_setup

# gen NAME SIZE COUNT_TYPE: BENCH_DIR/NAME.rtd of about SIZE bytes, checked
# valid once (a figure on an invalid file would measure an early stop).
gen() {
    local out=$BENCH_DIR/$1.rtd
    if [ ! -s "$out" ]; then
        echo "bench: generating $1 ($(human "$2"), count type $3, seed $SEED) ..." >&2
        "$TRACECHECK" gen perf --seed "$SEED" --size "$2" --count-type "$3" \
            --container rtd -o "$out.tmp.rtd" || die "tracecheck gen perf failed for $1"
        "$TRACECHECK" validate "$out.tmp.rtd" > "$LOG_DIR/$1.validate" 2>&1 ||
            die "tracecheck does not find the generated $1 valid: see $LOG_DIR/$1.validate"
        mv "$out.tmp.rtd" "$out"
    fi
    echo "$out"
}

R1G=$(gen perf-delta-1g "$GIB" delta)
R256=$(gen perf-delta-256m $((256 * MIB)) delta)
X1G=$(gen perf-raw-1g "$GIB" raw)
S1G=$(size_of "$R1G")
S256=$(size_of "$R256")
SX=$(size_of "$X1G")

LOAD_BEFORE=$(cut -d ' ' -f 1-3 /proc/loadavg)
echo "bench: warming the page cache ..." >&2
warm "$R1G" "$R256" "$X1G"

echo "bench: measuring ($RUNS runs each; $SLOW_RUNS of tracecheck dump) ..." >&2
measure pf_cat_1g "$RUNS" "$S1G" -- cat "$R1G"
measure pf_validate_1g "$RUNS" "$S1G" -- "$TRACECHECK" validate "$R1G"
measure pf_validate_256m "$RUNS" "$S256" -- "$TRACECHECK" validate "$R256"
measure pf_validate_raw "$RUNS" "$SX" -- "$TRACECHECK" validate "$X1G"
measure pf_dump_256m "$SLOW_RUNS" "$S256" -- "$TRACECHECK" dump "$R256"
# One thread against cat on the same 256 MiB file, run for run in turn so
# that both see the same load.
for ((k = 1; k <= RUNS; k++)); do
    measure pf_cat_256m_$k 1 "$S256" -- cat "$R256"
    measure pf_validate_j1_256m_$k 1 "$S256" -- "$TRACECHECK" validate -j 1 "$R256"
done
median_of() { # median_of PREFIX: the median of MED[PREFIX_1 .. PREFIX_RUNS], the largest RSS
    local k t=() r=0
    for ((k = 1; k <= RUNS; k++)); do
        t+=("${MED[${1}_$k]}")
        [ "${RSS[${1}_$k]}" -gt "$r" ] && r=${RSS[${1}_$k]}
    done
    MED[$1]=$(printf '%s\n' "${t[@]}" | sort -g |
        awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
    BEST[$1]=$(printf '%s\n' "${t[@]}" | sort -g | head -n 1)
    RSS[$1]=$r
    BYTES[$1]=$S256
    RUNS_OF[$1]=$RUNS
}
median_of pf_cat_256m
median_of pf_validate_j1_256m

{
    echo
    echo "tracecheck benchmark: SiFive perf .rtd traces from 'tracecheck gen perf --seed $SEED'"
    machine_lines
    echo "tools: $("$TRACECHECK" --version 2>/dev/null | head -n 1), $(cat --version | head -n 1)"
    echo "load average (1, 5, 15 min) at start: $LOAD_BEFORE; at end: $(cut -d ' ' -f 1-3 /proc/loadavg)"
    echo "page cache warm; time = wall clock of a run; best = fastest of the runs; median = middle run;"
    echo "GB/s = 10^9 bytes of .rtd file per second; peak RSS = largest maximum resident set size of"
    echo "the runs; MiB = 2^20 bytes"
    echo
    table_header
    row pf_cat_1g "cat > /dev/null (baseline)" "delta $(human "$S1G")"
    row pf_validate_1g "tracecheck validate" "delta $(human "$S1G")"
    row pf_validate_256m "tracecheck validate" "delta $(human "$S256")"
    row pf_validate_raw "tracecheck validate" "raw $(human "$SX")"
    row pf_dump_256m "tracecheck dump > /dev/null" "delta $(human "$S256")"
    row pf_cat_256m "cat > /dev/null (baseline)" "delta $(human "$S256")"
    row pf_validate_j1_256m "tracecheck validate -j 1" "delta $(human "$S256")"

    echo
    target_header
    for m in pf_validate_1g pf_validate_raw; do
        s=$S1G
        [ "$m" = pf_validate_raw ] && s=$SX
        g=$(gbps "$s" "${BEST[$m]}")
        target_row "validate throughput >= $TARGET_MBPS MB/s ($([ "$m" = pf_validate_raw ] && echo raw || echo delta), 1 GiB)" \
            "$g GB/s (median $(gbps "$s" "${MED[$m]}"))" \
            "$(awk -v g="$g" -v t="$TARGET_MBPS" 'BEGIN { print (g * 1000 >= t) }')"
    done
    ratio=$(awk -v a="${MED[pf_validate_j1_256m]}" -v b="${MED[pf_cat_256m]}" 'BEGIN { printf "%.1f", a / b }')
    target_row "validate -j 1 <= $TARGET_CAT_RATIO x cat (delta $(human "$S256"), medians)" \
        "${ratio}x cat ($(gbps "$S256" "${MED[pf_validate_j1_256m]}") vs $(gbps "$S256" "${MED[pf_cat_256m]}") GB/s)" \
        "$(awk -v r="$ratio" -v t="$TARGET_CAT_RATIO" 'BEGIN { print (r <= t) }')"
    echo "validate -j 1 peak RSS (delta $(human "$S256")): $(mib "${RSS[pf_validate_j1_256m]}") MiB"
    lo=${RSS[pf_validate_256m]} hi=${RSS[pf_validate_1g]}
    if [ "$hi" -lt "$lo" ]; then t=$lo; lo=$hi; hi=$t; fi
    target_row "validate peak RSS flat across lengths (spread <= $RSS_FLAT_MIB MiB)" \
        "$(mib "${RSS[pf_validate_256m]}"), $(mib "${RSS[pf_validate_1g]}") MiB (256 MiB, 1 GiB)" \
        "$(awk -v lo="$lo" -v hi="$hi" -v t="$RSS_FLAT_MIB" 'BEGIN { print ((hi - lo) / 1024 <= t) }')"
    echo
    echo "logs: $LOG_DIR/; traces: $BENCH_DIR/"
} | tee "$BENCH_DIR/results-perf.txt"
