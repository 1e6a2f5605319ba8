#!/bin/bash
# One AFL++ campaign of a harness built in persistent mode, bounded in time,
# for `make fuzz ENGINE=afl`, `make fuzz-campaign` (through fuzz/campaign.sh)
# and the AFL++ smoke run of `make check`.
#
#   afl-run.sh BINARY SECONDS SEED_DIR OUT_DIR JOBS DICT|- [CMPLOG_BINARY]
#
# JOBS > 1 runs one main instance (-M main) and JOBS-1 secondaries (-S s2 ...)
# sharing OUT_DIR, the way a campaign scales out over cores (and, with the
# output directory shared or synchronised, over machines). A CMPLOG_BINARY
# (built with AFL_LLVM_CMPLOG=1) is given to the main instance for
# input-to-state comparisons. An existing OUT_DIR is resumed: an instance
# whose directory is there restarts from its own queue (-i -), a new one
# from SEED_DIR.
#
# Environment, for campaigns (docs/fuzzing.md, "Running a campaign"):
#   AFL_RUN_VARIED=1        secondaries differ from each other: power
#                           schedules in turn, MOpt (-L 0) on every third,
#                           AFL_DISABLE_TRIM on every fourth, -a text|binary
#                           where this afl-fuzz has it (AFL_RUN_INPUT_KIND)
#   AFL_RUN_ALT_BINARY=B    the odd-numbered secondaries fuzz B, another
#                           build of the harness (UBSan only: faster), while
#                           the main and the others keep BINARY's ASan
#   AFL_RUN_HOST_ID=ID      instance names start with ID- (several hosts on
#                           one OUT_DIR), and this host runs no main instance
#                           unless AFL_RUN_MAIN=1
#   AFL_RUN_MAIN=0|1        run the main instance here (default: 1 without a
#                           host id, 0 with one)
#   FUZZ_AFL_TIMEOUT        milliseconds per input (default 5000)
#
# SIGINT or SIGTERM stops every instance (afl-fuzz saves its state on
# SIGTERM), then the summary is printed as after a full run. Each instance
# runs in a process group of its own, killed whole when it ends.
#
# Exit status 0, or 1 when an instance failed to run or a crash or a hang
# was saved; the reproducers are named.
set -u

if [ $# -lt 6 ]; then
    echo "usage: $0 BINARY SECONDS SEED_DIR OUT_DIR JOBS DICT|- [CMPLOG_BINARY]" >&2
    exit 2
fi
bin=$1 seconds=$2 seeds=$3 out=$4 jobs=$5 dict=$6 cmplog=${7:-}
name=$(basename "$bin")
varied=${AFL_RUN_VARIED:-0} alt=${AFL_RUN_ALT_BINARY:-} host=${AFL_RUN_HOST_ID:-}
if [ -n "$host" ]; then
    run_main=${AFL_RUN_MAIN:-0}
    # Instance names become directory names in a shared OUT_DIR.
    [[ $host =~ ^[A-Za-z0-9_]+$ ]] || { echo "$0: AFL_RUN_HOST_ID must match [A-Za-z0-9_]+" >&2; exit 2; }
else
    run_main=${AFL_RUN_MAIN:-1}
fi
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "$0: JOBS must be a positive number, not '$jobs'" >&2; exit 2; }
for b in "$bin" ${cmplog:+"$cmplog"} ${alt:+"$alt"}; do
    [ -x "$b" ] || { echo "$0: no program $b (build it first)" >&2; exit 2; }
done

# What a CI container needs: no CPU frequency governor to check, no core
# pattern to fix, no terminal, no free core to bind to, and a resumable output.
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1
export AFL_NO_AFFINITY=1 AFL_AUTORESUME=1
export AFL_FORKSRV_INIT_TMOUT=${AFL_FORKSRV_INIT_TMOUT:-30000}

mkdir -p "$out" || exit 1
common=(-o "$out" -V "$seconds" -t "${FUZZ_AFL_TIMEOUT:-5000}")
[ "$dict" != - ] && common+=(-x "$dict")
# -a (the input's kind) came with AFL++ 4.10; older ones refuse it.
has_a=0
afl-fuzz -h 2>&1 | grep -qE '^ +-a ' && has_a=1
schedules=(explore fast coe lin quad exploit rare)

pids=() insts=() stopped=0
stop() {
    stopped=1
    echo "fuzz: stopping ${#pids[@]} afl-fuzz instance(s)" >&2
    kill -TERM "${pids[@]}" 2>/dev/null
}
trap stop INT TERM

