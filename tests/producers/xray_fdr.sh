#!/usr/bin/env bash
# Real XRay FDR traces in the loop (make check-producers-xray).
#
#   tests/producers/xray_fdr.sh TRACECHECK APP APP_NOTYPED OUTDIR
#
# APP is tests/producers/xray_fdr_app.cc built with clang's XRay flags,
# APP_NOTYPED the same without typed-event sleds (so that llvm-xray can read
# its instrumentation map). Every run writes its trace, the producer's log,
# tracecheck's report and dump, and llvm-xray's output into OUTDIR/CASE/.
#
# Cases:
#   fdr        several threads, several buffers each, logged call arguments and
#              custom events: tracecheck finds nothing (no error, no warning),
#              the canonical dump holds what the program did, and llvm-xray
#              (fdr-dump --verify, convert --output-format=yaml) accepts the
#              same file and decodes the same records.
#   full-N     tiny buffers and a tiny buffer count: the runtime's buffer queue
#              runs out and recording stops; the trace is still valid.
#   typed      typed events: compiler-rt's FDR runtime leaves each typed event's
#              16-byte marker out of BufferExtents, so tracecheck must reject the
#              trace with XRAY-RECORD-PAST-EXTENTS, naming that runtime bug,
#              and with nothing else.
#
# Environment: LLVM_XRAY (default llvm-xray).
set -euo pipefail

