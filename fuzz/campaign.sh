#!/bin/bash
# A fuzz campaign of one harness over several cores (and hosts), and its
# status. `make fuzz-campaign` and `make fuzz-status` call it; see
# docs/fuzzing.md, "Running a campaign".
#
#   campaign.sh [OPTIONS] TARGET
#   campaign.sh --status SYNC_DIR
#
# AFL++ (the default engine): fuzz/afl-run.sh runs a main instance with the
# CmpLog build and JOBS-1 secondaries with varied settings, half of them on
# the UBSan-only build, all in one sync directory; at the end (or when
# stopped) afl-whatsup sums up the whole directory. libFuzzer: fuzz/
# libfuzzer-run.sh in fork mode (-fork=JOBS), going on past crashes, with
# the corpus and the artifacts in the sync directory.
set -u

usage() {
    cat <<EOF
usage: $0 [OPTIONS] TARGET
       $0 --status SYNC_DIR

Runs a fuzz campaign of the harness TARGET, whose builds are under
BIN_DIR/{afl,aflcmplog,aflubsan,libfuzzer}/TARGET (make fuzz-campaign builds
them), or prints the state of a campaign's sync directory.

  --engine afl|libfuzzer  the engine (default afl)
  --bin-dir DIR           where the builds are (\$BUILD/fuzz)
  --sync-dir DIR          the campaign's directory, shared by its instances
                          and hosts; an existing one is resumed
  --seeds DIR             seed inputs (repeatable; AFL++ takes the first)
  --dict FILE|-           dictionary (default: none)
  --jobs N                fuzzer processes on this host (default 1)
  --duration T            how long: 90, 90s, 30m, 1.5h (default 1h)
  --host-id ID            names this host's instances ID-s1, ID-s2, ... so
                          that several hosts share one sync directory; a
                          host with an id runs no AFL++ main instance
  --main                  run the AFL++ main instance even with --host-id
  --status                print afl-whatsup -s -d (AFL++) or the corpus and
                          artifacts (libFuzzer) of SYNC_DIR, and exit
  -h, --help              this text

SIGINT or SIGTERM stops every instance cleanly; the summary follows.
Exit status: 0, 1 when something was found or an instance failed, 2 on a
usage error.
EOF
}

die() { echo "campaign: $*" >&2; exit 2; }

# afl-whatsup -s -d: the summary, with stopped instances (and, from here, all
# those of other hosts, whose processes it cannot see) counted. Without a
# terminal its tput calls complain: those lines go.
whatsup() {
    afl-whatsup -s -d "$1" 2>&1 | grep -v '^tput: '
}

status() { # SYNC_DIR: what afl-whatsup or libFuzzer's files say
    local dir=$1
    [ -d "$dir" ] || die "no sync directory $dir"
    if compgen -G "$dir/*/fuzzer_stats" >/dev/null; then
        echo "campaign: AFL++ sync directory $dir"
        whatsup "$dir"
        local found
        found=$(find "$dir" -path '*/crashes/id:*' -o -path '*/hangs/id:*' | wc -l)
        echo "campaign: $found crash and hang input(s) saved; triage: make fuzz-triage SYNC_DIR=$dir TARGET=..."
    elif [ -d "$dir/corpus" ]; then
        echo "campaign: libFuzzer campaign directory $dir"
        echo "  corpus: $(find "$dir/corpus" -type f | wc -l) inputs," \
            "$(du -sk "$dir/corpus" | cut -f1) KiB"
        local a
        for a in crash timeout oom leak slow-unit; do
            echo "  $a-*: $(find "$dir/artifacts" -name "$a-*" -type f 2>/dev/null | wc -l)"
        done
        local log
        for log in "$dir"/fuzz*.log; do
            [ -f "$log" ] || continue
            echo "  $(basename "$log"): $(grep -E '^#[0-9]+: cov:|^#[0-9]+[[:space:]]' "$log" | tail -1)"
        done
    else
        die "$dir is neither an AFL++ sync directory (*/fuzzer_stats) nor a libFuzzer campaign (corpus/)"
    fi
}

seconds_of() { # 90 | 90s | 30m | 1.5h -> whole seconds, at least 1
    local t=$1 unit=1
    case $t in
    *h) unit=3600 t=${t%h} ;;
    *m) unit=60 t=${t%m} ;;
    *s) t=${t%s} ;;
    esac
    [[ $t =~ ^[0-9]+(\.[0-9]+)?$|^\.[0-9]+$ ]] || die "bad duration '$1' (90, 90s, 30m, 1.5h)"
    awk -v t="$t" -v u="$unit" 'BEGIN { s = int(t * u + 0.5); print (s < 1 ? 1 : s) }'
}

