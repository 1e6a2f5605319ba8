#!/bin/bash -eu
# Builds every fuzz target of fuzz/fuzz.mk the way OSS-Fuzz and ClusterFuzzLite
# expect: with their $CC $CXX $CFLAGS $CXXFLAGS (sanitizer and coverage flags
# included) and their $LIB_FUZZING_ENGINE (libFuzzer, AFL++, honggfuzz, ...);
# objects in $WORK; in $OUT every fuzzer with its <fuzzer>_seed_corpus.zip,
# <fuzzer>.dict (when it has a dictionary) and <fuzzer>.options. See
# docs/fuzzing.md, "OSS-Fuzz and ClusterFuzzLite".
#
#   fuzz/build.sh            (OSS-Fuzz's and ClusterFuzzLite's build.sh call it)
#   fuzz/build.sh --help
#
# The harnesses, their languages, seed directories and dictionaries, and the
# library sources come from fuzz/fuzz.mk (`make print-fuzz-ossfuzz`): there
# is one list of them, the one `make fuzz` and `make check` use.
#
# The C++ targets (xray_differential) link LLVM's XRay library from LLVM 14
# (llvm-config-14, llvm-config, or $LLVM_CONFIG). They are built when that
# library is there and links with these flags; OSS-Fuzz's images build C++
# against libc++, which Debian's LLVM (libstdc++) does not link with, so there
# they are skipped with a message. BUILD_DIFFERENTIAL=0 skips them, =1 makes
# their failure fatal (default: auto).
#
# cJSON: compiled from source when $CJSON_SRC (default $SRC/cJSON) holds
# cJSON.c and cJSON.h, as .clusterfuzzlite/Dockerfile arranges (instrumented
# with the rest, and no shared library for the runner to lack); else the
# system's. zlib, bzip2 and zstd: their static libraries when installed. A
# library only found shared is copied to $OUT/lib, which the fuzzers' run
# path names, so that $OUT runs where the library is not installed.
#
# Other variables: FUZZ_BUILD_JOBS (compilations at a time, default: the
# number of CPUs).

if [ "${1:-}" = --help ] || [ "${1:-}" = -h ]; then
    sed -n '2,/^$/s/^# \{0,1\}//p' "$0"
    exit 0
fi
[ $# -eq 0 ] || { echo "build.sh: no arguments expected (--help)" >&2; exit 2; }

# The tree: next to this script, or where OSS-Fuzz put it.
root=""
for d in "$(cd "$(dirname "$0")/.." && pwd)" "$PWD" "${SRC:-/src}/tracecheck"; do
    if [ -f "$d/fuzz/fuzz.mk" ] && [ -f "$d/fuzz/xray/xray_parse.c" ]; then
        root=$d
        break
    fi
done
[ -n "$root" ] || { echo "build.sh: cannot find the tracecheck tree" >&2; exit 1; }
cd "$root"

: "${CC:=clang}" "${CXX:=clang++}" "${CFLAGS:=}" "${CXXFLAGS:=}"
: "${LIB_FUZZING_ENGINE:=-fsanitize=fuzzer}"
: "${OUT:?build.sh: set OUT (where the fuzzers go)}" "${WORK:=$OUT/work}"
: "${BUILD_DIFFERENTIAL:=auto}" "${CJSON_SRC:=${SRC:-/src}/cJSON}"
: "${FUZZ_BUILD_JOBS:=$(nproc 2>/dev/null || echo 1)}"
command -v make >/dev/null || { echo "build.sh: make is needed (it reads fuzz/fuzz.mk)" >&2; exit 1; }
command -v zip >/dev/null || { echo "build.sh: zip is needed (seed corpora)" >&2; exit 1; }
obj="$WORK/tracecheck-obj"
rm -rf "$obj"
mkdir -p "$OUT" "$obj"

# ---- what to build, from fuzz/fuzz.mk ----

# A plain make: not the jobserver or variables of a make that runs this script.
plan=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory \
    BUILD="$WORK/make" print-fuzz-ossfuzz) ||
    { echo "build.sh: 'make print-fuzz-ossfuzz' failed" >&2; exit 1; }
library_srcs=() targets=() regressions=() want=() max_len=""
declare -A lang dict seeds extra source
while read -r -a words; do
    case ${words[0]:-} in
        lib) library_srcs+=("${words[@]:1}") ;;
        max_len) max_len=${words[1]} ;;
        regressions) regressions=("${words[@]:1}") ;;
        target)
            t=${words[1]}
            targets+=("$t") lang[$t]=${words[2]} dict[$t]=${words[3]} seeds[$t]=${words[*]:4}
            ;;
        extra) extra[${words[1]}]=${words[*]:2} ;;
        source) source[${words[1]}]=${words[2]} ;;
    esac
