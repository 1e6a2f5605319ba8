#!/bin/bash
# make check's check-fuzz-ossfuzz (docs/fuzzing.md, "OSS-Fuzz and
# ClusterFuzzLite"): runs fuzz/build.sh with the environment OSS-Fuzz gives
# it for a libFuzzer + AddressSanitizer build, then checks what lands in $OUT
# against fuzz/fuzz.mk and runs every fuzzer once over its seed corpus.
#
#   fuzz/ossfuzz-check.sh DIR      DIR/out, DIR/work, DIR/src, DIR/build.log
#
# Checked, for every harness of FUZZ_TARGETS (the C++ differential one only
# when build.sh did not skip it, which is said): the fuzzer is in $OUT under a
# name OSS-Fuzz accepts ([A-Za-z0-9_-]+); <fuzzer>_seed_corpus.zip passes
# `unzip -t`, is flat and holds exactly the harness's seeds and the
# regressions; <fuzzer>.dict is there exactly when the harness has a
# dictionary, equals it, and every line that is not a comment is a quoted
# string or name="..."; <fuzzer>.options has a [libfuzzer] section with
# max_len = FUZZ_MAX_LEN and the dictionary; nothing else is in $OUT (but
# lib/); a harness that defines LLVMFuzzerCustomMutator exports it; the fuzzer
# runs its seed corpus (-runs=0, with its options) and exits 0. Then
# fuzz/cflite-check.py checks .clusterfuzzlite/ and the workflows.
set -u

usage() { sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; }
if [ "${1:-}" = --help ] || [ "${1:-}" = -h ]; then
    usage
    exit 0
fi
[ $# -eq 1 ] || { usage >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mkdir -p "$1" && cd "$1" && pwd) || exit 1
cd "$root" || exit 1
start=$SECONDS
fails=0
fail() { echo "check-fuzz-ossfuzz: $*" >&2; fails=$((fails + 1)); }

# What OSS-Fuzz's base-builder sets for `compile` with libFuzzer and ASan.
export CC=clang CXX=clang++
export CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
export CXXFLAGS="$CFLAGS"
export LIB_FUZZING_ENGINE=-fsanitize=fuzzer SANITIZER=address FUZZING_ENGINE=libfuzzer
export ARCHITECTURE=x86_64 OUT=$dir/out WORK=$dir/work SRC=$dir/src
rm -rf "$OUT" "$WORK" "$SRC" "$dir/seeds"
mkdir -p "$OUT" "$WORK" "$SRC" "$dir/seeds"

if ! fuzz/build.sh >"$dir/build.log" 2>&1; then
    tail -n 30 "$dir/build.log" >&2
    echo "check-fuzz-ossfuzz: fuzz/build.sh failed (log: $dir/build.log)" >&2
    exit 1
fi
build_secs=$((SECONDS - start))

plan=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory \
    BUILD="$WORK/make" print-fuzz-ossfuzz) || { echo "check-fuzz-ossfuzz: make print-fuzz-ossfuzz failed" >&2; exit 1; }
max_len=$(awk '$1 == "max_len" { print $2 }' <<<"$plan")
regressions=$(awk '$1 == "regressions" { $1 = ""; print }' <<<"$plan")

# A libFuzzer dictionary line: a comment, blank, or ["name="]"escaped bytes".
dict_ok() {
    awk '/^[ \t]*(#|$)/ { next }
         !/^[ \t]*([A-Za-z0-9_]+[ \t]*=[ \t]*)?"([^"\\]|\\[\\"]|\\x[0-9A-Fa-f][0-9A-Fa-f])*"[ \t]*$/ {
             printf "line %d: %s\n", NR, $0; bad = 1 }
         END { exit bad }' "$1"
}

