#!/bin/bash
# One libFuzzer run of a harness, bounded in time, for `make fuzz` and the
# smoke runs of `make check`.
#
#   libfuzzer-run.sh BINARY SECONDS CORPUS_DIR ARTIFACT_DIR JOBS DICT|- [SEED_DIR...]
#
# New inputs go to CORPUS_DIR (the seed directories are only read). The exit
# status is 0, or 1 when the harness failed: libFuzzer's own codes (77 on a
# crash, 70 on a timeout, ...) never leak out, so that a caller that reads 77
# as "skipped" (Automake, TAP harnesses) cannot mistake a crash for a skip.
# On failure the reproducers are named, with the command that replays one.
# The full log is CORPUS_DIR.log; the last lines sum the run up.
#
# Environment: FUZZ_MAX_LEN (default 8192), FUZZ_TIMEOUT seconds per input
# (default 10), FUZZ_RSS_MB (default 2048), FUZZ_QUIET=1 to print only the
# summary; for campaigns (fuzz/campaign.sh), FUZZ_LOG (the log instead of
# CORPUS_DIR.log, so that several hosts can share CORPUS_DIR) and
# FUZZ_KEEP_GOING=1 (fork mode goes on after a crash, a timeout or an
# out-of-memory input, keeping every artifact, instead of stopping at the
# first).
#
# SIGINT or SIGTERM stops libFuzzer and, in fork mode, all its jobs (they
# run in a process group of their own), then the run is summed up as usual.
set -u

if [ $# -lt 6 ]; then
    echo "usage: $0 BINARY SECONDS CORPUS_DIR ARTIFACT_DIR JOBS DICT|- [SEED_DIR...]" >&2
    exit 2
fi
bin=$1 seconds=$2 corpus=$3 artifacts=$4 jobs=$5 dict=$6
shift 6
name=$(basename "$bin")
log=${FUZZ_LOG:-${corpus%/}.log}

mkdir -p "$corpus" "$artifacts" || exit 1
seeds=()
for d in "$@"; do
    [ -d "$d" ] && seeds+=("$d")
done

args=(-max_total_time="$seconds" -max_len="${FUZZ_MAX_LEN:-8192}"
      -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb="${FUZZ_RSS_MB:-2048}"
      -artifact_prefix="${artifacts%/}/" -print_final_stats=1)
[ "$dict" != - ] && args+=(-dict="$dict")
# Several jobs: fork mode shares one corpus and stops at the first crash.
[ "$jobs" -gt 1 ] 2>/dev/null && args+=(-fork="$jobs")
if [ "$jobs" -gt 1 ] 2>/dev/null && [ "${FUZZ_KEEP_GOING:-0}" = 1 ]; then
    args+=(-ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
fi

before=$(find "$artifacts" -type f 2>/dev/null | sort)
# A process group of its own (setsid): a signal reaches every fork-mode job,
# not only the parent, which would leave its jobs running.
stopped=0
setsid "$bin" "${args[@]}" "$corpus" "${seeds[@]}" >"$log" 2>&1 &
pid=$!
trap 'stopped=1; echo "fuzz: stopping $name" >&2; kill -TERM -- "-$pid" 2>/dev/null' INT TERM
wait "$pid"
rc=$?
# A trapped signal interrupts wait (status > 128) while libFuzzer still runs.
while [ "$rc" -gt 128 ] && kill -0 "$pid" 2>/dev/null; do
    wait "$pid"
    rc=$?
done
trap - INT TERM
# A fork-mode parent stopping can still have started a job: what is left of
# the group goes too.
kill -KILL -- "-$pid" 2>/dev/null
[ "$stopped" = 1 ] && [ "$rc" -ne 0 ] && rc=0
after=$(find "$artifacts" -type f 2>/dev/null | sort)
new=$(comm -13 <(echo "$before") <(echo "$after") | sed '/^$/d')

# libFuzzer's closing statistics; fork mode prints none, but a status line
# per job ("#N: cov: ... exec/s R ... time: Ts"): the last one sums it up.
stat() { grep "^stat::$1:" "$log" | tail -1 | awk '{print $2}'; }
execs=$(stat number_of_executed_units)
rate=$(stat average_exec_per_sec)
# A stopped fork-mode parent prints closing statistics of its own, all 0.
if [ -z "$execs" ] || [ "$execs" = 0 ]; then
    last=$(grep -E '^#[0-9]+: cov:' "$log" | tail -1)
    execs=$(echo "$last" | sed -E 's/^#([0-9]+):.*/\1/')
    t=$(echo "$last" | sed -E 's/.* time: ([0-9]+)s.*/\1/')
    [ -n "$execs" ] && [ "${t:-0}" -gt 0 ] && rate=$((execs / t))
fi
size=$(find "$corpus" -type f | wc -l)
how="in ${seconds}s"
[ "$stopped" = 1 ] && how="before being stopped"
if [ "$rc" -eq 0 ] && [ -z "$new" ]; then
    echo "fuzz: $name: ${execs:-?} executions (${rate:-?}/s) $how, corpus $size inputs, no failure"
    exit 0
fi

echo "fuzz: $name FAILED (libFuzzer exit status $rc); log: $log" >&2
if [ -z "${FUZZ_QUIET:-}" ]; then
    grep -v "^#[0-9]*[[:space:]]*\(NEW\|REDUCE\|pulse\|RELOAD\)" "$log" | tail -40 >&2
fi
if [ -n "$new" ]; then
    echo "fuzz: reproducers:" >&2
    echo "$new" | sed 's/^/    /' >&2
    first=$(echo "$new" | head -1)
    echo "fuzz: replay with: $bin $first" >&2
    echo "fuzz: then add it to corpus/FORMAT/regressions/ with a .note (corpus/common/regressions/README.md)" >&2
fi
exit 1
