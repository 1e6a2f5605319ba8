#!/usr/bin/env bash
# DCFG and DCFG-trace benchmark (make bench-dcfg): throughput and peak memory
# of tracecheck on a large DCFG and on DCFG-traces, next to general JSON
# readers (python3's json.load, jq empty) on the same files, `cat` and
# `bzip2 -dc` as baselines. Figures only: nothing here fails because a
# figure misses its target. See docs/benchmarks.md.
#
#   bench/dcfg/dcfg.sh
#
# Environment (make bench-dcfg sets the first two):
#   TRACECHECK               the release tracecheck binary            (required)
#   BENCH_DIR                where the files are cached               (required)
#   BENCH_RUNS               runs of each fast measurement            (5)
#   BENCH_SLOW_RUNS          runs of python3 and jq                   (2)
#   BENCH_SEED               generator seed                           (1)
#   BENCH_BASELINE_TIMEOUT   seconds python3 or jq may take on a file (600)
#   BENCH_BASELINE_MEM_GIB   address space python3 or jq may take     (12)
#   BENCH_ONLY               dcfg, trace or paired: that part alone   (all)
#                            (paired: the 256 MiB DCFG-trace checked
#                            against its DCFG at -j 1, next to cat)
#
# Files are generated once (tracecheck gen dcfg: a DCFG and its DCFG-trace)
# and kept in BENCH_DIR; delete them to regenerate them.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

: "${TRACECHECK:?set TRACECHECK to the tracecheck binary}"
: "${BENCH_DIR:?set BENCH_DIR to a directory for the benchmark files}"
RUNS=${BENCH_RUNS:-5}
SLOW_RUNS=${BENCH_SLOW_RUNS:-2}
SEED=${BENCH_SEED:-1}
BASELINE_TIMEOUT=${BENCH_BASELINE_TIMEOUT:-600}
BASELINE_MEM_GIB=${BENCH_BASELINE_MEM_GIB:-12}
ONLY=${BENCH_ONLY:-}
case $ONLY in '' | dcfg | trace | paired) ;; *) die "BENCH_ONLY must be dcfg, trace or paired, not '$ONLY'" ;; esac
DO_DCFG=$([ -z "$ONLY" ] || [ "$ONLY" = dcfg ] && echo 1 || echo 0)
DO_TRACE=$([ -z "$ONLY" ] || [ "$ONLY" = trace ] && echo 1 || echo 0)
DO_PAIRED=$([ "$ONLY" != dcfg ] && echo 1 || echo 0)

# Targets (see docs/benchmarks.md).
RSS_FLAT_MIB=2 # DCFG-trace peak RSS "independent of length": spread at most this
PAIRED_OF_CAT=4 # DCFG-trace paired, -j 1, 256 MiB: at most this many times cat's time (medians)

MIB=$((1 << 20))
GIB=$((1 << 30))

for n in RUNS SLOW_RUNS BASELINE_TIMEOUT BASELINE_MEM_GIB; do
    [[ ${!n} =~ ^[1-9][0-9]*$ ]] || die "$n must be a positive integer, not '${!n}'"
done
for tool in python3 jq bzip2 timeout; do
    command -v "$tool" > /dev/null || die "$tool not found (run 'make deps')"
done

bench_setup

# ---------------------------------------------------------------------------
# Files, generated once.

# gen NAME SIZE PROCS THREADS [DCFG_SIZE]: BENCH_DIR/NAME.dcfg.json and
# NAME.trace.json, a DCFG-trace of about SIZE bytes and its DCFG (of about
# DCFG_SIZE bytes when given), checked valid once (a figure on an invalid
# file would measure an early stop).
gen() {
    local out=$BENCH_DIR/$1 big=()
    if [ -n "${5:-}" ]; then big=(--dcfg-size "$5"); fi
    if [ ! -s "$out.dcfg.json" ] || [ ! -s "$out.trace.json" ]; then
        echo "bench: generating $1 (trace $(human "$2")${5:+, DCFG $(human "$5")}, $3 processes x $4 threads, seed $SEED) ..." >&2
        "$TRACECHECK" gen dcfg --seed "$SEED" --size "$2" --procs "$3" --threads "$4" \
            "${big[@]}" -o "$out.tmp" || die "tracecheck gen dcfg failed for $1"
        "$TRACECHECK" validate "$out.tmp.dcfg.json" "$out.tmp.trace.json" \
            > "$LOG_DIR/$1.validate" 2>&1 ||
            die "tracecheck does not find the generated $1 valid: see $LOG_DIR/$1.validate"
        mv "$out.tmp.dcfg.json" "$out.dcfg.json"
        mv "$out.tmp.trace.json" "$out.trace.json"
    fi
    echo "$out"
}

