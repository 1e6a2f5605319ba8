#!/bin/bash -eu
# ClusterFuzzLite's build step: fuzz/build.sh builds every harness of
# fuzz/fuzz.mk into $OUT (docs/fuzzing.md, "OSS-Fuzz and ClusterFuzzLite").
exec "$SRC/tracecheck/fuzz/build.sh"
