# Shared by the benchmark scripts (bench/*.sh): measurement and formatting.
# Sourced, not run. Needs LOG_DIR set before measure is called.

die() {
    echo "bench: $*" >&2
    exit 1
}

# human BYTES: 256 MiB, 1 GiB, 587.4 MiB ... (a whole number of units when
# within 0.01 % of one: the generator stops a little short of the size asked)
human() {
    awk -v b="$1" 'BEGIN {
        u = b >= 2^30 ? 2^30 : 2^20; n = u == 2^30 ? "GiB" : "MiB"; v = b / u; r = int(v + 0.5)
        if (r > 0 && (v - r) / r < 0.0001 && (r - v) / r < 0.0001) printf "%d %s", r, n
        else printf (u == 2^30 ? "%.2f %s" : "%.1f %s"), v, n }'
}

size_of() { stat -c %s "$1"; }

# bench_setup: what every benchmark checks and makes before it measures:
# SEED a number, TRACECHECK and /usr/bin/time runnable, BENCH_DIR made and
# made absolute, LOG_DIR (BENCH_DIR/logs) made.
bench_setup() {
    [[ $SEED =~ ^[0-9]+$ ]] || die "BENCH_SEED must be a number, not '$SEED'"
    [ -x "$TRACECHECK" ] || die "$TRACECHECK is missing or not executable (run make first)"
    [ -x /usr/bin/time ] || die "/usr/bin/time is missing (Debian package time; run 'make deps')"
    mkdir -p "$BENCH_DIR"
    BENCH_DIR=$(cd "$BENCH_DIR" && pwd)
    LOG_DIR=$BENCH_DIR/logs
    mkdir -p "$LOG_DIR"
}

free_bytes() { df -P -B1 "$BENCH_DIR" | awk 'NR == 2 { print $4 }'; }

# ---------------------------------------------------------------------------
# Measurement.
#
# measure ID RUNS BYTES [--stdin FILE | --pipe FILE] [--may-fail] -- CMD...
# runs CMD RUNS times, standard output to /dev/null, and records in
# BEST[ID] and MED[ID] (fastest and median run, seconds), RSS[ID] (largest
# peak RSS of the runs, KiB), BYTES[ID] (the bytes a run processes, for
# throughput) and RUNS_OF[ID].
# Wall time comes from the clock around the run (with --pipe: around the
# whole pipeline); peak RSS from /usr/bin/time (of CMD alone, not of the
# `cat` feeding a pipe). A run that exits other than 0 stops the benchmark,
# showing CMD's standard error; with --may-fail it ends the runs instead
# and leaves the status in MEASURE_STATUS (0 when every run succeeded).
declare -A MED BEST RSS BYTES RUNS_OF
MEASURE_STATUS=0

measure() {
    local id=$1 runs=$2 bytes=$3
    shift 3
    local stdin=/dev/null pipe='' may_fail=''
    while [ "$1" != -- ]; do
        case $1 in
            --stdin) stdin=$2; shift 2 ;;
            --pipe) pipe=$2; shift 2 ;;
            --may-fail) may_fail=1; shift ;;
            *) die "measure: unknown option $1" ;;
        esac
    done
    shift
    local times=() rss=0 i t0 t1 status kib
    local err=$LOG_DIR/$id.stderr mem=$LOG_DIR/$id.rss
    MEASURE_STATUS=0
    for ((i = 1; i <= runs; i++)); do
        status=0
        t0=$(date +%s%N)
        if [ -n "$pipe" ]; then
            cat -- "$pipe" | /usr/bin/time -f %M -o "$mem" "$@" > /dev/null 2> "$err" || status=$?
        else
            /usr/bin/time -f %M -o "$mem" "$@" < "$stdin" > /dev/null 2> "$err" || status=$?
        fi
        t1=$(date +%s%N)
        if [ "$status" -ne 0 ]; then
            if [ -n "$may_fail" ]; then
                MEASURE_STATUS=$status
                return 0
            fi
            echo "bench: '$*' exited with status $status:" >&2
            sed -n '1,30s/^/  | /p' "$err" >&2
            die "stopped: a figure for a failing run means nothing"
        fi
        kib=$(grep -E '^[0-9]+$' "$mem" | tail -n 1)
        if [ -n "$kib" ] && [ "$kib" -gt "$rss" ]; then rss=$kib; fi
        times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", (b - a) / 1e9 }')")
        echo "bench:   $id run $i/$runs: ${times[-1]} s, peak RSS $kib KiB" >&2
    done
    MED[$id]=$(printf '%s\n' "${times[@]}" | sort -g |
        awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
    BEST[$id]=$(printf '%s\n' "${times[@]}" | sort -g | head -n 1)
    RSS[$id]=$rss
    BYTES[$id]=$bytes
    RUNS_OF[$id]=$runs
}

# warm FILE...: read the files once so that every run finds them in the page cache.
warm() {
    local f
    for f in "$@"; do cat -- "$f" > /dev/null; done
}

gbps() { awk -v b="$1" -v t="$2" 'BEGIN { printf "%.2f", b / t / 1e9 }'; }
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }

verdict() { if [ "$1" = 1 ]; then echo PASS; else echo MISS; fi; }


# machine_lines: the machine and load lines every report starts with.
machine_lines() {
    echo "machine: $(grep -m1 '^model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) CPUs," \
        "$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 2^20 }' /proc/meminfo) RAM, Linux $(uname -r)"
}

# table_header, then row ID LABEL INPUT per measurement.
table_header() {
    printf '%-32s %-22s %4s %8s %8s %6s %6s %10s\n' measurement input runs "best s" "median s" "GB/s" "(med)" "peak RSS"
    printf '%-32s %-22s %4s %8s %8s %6s %6s %10s\n' \
        -------------------------------- ---------------------- ---- -------- -------- ------ ------ ----------
}

row() {
    printf '%-32s %-22s %4s %8.3f %8.3f %6s %6s %6s MiB\n' "$2" "$3" "${RUNS_OF[$1]}" "${BEST[$1]}" \
        "${MED[$1]}" "$(gbps "${BYTES[$1]}" "${BEST[$1]}")" "$(gbps "${BYTES[$1]}" "${MED[$1]}")" \
        "$(mib "${RSS[$1]}")"
}

# target_header, then target_row TEXT MEASURED PASSED(0|1).
target_header() {
    printf '%-60s %-34s %s\n' target measured verdict
    printf '%-60s %-34s %s\n' ------------------------------------------------------------ \
        ---------------------------------- -------
}

target_row() { printf '%-60s %-34s %s\n' "$1" "$2" "$(verdict "$3")"; }