# bz2 FILE: FILE.bz2 (bzip2 -9, its default, as Intel's tools ship them), once.
bz2() {
    if [ ! -s "$1.bz2" ]; then
        echo "bench: compressing $(basename "$1") with bzip2 (a few minutes) ..." >&2
        bzip2 -c < "$1" > "$1.bz2.tmp" || die "bzip2 failed on $1"
        mv "$1.bz2.tmp" "$1.bz2"
    fi
    echo "$1.bz2"
}

# The DCFG is made 200 MiB by --dcfg-size (a program of a few million
# blocks, most never run), its trace small. The two traces have the same
# processes and threads, so that only their length differs.
WARM=()
if [ "$DO_DCFG" = 1 ]; then
    DBIG=$(gen dcfg-200m $((1 * MIB)) 2 4 $((200 * MIB))).dcfg.json
    SD=$(size_of "$DBIG")
    WARM+=("$DBIG")
fi
if [ "$DO_TRACE" = 1 ]; then
    T1G=$(gen dcfg-2x4-1g "$GIB" 2 4).trace.json
    T256=$(gen dcfg-2x4-256m $((256 * MIB)) 2 4).trace.json
    T1G_BZ2=$(bz2 "$T1G")
    S1G=$(size_of "$T1G")
    S256=$(size_of "$T256")
    WARM+=("$T1G" "$T256" "$T1G_BZ2")
fi
if [ "$DO_PAIRED" = 1 ]; then
    # The same 256 MiB trace, read with the DCFG it was generated with:
    # every edge is looked up in it (ruling 13), as `validate DCFG TRACE`
    # does.
    P256=$(gen dcfg-2x4-256m $((256 * MIB)) 2 4)
    T256=$P256.trace.json
    D256=$P256.dcfg.json
    S256=$(size_of "$T256")
    WARM+=("$T256" "$D256")
fi

PY_LOAD='import json, sys; json.load(open(sys.argv[1], encoding="utf-8"))'

declare -A FAILED
# baseline ID BYTES CMD...: a general reader, which holds the whole document
# as objects: bounded in time and address space (ulimit -v, KiB), so that a
# run that would swamp the machine fails instead; FAILED[ID] then says why.
baseline() {
    local id=$1 bytes=$2
    shift 2
    measure "$id" "$SLOW_RUNS" "$bytes" --may-fail -- timeout "$BASELINE_TIMEOUT" \
        bash -c 'ulimit -v "$1"; shift; exec "$@"' - $((BASELINE_MEM_GIB << 20)) "$@"
    case $MEASURE_STATUS in
        0) ;;
        124) FAILED[$id]="did not finish within $BASELINE_TIMEOUT s" ;;
        *) FAILED[$id]="failed (status $MEASURE_STATUS: $(tail -n 1 "$LOG_DIR/$id.stderr" | cut -c 1-60))" ;;
    esac
    if [ -n "${FAILED[$id]:-}" ]; then echo "bench: $id ${FAILED[$id]}" >&2; fi
}

LOAD_BEFORE=$(cut -d ' ' -f 1-3 /proc/loadavg)
echo "bench: warming the page cache ..." >&2
warm "${WARM[@]}"