if [ $# -ne 4 ]; then
    echo "usage: $0 TRACECHECK APP APP_NOTYPED OUTDIR" >&2
    exit 2
fi
TRACECHECK=$1
APP=$2
APP_NOTYPED=$3
OUT=$4
LLVM_XRAY=${LLVM_XRAY:-llvm-xray}

THREADS=4
CALLS=2000          # per thread; about 90 buffers of 4096 bytes per thread
BUFFER_SIZE=4096
MIN_BUFFERS=4       # "several buffers per thread"
EVENT_EVERY=64      # the program logs one event every 64 iterations
EVENTS_PER_THREAD=$(( (CALLS + EVENT_EVERY - 1) / EVENT_EVERY ))
# hex of "iteration ", the start of every event payload the program writes
PAYLOAD_HEX_PREFIX=697465726174696f6e20

me=producers/xray
case_name=
case_dir=

for tool in "$TRACECHECK" "$APP" "$APP_NOTYPED"; do
    [ -x "$tool" ] || { echo "$me: FAIL: $tool is missing or not executable" >&2; exit 1; }
done
command -v "$LLVM_XRAY" >/dev/null ||
    { echo "$me: FAIL: $LLVM_XRAY not found (Debian package llvm; run 'make deps')" >&2; exit 1; }

# show FILE: a file's content, indented, at most SHOW_LINES lines.
SHOW_LINES=40
show() {
    local n
    n=$(wc -l < "$1")
    echo "  --- $1 ---" >&2
    sed -n "1,${SHOW_LINES}s/^/  | /p" "$1" >&2
    if [ "$n" -gt "$SHOW_LINES" ]; then
        echo "  | ... ($((n - SHOW_LINES)) more lines in $1)" >&2
    fi
}

# fail MESSAGE [FILE...]: report, show the files, stop.
fail() {
    local msg=$1
    shift
    echo "$me: FAIL: $case_name: $msg" >&2
    local f
    for f in "$@"; do
        [ -f "$f" ] && show "$f"
    done
    echo "$me: the case's files are in $case_dir/" >&2
    exit 1
}

# count PATTERN FILE: number of lines matching the basic regular expression.
count() {
    grep -c -- "$1" "$2" || true
}

# begin CASE: a fresh directory for the case.
begin() {
    case_name=$1
    case_dir=$OUT/$1
    rm -rf "$case_dir"
    mkdir -p "$case_dir"
}

# produce BINARY ARGS...: run the producer; sets TRACE to the file it wrote.
produce() {
    local bin=$1 rc=0
    shift
    echo "$bin $*" > "$case_dir/producer.log"
    XRAY_OPTIONS="xray_logfile_base=$case_dir/trace-" "$bin" "$@" >> "$case_dir/producer.log" 2>&1 ||
        rc=$?
    if [ "$rc" -gt 128 ]; then
        fail "the producer died of signal $((rc - 128)) ($(kill -l $((rc - 128)) 2>/dev/null || echo '?'))" \
            "$case_dir/producer.log"
    elif [ "$rc" -ne 0 ]; then
        fail "the producer exited with status $rc (1: the XRay runtime did not initialise, finalise or flush; 2: bad arguments)" \
            "$case_dir/producer.log"
    fi
    local traces=("$case_dir"/trace-*)
    if [ ! -f "${traces[0]}" ]; then
        fail "the producer wrote no trace (expected $case_dir/trace-*)" "$case_dir/producer.log"
    elif [ "${#traces[@]}" -ne 1 ]; then
        fail "the producer wrote ${#traces[@]} traces, expected one" "$case_dir/producer.log"
    fi
    TRACE=${traces[0]}
}

# validate: tracecheck validate on TRACE; sets VALIDATE_RC, ERRORS, WARNINGS.
validate() {
    VALIDATE_RC=0
    "$TRACECHECK" validate --color never --max-repeats 1000000 "$TRACE" \
        > "$case_dir/validate.txt" 2>&1 || VALIDATE_RC=$?
    if [ "$VALIDATE_RC" -gt 1 ]; then
        fail "tracecheck validate exited with status $VALIDATE_RC (crash, sanitizer report, or I/O error)" \
            "$case_dir/validate.txt"
    fi
    ERRORS=$(count ': error: ' "$case_dir/validate.txt")
    WARNINGS=$(count ': warning: ' "$case_dir/validate.txt")
}

# expect_clean: exit 0, no error, no warning.
expect_clean() {
    validate
    if [ "$VALIDATE_RC" -ne 0 ] || [ "$ERRORS" -ne 0 ] || [ "$WARNINGS" -ne 0 ]; then
        fail "tracecheck must accept this clang-written trace with no error and no warning; it exited $VALIDATE_RC with $ERRORS errors and $WARNINGS warnings" \
            "$case_dir/validate.txt"
    fi
}

# dump: the canonical dump of TRACE into DUMP (findings allowed with allow_findings).
dump() {
    local rc=0
    DUMP=$case_dir/dump.jsonl
    "$TRACECHECK" dump -o "$DUMP" "$TRACE" > "$case_dir/dump.stderr" 2>&1 || rc=$?
    if [ "$rc" -gt 1 ] || { [ "$rc" -ne 0 ] && [ "${1:-}" != allow_findings ]; }; then
        fail "tracecheck dump exited with status $rc" "$case_dir/dump.stderr"
    fi
    [ -s "$DUMP" ] || fail "tracecheck dump wrote nothing" "$case_dir/dump.stderr"
}

# dump_count KIND: lines of the dump whose "t" is KIND.
dump_count() {
    count "^{\"t\":\"$1\"" "$DUMP"
}

# action_count ACTION: function lines with that action.
action_count() {
    count "^{\"t\":\"function\",\"action\":\"$1\"" "$DUMP"
}

# buffers_per_thread: "COUNT TID" lines, most buffers first.
buffers_per_thread() {
    sed -n 's/^{"t":"new_buffer","tid":\(-\{0,1\}[0-9]*\)}$/\1/p' "$DUMP" | sort | uniq -c | sort -rn
}

# llvm_verify: llvm-xray fdr-dump --verify on TRACE; sets LLVM_VERIFY_RC.
llvm_verify() {
    LLVM_VERIFY_RC=0
    "$LLVM_XRAY" fdr-dump --verify "$TRACE" > "$case_dir/llvm-fdr-dump.txt" 2>&1 || LLVM_VERIFY_RC=$?
}

expect_llvm_verify() {
    llvm_verify
    if [ "$LLVM_VERIFY_RC" -ne 0 ]; then
        echo "$ $LLVM_XRAY fdr-dump --verify $TRACE  (last lines)" > "$case_dir/llvm-fdr-dump.tail"
        tail -n 5 "$case_dir/llvm-fdr-dump.txt" >> "$case_dir/llvm-fdr-dump.tail"
        fail "llvm-xray fdr-dump --verify rejects the trace (exit $LLVM_VERIFY_RC)" \
            "$case_dir/llvm-fdr-dump.tail"
    fi
}

# ---------------------------------------------------------------------------
# fdr: a multi-threaded trace with call arguments and custom events.
begin fdr
produce "$APP_NOTYPED" --threads "$THREADS" --calls "$CALLS" --buffer-size "$BUFFER_SIZE" \
    --buffers 4096 --custom
expect_clean
dump

header_ok=$(count "^{\"t\":\"header\",\"format\":\"xray\",.*\"version\":5,\"type\":1,.*\"buffer_size\":\"$BUFFER_SIZE\"}$" "$DUMP")
[ "$header_ok" -eq 1 ] ||
    fail "the dump's header is not that of a version 5 FDR trace with buffer_size $BUFFER_SIZE" "$DUMP"

buffers_per_thread > "$case_dir/buffers-per-thread.txt"
threads_several=$(awk -v m="$MIN_BUFFERS" '$1 >= m' "$case_dir/buffers-per-thread.txt" | wc -l)
[ "$threads_several" -ge "$THREADS" ] ||
    fail "expected $THREADS threads with at least $MIN_BUFFERS buffers each; buffers per thread (count tid):" \
        "$case_dir/buffers-per-thread.txt"
buffers=$(dump_count new_buffer)
[ "$(dump_count buffer_extents)" -eq "$buffers" ] ||
    fail "$buffers NewBuffer records but $(dump_count buffer_extents) BufferExtents records"
min_per_thread=$(awk 'NR <= '"$THREADS"' { m = $1 } END { print m }' "$case_dir/buffers-per-thread.txt")

enter_args=$(action_count enter_args)
call_args=$(dump_count call_arg)
if [ "$enter_args" -eq 0 ] || [ "$call_args" -ne "$enter_args" ]; then
    fail "expected one call argument per logged-argument entry (functions marked xray_log_args(1)); found $enter_args EnterArg records and $call_args call arguments"
fi
# Every logged argument is a recursion depth walk(x % 4) / leaf(depth): 0..3.
sed -n 's/^{"t":"call_arg","value":"\([0-9]*\)"}$/\1/p' "$DUMP" | sort -un > "$case_dir/call-arg-values.txt"
[ "$(tr '\n' ' ' < "$case_dir/call-arg-values.txt")" = "0 1 2 3 " ] ||
    fail "the logged arguments should be exactly the values 0, 1, 2, 3; the dump has:" \
        "$case_dir/call-arg-values.txt"

custom=$(dump_count custom_event)
custom_ok=$(count "^{\"t\":\"custom_event\",.*\"data\":\"${PAYLOAD_HEX_PREFIX}[0-9a-f]*\"}$" "$DUMP")
[ "$custom" -eq $((THREADS * EVENTS_PER_THREAD)) ] ||
    fail "expected $((THREADS * EVENTS_PER_THREAD)) custom events ($EVENTS_PER_THREAD per thread), the dump has $custom"
[ "$custom_ok" -eq "$custom" ] ||
    fail "$((custom - custom_ok)) of $custom custom events do not carry the program's payload ('iteration N')"
[ "$(dump_count typed_event)" -eq 0 ] || fail "typed events in a trace written without them"

expect_llvm_verify

# LLVM's converter, with the program's instrumentation map, must decode the
# same records as tracecheck.
convert_rc=0
"$LLVM_XRAY" convert --output-format=yaml --symbolize --instr_map="$APP_NOTYPED" \
    -o "$case_dir/llvm-convert.yaml" "$TRACE" > "$case_dir/llvm-convert.txt" 2>&1 || convert_rc=$?
[ "$convert_rc" -eq 0 ] ||
    fail "llvm-xray convert --output-format=yaml rejects the trace (exit $convert_rc)" "$case_dir/llvm-convert.txt"
yaml=$case_dir/llvm-convert.yaml
for pair in function-enter:enter function-enter-arg:enter_args function-exit:exit \
            function-tail-exit:tail_exit custom-event:custom_event; do
    llvm_kind=${pair%%:*}
    ours=${pair#*:}
    theirs=$(count "kind: $llvm_kind," "$yaml")
    if [ "$ours" = custom_event ]; then mine=$custom; else mine=$(action_count "$ours"); fi
    [ "$theirs" -eq "$mine" ] ||
        fail "llvm-xray convert decodes $theirs $llvm_kind records, tracecheck's dump $mine $ours records"
done
for fn in 'walk(long)' 'leaf(long)' 'work(long)'; do
    [ "$(count "function: '$fn'" "$yaml")" -gt 0 ] ||
        fail "llvm-xray convert --symbolize names no record '$fn': function ids do not match the binary's instrumentation map"
done
functions=$(dump_count function)
echo "$me: fdr: $THREADS threads x $CALLS calls: valid, 0 warnings; $buffers buffers ($min_per_thread+ per thread), $functions function records, $call_args call arguments, $custom custom events; llvm-xray fdr-dump --verify and convert accept it and decode the same records"

# ---------------------------------------------------------------------------
# full-N: the runtime's buffer queue runs out (buffer_max buffers of a tiny
# size); compiler-rt's FDR runtime then stops recording. Still a valid trace.
for config in 256:8 128:2; do
    size=${config%%:*}
    max=${config#*:}
    begin "full-$size"
    produce "$APP" --threads "$THREADS" --calls "$CALLS" --buffer-size "$size" --buffers "$max" --custom
    expect_clean
    dump
    buffers=$(dump_count new_buffer)
    [ "$buffers" -eq "$max" ] ||
        fail "expected the buffer queue to be used up ($max buffers of $size bytes), the trace has $buffers buffers" \
            "$case_dir/producer.log"
    [ "$(dump_count function)" -gt 0 ] || fail "no function record in the trace"
    expect_llvm_verify
    echo "$me: full-$size: buffer queue used up ($max buffers of $size bytes): valid, 0 warnings; llvm-xray fdr-dump --verify accepts it"
done

# ---------------------------------------------------------------------------
# typed: compiler-rt's BufferExtents undercount for typed events.
begin typed
produce "$APP" --threads "$THREADS" --calls "$CALLS" --buffer-size "$BUFFER_SIZE" --buffers 4096 \
    --custom --typed
validate
report=$case_dir/validate.txt
if [ "$VALIDATE_RC" -eq 0 ]; then
    fail "tracecheck accepts a trace with typed events written by compiler-rt, whose BufferExtents are 16 bytes short per typed event: either tracecheck misses the short extents, or this compiler-rt no longer has the bug (then this case must change)" \
        "$report"
fi
past=$(count ': error: XRAY-RECORD-PAST-EXTENTS: ' "$report")
[ "$past" -gt 0 ] || fail "no XRAY-RECORD-PAST-EXTENTS error" "$report"
[ "$past" -eq "$ERRORS" ] ||
    fail "errors other than XRAY-RECORD-PAST-EXTENTS ($((ERRORS - past)) of $ERRORS)" "$report"
[ "$WARNINGS" -eq 0 ] || fail "$WARNINGS warnings besides the XRAY-RECORD-PAST-EXTENTS errors" "$report"
grep ': error: XRAY-RECORD-PAST-EXTENTS: ' "$report" |
    awk '{ l = tolower($0) } index(l, "compiler-rt") == 0 || index(l, "typed event") == 0' \
    > "$case_dir/unexplained.txt"
[ ! -s "$case_dir/unexplained.txt" ] ||
    fail "XRAY-RECORD-PAST-EXTENTS messages that do not name compiler-rt's typed-event BufferExtents bug:" \
        "$case_dir/unexplained.txt"
dump allow_findings
typed=$(count '^{"t":"typed_event","type":7,' "$DUMP")
[ "$typed" -gt 0 ] || fail "the dump holds no typed event of type 7" "$case_dir/dump.stderr"
llvm_verify
if [ "$LLVM_VERIFY_RC" -eq 0 ]; then llvm_says="accepts it"; else llvm_says="rejects it too"; fi
echo "$me: typed: rejected with $past XRAY-RECORD-PAST-EXTENTS errors naming compiler-rt's typed-event BufferExtents bug, nothing else; $typed typed events decoded; llvm-xray fdr-dump --verify $llvm_says"

echo "$me: all passed (traces in $OUT/)"