done <<<"$plan"
if [ ${#targets[@]} = 0 ] || [ ${#library_srcs[@]} = 0 ] || [ -z "$max_len" ]; then
    echo "build.sh: make print-fuzz-ossfuzz gave no targets or sources:" >&2
    echo "$plan" >&2
    exit 1
fi

# ---- flags and libraries ----

# OSS-Fuzz puts FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION in CFLAGS; defined
# here too so that any $CFLAGS builds what the fuzzers are meant to run.
cppflags=(-Iinclude -Ispec -D_FILE_OFFSET_BITS=64 -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION)
# The fuzz code's own files stay out of the coverage instrumentation that
# guides the fuzzer (fuzz/coverage.ignore says why), when the flags ask for
# such instrumentation and the compiler takes an ignore list.
fuzzcov=()
case " $CFLAGS " in
*-fsanitize=fuzzer*|*-fsanitize-coverage*)
    if echo 'int x;' | $CC $CFLAGS -fsanitize-coverage-ignorelist=fuzz/coverage.ignore \
        -x c -c -o /dev/null - 2>/dev/null; then
        fuzzcov=(-fsanitize-coverage-ignorelist="$root/fuzz/coverage.ignore")
    fi ;;
esac
libs=() shared_libs=() rpath=()

if [ -f "$CJSON_SRC/cJSON.c" ] && [ -f "$CJSON_SRC/cJSON.h" ]; then
    # The harnesses include <cjson/cJSON.h>, as Debian installs it.
    mkdir -p "$obj/include/cjson"
    cp "$CJSON_SRC/cJSON.h" "$obj/include/cjson/"
    cppflags=(-I"$obj/include" "${cppflags[@]}")
    library_srcs+=("$CJSON_SRC/cJSON.c")
    echo "build.sh: cJSON from $CJSON_SRC"
else
    want=(cjson)
fi
# libelf (XRay's --binary) before the compression libraries its static
# archive needs; libstdc++ for __cxa_demangle, always the toolchain's own.
for l in "${want[@]}" elf z bz2 zstd m stdc++; do
    a=$($CC -print-file-name="lib$l.a" 2>/dev/null || true)
    if [ "$l" != m ] && [ "$l" != stdc++ ] && [ "${a#/}" != "$a" ] && [ -f "$a" ]; then
        libs+=("$a")
    else
        libs+=("-l$l")
        [ "$l" != m ] && [ "$l" != stdc++ ] && shared_libs+=("$l")
    fi
done
if [ ${#shared_libs[@]} -gt 0 ]; then
    # shellcheck disable=SC2016 # $ORIGIN is for the dynamic linker
    rpath=('-Wl,-rpath,$ORIGIN/lib')
fi

# ---- compiling: a few at a time, failing loudly ----

pids=() failed=0
spawn() { # command...: run in the background, at most FUZZ_BUILD_JOBS at once
    "$@" &
    pids+=($!)
    if [ ${#pids[@]} -ge "$FUZZ_BUILD_JOBS" ]; then
        wait "${pids[0]}" || failed=1
        pids=("${pids[@]:1}")
    fi
}
wait_all() { # every spawned command, and stop when one failed
    local p
    for p in "${pids[@]}"; do
        wait "$p" || failed=1
    done
    pids=()
    [ $failed = 0 ] || { echo "build.sh: a compilation or link failed (above)" >&2; exit 1; }
}
objname() { echo "$obj/$(echo "${1%.*}" | tr / _).o"; }

# The library once, for every fuzzer (parsers, generators, the harnesses'
# shared helpers).
library_objs=()
for src in "${library_srcs[@]}"; do
    o=$(objname "$src")
    # shellcheck disable=SC2086 # CFLAGS is a list of flags
    spawn $CC "${cppflags[@]}" -std=c11 $CFLAGS "${fuzzcov[@]}" -c "$src" -o "$o"
    library_objs+=("$o")
done
for t in "${targets[@]}"; do
    if [ "${lang[$t]}" = c ]; then
        # shellcheck disable=SC2086
        spawn $CC "${cppflags[@]}" -std=c11 $CFLAGS "${fuzzcov[@]}" -c "${source[$t]}" \
            -o "$obj/fuzz_$t.o"
    fi
done
wait_all

# ---- seed corpora, dictionaries, options ----

seed_corpus() { # fuzzer: its seeds and the regressions, as one flat zip
    local stage="$obj/seeds-$1" f n
    rm -rf "$stage" "$OUT/$1_seed_corpus.zip"
    mkdir -p "$stage"
    # shellcheck disable=SC2086 # a list of directories
    while IFS= read -r -d '' f; do
        n=$(basename "$f")
        # Two seed directories may hold the same name (a DCFG and a
        # DCFG-trace of one seed): the second keeps its directory in its name.
        [ -e "$stage/$n" ] && n=$(dirname "$f" | tr / _)_$n
        cp "$f" "$stage/$n"
    done < <(find ${seeds[$1]} "${regressions[@]}" -type f ! -name '*.note' ! -name '*.md' \
                 ! -name '.*' -print0 | sort -z)
    (cd "$stage" && zip -q -X "$OUT/$1_seed_corpus.zip" -- *)
}

install_extras() { # fuzzer
    local t=$1 d=${dict[$1]}
    seed_corpus "$t"
    {
        echo "[libfuzzer]"
        echo "max_len = $max_len"
        if [ "$d" != - ]; then
            cp "$d" "$OUT/$t.dict"
            echo "dict = $t.dict"
        fi
    } >"$OUT/$t.options"
}

copy_shared_libs() { # fuzzer: the shared libraries it needs that $OUT/lib lacks
    local l so real soname
    [ ${#shared_libs[@]} -gt 0 ] || return 0
    mkdir -p "$OUT/lib"
    for l in "${shared_libs[@]}"; do
        so=$($CC -print-file-name="lib$l.so")
        [ -e "$so" ] || continue # found elsewhere by the linker: left alone
        real=$(readlink -f "$so")
        soname=$(objdump -p "$real" 2>/dev/null | awk '$1 == "SONAME" { print $2 }')
        [ -n "$soname" ] && [ ! -e "$OUT/lib/$soname" ] && cp "$real" "$OUT/lib/$soname"
    done
    return 0
}

# ---- the C fuzzers ----

link_c() { # fuzzer
    # Linked by the C++ driver: $LIB_FUZZING_ENGINE may need its runtime.
    # shellcheck disable=SC2086
    $CXX $CXXFLAGS "$obj/fuzz_$1.o" "${library_objs[@]}" $LIB_FUZZING_ENGINE "${libs[@]}" \
        "${rpath[@]}" -o "$OUT/$1" && install_extras "$1"
}

built=()
for t in "${targets[@]}"; do
    [ "${lang[$t]}" = c ] || continue
    spawn link_c "$t"
    built+=("$t")
done
wait_all
copy_shared_libs

# ---- the C++ (differential) fuzzers, when LLVM 14's XRay library is at hand ----

build_cxx() { # fuzzer
    local t=$1 cfg=${LLVM_CONFIG:-}
    [ -n "$cfg" ] || cfg=$(command -v llvm-config-14 || command -v llvm-config || true)
    [ -n "$cfg" ] || { echo "build.sh: no llvm-config"; return 1; }
    local inc libdir llvm_libs
    inc=$("$cfg" --includedir) && libdir=$("$cfg" --libdir) || return 1
    # Static LLVM libraries when present (nothing to install in the runner),
    # else the shared library with its path recorded.
    if [ -f "$libdir/libLLVMXRay.a" ]; then
        llvm_libs="$("$cfg" --link-static --libs xray support) -Wl,--as-needed $("$cfg" --link-static --system-libs) -Wl,--no-as-needed"
    else
        llvm_libs="-Wl,-rpath,$libdir $("$cfg" --libs xray support)"
    fi
    local src objs=("$obj/fuzz_$t.o")
    # shellcheck disable=SC2086 # lists of flags
    $CXX "${cppflags[@]}" -isystem "$inc" -std=c++17 -fno-exceptions $CXXFLAGS "${fuzzcov[@]}" \
        -c "${source[$t]}" -o "$obj/fuzz_$t.o" || return 1
    # Its own sources (fuzz.mk's FUZZ_EXTRA_<target>).
    for src in ${extra[$t]:-}; do
        # shellcheck disable=SC2086 # lists of flags
        $CXX "${cppflags[@]}" -isystem "$inc" -std=c++17 -fno-exceptions $CXXFLAGS \
            "${fuzzcov[@]}" -c "$src" -o "$(objname "$src")" || return 1
        objs+=("$(objname "$src")")
    done
    # shellcheck disable=SC2086 # lists of flags
    $CXX $CXXFLAGS "${objs[@]}" "${library_objs[@]}" $LIB_FUZZING_ENGINE \
        -L"$libdir" $llvm_libs "${libs[@]}" "${rpath[@]}" -o "$OUT/$t" || return 1
    install_extras "$t"
}

for t in "${targets[@]}"; do
    [ "${lang[$t]}" = c++ ] || continue
    if [ "$BUILD_DIFFERENTIAL" = 0 ]; then
        echo "build.sh: $t skipped (BUILD_DIFFERENTIAL=0)"
    elif build_cxx "$t"; then
        built+=("$t")
    else
        rm -f "$OUT/$t"
        [ "$BUILD_DIFFERENTIAL" = 1 ] && { echo "build.sh: $t failed to build" >&2; exit 1; }
        echo "build.sh: $t skipped (LLVM 14's XRay library does not link here)"
    fi
done

echo "build.sh: ${#built[@]} of ${#targets[@]} fuzzers in $OUT: ${built[*]}"
