#!/usr/bin/env bash
# XRay FDR benchmark (make bench): throughput and peak memory of tracecheck on
# large version 5 traces, against `cat` and the decompressors as baselines and
# against LLVM's reader (llvm-xray fdr-dump). Figures only: nothing here fails
# because a figure misses its target. See docs/benchmarks.md.
#
#   bench/xray/xray.sh
#
# Environment (make bench sets the first two):
#   TRACECHECK          the release tracecheck binary               (required)
#   BENCH_DIR           where the traces are cached                 (required)
#   LLVM_XRAY           llvm-xray                                   (llvm-xray)
#   BENCH_RUNS          runs of each fast measurement               (5)
#   BENCH_SLOW_RUNS     runs of tracecheck dump and llvm-xray       (2)
#   BENCH_LLVM_TIMEOUT  seconds llvm-xray may take on the 1 GiB trace (300)
#   BENCH_HUGE          auto|yes|no: also a 4 GiB trace (auto: if the disk
#                       has 4 GiB + 2 GiB to spare)                  (auto)
#   BENCH_SEED          generator seed                              (1)
#
# Traces are generated once (tracecheck gen xray --version 5) and kept in
# BENCH_DIR; delete BENCH_DIR to regenerate them.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

: "${TRACECHECK:?set TRACECHECK to the tracecheck binary}"
: "${BENCH_DIR:?set BENCH_DIR to a directory for the benchmark traces}"
LLVM_XRAY=${LLVM_XRAY:-llvm-xray}
RUNS=${BENCH_RUNS:-5}
SLOW_RUNS=${BENCH_SLOW_RUNS:-2}
LLVM_TIMEOUT=${BENCH_LLVM_TIMEOUT:-300}
HUGE=${BENCH_HUGE:-auto}
SEED=${BENCH_SEED:-1}

# Targets (see docs/benchmarks.md).
TARGET_GBPS=2.5
TARGET_RSS_MIB=64
TARGET_RATIO=20
TARGET_CAT_RATIO=3  # validate -j 1 on the 512 MiB trace, against cat of it (medians)
RSS_FLAT_MIB=2      # peak RSS "independent of size": spread across sizes at most this

MIB=$((1 << 20))
GIB=$((1 << 30))

for n in RUNS SLOW_RUNS LLVM_TIMEOUT; do
    [[ ${!n} =~ ^[1-9][0-9]*$ ]] || die "$n must be a positive integer, not '${!n}'"
done
case $HUGE in auto | yes | no) ;; *) die "BENCH_HUGE must be auto, yes or no, not '$HUGE'" ;; esac
for tool in gzip zstd timeout "$LLVM_XRAY"; do
    command -v "$tool" > /dev/null || die "$tool not found (run 'make deps')"
done

bench_setup

# ---------------------------------------------------------------------------
# Traces, generated once.

# gen NAME SIZE: BENCH_DIR/NAME, a version 5 trace of about SIZE bytes.
gen() {
    local file=$BENCH_DIR/$1
    if [ ! -s "$file" ]; then
        echo "bench: generating $1 ($(human "$2"), seed $SEED) ..." >&2
        "$TRACECHECK" gen xray --version 5 --seed "$SEED" --size "$2" -o "$file.tmp" ||
            die "tracecheck gen failed for $1"
        mv "$file.tmp" "$file"
    fi
    echo "$file"
}

# compress FILE TOOL EXT: FILE.EXT made with TOOL (default level), once.
compress() {
    local out=$1.$3
    if [ ! -s "$out" ]; then
        echo "bench: compressing $(basename "$1") with $2 ..." >&2
        "$2" -c < "$1" > "$out.tmp" || die "$2 failed on $1"
        mv "$out.tmp" "$out"
    fi
    echo "$out"
}

T1G=$(gen xray-v5-1g.fdr "$GIB")
T256=$(gen xray-v5-256m.fdr $((256 * MIB)))
T512=$(gen xray-v5-512m.fdr $((512 * MIB)))
T4G=
T4G_NOTE=
if [ "$HUGE" != no ]; then
    if [ -s "$BENCH_DIR/xray-v5-4g.fdr" ] || [ "$HUGE" = yes ] ||
        [ "$(free_bytes)" -gt $((6 * GIB)) ]; then
        T4G=$(gen xray-v5-4g.fdr $((4 * GIB)))
    else
        T4G_NOTE="4 GiB trace skipped: less than 6 GiB free in $BENCH_DIR (BENCH_HUGE=yes forces it)"
    fi
