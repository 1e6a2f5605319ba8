#!/bin/bash
# The fuzzer effectiveness benchmark (docs/fuzzing.md, "Fuzzer effectiveness
# benchmark"): libFuzzer against the bugs of bench/bugs, patched into copies of
# the parsers (bench/fuzz_bench.mk), and coverage over time per harness.
# `make fuzz-bench` builds what it needs and calls this script;
# bench/fuzz_bench.py does the work.
set -euo pipefail

usage() {
    cat <<'USAGE'
usage: bench/fuzz_bench.sh FUZZ_OUT OUT_DIR        (normally through make fuzz-bench)
       bench/fuzz_bench.sh --check BINARY BUG INPUT DIR
       bench/fuzz_bench.sh --table OUT_DIR
       bench/fuzz_bench.sh --check-bugs

Runs each selected bug's harnesses (bench/fuzz_bench_bugs.tsv) with libFuzzer
for a fixed time from the seed corpus, the bug enabled, and reports per bug
when it was reached, triggered and detected; then runs each harness without
bugs and measures its coverage over time with llvm-cov. Writes OUT_DIR/
results.md, results.csv, results.json, coverage.csv and coverage.png.

--check replays INPUT through a fuzz-bench regression driver with bug BUG
enabled (it must fail) and disabled (it must pass); the canary must record
the bug reached and triggered both times. --table prints the table again.
--check-bugs checks that bench/bugs holds one patch per bug of the table and
that parsers/ holds no TC_BUG.

Environment (make fuzz-bench passes its variables of the same names):
  FUZZ_BENCH_SECONDS        libFuzzer time per bug and harness (60)
  FUZZ_BENCH_BUGS           bugs to run, e.g. "4 7 15", or none (all)
  FUZZ_BENCH_PER_BUG        harnesses per bug, the first ones listed (0: all)
  FUZZ_BENCH_JOBS           processes at once (2)
  FUZZ_BENCH_COV            yes, or no to skip the coverage part (yes)
  FUZZ_BENCH_COV_SECONDS    libFuzzer time per harness for coverage (60)
  FUZZ_BENCH_COV_INTERVAL   seconds between corpus snapshots (10)
  FUZZ_BENCH_COV_TARGETS    harnesses for coverage (all)
  FUZZ_BENCH_HARNESSES      target:seed+seed:dict ... (set by bench/bench.mk)
  LLVM_PROFDATA, LLVM_COV   the llvm tools (llvm-profdata, llvm-cov)
  FUZZ_BENCH_PYTHON         the Python with matplotlib (/usr/bin/python3)
USAGE
}

here=$(cd "$(dirname "$0")" && pwd)
# Debian's python3, which has python3-matplotlib (.ci/deps.mk), before any
# other python3 on PATH.
python=${FUZZ_BENCH_PYTHON:-/usr/bin/python3}
[ -x "$python" ] || python=python3
py=("$python" "$here/fuzz_bench.py")

case "${1:-}" in
-h|--help) usage; exit 0 ;;
--check)
    [ $# -eq 5 ] || { usage >&2; exit 2; }
    exec "${py[@]}" check "$2" "$3" "$4" "$5" ;;
--check-bugs)
    [ $# -eq 1 ] || { usage >&2; exit 2; }
    exec "${py[@]}" check-bugs ;;
--table)
    [ $# -eq 2 ] || { usage >&2; exit 2; }
    exec "${py[@]}" table "$2" ;;
-*) echo "fuzz_bench.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
esac
[ $# -eq 2 ] || { usage >&2; exit 2; }
fuzz_out=$1 out=$2
[ -n "${FUZZ_BENCH_HARNESSES:-}" ] || {
    echo "fuzz_bench.sh: FUZZ_BENCH_HARNESSES is not set; run it through make fuzz-bench" >&2
    exit 2; }
jobs=${FUZZ_BENCH_JOBS:-2}
common=(--fuzz-out "$fuzz_out" --out "$out" --harnesses "$FUZZ_BENCH_HARNESSES" --jobs "$jobs")

mkdir -p "$out"
if [ "${FUZZ_BENCH_BUGS:-all}" != none ]; then
    "${py[@]}" bugs "${common[@]}" --seconds "${FUZZ_BENCH_SECONDS:-60}" \
        --bugs "${FUZZ_BENCH_BUGS:-all}" --per-bug "${FUZZ_BENCH_PER_BUG:-0}"
fi
if [ "${FUZZ_BENCH_COV:-yes}" != no ]; then
    "${py[@]}" cov "${common[@]}" --cov-seconds "${FUZZ_BENCH_COV_SECONDS:-60}" \
        --cov-interval "${FUZZ_BENCH_COV_INTERVAL:-10}" --targets "${FUZZ_BENCH_COV_TARGETS:-}" \
        --llvm-profdata "${LLVM_PROFDATA:-llvm-profdata}" --llvm-cov "${LLVM_COV:-llvm-cov}"
fi
