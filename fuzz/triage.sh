#!/bin/bash
# After a fuzz campaign: minimise its corpus, and file each distinct crash or
# hang it found as a regression input. `make fuzz-triage` calls it; see
# docs/fuzzing.md, "Triage".
#
#   triage.sh [OPTIONS] TARGET DIR...
#
# Each DIR is an AFL++ sync directory (instance directories with queue/,
# crashes/, hangs/), a libFuzzer campaign directory (corpus/, artifacts/), or
# a flat directory of libFuzzer corpus inputs and crash-*, timeout-*, oom-*,
# leak-* artifacts.
set -u

usage() {
    cat <<EOF
usage: $0 [OPTIONS] TARGET DIR...

  (a) minimises the corpus of the DIRs (afl-cmin on the AFL++ build when an
      AFL++ queue is among them, libFuzzer -merge=1 otherwise) into
      BIN_DIR/corpus-min/TARGET, and with --promote copies what is new there
      into a seed directory;
  (b) replays every crash and hang (AFL++ crashes/ and hangs/ of every
      instance, libFuzzer crash-/timeout-/oom-/leak- artifacts) with the
      libFuzzer build (the regression driver when there is none) and groups
      them by stack: the sanitizer's kind of error and the top 3 frames of
      the first stack, or the file:line of a failed harness check;
  (c) minimises one reproducer per stack (libFuzzer -minimize_crash=1, up
      to three times, then afl-tmin), keeping a result only if it still
      fails with the same stack;
  (d) files each new one as REGRESSIONS/TARGET-<stack hash>.bin with a
      one-line .note, never replacing a file that is there.

  --bin-dir DIR       the builds: DIR/{libfuzzer,regress,afl}/TARGET (\$BUILD/fuzz)
  --regressions DIR   where to file (default \$TRIAGE_REGRESSIONS, else the
                      harness's format's corpus/FORMAT/regressions, as make
                      fuzz-triage gives it)
  --corpus-min DIR    where the minimised corpus goes (BIN_DIR/corpus-min/TARGET)
  --promote DIR       also copy the minimised inputs that DIR lacks into DIR
  --no-cmin           skip (a)
  --minimizer M       auto (libFuzzer, else afl-tmin), libfuzzer, afl-tmin, none
  --timeout S         seconds before an input counts as a hang (default
                      \$TRIAGE_TIMEOUT, else 10)
  --min-seconds S     time allowed to minimise one reproducer (default
                      \$TRIAGE_MIN_SECONDS, else 60)
  -h, --help          this text

Replay logs and the report are in BIN_DIR/triage/TARGET/.
Exit status: 0 when nothing new was filed (inputs that no longer fail are
listed), 1 when new regressions were filed, 2 on a usage or tool error.
EOF
}

die() { echo "triage: $*" >&2; exit 2; }

bin_dir="" regs=${TRIAGE_REGRESSIONS:-} cmin_out="" promote="" do_cmin=1 minimizer=auto
timeout=${TRIAGE_TIMEOUT:-10} min_secs=${TRIAGE_MIN_SECONDS:-60}
while [ $# -gt 0 ]; do
    case $1 in
    --bin-dir) bin_dir=${2:?}; shift 2 ;;
    --regressions) regs=${2:?}; shift 2 ;;
    --corpus-min) cmin_out=${2:?}; shift 2 ;;
    --promote) promote=${2:?}; shift 2 ;;
    --no-cmin) do_cmin=0; shift ;;
    --minimizer) minimizer=${2:?}; shift 2 ;;
    --timeout) timeout=${2:?}; shift 2 ;;
    --min-seconds) min_secs=${2:?}; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    -*) usage >&2; die "unknown option $1" ;;
    *) break ;;
    esac