else
    T4G_NOTE="4 GiB trace skipped (BENCH_HUGE=no)"
fi
# gzip and zstd at their default levels, side by side (gzip takes minutes).
if [ ! -s "$T1G.gz" ] || [ ! -s "$T1G.zst" ]; then
    compress "$T1G" gzip gz > /dev/null &
    gzip_pid=$!
    compress "$T1G" zstd zst > /dev/null
    wait "$gzip_pid" || die "compressing with gzip failed"
fi
T1G_GZ=$T1G.gz
T1G_ZST=$T1G.zst
# bzip2 decompresses at about 20 MB/s: the 256 MiB trace, and fewer runs.
T256_BZ2=$(compress "$T256" bzip2 bz2)
CPUS=$(nproc)

S1G=$(size_of "$T1G")
S256=$(size_of "$T256")
S512=$(size_of "$T512")

LOAD_BEFORE=$(cut -d ' ' -f 1-3 /proc/loadavg)
echo "bench: warming the page cache ..." >&2
warm "$T1G" "$T256" "$T512" "$T1G_GZ" "$T1G_ZST" "$T256_BZ2" ${T4G:+"$T4G"}

echo "bench: measuring ($RUNS runs each; $SLOW_RUNS of tracecheck dump and llvm-xray) ..." >&2
measure cat_1g "$RUNS" "$S1G" -- cat -- "$T1G"
measure validate_1g "$RUNS" "$S1G" -- "$TRACECHECK" validate "$T1G"
measure validate_j1_1g "$RUNS" "$S1G" -- "$TRACECHECK" validate -j 1 "$T1G"
measure validate_256m "$RUNS" "$S256" -- "$TRACECHECK" validate "$T256"
# The per-core figure: one thread against cat of the same file, each RUNS
# times one after the other (make bench-per-core takes them in turn).
measure cat_512m "$RUNS" "$S512" -- cat -- "$T512"
measure validate_j1_512m "$RUNS" "$S512" -- "$TRACECHECK" validate -j 1 "$T512"
if [ -n "$T4G" ]; then
    S4G=$(size_of "$T4G")
    measure validate_4g "$RUNS" "$S4G" -- "$TRACECHECK" validate "$T4G"
fi
measure validate_pipe_1g "$RUNS" "$S1G" --pipe "$T1G" -- "$TRACECHECK" validate -
measure gzip_1g "$RUNS" "$S1G" -- gzip -dc -- "$T1G_GZ"
measure validate_gz_1g "$RUNS" "$S1G" -- "$TRACECHECK" validate "$T1G_GZ"
measure zstd_1g "$RUNS" "$S1G" -- zstd -dc -- "$T1G_ZST"
measure validate_zst_1g "$RUNS" "$S1G" -- "$TRACECHECK" validate "$T1G_ZST"
measure bzip2_256m "$SLOW_RUNS" "$S256" -- bzip2 -dc -- "$T256_BZ2"
measure validate_bz2_256m "$SLOW_RUNS" "$S256" -- "$TRACECHECK" validate "$T256_BZ2"
measure dump_256m "$SLOW_RUNS" "$S256" -- "$TRACECHECK" dump "$T256"

# llvm-xray fdr-dump reads the whole trace into memory: on the 1 GiB trace if
# it finishes in time, else on a smaller trace made for it (a prefix of a
# version 5 trace is not a valid trace), together with tracecheck on that one.
LLVM_ON=1g
LLVM_NOTE=
measure llvm_1g "$SLOW_RUNS" "$S1G" --may-fail -- timeout "$LLVM_TIMEOUT" "$LLVM_XRAY" fdr-dump "$T1G"
if [ "$MEASURE_STATUS" -ne 0 ]; then
    if [ "$MEASURE_STATUS" -eq 124 ]; then
        why="did not finish the 1 GiB trace within $LLVM_TIMEOUT s"
    else
        why="failed on the 1 GiB trace (status $MEASURE_STATUS: $(tail -n 1 "$LOG_DIR/llvm_1g.stderr"))"
    fi
    LLVM_ON=64m
    LLVM_NOTE="llvm-xray fdr-dump $why; measured on a 64 MiB trace"
    echo "bench: $LLVM_NOTE" >&2
    T64=$(gen xray-v5-64m.fdr $((64 * MIB)))
    S64=$(size_of "$T64")
    warm "$T64"
    measure validate_64m "$RUNS" "$S64" -- "$TRACECHECK" validate "$T64"
    measure llvm_64m "$SLOW_RUNS" "$S64" -- timeout "$LLVM_TIMEOUT" "$LLVM_XRAY" fdr-dump "$T64"
