#!/bin/bash
# make bench-per-core: the per-core table of docs/benchmarks.md ("Per-core
# figures") in one run: for each format's trace, `tracecheck validate -q -j 1`
# and `cat FILE > /dev/null` take turns, run for run, so that both see the
# same machine; the ratio of their median wall times is the figure, printed
# with each one's throughput and peak RSS, the target and a verdict.
#
#   TRACECHECK   the program                                  (required)
#   BENCH_DIR    where the traces (per-core/) and logs go      (required)
#   BENCH_RUNS   runs of each command                          (5)
#   BENCH_SEED   generator seed                                (1)
#   BENCH_ONLY   rows to measure, of fdr basic ovni ovni-all pair perf,
#                separated by commas                           (all)
#
# The traces, made once by `tracecheck gen` and kept in BENCH_DIR/per-core
# (about 2.3 GiB; delete the directory to make them again):
#   XRay FDR v5, 512 MiB     gen xray --version 5 --size 512M
#   XRay basic mode, 512 MiB gen xray-basic --size 512M
#   ovni, 512 MiB            gen ovni --size 512M (ovni's own model)
#   ovni, every model        gen ovni --size 512M --models all
#   DCFG-trace, 256 MiB      gen dcfg --size 256M --procs 2 --threads 4, with its DCFG
#   SiFive perf .rtd, 256 MiB gen perf --size 256M --container rtd
# It prints figures and verdicts; it never fails because of a figure.
set -eo pipefail
. "$(dirname "$0")/lib.sh"

: "${TRACECHECK:?}" "${BENCH_DIR:?}"
RUNS=${BENCH_RUNS:-5}
SEED=${BENCH_SEED:-1}
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "BENCH_RUNS must be a positive number, not '$RUNS'"
ONLY=${BENCH_ONLY:-fdr,basic,ovni,ovni-all,pair,perf}
for r in ${ONLY//,/ }; do
    case $r in fdr | basic | ovni | ovni-all | pair | perf) ;;
        *) die "BENCH_ONLY takes fdr, basic, ovni, ovni-all, pair and perf, not '$r'" ;; esac
done
wanted() { [[ ,$ONLY, == *,$1,* ]]; }
bench_setup
DIR=$BENCH_DIR/per-core
mkdir -p "$DIR"

# made NAME GEN-ARGS...: DIR/NAME (a file, or a directory for ovni), made by
# tracecheck gen unless it is there, and checked valid once when made.
made() {
    local name=$1 out=$DIR/$1 tmp=$DIR/tmp-$1 # the name's extension kept: it tells the format
    shift
    if [ ! -e "$out" ]; then
        echo "bench: generating $name (tracecheck gen $*, seed $SEED) ..." >&2
        rm -rf "$tmp"
        "$TRACECHECK" gen "$@" --seed "$SEED" -o "$tmp" >&2 || die "tracecheck gen failed for $name"
        "$TRACECHECK" validate -q "$tmp" > "$LOG_DIR/per-core-$name.validate" 2>&1 ||
            die "tracecheck does not find the generated $name valid: see $LOG_DIR/per-core-$name.validate"
        mv "$tmp" "$out"
    fi
}
wanted fdr && made fdr.xray xray --version 5 --size 512M
wanted basic && made basic.xray xray-basic --size 512M
wanted ovni && made ovni ovni --size 512M
wanted ovni-all && made ovni-all ovni --size 512M --models all
if wanted pair && [ ! -e "$DIR/pair.trace.json" ]; then
    echo "bench: generating the DCFG pair (tracecheck gen dcfg --size 256M, seed $SEED) ..." >&2
    "$TRACECHECK" gen dcfg --size 256M --procs 2 --threads 4 --seed "$SEED" -o "$DIR/pair.tmp" >&2 ||
        die "tracecheck gen dcfg failed"
    "$TRACECHECK" validate -q "$DIR/pair.tmp.dcfg.json" "$DIR/pair.tmp.trace.json" \
        > "$LOG_DIR/per-core-pair.validate" 2>&1 ||
        die "tracecheck does not find the generated pair valid: see $LOG_DIR/per-core-pair.validate"
    mv "$DIR/pair.tmp.dcfg.json" "$DIR/pair.dcfg.json"
    mv "$DIR/pair.tmp.trace.json" "$DIR/pair.trace.json"
fi
wanted perf && made perf.rtd perf --size 256M --container rtd

# bytes PATH: a file's size, or the sum over a directory's files.
bytes() { find "$1" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }'; }