done
[ $# -ge 2 ] || { usage >&2; exit 2; }
target=$1
shift
[ -n "$bin_dir" ] || die "--bin-dir is required"
[[ $target =~ ^[A-Za-z0-9_-]+$ ]] || die "bad target name '$target'"
[[ $timeout =~ ^[1-9][0-9]*$ ]] || die "--timeout must be a whole number of seconds"
[[ $min_secs =~ ^[1-9][0-9]*$ ]] || die "--min-seconds must be a whole number of seconds"
root=$(cd "$(dirname "$0")/.." && pwd)
: "${regs:=$root/corpus/common/regressions}"
: "${cmin_out:=$bin_dir/corpus-min/$target}"
lf=$bin_dir/libfuzzer/$target drv=$bin_dir/regress/$target afl=$bin_dir/afl/$target
[ -x "$lf" ] || lf=""
[ -x "$drv" ] || drv=""
[ -x "$afl" ] || afl=""
[ -n "$lf$drv" ] || die "neither $bin_dir/libfuzzer/$target nor $bin_dir/regress/$target is built"
case $minimizer in
auto) if [ -n "$lf" ]; then minimizer=libfuzzer; elif [ -n "$afl" ]; then minimizer="afl-tmin"; else minimizer=none; fi ;;
libfuzzer) [ -n "$lf" ] || die "--minimizer libfuzzer needs $bin_dir/libfuzzer/$target" ;;
afl-tmin) [ -n "$afl" ] || die "--minimizer afl-tmin needs $bin_dir/afl/$target" ;;
none) ;;
*) die "--minimizer is auto, libfuzzer, afl-tmin or none" ;;
esac
mkdir -p "$regs" || die "cannot create $regs"
work=$bin_dir/triage/$target
rm -rf "$work" && mkdir -p "$work/replay" "$work/min" || die "cannot create $work"

# ---- what the directories hold ----
corpus=() crashes=() afl_queue=0
for d in "$@"; do
    [ -d "$d" ] || die "no directory $d"
    if compgen -G "$d/*/queue" >/dev/null; then
        afl_queue=1
        while IFS= read -r -d '' f; do corpus+=("$f"); done \
            < <(find "$d" -mindepth 3 -maxdepth 3 -path '*/queue/id:*' -type f -print0 | sort -z)
        while IFS= read -r -d '' f; do crashes+=("$f"); done \
            < <(find "$d" -mindepth 3 -maxdepth 3 \( -path '*/crashes/id:*' -o -path '*/hangs/id:*' \) \
                -type f -print0 | sort -z)
    else
        cdir=$d adir=$d
        [ -d "$d/corpus" ] && cdir=$d/corpus adir=$d/artifacts
        while IFS= read -r -d '' f; do
            case $(basename "$f") in
            crash-* | timeout-* | oom-* | leak-*) crashes+=("$f") ;;
            slow-unit-* | .*) ;;
            *) [ "$cdir" != "$d" ] || corpus+=("$f") ;;
            esac
        done < <(find "$adir" -maxdepth 1 -type f -print0 2>/dev/null | sort -z)
        if [ "$cdir" != "$d" ]; then
            while IFS= read -r -d '' f; do corpus+=("$f"); done \
                < <(find "$cdir" -maxdepth 1 -type f ! -name '.*' -print0 | sort -z)
        fi
    fi
done
echo "triage: $target: ${#corpus[@]} corpus input(s), ${#crashes[@]} crash/hang input(s) in $*"

