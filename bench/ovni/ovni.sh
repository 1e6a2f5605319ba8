#!/usr/bin/env bash
# ovni benchmark (make bench): throughput and peak memory of tracecheck on
# large ovni traces that hold the events of every model ovniemu knows,
# against `cat` of the same files (the baseline) and ovni's own emulator
# (`ovniemu -l`, when found), and the per-core targets on 512 MiB traces in
# the generator's default shape, ovni's own model and every model: the
# ratio of validate -j 1's time to cat's and the peak RSS. Figures only:
# nothing here fails because a figure misses its target. See
# docs/benchmarks.md.
#
#   bench/ovni/ovni.sh
#
# Environment (make bench sets the first two):
#   TRACECHECK          the release tracecheck binary               (required)
#   BENCH_DIR           where the traces are cached                 (required)
#   BENCH_RUNS          runs of each fast measurement               (5)
#   BENCH_SLOW_RUNS     runs of tracecheck dump                     (2)
#   BENCH_SEED          generator seed                              (1)
#   OVNIEMU             ovni's emulator (make bench sets it; 'ovniemu' on PATH)
#   BENCH_EMU_SIZE      bytes of the trace ovniemu reads            (32 MiB)
#
# Traces are generated once (tracecheck gen ovni) and kept in BENCH_DIR;
# delete BENCH_DIR to regenerate them.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

: "${TRACECHECK:?set TRACECHECK to the tracecheck binary}"
: "${BENCH_DIR:?set BENCH_DIR to a directory for the benchmark traces}"
RUNS=${BENCH_RUNS:-5}
SLOW_RUNS=${BENCH_SLOW_RUNS:-2}
SEED=${BENCH_SEED:-1}

OVNIEMU=${OVNIEMU:-ovniemu}
EMU_SIZE=${BENCH_EMU_SIZE:-$((32 << 20))}

# Targets (see docs/benchmarks.md).
TARGET_GBPS=2.0
# Per-core speed (512 MiB in the generator's default shape, -j 1): at most
# this many times cat's time on ovni's own model, and at least
# TARGET_ALL_GBPS with every model in the trace.
TARGET_X_CAT=4
TARGET_ALL_GBPS=1.1
# One stream at -j 1 as fast, against cat in the same run, as the model
# layer of ovni's own model alone was: 1.1 GB/s next to cat's 8.73 GB/s
# (docs/benchmarks.md, 26 November 2026), 12.6 % of cat's rate.
TARGET_OF_CAT=0.126
RSS_FLAT_MIB=2 # peak RSS "independent of length": spread across lengths at most this

MIB=$((1 << 20))
GIB=$((1 << 30))

for n in RUNS SLOW_RUNS; do
    [[ ${!n} =~ ^[1-9][0-9]*$ ]] || die "$n must be a positive integer, not '${!n}'"
done
bench_setup

# gen NAME SIZE LOOMS PROCS THREADS: BENCH_DIR/NAME, a trace directory whose
# streams hold about SIZE bytes together, every process writing the events
# of every model.
gen() {
    local dir=$BENCH_DIR/$1
    if [ ! -d "$dir" ]; then
        echo "bench: generating $1 ($(human "$2"), $3 x $4 x $5 threads, seed $SEED) ..." >&2
        rm -rf "$dir.tmp"
        "$TRACECHECK" gen ovni --seed "$SEED" --size "$2" --looms "$3" --procs "$4" \
            --threads "$5" --models all -o "$dir.tmp" || die "tracecheck gen failed for $1"
        mv "$dir.tmp" "$dir"
    fi
    echo "$dir"
}

# gen_default NAME SIZE [ARGS...]: BENCH_DIR/NAME, a trace directory of
# about SIZE bytes in the generator's default shape (its looms, processes
# and threads), with ARGS (--models all: every process writes the events of
# every model; without: ovni's own model alone).
gen_default() {
    local dir=$BENCH_DIR/$1 size=$2
    shift 2
    if [ ! -d "$dir" ]; then
        echo "bench: generating $(basename "$dir") ($(human "$size"), seed $SEED $*) ..." >&2
        rm -rf "$dir.tmp"
        "$TRACECHECK" gen ovni --seed "$SEED" --size "$size" "$@" -o "$dir.tmp" ||
            die "tracecheck gen failed for $(basename "$dir")"
        mv "$dir.tmp" "$dir"
    fi
    echo "$dir"
}

# trace_bytes DIR: the bytes of all its files (streams and metadata).
trace_bytes() { find "$1" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }'; }

# cat_trace DIR: every file of the trace to standard output (the baseline
# reads what tracecheck reads, in one process as tracecheck does).
cat_trace() { find "$1" -type f -print0 | sort -z | xargs -0 cat --; }
export -f cat_trace