# in_turn ID -- FILES...: cat of FILES and validate -j 1 of FILES, RUNS times
# each, one after the other (cat_ID, val_ID in MED, RSS, BYTES, RUNS_OF).
in_turn() {
    local id=$1 b
    shift 2
    local files=()
    for f in "$@"; do
        if [ -d "$f" ]; then mapfile -t -O "${#files[@]}" files < <(find "$f" -type f | sort); else files+=("$f"); fi
    done
    b=0
    for f in "$@"; do b=$((b + $(bytes "$f"))); done
    warm "${files[@]}"
    local ct=() vt=() crss=0 vrss=0 i
    for ((i = 1; i <= RUNS; i++)); do
        measure "cat_$id" 1 "$b" -- cat -- "${files[@]}"
        ct+=("${MED[cat_$id]}")
        [ "${RSS[cat_$id]}" -gt "$crss" ] && crss=${RSS[cat_$id]}
        measure "val_$id" 1 "$b" -- "$TRACECHECK" validate -q -j 1 "$@"
        vt+=("${MED[val_$id]}")
        [ "${RSS[val_$id]}" -gt "$vrss" ] && vrss=${RSS[val_$id]}
    done
    MED[cat_$id]=$(median "${ct[@]}")
    MED[val_$id]=$(median "${vt[@]}")
    BEST[cat_$id]=$(printf '%s\n' "${ct[@]}" | sort -g | head -n 1)
    BEST[val_$id]=$(printf '%s\n' "${vt[@]}" | sort -g | head -n 1)
    RSS[cat_$id]=$crss
    RSS[val_$id]=$vrss
    RUNS_OF[cat_$id]=$RUNS
    RUNS_OF[val_$id]=$RUNS
}

median() {
    printf '%s\n' "$@" | sort -g |
        awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "bench: per-core figures ($RUNS runs of each command, in turn) ..." >&2
wanted fdr && in_turn fdr -- "$DIR/fdr.xray"
wanted basic && in_turn basic -- "$DIR/basic.xray"
wanted ovni && in_turn ovni -- "$DIR/ovni"
wanted ovni-all && in_turn ovniall -- "$DIR/ovni-all"
wanted pair && in_turn pair -- "$DIR/pair.dcfg.json" "$DIR/pair.trace.json"
wanted perf && in_turn perf -- "$DIR/perf.rtd"

# line ID LABEL TARGET: one row of the table; TARGET is the most times cat's
# time, or "rate:GB/s" for a least throughput.
line() {
    local id=$1 label=$2 target=$3 ratio g pass shown
    ratio=$(awk -v a="${MED[val_$id]}" -v b="${MED[cat_$id]}" 'BEGIN { printf "%.2f", a / b }')
    g=$(gbps "${BYTES[val_$id]}" "${MED[val_$id]}")
    if [[ $target == rate:* ]]; then
        shown=">= ${target#rate:} GB/s"
        pass=$(awk -v g="$g" -v t="${target#rate:}" 'BEGIN { print (g >= t) }')
    else
        shown="<= $target x"
        pass=$(awk -v r="$ratio" -v t="$target" 'BEGIN { print (r <= t) }')
    fi
    printf '%-28s %9s %9s %7s %8s %8s %10s  %-14s %s\n' "$label" "${MED[cat_$id]}" \
        "${MED[val_$id]}" "$(gbps "${BYTES[val_$id]}" "${MED[cat_$id]}")" "$g" "$ratio" \
        "$(mib "${RSS[val_$id]}") MiB" "$shown" "$(verdict "$pass")"
}

{
    echo "tracecheck per-core benchmark: validate -q -j 1 against cat of the same files, in turn"
    machine_lines
    echo "$(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg), seed $SEED," \
        "$RUNS runs of each; medians of wall time; GB/s = 10^9 bytes per second"
    echo
    printf '%-28s %9s %9s %7s %8s %8s %10s  %-14s %s\n' trace "cat s" "validate" "cat GB/s" \
        "GB/s" "x cat" "peak RSS" target verdict
    wanted fdr && line fdr "XRay FDR v5, $(human "${BYTES[val_fdr]}")" 3
    wanted basic && line basic "XRay basic, $(human "${BYTES[val_basic]}")" 2
    wanted ovni && line ovni "ovni, $(human "${BYTES[val_ovni]}")" 4
    wanted ovni-all && line ovniall "ovni every model, $(human "${BYTES[val_ovniall]}")" rate:1.1
    wanted pair && line pair "DCFG-trace paired, $(human "${BYTES[val_pair]}")" 4
    wanted perf && line perf "SiFive perf .rtd, $(human "${BYTES[val_perf]}")" 6
    echo
    echo "logs: $LOG_DIR/; traces: $DIR/"
} | tee "$BENCH_DIR/results-per-core.txt"