# ---- (a) the corpus, minimised ----
if [ "$do_cmin" = 1 ] && [ ${#corpus[@]} -gt 0 ]; then
    pool=$work/pool
    mkdir -p "$pool"
    # One file per distinct content, named by it: queue names repeat across
    # instances, and afl-cmin wants a flat directory.
    for f in "${corpus[@]}"; do
        cp "$f" "$pool/$(sha1sum <"$f" | cut -c1-40)"
    done
    rm -rf "$cmin_out" && mkdir -p "$(dirname "$cmin_out")"
    if [ "$afl_queue" = 1 ] && [ -n "$afl" ]; then
        how="afl-cmin"
        # afl-cmin sets the sanitizer options it needs; ours would clash.
        # It refuses paths under /tmp (predictable names in a shared
        # directory) unless AFL_ALLOW_TMP is set: the directories here are
        # the build directory's, made afresh above, wherever BUILD is.
        env -u ASAN_OPTIONS -u UBSAN_OPTIONS AFL_SKIP_CPUFREQ=1 AFL_NO_AFFINITY=1 AFL_QUIET=1 \
            AFL_ALLOW_TMP=1 \
            afl-cmin -i "$pool" -o "$cmin_out" -m none -t $((timeout * 1000)) -- "$afl" \
            >"$work/cmin.log" 2>&1
        cmin_rc=$?
    elif [ -n "$lf" ]; then
        how="libFuzzer -merge=1"
        mkdir -p "$cmin_out"
        "$lf" -merge=1 -timeout="$timeout" -rss_limit_mb="${FUZZ_RSS_MB:-2048}" \
            -max_len="${FUZZ_MAX_LEN:-8192}" "$cmin_out" "$pool" >"$work/cmin.log" 2>&1
        cmin_rc=$?
    else
        how="" cmin_rc=0
        echo "triage: no AFL++ or libFuzzer build of $target: the corpus is not minimised" >&2
    fi
    if [ -n "$how" ]; then
        if [ "$cmin_rc" -ne 0 ] || [ -z "$(ls -A "$cmin_out" 2>/dev/null)" ]; then
            tail -20 "$work/cmin.log" >&2
            die "$how failed; log: $work/cmin.log"
        fi
        n=$(find "$cmin_out" -type f | wc -l)
        echo "triage: corpus minimised by $how: $(ls "$pool" | wc -l) distinct input(s) -> $n in $cmin_out"
        if [ -n "$promote" ]; then
            mkdir -p "$promote" || die "cannot create $promote"
            declare -A have=()
            while IFS= read -r -d '' f; do have[$(sha1sum <"$f" | cut -c1-40)]=1; done \
                < <(find "$promote" -type f -print0)
            added=0
            while IFS= read -r -d '' f; do
                h=$(sha1sum <"$f" | cut -c1-40)
                [ -n "${have[$h]:-}" ] && continue
                cp "$f" "$promote/cmin-$target-${h:0:16}" && added=$((added + 1))
            done < <(find "$cmin_out" -type f -print0)
            echo "triage: promoted $added new input(s) into $promote"
        fi
    fi
fi

# ---- (b) replay and group by stack ----
# replay FILE LOG: runs FILE through the harness; status 0 when it passed.
replay() {
    if [ -n "$lf" ]; then
        # libFuzzer prints a stack on an abort, a timeout or a deadly signal.
        ASAN_OPTIONS=${ASAN_OPTIONS:-symbolize=1} UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
            timeout -s KILL $((timeout * 3 + 30)) "$lf" -timeout="$timeout" \
            -rss_limit_mb="${FUZZ_RSS_MB:-2048}" "$1" >"$2" 2>&1
    else
        # The driver has no timer: SIGABRT at the deadline, with ASan
        # handling it exclusively (handle_abort=2), prints where it was.
        ASAN_OPTIONS=handle_abort=2:symbolize=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
            timeout -s ABRT "$timeout" "$drv" "$1" >"$2" 2>&1
        local s=$?
        # timeout(1) says 124 when it had to send the signal.
        [ "$s" -eq 124 ] && echo "triage: timeout after $timeout seconds" >>"$2"
        return "$s"
    fi
}

# signature LOG: prints the stack signature (the kind of failure, then the
# frames, or the check's file:line) on one line and the summary on a second.
signature() {
    awk '
    function keep(fn, where) {
        # Frames of the sanitizers, libFuzzer, the C library and the
        # drivers say nothing about the bug.
        if (fn ~ /^(__sanitizer|__asan|__ubsan|__lsan|__interceptor|__interception|___interceptor|fuzzer::|__libc_|__GI_|__pthread|pthread_kill|raise$|abort$|gsignal|_start$|__restore_rt|std::__terminate|__cxa_|__assert_fail|main$|say_which|on_abort|malloc$|calloc$|realloc$|free$|operator new|operator delete|memcpy$|memmove$|memset$|memcmp$|strlen$|strcmp$|bcmp$)/) return 0
        if (where ~ /(libc\.so|libstdc\+\+|ld-linux|compiler-rt|sanitizer_common|\/asan\/|\/ubsan\/|\/fuzzer\/Fuzzer)/) return 0
        return 1
    }
    # A hang is a "timeout" whichever program replayed it, so that both
    # give it the same signature.
    /^triage: timeout after/ { hung = 1 }
    !kind && /fuzz check failed:/ {
        match($0, /[^ :]+:[0-9]+: fuzz check failed/)
        loc = substr($0, RSTART, RLENGTH - 19)
        kind = "fuzz check failed at " loc; summary = substr($0, RSTART, 200); check = 1; next
    }
    !kind && /runtime error:/ {
        match($0, /[^ ]+:[0-9]+:[0-9]+: runtime error: /)
        loc = substr($0, RSTART, RLENGTH - 17)
        kind = "undefined-behavior at " loc; summary = substr($0, RSTART, 200); next
    }
    !kind && /ERROR: (AddressSanitizer|LeakSanitizer|MemorySanitizer|libFuzzer):/ {
        s = $0; sub(/.*ERROR: /, "", s)
        k = s; sub(/ on (unknown )?address.*/, "", k); sub(/ after [0-9]+ seconds.*/, "", k)
        sub(/ \(.*/, "", k); sub(/ at pc .*/, "", k)
        kind = k; summary = substr(s, 1, 200); next
    }
    /^(READ|WRITE) of size/ && kind && !access { access = $1; kind = kind " " access; next }
    /^SUMMARY: / && !final { final = substr($0, 10, 200) }
    kind && !done && /^ *#[0-9]+ 0x[0-9a-f]+ / {
        started = 1
        sub(/ \(BuildId: [0-9a-f]+\)$/, "")
        fn = ""; where = $NF
        if ($3 == "in") { fn = $4; for (i = 5; i < NF; i++) fn = fn " " $i }
        else { fn = $NF }
        if (keep(fn, where) && nframes < 3) frames[++nframes] = fn
        next
    }
    started && !done { done = 1 }
    END {
        if (!kind) { print "unrecognised failure"; print "no sanitizer report or failed check"; exit }
        if (final && !check) summary = final
        if (kind == "libFuzzer: timeout" || hung) { kind = "timeout"; if (summary !~ /timeout/) summary = "timeout: " summary }
        sig = kind
        if (!check) for (i = 1; i <= nframes; i++) sig = sig " | " frames[i]
        print sig
        print summary
    }' "$1" | sed "s|$root/||g"
}

declare -A sig_of=() sum_of=() rep_of=() count_of=()
order=() unreproduced=()
i=0
for f in "${crashes[@]}"; do
    i=$((i + 1))
    log=$work/replay/$i.log
    if replay "$f" "$log"; then
        unreproduced+=("$f")
        continue
    fi
    { read -r sig; read -r summary; } < <(signature "$log")
    h=$(printf '%s' "$sig" | sha1sum | cut -c1-8)
    if [ -z "${sig_of[$h]:-}" ]; then
        order+=("$h")
        sig_of[$h]=$sig sum_of[$h]=$summary rep_of[$h]=$f count_of[$h]=0
    fi
    count_of[$h]=$((count_of[$h] + 1))
    # The smallest input of a stack is the one to minimise.
    [ "$(stat -c %s "$f")" -lt "$(stat -c %s "${rep_of[$h]}")" ] && rep_of[$h]=$f
done

# ---- (c) minimise, (d) file ----
# run_minimiser TOOL IN OUT KIND: OUT is a smaller input that fails somehow.
run_minimiser() {
    local tool=$1 in=$2 out=$3 kind=$4
    rm -f "$out"
    case $tool in
    libfuzzer)
        timeout -s KILL $((min_secs + 60)) "$lf" -minimize_crash=1 -runs=100000 \
            -max_total_time="$min_secs" -timeout="$timeout" -exact_artifact_path="$out" "$in" \
            >"$out.log" 2>&1
        ;;
    afl-tmin)
        local h=()
        [ "$kind" = hang ] && h=(-H)
        env -u ASAN_OPTIONS -u UBSAN_OPTIONS AFL_SKIP_CPUFREQ=1 \
            timeout -s KILL $((min_secs + 60)) afl-tmin "${h[@]}" -i "$in" -o "$out" -m none \
            -t $((timeout * 1000)) -- "$afl" >"$out.log" 2>&1
        ;;
    esac
    [ -f "$out" ]
}