T1G=$(gen ovni-all-1x1x1-1g "$GIB" 1 1 1)
T256=$(gen ovni-all-1x1x1-256m $((256 * MIB)) 1 1 1)
T64=$(gen ovni-all-2x4x8-1g "$GIB" 2 4 8)
TEMU=$(gen ovni-all-1x1x1-emu "$EMU_SIZE" 1 1 1)
TOWN512=$(gen_default ovni-own-512m $((512 * MIB)))
TALL512=$(gen_default ovni-all-512m $((512 * MIB)) --models all)
S1G=$(trace_bytes "$T1G")
S256=$(trace_bytes "$T256")
S64=$(trace_bytes "$T64")
SEMU=$(trace_bytes "$TEMU")
SOWN512=$(trace_bytes "$TOWN512")
SALL512=$(trace_bytes "$TALL512")

# ovniemu writes its Paraver output into the trace directory: it reads a
# copy, so the cached trace stays as it was made.
EMU_BIN=$(command -v "$OVNIEMU" || true)
if [ -n "$EMU_BIN" ]; then
    EMU_COPY=$BENCH_DIR/ovni-emu-copy
    rm -rf "$EMU_COPY"
    cp -r "$TEMU" "$EMU_COPY"
fi
N64=$(find "$T64" -name stream.obs | wc -l)

LOAD_BEFORE=$(cut -d ' ' -f 1-3 /proc/loadavg)
echo "bench: warming the page cache ..." >&2
cat_trace "$T1G" > /dev/null
cat_trace "$T256" > /dev/null
cat_trace "$T64" > /dev/null
cat_trace "$TOWN512" > /dev/null
cat_trace "$TALL512" > /dev/null

echo "bench: measuring ($RUNS runs each; $SLOW_RUNS of tracecheck dump) ..." >&2
measure ov_cat_1g "$RUNS" "$S1G" -- bash -c 'cat_trace "$1"' - "$T1G"
measure ov_validate_1g "$RUNS" "$S1G" -- "$TRACECHECK" validate -j 1 "$T1G"
measure ov_nomodels_1g "$RUNS" "$S1G" -- "$TRACECHECK" validate --no-models "$T1G"
measure ov_validate_256m "$RUNS" "$S256" -- "$TRACECHECK" validate -j 1 "$T256"
measure ov_stream_1g "$RUNS" "$S1G" -- "$TRACECHECK" validate --format ovni \
    "$(find "$T1G" -name stream.obs)"
measure ov_cat_64 "$RUNS" "$S64" -- bash -c 'cat_trace "$1"' - "$T64"
measure ov_validate_64 "$RUNS" "$S64" -- "$TRACECHECK" validate "$T64"
measure ov_validate_64_j1 "$RUNS" "$S64" -- "$TRACECHECK" validate -j 1 "$T64"
measure ov_cat_own512 "$RUNS" "$SOWN512" -- bash -c 'cat_trace "$1"' - "$TOWN512"
measure ov_validate_own512 "$RUNS" "$SOWN512" -- "$TRACECHECK" validate -j 1 "$TOWN512"
measure ov_cat_all512 "$RUNS" "$SALL512" -- bash -c 'cat_trace "$1"' - "$TALL512"
measure ov_validate_all512 "$RUNS" "$SALL512" -- "$TRACECHECK" validate -j 1 "$TALL512"
measure ov_dump_256m "$SLOW_RUNS" "$S256" -- "$TRACECHECK" dump "$T256"
measure ov_validate_emu "$RUNS" "$SEMU" -- "$TRACECHECK" validate -j 1 "$TEMU"
if [ -n "$EMU_BIN" ]; then
    measure ov_emu "$SLOW_RUNS" "$SEMU" -- "$EMU_BIN" -l "$EMU_COPY"
fi