expected=() checked=0
while read -r kind t lang dict seeds; do
    [ "$kind" = target ] || continue
    if [ ! -e "$OUT/$t" ]; then
        if [ "$lang" = c++ ] && grep -q "^build.sh: $t skipped" "$dir/build.log"; then
            echo "check-fuzz-ossfuzz: $t not checked: $(grep -m1 "^build.sh: $t skipped" "$dir/build.log" | sed 's/^build.sh: //')"
            continue
        fi
        fail "$t: no fuzzer in \$OUT"
        continue
    fi
    expected+=("$t")
    [[ $t =~ ^[A-Za-z0-9_-]+$ ]] || fail "$t: not a name OSS-Fuzz accepts"
    [ -x "$OUT/$t" ] || fail "$t: not executable"

    # The seed corpus: sound, flat, exactly the seeds and the regressions.
    zip="$OUT/${t}_seed_corpus.zip"
    # shellcheck disable=SC2086 # lists of directories
    want=$(find $seeds $regressions -type f ! -name '*.note' ! -name '*.md' ! -name '.*' | wc -l)
    if [ ! -s "$zip" ]; then
        fail "$t: no seed corpus ${t}_seed_corpus.zip"
    elif ! unzip -tq "$zip" >/dev/null; then
        fail "$t: ${t}_seed_corpus.zip fails unzip -t"
    else
        names=$(zipinfo -1 "$zip")
        [ "$(grep -c / <<<"$names")" = 0 ] || fail "$t: ${t}_seed_corpus.zip is not flat"
        got=$(grep -c . <<<"$names")
        [ "$got" = "$want" ] || fail "$t: ${t}_seed_corpus.zip holds $got inputs, its seeds and the regressions are $want"
        mkdir -p "$dir/seeds/$t" && unzip -q -o "$zip" -d "$dir/seeds/$t"
    fi

    # The dictionary, when the harness has one.
    if [ "$dict" = - ]; then
        [ ! -e "$OUT/$t.dict" ] || fail "$t: has no dictionary, but $t.dict is in \$OUT"
    elif ! cmp -s "$dict" "$OUT/$t.dict"; then
        fail "$t: $t.dict is missing or differs from $dict"
    elif ! msg=$(dict_ok "$OUT/$t.dict"); then
        fail "$t: $t.dict does not parse: $msg"
    fi

    # The options: [libfuzzer], max_len, the dictionary.
    opts="$OUT/$t.options"
    run_args=()
    if [ ! -f "$opts" ]; then
        fail "$t: no $t.options"
    else
        [ "$(grep -v '^[[:space:]]*\(#\|;\|$\)' "$opts" | head -n 1)" = "[libfuzzer]" ] ||
            fail "$t: $t.options does not start with [libfuzzer]"
        while IFS='=' read -r k v; do
            k=${k//[[:space:]]/} v=${v//[[:space:]]/}
            case $k in
                ''|'#'*|';'*|'[libfuzzer]') ;;
                max_len) [ "$v" = "$max_len" ] || fail "$t: $t.options: max_len = $v, FUZZ_MAX_LEN is $max_len"
                         run_args+=(-max_len="$v") ;;
                dict) if [ "$dict" = - ] || [ "$v" != "$t.dict" ]; then fail "$t: $t.options: dict = $v"; fi
                      run_args+=(-dict="$OUT/$v") ;;
                *) fail "$t: $t.options: unexpected '$k'" ;;
            esac
        done <"$opts"
        grep -q '^max_len = ' "$opts" || fail "$t: $t.options has no max_len"
        [ "$dict" = - ] || grep -q "^dict = $t.dict\$" "$opts" || fail "$t: $t.options does not name $t.dict"
    fi

    # A structure-aware harness keeps its mutator in the OSS-Fuzz build
    # (libFuzzer calls it; AFL++'s library is a local extra). Harnesses
    # define both hooks with the kit's HX_CUSTOM_MUTATOR (fuzz/common/harness.h).
    src=$(awk -v t="$t" '$1 == "source" && $2 == t { print $3 }' <<<"$plan")
    for hook in LLVMFuzzerCustomMutator LLVMFuzzerCustomCrossOver; do
        if grep -q "^[a-z_ ]*$hook(\|^HX_CUSTOM_MUTATOR(" "$src" &&
            ! nm --defined-only "$OUT/$t" | grep -q " T $hook\$"; then
            fail "$t: $src defines $hook, the fuzzer does not"
        fi
    done

    # It runs: its seed corpus once, with its options, as the fuzzing
    # infrastructure would start it.
    log="$dir/seeds/$t.log"
    if ! timeout 120 "$OUT/$t" -runs=0 "${run_args[@]}" "$dir/seeds/$t" >"$log" 2>&1; then
        tail -n 15 "$log" >&2
        fail "$t: '$OUT/$t -runs=0 ${run_args[*]} $dir/seeds/$t' failed (log: $log)"
    elif ! grep -q "INITED" "$log"; then
        fail "$t: libFuzzer did not start on the seed corpus (log: $log)"
    fi
    checked=$((checked + 1))
done <<<"$plan"

# Nothing else in $OUT: OSS-Fuzz takes every executable there for a fuzzer.
for f in "$OUT"/*; do
    n=$(basename "$f")
    case $n in
        lib) continue ;;
        *_seed_corpus.zip) b=${n%_seed_corpus.zip} ;;
        *.dict|*.options) b=${n%.*} ;;
        *) b=$n ;;
    esac
    [[ " ${expected[*]} " == *" $b "* ]] || fail "\$OUT holds $n, which belongs to no fuzzer of FUZZ_TARGETS"
done

python3 fuzz/cflite-check.py "$root" || fails=$((fails + 1))

if [ "$fails" -gt 0 ]; then
    echo "check-fuzz-ossfuzz: $fails problem(s); \$OUT is $OUT" >&2
    exit 1
fi
echo "check-fuzz-ossfuzz: $checked fuzzers in \$OUT with seed corpora, dictionaries and options;" \
    "each ran its seeds (build ${build_secs}s, all $((SECONDS - start))s)"