engine=afl bin_dir="" sync="" seeds=() dict=- jobs=1 duration=1h host="" main="" do_status=0
while [ $# -gt 0 ]; do
    case $1 in
    --engine) engine=${2:?}; shift 2 ;;
    --bin-dir) bin_dir=${2:?}; shift 2 ;;
    --sync-dir) sync=${2:?}; shift 2 ;;
    --seeds) seeds+=("${2:?}"); shift 2 ;;
    --dict) dict=${2:?}; shift 2 ;;
    --jobs) jobs=${2:?}; shift 2 ;;
    --duration) duration=${2:?}; shift 2 ;;
    --host-id) host=${2:?}; shift 2 ;;
    --main) main=1; shift ;;
    --status) do_status=1; shift ;;
    -h | --help) usage; exit 0 ;;
    -*) usage >&2; die "unknown option $1" ;;
    *) break ;;
    esac
done

if [ "$do_status" = 1 ]; then
    [ $# -eq 1 ] || { usage >&2; exit 2; }
    status "$1"
    exit 0
fi
[ $# -eq 1 ] || { usage >&2; exit 2; }
target=$1
[ -n "$bin_dir" ] || die "--bin-dir is required"
[ -n "$sync" ] || die "--sync-dir is required"
[ ${#seeds[@]} -gt 0 ] || die "--seeds is required"
[[ $jobs =~ ^[1-9][0-9]*$ ]] || die "--jobs must be a positive number, not '$jobs'"
[ -z "$host" ] || [[ $host =~ ^[A-Za-z0-9_]+$ ]] || die "--host-id must match [A-Za-z0-9_]+"
secs=$(seconds_of "$duration") || exit 2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$sync" || die "cannot create $sync"

# The scripts below stop their fuzzers on a signal; this one passes the
# signal on and waits for them, so that the summary still comes.
child=""
forward() { [ -n "$child" ] && kill -TERM "$child" 2>/dev/null; }
trap forward INT TERM
run() {
    "$@" &
    child=$!
    wait "$child"
    local s=$?
    while [ "$s" -gt 128 ] && kill -0 "$child" 2>/dev/null; do
        wait "$child"
        s=$?
    done
    return "$s"
}

case $engine in
afl)
    bin=$bin_dir/afl/$target cmplog=$bin_dir/aflcmplog/$target alt=$bin_dir/aflubsan/$target
    for b in "$bin" "$cmplog" "$alt"; do
        [ -x "$b" ] || die "no program $b (make fuzz-campaign builds it)"
    done
    # Text formats get -a text where afl-fuzz has -a (AFL++ 4.10 and later).
    kind=binary
    case $target in json_tokens | ovni_meta | dcfg_parse | dtrc_parse) kind=text ;; esac
    echo "campaign: $target, AFL++, $jobs instance(s)${host:+ on host $host}, ${secs}s, sync directory $sync"
    run env AFL_RUN_VARIED=1 AFL_RUN_ALT_BINARY="$alt" AFL_RUN_HOST_ID="$host" \
        ${main:+AFL_RUN_MAIN=1} AFL_RUN_INPUT_KIND=$kind \
        "$here/afl-run.sh" "$bin" "$secs" "${seeds[0]}" "$sync" "$jobs" "$dict" "$cmplog"
    rc=$?
    echo "campaign: afl-whatsup -s -d $sync"
    whatsup "$sync"
    ;;
libfuzzer)
    bin=$bin_dir/libfuzzer/$target
    [ -x "$bin" ] || die "no program $bin (make fuzz-campaign ENGINE=libfuzzer builds it)"
    echo "campaign: $target, libFuzzer fork mode, $jobs job(s)${host:+ on host $host}, ${secs}s, sync directory $sync"
    run env FUZZ_KEEP_GOING=1 FUZZ_LOG="$sync/fuzz${host:+-$host}.log" \
        "$here/libfuzzer-run.sh" "$bin" "$secs" "$sync/corpus" "$sync/artifacts" "$jobs" \
        "$dict" "${seeds[@]}"
    rc=$?
    status "$sync"
    ;;
*)
    die "--engine is afl or libfuzzer, not '$engine'"
    ;;
esac
[ "$rc" -ne 0 ] && echo "campaign: to file what was found: make fuzz-triage TARGET=$target SYNC_DIR=$sync" >&2
exit "$rc"