{
    echo
    echo "tracecheck benchmark: ovni traces from 'tracecheck gen ovni --seed $SEED --models all'"
    machine_lines
    echo "tools: $("$TRACECHECK" --version 2>/dev/null | head -n 1), $(cat --version | head -n 1)"
    echo "load average (1, 5, 15 min) at start: $LOAD_BEFORE; at end: $(cut -d ' ' -f 1-3 /proc/loadavg)"
    echo "page cache warm; time = wall clock of a run; best = fastest of the runs; median = middle run;"
    echo "GB/s = 10^9 bytes of trace files (stream.obs and stream.json) per second; peak RSS = largest"
    echo "maximum resident set size of the runs; MiB = 2^20 bytes"
    echo
    table_header
    row ov_cat_1g "cat > /dev/null (baseline)" "1 stream $(human "$S1G")"
    row ov_validate_1g "tracecheck validate -j 1" "1 stream $(human "$S1G")"
    row ov_nomodels_1g "tracecheck validate --no-models" "1 stream $(human "$S1G")"
    row ov_stream_1g "tracecheck validate stream.obs" "the stream file alone"
    row ov_validate_256m "tracecheck validate -j 1" "1 stream $(human "$S256")"
    row ov_cat_64 "cat > /dev/null (baseline)" "$N64 streams $(human "$S64")"
    row ov_validate_64 "tracecheck validate (-j $(nproc))" "$N64 streams $(human "$S64")"
    row ov_validate_64_j1 "tracecheck validate -j 1" "$N64 streams $(human "$S64")"
    row ov_cat_own512 "cat > /dev/null (baseline)" "ovni's model $(human "$SOWN512")"
    row ov_validate_own512 "tracecheck validate -j 1" "ovni's model $(human "$SOWN512")"
    row ov_cat_all512 "cat > /dev/null (baseline)" "every model $(human "$SALL512")"
    row ov_validate_all512 "tracecheck validate -j 1" "every model $(human "$SALL512")"
    row ov_dump_256m "tracecheck dump > /dev/null" "1 stream $(human "$S256")"
    row ov_validate_emu "tracecheck validate -j 1" "1 stream $(human "$SEMU")"
    if [ -n "$EMU_BIN" ]; then
        row ov_emu "ovniemu -l (ovni's reader)" "1 stream $(human "$SEMU")"
    else
        echo "ovniemu -l: not measured ($OVNIEMU not found; give OVNIEMU=/path/to/ovniemu)"
    fi

    echo
    target_header
    share=$(awk -v v="${MED[ov_validate_1g]}" -v c="${MED[ov_cat_1g]}" 'BEGIN { printf "%.3f", c / v }')
    target_row "validate -j 1 at least $TARGET_OF_CAT x cat's rate (1 GiB, medians)" \
        "$share x ($(gbps "$S1G" "${MED[ov_validate_1g]}") vs $(gbps "$S1G" "${MED[ov_cat_1g]}") GB/s)" \
        "$(awk -v s="$share" -v t="$TARGET_OF_CAT" 'BEGIN { print (s >= t) }')"
    g=$(gbps "$S1G" "${BEST[ov_validate_1g]}")
    target_row "validate throughput >= $TARGET_GBPS GB/s (one 1 GiB stream)" \
        "$g GB/s (median $(gbps "$S1G" "${MED[ov_validate_1g]}"))" \
        "$(awk -v g="$g" -v t="$TARGET_GBPS" 'BEGIN { print (g >= t) }')"
    g=$(gbps "$S64" "${BEST[ov_validate_64]}")
    target_row "validate throughput >= $TARGET_GBPS GB/s ($N64 streams, 1 GiB)" \
        "$g GB/s (median $(gbps "$S64" "${MED[ov_validate_64]}"))" \
        "$(awk -v g="$g" -v t="$TARGET_GBPS" 'BEGIN { print (g >= t) }')"
    for k in own all; do
        x=$(awk -v v="${MED[ov_validate_${k}512]}" -v c="${MED[ov_cat_${k}512]}" 'BEGIN { printf "%.2f", v / c }')
        [ $k = own ] && what="ovni's own model" || what="every model"
        target_row "validate -j 1 at most $TARGET_X_CAT x cat's time (512 MiB, $what)" \
            "$x x ($(printf '%.3f' "${MED[ov_validate_${k}512]}") vs $(printf '%.3f' "${MED[ov_cat_${k}512]}") s), $(mib "${RSS[ov_validate_${k}512]}") MiB" \
            "$(awk -v x="$x" -v t="$TARGET_X_CAT" 'BEGIN { print (x <= t) }')"
    done
    g=$(gbps "$SALL512" "${MED[ov_validate_all512]}")
    target_row "validate -j 1 >= $TARGET_ALL_GBPS GB/s, every model (512 MiB, median)" \
        "$g GB/s (cat $(gbps "$SALL512" "${MED[ov_cat_all512]}") GB/s)" \
        "$(awk -v g="$g" -v t="$TARGET_ALL_GBPS" 'BEGIN { print (g >= t) }')"
    lo=${RSS[ov_validate_256m]} hi=${RSS[ov_validate_1g]}
    if [ "$hi" -lt "$lo" ]; then t=$lo; lo=$hi; hi=$t; fi
    target_row "validate peak RSS flat across lengths (spread <= $RSS_FLAT_MIB MiB)" \
        "$(mib "${RSS[ov_validate_256m]}"), $(mib "${RSS[ov_validate_1g]}") MiB (256 MiB, 1 GiB)" \
        "$(awk -v lo="$lo" -v hi="$hi" -v t="$RSS_FLAT_MIB" 'BEGIN { print ((hi - lo) / 1024 <= t) }')"
    echo
    echo "logs: $LOG_DIR/; traces: $BENCH_DIR/"
} | tee "$BENCH_DIR/results-ovni.txt"