fi

# ---------------------------------------------------------------------------
# Report.

{
    echo
    echo "tracecheck benchmark: XRay FDR, version 5 traces from 'tracecheck gen xray --seed $SEED'"
    machine_lines
    echo "tools: $("$TRACECHECK" --version 2>/dev/null | head -n 1), $("$LLVM_XRAY" --version 2>/dev/null |
        grep -m1 -o 'LLVM version [0-9.]*'), gzip $(gzip --version | awk 'NR == 1 { print $2 }'), zstd $(zstd -V |
        grep -o 'v[0-9.]*' | head -n 1)"
    echo "load average (1, 5, 15 min) at start: $LOAD_BEFORE; at end: $(cut -d ' ' -f 1-3 /proc/loadavg)"
    echo "page cache warm; time = wall clock of a run; best = fastest of the runs (the figure the targets use:"
    echo "other load only ever adds time), median = middle run; GB/s = 10^9 bytes of uncompressed trace per"
    echo "second; peak RSS = maximum resident set size, largest of the runs; MiB = 2^20 bytes"
    echo
    table_header
    row cat_1g "cat > /dev/null (baseline)" "v5 $(human "$S1G")"
    row validate_1g "tracecheck validate (-j $CPUS)" "v5 $(human "$S1G")"
    row validate_j1_1g "tracecheck validate -j 1" "v5 $(human "$S1G")"
    row validate_256m "tracecheck validate" "v5 $(human "$S256")"
    row cat_512m "cat > /dev/null (baseline)" "v5 $(human "$S512")"
    row validate_j1_512m "tracecheck validate -j 1" "v5 $(human "$S512")"
    if [ -n "$T4G" ]; then row validate_4g "tracecheck validate" "v5 $(human "$S4G")"; fi
    row validate_pipe_1g "tracecheck validate - (pipe)" "v5 $(human "$S1G") via cat |"
    row gzip_1g "gzip -dc > /dev/null (baseline)" "same, .gz $(human "$(size_of "$T1G_GZ")")"
    row validate_gz_1g "tracecheck validate" "same, .gz"
    row zstd_1g "zstd -dc > /dev/null (baseline)" "same, .zst $(human "$(size_of "$T1G_ZST")")"
    row validate_zst_1g "tracecheck validate" "same, .zst"
    row bzip2_256m "bzip2 -dc > /dev/null (baseline)" "v5 $(human "$S256") .bz2"
    row validate_bz2_256m "tracecheck validate" "same, .bz2"
    row dump_256m "tracecheck dump > /dev/null" "v5 $(human "$S256")"
    if [ "$LLVM_ON" = 1g ]; then
        row llvm_1g "llvm-xray fdr-dump > /dev/null" "v5 $(human "$S1G")"
    else
        row validate_64m "tracecheck validate" "v5 $(human "$S64")"
        row llvm_64m "llvm-xray fdr-dump > /dev/null" "v5 $(human "$S64")"
    fi
    if [ -n "$T4G_NOTE" ]; then echo "note: $T4G_NOTE"; fi
    if [ -n "$LLVM_NOTE" ]; then echo "note: $LLVM_NOTE"; fi

    echo
    printf '%-60s %-34s %s\n' target measured verdict
    printf '%-60s %-34s %s\n' ------------------------------------------------------------ \
        ---------------------------------- -------
    g=$(gbps "$S1G" "${BEST[validate_1g]}")
    printf '%-60s %-34s %s\n' "validate throughput >= $TARGET_GBPS GB/s (v5 1 GiB)" \
        "$g GB/s (median $(gbps "$S1G" "${MED[validate_1g]}"))" \
        "$(verdict "$(awk -v g="$g" -v t="$TARGET_GBPS" 'BEGIN { print (g >= t) }')")"
    g=$(gbps "$S1G" "${BEST[validate_j1_1g]}")
    printf '%-60s %-34s %s\n' "  one thread (-j 1), for comparison" "$g GB/s" ""
    for c in gzip:gz:1g zstd:zst:1g bzip2:bz2:256m; do
        IFS=: read -r tool ext on <<< "$c"
        ratio=$(awk -v a="${BEST[validate_${ext}_$on]}" -v b="${BEST[${tool}_$on]}" \
            'BEGIN { printf "%.2f", a / b }')
        printf '%-60s %-34s %s\n' "validate .$ext within 10% of $tool -dc" \
            "$(printf '%sx (%.2f s vs %.2f s)' "$ratio" "${BEST[validate_${ext}_$on]}" "${BEST[${tool}_$on]}")" \
            "$(verdict "$(awk -v r="$ratio" 'BEGIN { print (r <= 1.10) }')")"
    done
    ratio=$(awk -v a="${MED[validate_j1_512m]}" -v b="${MED[cat_512m]}" 'BEGIN { printf "%.2f", a / b }')
    printf '%-60s %-34s %s\n' "validate -j 1 <= ${TARGET_CAT_RATIO}x cat, medians (v5 512 MiB)" \
        "$(printf '%sx (%.3f s vs %.3f s)' "$ratio" "${MED[validate_j1_512m]}" "${MED[cat_512m]}")" \
        "$(verdict "$(awk -v r="$ratio" -v t="$TARGET_CAT_RATIO" 'BEGIN { print (r <= t) }')")"
    printf '%-60s %-34s %s\n' "  its peak RSS (-j 1, v5 512 MiB)" "$(mib "${RSS[validate_j1_512m]}") MiB" ""
    r=$(mib "${RSS[validate_1g]}")
    printf '%-60s %-34s %s\n' "validate peak RSS < $TARGET_RSS_MIB MiB (v5 1 GiB)" "$r MiB" \
        "$(verdict "$(awk -v r="$r" -v t="$TARGET_RSS_MIB" 'BEGIN { print (r < t) }')")"
    printf '%-60s %-34s %s\n' "validate peak RSS <= $CPUS threads x 16 MiB window + 8 MiB" "$r MiB" \
        "$(verdict "$(awk -v r="$r" -v c="$CPUS" 'BEGIN { print (r <= 16 * c + 8) }')")"
    if [ "$LLVM_ON" = 1g ]; then ours=validate_1g; on="v5 1 GiB"; else ours=validate_64m; on="v5 64 MiB"; fi
    ratio=$(awk -v a="${BEST[llvm_$LLVM_ON]}" -v b="${BEST[$ours]}" 'BEGIN { printf "%.1f", a / b }')
    printf '%-60s %-34s %s\n' "validate >= ${TARGET_RATIO}x faster than llvm-xray fdr-dump ($on)" \
        "$(printf '%sx (%.2f s vs %.3f s)' "$ratio" "${BEST[llvm_$LLVM_ON]}" "${BEST[$ours]}")" \
        "$(verdict "$(awk -v r="$ratio" -v t="$TARGET_RATIO" 'BEGIN { print (r >= t) }')")"
    sizes="256 MiB, 1 GiB" rss_list="$(mib "${RSS[validate_256m]}"), $(mib "${RSS[validate_1g]}")"
    lo=${RSS[validate_256m]} hi=${RSS[validate_256m]}
    for id in validate_1g ${T4G:+validate_4g}; do
        if [ "${RSS[$id]}" -lt "$lo" ]; then lo=${RSS[$id]}; fi
        if [ "${RSS[$id]}" -gt "$hi" ]; then hi=${RSS[$id]}; fi
    done
    if [ -n "$T4G" ]; then sizes="$sizes, 4 GiB"; rss_list="$rss_list, $(mib "${RSS[validate_4g]}")"; fi
    printf '%-60s %-34s %s\n' "validate peak RSS flat across sizes (spread <= $RSS_FLAT_MIB MiB)" \
        "$rss_list MiB" "$(verdict "$(awk -v lo="$lo" -v hi="$hi" -v t="$RSS_FLAT_MIB" \
            'BEGIN { print ((hi - lo) / 1024 <= t) }')")"
    echo "  (sizes: $sizes)"
    echo
    echo "logs: $LOG_DIR/; traces: $BENCH_DIR/"
} | tee "$BENCH_DIR/results.txt"
