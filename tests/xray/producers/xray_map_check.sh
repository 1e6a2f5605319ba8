#!/usr/bin/env bash
# tracecheck's reading of a program's XRay instrumentation map against
# LLVM's own (make check-producers-xray-clang-N runs it for every clang
# Debian 12 ships: tests/xray/producers/producers.mk).
#
#   tests/xray/producers/xray_map_check.sh VERSION XRAY_MAP APP APP_TYPED OUTDIR
#
# XRAY_MAP is tests/xray/producers/xray_map.c (the map as libtracecheck reads it
# for --binary); APP and APP_TYPED are the producer built by clang VERSION
# without and with typed-event sleds. For each, the (id, address, function,
# kind) set XRAY_MAP prints must be the one `llvm-xray-VERSION extract`
# prints. llvm-xray 14 and later refuse a map with typed-event sleds; that
# binary is then compared with nothing, and the line says so. Where the
# compiler wrote xray_fn_idx (the runtime's function ids), its entry count
# must equal llvm-xray's count of sled groups. The last line of each binary
# gives the measured facts: sled versions, xray_fn_idx layout, counts.
#
# Environment: LLVM_XRAY (default llvm-xray-VERSION).
set -euo pipefail
export LC_ALL=C

if [ $# -ne 5 ]; then
    echo "usage: $0 VERSION XRAY_MAP APP APP_TYPED OUTDIR" >&2
    exit 2
fi
VERSION=$1
XRAY_MAP=$2
OUT=$5
LLVM_XRAY=${LLVM_XRAY:-llvm-xray-$VERSION}
me="producers/xray-map: clang $VERSION"
mkdir -p "$OUT"

for bin in "$3" "$4"; do
    name=$(basename "$bin")
    mine=$OUT/$name.tracecheck-map.txt
    theirs=$OUT/$name.llvm-xray-extract.yaml
    "$XRAY_MAP" "$bin" > "$mine" 2> "$OUT/$name.tracecheck-map.stderr" || {
        echo "$me: FAIL: $name: tracecheck cannot read the instrumentation map:" >&2
        cat "$OUT/$name.tracecheck-map.stderr" >&2
        exit 1
    }
    read -r _ _ sleds _ functions _ groups _ layout _ versions < "$mine"
    if [ "$layout" != none ] && [ "$functions" -ne "$groups" ]; then
        echo "$me: FAIL: $name: xray_fn_idx has $functions entries (the runtime's function ids), the sleds $groups groups (llvm-xray's ids)" >&2
        exit 1
    fi
    facts="$sleds sleds, sled version $versions, xray_fn_idx $layout, $functions functions"
    if ! "$LLVM_XRAY" extract "$bin" > "$theirs" 2> "$OUT/$name.llvm-xray-extract.stderr"; then
        if [ "$name" = "$(basename "$4")" ]; then
            echo "$me: $name: $LLVM_XRAY extract refuses the map (typed-event sleds): SKIPPED the comparison; $facts"
            continue
        fi
        echo "$me: FAIL: $name: $LLVM_XRAY extract cannot read the map:" >&2
        cat "$OUT/$name.llvm-xray-extract.stderr" >&2
        exit 1
    fi
    # "ID ADDRESS FUNCTION KIND", addresses in lower-case hex, from both.
    # llvm-xray 13 reads typed-event sleds (kind 5) but has no name for
    # their kind ("kind: ,"): that is taken as typed-event, and said.
    sed -n 's/^- { id: \([0-9]*\), address: 0x\([0-9A-Fa-f]*\), function: 0x\([0-9A-Fa-f]*\), kind: \([a-z-]*\),.*/\1 0x\2 0x\3 \4/p' \
        "$theirs" | tr 'A-F' 'a-f' | awk 'NF == 3 { $4 = "typed-event" } { print }' |
        sort > "$OUT/$name.llvm-xray.set"
    unnamed=$(grep -c 'kind: ,' "$theirs" || true)
    [ "$unnamed" -eq 0 ] || facts="$facts ($LLVM_XRAY names no kind for its $unnamed typed-event sleds)"
    grep -v '^#' "$mine" | awk '{ print $1, $2, $3, $4 }' | sort > "$OUT/$name.tracecheck.set"
    if [ ! -s "$OUT/$name.llvm-xray.set" ]; then
        echo "$me: FAIL: $name: no sled read from $LLVM_XRAY extract's output ($theirs)" >&2
        exit 1
    fi
    if ! diff "$OUT/$name.llvm-xray.set" "$OUT/$name.tracecheck.set" > "$OUT/$name.diff"; then
        echo "$me: FAIL: $name: tracecheck's map and $LLVM_XRAY extract's differ (< llvm-xray, > tracecheck):" >&2
        head -20 "$OUT/$name.diff" >&2
        exit 1
    fi
    echo "$me: $name: the same $(wc -l < "$OUT/$name.tracecheck.set") sleds (id, address, function, kind) as $LLVM_XRAY extract; $facts"
done