# minimise IN OUT KIND HASH: OUT fails with the stack HASH, as IN does.
# Minimisers keep any failure, not necessarily the one they started from
# (libFuzzer's mutations can turn one bug's input into another's), so each
# result is replayed, and kept only with the same stack. libFuzzer's is
# random: it gets three tries, then afl-tmin (deterministic) one.
minimise() {
    local in=$1 out=$2 kind=$3 hash=$4 tools=() t
    case $minimizer in
    libfuzzer) tools=(libfuzzer libfuzzer libfuzzer) && [ -n "$afl" ] && tools+=(afl-tmin) ;;
    afl-tmin) tools=(afl-tmin) && [ -n "$lf" ] && tools+=(libfuzzer) ;;
    esac
    for t in "${tools[@]}"; do
        run_minimiser "$t" "$in" "$out" "$kind" || continue
        [ "$(stat -c %s "$out")" -le "$(stat -c %s "$in")" ] || continue
        if ! replay "$out" "$out.replay.log" &&
            [ "$(signature "$out.replay.log" | head -1 | tr -d '\n' | sha1sum | cut -c1-8)" = "$hash" ]
        then
            return 0
        fi
        echo "triage: $(basename "$out"): $t's input fails otherwise (${out}.replay.log)" >&2
    done
    return 1
}