echo "bench: measuring ($RUNS runs each; $SLOW_RUNS of python3 and jq) ..." >&2
if [ "$DO_DCFG" = 1 ]; then
measure d_cat "$RUNS" "$SD" -- cat -- "$DBIG"
measure d_validate "$RUNS" "$SD" -- "$TRACECHECK" validate --format dcfg "$DBIG"
baseline d_python "$SD" python3 -c "$PY_LOAD" "$DBIG"
baseline d_jq "$SD" jq empty "$DBIG"
fi
if [ "$DO_TRACE" = 1 ]; then
measure t_cat "$RUNS" "$S1G" -- cat -- "$T1G"
measure t_validate "$RUNS" "$S1G" -- "$TRACECHECK" validate --format dcfg-trace "$T1G"
measure t_validate_256m "$RUNS" "$S256" -- "$TRACECHECK" validate --format dcfg-trace "$T256"
baseline t_python "$S1G" python3 -c "$PY_LOAD" "$T1G"
baseline t_jq "$S1G" jq empty "$T1G"
measure t_bzip2 "$RUNS" "$S1G" -- bzip2 -dc -- "$T1G_BZ2"
measure t_validate_bz2 "$RUNS" "$S1G" -- "$TRACECHECK" validate --format dcfg-trace "$T1G_BZ2"
fi
if [ "$DO_PAIRED" = 1 ]; then
measure p_cat_256m "$RUNS" "$S256" -- cat -- "$T256"
measure p_validate_256m "$RUNS" "$S256" -- "$TRACECHECK" validate -j 1 "$D256" "$T256"
fi

# ---------------------------------------------------------------------------
# Report.

# baseline_row ID LABEL INPUT: row, or a line saying why there is no figure.
baseline_row() {
    if [ -n "${FAILED[$1]:-}" ]; then
        printf '%-32s %-22s %s\n' "$2" "$3" "${FAILED[$1]}"
    else
        row "$1" "$2" "$3"
    fi
}

# faster_row OURS THEIRS WHAT ON: the target "validate faster than WHAT".
faster_row() {
    local text="validate faster than $3 ($4)"
    if [ -n "${FAILED[$2]:-}" ]; then
        # A reader that could not finish is slower than one that did, when
        # it ran out of time; out of memory says nothing about speed.
        if [[ ${FAILED[$2]} == "did not finish"* ]]; then
            target_row "$text" "$3 did not finish in $BASELINE_TIMEOUT s" 1
        else
            printf '%-60s %-34s %s\n' "$text" "no figure: $3 failed" n/a
        fi
        return
    fi
    target_row "$text" \
        "$(awk -v a="${BEST[$2]}" -v b="${BEST[$1]}" 'BEGIN { printf "%.1fx (%.2f s vs %.3f s)", a / b, a, b }')" \
        "$(awk -v a="${BEST[$2]}" -v b="${BEST[$1]}" 'BEGIN { print (b < a) }')"
}