for ((i = 1; i <= jobs; i++)); do
    role=() envs=() what="" target=$bin
    if [ "$i" -eq 1 ] && [ "$run_main" = 1 ]; then
        inst=main
        role=(-M main)
        [ -n "$cmplog" ] && role+=(-c "$cmplog") && what="CmpLog"
    else
        # Secondary k of this host, counted from 1.
        k=$((run_main == 1 ? i - 1 : i))
        inst=${host:+$host-}s$i
        role=(-S "$inst")
        if [ "$varied" = 1 ]; then
            sched=${schedules[$(((k - 1) % ${#schedules[@]}))]}
            role+=(-p "$sched") what="-p $sched"
            if [ $((k % 3)) -eq 2 ]; then role+=(-L 0) what+=", MOpt"; fi
            if [ $((k % 4)) -eq 3 ]; then envs+=(AFL_DISABLE_TRIM=1) what+=", no trimming"; fi
            if [ $((k % 4)) -eq 0 ] && [ "$has_a" = 1 ]; then
                role+=(-a "${AFL_RUN_INPUT_KIND:-binary}") what+=", -a ${AFL_RUN_INPUT_KIND:-binary}"
            fi
        fi
        if [ -n "$alt" ] && [ $((k % 2)) -eq 1 ]; then
            target=$alt what+="${what:+, }$(basename "$(dirname "$alt")") build"
        fi
    fi
    # Resume an instance from its own queue; a new one starts from the seeds.
    if [ -f "$out/$inst/fuzzer_stats" ]; then input=(-i -) what+="${what:+, }resumed"
    else input=(-i "$seeds"); fi
    [ "$varied" = 1 ] && echo "fuzz: $inst: ${what:-defaults}"
    # Each instance in a process group of its own (setsid), removed whole
    # when the instance ends: afl-fuzz 4.04c can leave its CmpLog target
    # behind, stopped, holding the lock on the instance's directory, so that
    # the next run could not resume it.
    setsid env "${envs[@]}" afl-fuzz "${input[@]}" "${common[@]}" "${role[@]}" -- "$target" \
        >"$out/$inst.log" 2>&1 &
    pids+=($!) insts+=("$inst")
done
rc=0
for p in "${pids[@]}"; do
    wait "$p"
    s=$?
    # A trapped signal interrupts wait (status > 128) while p still runs.
    while [ "$s" -gt 128 ] && kill -0 "$p" 2>/dev/null; do
        wait "$p"
        s=$?
    done
    [ "$s" -ne 0 ] && [ "$stopped" = 0 ] && rc=1
    kill -KILL -- "-$p" 2>/dev/null
done
trap - INT TERM
firstlog=$out/${insts[0]}.log

total=0 rate=0 queue=0
for inst in "${insts[@]}"; do
    s=$out/$inst/fuzzer_stats
    [ -f "$s" ] || continue
    e=$(awk -F: '/^execs_done/ {gsub(/ /, "", $2); print $2}' "$s")
    r=$(awk -F: '/^execs_per_sec/ {gsub(/ /, "", $2); print int($2)}' "$s")
    q=$(awk -F: '/^corpus_count/ {gsub(/ /, "", $2); print $2}' "$s")
    total=$((total + ${e:-0})) rate=$((rate + ${r:-0})) queue=$((queue + ${q:-0}))
done
persistent=""
grep -q "Persistent mode binary detected" "$firstlog" 2>/dev/null && persistent=", persistent mode"

found=$(find "$out" -path '*/crashes/id:*' -o -path '*/hangs/id:*' 2>/dev/null | sort)
if [ "$rc" -ne 0 ] || { [ "$total" -eq 0 ] && [ "$stopped" = 0 ]; }; then
    echo "fuzz: $name: afl-fuzz did not run properly; log: $firstlog" >&2
    tail -20 "$firstlog" >&2
    exit 1
fi
if [ -n "$found" ]; then
    echo "fuzz: $name FAILED under AFL++; reproducers:" >&2
    echo "$found" | sed 's/^/    /' >&2
    echo "fuzz: replay one with the regression driver build of $name, or triage them all:" \
        "make fuzz-triage TARGET=$name SYNC_DIR=$out" >&2
    exit 1
fi
how="in ${seconds}s"
[ "$stopped" = 1 ] && how="before being stopped"
echo "fuzz: $name (AFL++, $jobs instance(s)$persistent): $total executions (${rate}/s) $how, queue $queue inputs, no crash or hang"
