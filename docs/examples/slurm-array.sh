#!/bin/bash
# tracecheck over a Slurm job array: each task validates one shard of the
# traces and writes its JSON report; a job that depends on the array merges
# them into every report kind (docs/distributed.md).
#
#   sbatch --array=1-8 docs/examples/slurm-array.sh traces/
#
# The same script is the merge step when run with MERGE=1 (submitted by the
# first task below, once the whole array is done).
#SBATCH --job-name=tracecheck
#SBATCH --cpus-per-task=4
#SBATCH --output=tracecheck-%A_%a.out
set -euo pipefail

TRACECHECK=${TRACECHECK:-tracecheck}
OUT=${OUT:-tracecheck-shards}  # the shards' reports, on a shared file system
mkdir -p "$OUT"

if [ "${MERGE:-0}" = 1 ]; then
    # Every report of one run over all the traces, and its exit status.
    exec "$TRACECHECK" report merge -q --report-dir "$OUT/merged" "$OUT"/shard-*.json
fi

K=$SLURM_ARRAY_TASK_ID
N=$SLURM_ARRAY_TASK_COUNT
# Exit status 1 (findings) must not stop the array: the merge says it.
status=0
"$TRACECHECK" validate -q -j "${SLURM_CPUS_PER_TASK:-1}" --shard "$K/$N" \
    --report json -o "$OUT/shard-$K.json" "$@" || status=$?
[ "$status" -le 1 ] || exit "$status"

# The first task queues the merge, to start when every task has ended.
if [ "$K" = "${SLURM_ARRAY_TASK_MIN:-1}" ] && [ -n "${SLURM_ARRAY_JOB_ID:-}" ]; then
    sbatch --dependency="afterany:$SLURM_ARRAY_JOB_ID" --job-name=tracecheck-merge \
        --export=ALL,MERGE=1,OUT="$OUT",TRACECHECK="$TRACECHECK" "$0"
fi