{
    echo
    echo "tracecheck benchmark: DCFG and DCFG-trace from 'tracecheck gen dcfg --seed $SEED'"
    machine_lines
    echo "tools: $("$TRACECHECK" --version 2>/dev/null | head -n 1), $(python3 --version 2>&1)," \
        "$(jq --version 2>&1), bzip2 $(bzip2 --help 2>&1 | grep -o 'Version [0-9.]*' | cut -d ' ' -f 2)"
    echo "load average (1, 5, 15 min) at start: $LOAD_BEFORE; at end: $(cut -d ' ' -f 1-3 /proc/loadavg)"
    echo "page cache warm; time = wall clock of a run; best = fastest of the runs; median = middle run;"
    echo "GB/s = 10^9 bytes of uncompressed JSON per second; peak RSS = largest maximum resident set size"
    echo "of the runs; MiB = 2^20 bytes; python3 and jq limited to $BASELINE_TIMEOUT s and $BASELINE_MEM_GIB GiB"
    echo
    table_header
    if [ "$DO_DCFG" = 1 ]; then
    row d_cat "cat > /dev/null (baseline)" "DCFG $(human "$SD")"
    row d_validate "tracecheck validate" "DCFG $(human "$SD")"
    baseline_row d_python "python3 json.load" "DCFG $(human "$SD")"
    baseline_row d_jq "jq empty" "DCFG $(human "$SD")"
    fi
    if [ "$DO_TRACE" = 1 ]; then
    row t_cat "cat > /dev/null (baseline)" "trace $(human "$S1G")"
    row t_validate "tracecheck validate" "trace $(human "$S1G")"
    row t_validate_256m "tracecheck validate" "trace $(human "$S256")"
    baseline_row t_python "python3 json.load" "trace $(human "$S1G")"
    baseline_row t_jq "jq empty" "trace $(human "$S1G")"
    row t_bzip2 "bzip2 -dc > /dev/null (baseline)" "same, .bz2 $(human "$(size_of "$T1G_BZ2")")"
    row t_validate_bz2 "tracecheck validate" "same, .bz2"
    fi
    if [ "$DO_PAIRED" = 1 ]; then
    row p_cat_256m "cat > /dev/null (baseline)" "trace $(human "$S256")"
    row p_validate_256m "tracecheck validate -j 1" "paired: DCFG + trace"
    fi

    echo
    target_header
    if [ "$DO_DCFG" = 1 ]; then
    faster_row d_validate d_python python3 "DCFG $(human "$SD")"
    faster_row d_validate d_jq jq "DCFG $(human "$SD")"
    fi
    if [ "$DO_TRACE" = 1 ]; then
    faster_row t_validate t_python python3 "DCFG-trace $(human "$S1G")"
    faster_row t_validate t_jq jq "DCFG-trace $(human "$S1G")"
    g=$(gbps "$S1G" "${BEST[t_validate]}")
    target_row "DCFG-trace validate at least 1.5 GB/s (1 GiB)" "$g GB/s" \
        "$(awk -v g="$g" 'BEGIN { print (g >= 1.5) }')"
    r=$(awk -v a="${BEST[t_validate_bz2]}" -v b="${BEST[t_bzip2]}" 'BEGIN { printf "%.2f", a / b }')
    target_row "DCFG-trace validate .bz2 within 10% of bzip2 -dc" \
        "${r}x (${BEST[t_validate_bz2]} s vs ${BEST[t_bzip2]} s)" \
        "$(awk -v r="$r" 'BEGIN { print (r <= 1.10) }')"
    lo=${RSS[t_validate_256m]} hi=${RSS[t_validate]}
    if [ "$hi" -lt "$lo" ]; then t=$lo; lo=$hi; hi=$t; fi
    target_row "DCFG-trace validate peak RSS flat across lengths (<= $RSS_FLAT_MIB MiB)" \
        "$(mib "${RSS[t_validate_256m]}"), $(mib "${RSS[t_validate]}") MiB (256 MiB, 1 GiB)" \
        "$(awk -v lo="$lo" -v hi="$hi" -v t="$RSS_FLAT_MIB" 'BEGIN { print ((hi - lo) / 1024 <= t) }')"
    fi
    if [ "$DO_PAIRED" = 1 ]; then
    r=$(awk -v a="${MED[p_validate_256m]}" -v b="${MED[p_cat_256m]}" 'BEGIN { printf "%.2f", a / b }')
    target_row "DCFG-trace paired validate -j 1 at most $PAIRED_OF_CAT x cat (256 MiB, medians)" \
        "${r}x (${MED[p_validate_256m]} s vs ${MED[p_cat_256m]} s)" \
        "$(awk -v r="$r" -v t="$PAIRED_OF_CAT" 'BEGIN { print (r <= t) }')"
    echo "DCFG-trace paired validate -j 1 (256 MiB): $(gbps "$S256" "${MED[p_validate_256m]}") GB/s" \
        "(median), cat $(gbps "$S256" "${MED[p_cat_256m]}") GB/s; peak RSS $(mib "${RSS[p_validate_256m]}") MiB"
    fi
    echo
    echo "logs: $LOG_DIR/; files: $BENCH_DIR/"
} | tee "$BENCH_DIR/results-dcfg.txt"
