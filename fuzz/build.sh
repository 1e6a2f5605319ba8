#!/bin/bash -eu
# Builds the fuzz targets the way OSS-Fuzz and ClusterFuzzLite expect: with
# their $CC $CXX $CFLAGS $CXXFLAGS (sanitizer and coverage flags included) and
# their $LIB_FUZZING_ENGINE (libFuzzer, AFL++, honggfuzz, ...), every fuzzer
# in $OUT with its <fuzzer>_seed_corpus.zip, <fuzzer>.dict and
# <fuzzer>.options; objects in $WORK. See docs/fuzzing.md.
#
# The differential target (xray_differential) links LLVM's XRay library from
# LLVM 14 (llvm-config, or $LLVM_CONFIG). It is built when that library is
# there and links with these flags; OSS-Fuzz's own images build C++ against
# libc++, which Debian's LLVM (libstdc++) does not link with, so there it is
# skipped with a message. BUILD_DIFFERENTIAL=0 skips it, =1 makes its failure
# fatal.
#
# Local check (what `make check` does not do):
#   CC=clang CXX=clang++ CFLAGS="-O1 -g -fsanitize=address,fuzzer-no-link" \
#   CXXFLAGS="$CFLAGS" LIB_FUZZING_ENGINE=-fsanitize=fuzzer \
#   OUT=/tmp/out WORK=/tmp/work SRC=/tmp fuzz/build.sh

# The tree: next to this script, or where OSS-Fuzz put it.
root=""
for d in "$(cd "$(dirname "$0")/.." && pwd)" "$PWD" "${SRC:-/src}/tracecheck"; do
    if [ -f "$d/fuzz/xray_parse.c" ]; then
        root=$d
        break
    fi
done
[ -n "$root" ] || { echo "build.sh: cannot find the tracecheck tree" >&2; exit 1; }
cd "$root"

: "${CC:=clang}" "${CXX:=clang++}" "${CFLAGS:=}" "${CXXFLAGS:=}"
: "${LIB_FUZZING_ENGINE:=-fsanitize=fuzzer}"
: "${OUT:?set OUT}" "${WORK:=$OUT/work}"
: "${BUILD_DIFFERENTIAL:=auto}"
obj="$WORK/tracecheck-obj"
mkdir -p "$OUT" "$obj"

cppflags=(-Iinclude -Ispec -D_FILE_OFFSET_BITS=64)
# Static compression libraries when there are any: the runner image that runs
# the fuzzers need not have the shared ones.
libs=()
for l in z bz2 zstd; do
    if [ -f "/usr/lib/x86_64-linux-gnu/lib$l.a" ]; then
        libs+=("/usr/lib/x86_64-linux-gnu/lib$l.a")
    else
        libs+=("-l$l")
    fi
done

# The library: parsers and generators (what the harnesses call).
lib_objs=()
for src in parsers/*/*.c generators/*/*.c \
           fuzz/fuzz_xray.c; do
    o="$obj/$(echo "${src%.c}" | tr / _).o"
    # shellcheck disable=SC2086 # CFLAGS is a list of flags
    $CC "${cppflags[@]}" -std=c11 $CFLAGS -c "$src" -o "$o"
    lib_objs+=("$o")
done

seed_corpus() { # fuzzer: the seed corpus and the regressions, as a flat zip
    rm -f "$OUT/$1_seed_corpus.zip"
    find corpus/xray corpus/regressions -type f ! -name '*.note' ! -name '*.md' \
        ! -name '.*' -print0 | xargs -0 zip -q -j "$OUT/$1_seed_corpus.zip"
}

install_extras() { # fuzzer dict|-
    seed_corpus "$1"
    if [ "$2" != - ]; then
        cp "$2" "$OUT/$1.dict"
    fi
    printf '[libfuzzer]\nmax_len = 8192\n' >"$OUT/$1.options"
}

for f in xray_parse xray_roundtrip; do
    # shellcheck disable=SC2086
    $CC "${cppflags[@]}" -std=c11 $CFLAGS -c "fuzz/$f.c" -o "$obj/$f.o"
    # shellcheck disable=SC2086
    $CXX $CXXFLAGS "$obj/$f.o" "${lib_objs[@]}" $LIB_FUZZING_ENGINE "${libs[@]}" -o "$OUT/$f"
    dict=fuzz/dict/xray.dict
    [ "$f" = xray_roundtrip ] && dict=- # its input is a stream of choices
    install_extras "$f" "$dict"
done

# The differential target, when LLVM 14's XRay library is at hand.
build_differential() {
    local cfg=${LLVM_CONFIG:-}
    [ -n "$cfg" ] || cfg=$(command -v llvm-config-14 || command -v llvm-config || true)
    [ -n "$cfg" ] || { echo "build.sh: no llvm-config: xray_differential skipped"; return 1; }
    local inc libdir
    inc=$("$cfg" --includedir)
    libdir=$("$cfg" --libdir)
    # Static LLVM libraries when present (nothing to install in the runner),
    # else the shared library with its path recorded.
    local llvm_libs
    if [ -f "$libdir/libLLVMXRay.a" ]; then
        llvm_libs="$("$cfg" --link-static --libs xray support) -Wl,--as-needed $("$cfg" --link-static --system-libs) -Wl,--no-as-needed"
    else
        llvm_libs="-Wl,-rpath,$libdir $("$cfg" --libs xray support)"
    fi
    # shellcheck disable=SC2086
    $CXX "${cppflags[@]}" -isystem "$inc" -std=c++17 -fno-exceptions $CXXFLAGS \
        -c fuzz/xray_differential.cc -o "$obj/xray_differential.o" &&
    # shellcheck disable=SC2086
    $CXX $CXXFLAGS "$obj/xray_differential.o" "${lib_objs[@]}" $LIB_FUZZING_ENGINE \
        -L"$libdir" $llvm_libs "${libs[@]}" -o "$OUT/xray_differential" &&
    install_extras xray_differential fuzz/dict/xray.dict
}

if [ "$BUILD_DIFFERENTIAL" != 0 ]; then
    if ! build_differential; then
        [ "$BUILD_DIFFERENTIAL" = 1 ] && exit 1
        echo "build.sh: xray_differential not built (LLVM 14's XRay library does not link here)"
    fi
fi
ls "$OUT"