filed=() known=()
{
    echo "# fuzz/triage.sh $target $*, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "# stack hash, inputs, size, signature"
} >"$work/report.txt"
for h in "${order[@]}"; do
    name=$target-$h
    kind=crash
    case ${rep_of[$h]} in */hangs/* | */timeout-*) kind=hang ;; esac
    existing=$(compgen -G "$regs/$name.*" | head -1)
    if [ -n "$existing" ]; then
        known+=("$name")
        echo "$h ${count_of[$h]} - ${sig_of[$h]} (already filed: $existing)" >>"$work/report.txt"
        continue
    fi
    best=${rep_of[$h]}
    size0=$(stat -c %s "$best")
    if [ "$minimizer" != none ]; then
        if minimise "$best" "$work/min/$name" "$kind" "$h"; then
            best=$work/min/$name
        else
            echo "triage: $name: not minimised (logs: $work/min/); keeping the original" >&2
        fi
    fi
    # afl-tmin writes its output 0600; a regression input is for everyone.
    cp "$best" "$regs/$name.bin" && chmod 644 "$regs/$name.bin" || die "cannot write $regs/$name.bin"
    printf '%s: %s; stack %s: %s; found by a fuzz campaign (%s), filed by fuzz/triage.sh on %s; open: not fixed yet\n' \
        "$target" "${sum_of[$h]}" "$h" "${sig_of[$h]}" "${rep_of[$h]#"$root"/}" "$(date -u +%Y-%m-%d)" \
        >"$regs/$name.note"
    filed+=("$name")
    echo "$h ${count_of[$h]} $size0->$(stat -c %s "$best") ${sig_of[$h]}" >>"$work/report.txt"
done

# ---- what happened ----
echo "triage: ${#crashes[@]} crash/hang input(s): ${#order[@]} distinct stack(s)," \
    "${#filed[@]} new, ${#known[@]} already filed, ${#unreproduced[@]} did not fail again"
for n in "${filed[@]}"; do
    echo "triage: filed $regs/$n.bin ($(stat -c %s "$regs/$n.bin") bytes)"
    echo "    $(cat "$regs/$n.note")"
done
for n in "${known[@]}"; do echo "triage: already filed: $n"; done
for f in "${unreproduced[@]}"; do echo "triage: did not fail when replayed: $f" >&2; done
echo "triage: report and replay logs in $work"
if [ ${#filed[@]} -gt 0 ]; then
    echo "triage: replay them with $bin_dir/regress/$target $regs/$target-*.bin;" \
        "fix each, then edit its .note (corpus/common/regressions/README.md)" >&2
    exit 1
fi
exit 0
