#!/bin/bash
# tracecheck with GNU parallel: N shards as N local jobs (or on other
# machines with --sshlogin, the paths the same there), then the merge
# (docs/distributed.md).
#
#   docs/examples/parallel.sh 4 traces/
set -euo pipefail
TRACECHECK=${TRACECHECK:-tracecheck}
OUT=${OUT:-tracecheck-shards}
N=$1
shift
mkdir -p "$OUT"
# Exit status 1 (findings) is the merge's to give: only 2 stops here.
parallel --halt now,fail=1 "$TRACECHECK validate -q -j 1 --shard {}/$N --report json -o $OUT/shard-{}.json $* || [ \$? = 1 ]" ::: $(seq "$N")
exec "$TRACECHECK" report merge -q --report-dir "$OUT/merged" "$OUT"/shard-*.json
