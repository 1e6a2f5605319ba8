#!/usr/bin/env bash
# Real XRay traces in the loop, from one clang (make check-producers-xray runs
# it for every clang Debian 12 ships: tests/xray/producers/producers.mk).
#
#   tests/xray/producers/xray_clang.sh VERSION TRACECHECK APP APP_TYPED OUTDIR
#
# APP is tests/xray/producers/xray_fdr_app.cc built by clang VERSION with its XRay
# flags and without typed-event sleds (so that llvm-xray can read its
# instrumentation map), APP_TYPED the same with typed events. Every run
# writes its trace, the producer's log, tracecheck's report and dump, and
# llvm-xray's output into OUTDIR/CASE/.
#
# Cases:
#   fdr        several threads, several buffers each, logged call arguments and
#              custom events: tracecheck finds nothing (no error, no warning),
#              nor with --binary APP, whose dump names every function; with
#              --binary APP_TYPED (another build) it reports the mismatch
#              (the fdr, typed and basic cases all check this);
#              the canonical dump holds every call the program made, by
#              function (ids from `llvm-xray extract` of the binary), and its
#              arguments and events; llvm-xray (fdr-dump --verify, convert
#              --output-format=yaml) accepts the same file and decodes the
#              same records.
#   full-N     tiny buffers and a tiny buffer count: the runtime's buffer queue
#              runs out and recording stops; the trace is still valid.
#   typed      typed events: compiler-rt's FDR runtime leaves each typed event's
#              16-byte marker out of BufferExtents, so tracecheck must reject the
#              trace with XRAY-RECORD-PAST-EXTENTS, naming that runtime bug,
#              and with nothing else.
#   basic      basic mode (XRAY_OPTIONS=xray_mode=xray-basic): the log holds
#              every call (read by xray_log_facts.py), llvm-xray convert reads
#              the same records, and tracecheck must find it valid (rulings 13
#              to 16) with no warning, its dump holding the same records. While
#              tracecheck has no basic-mode reader it reports
#              XRAY-HEADER-BASIC-MODE and nothing else: that is printed as a
#              KNOWN DEPARTURE and does not fail; any other answer does.
#
# Every case ends in a line of figures: the file's size, its header's fields,
# its records by kind, what the runtime left in unused bytes.
#
# Environment: LLVM_XRAY (default llvm-xray-VERSION).
set -euo pipefail
export LC_ALL=C

if [ $# -ne 5 ]; then
    echo "usage: $0 VERSION TRACECHECK APP APP_TYPED OUTDIR" >&2
    exit 2
fi
VERSION=$1
TRACECHECK=$2
APP=$3
APP_TYPED=$4
OUT=$5
LLVM_XRAY=${LLVM_XRAY:-llvm-xray-$VERSION}
FACTS=$(dirname "$0")/xray_log_facts.py

THREADS=4
CALLS=2000          # per thread; about 90 buffers of 4096 bytes per thread
BUFFER_SIZE=4096
MIN_BUFFERS=4       # "several buffers per thread"
BASIC_CALLS=500     # per thread; about 8,500 records per thread
BASIC_RECORDS=256   # records per thread buffer in basic mode: 30+ flushes per thread
EVENT_EVERY=64      # the program logs one event every 64 iterations
# hex of "iteration ", the start of every event payload the program writes
PAYLOAD_HEX_PREFIX=697465726174696f6e20

me="producers/xray: clang $VERSION"
case_name=
case_dir=

for tool in "$TRACECHECK" "$APP" "$APP_TYPED" "$FACTS"; do
    [ -x "$tool" ] || { echo "$me: FAIL: $tool is missing or not executable" >&2; exit 1; }
done
command -v "$LLVM_XRAY" >/dev/null ||
    { echo "$me: FAIL: $LLVM_XRAY not found (Debian package llvm-$VERSION; run 'make deps')" >&2; exit 1; }

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

# produce BINARY ARGS...: run the producer with XRAY_OPTIONS set to write into
# the case's directory (plus PRODUCE_XRAY_OPTIONS); sets TRACE to the file it
# wrote.
PRODUCE_XRAY_OPTIONS=
produce() {
    local bin=$1 rc=0
    shift
    echo "XRAY_OPTIONS='$PRODUCE_XRAY_OPTIONS xray_logfile_base=$case_dir/trace-' $bin $*" \
        > "$case_dir/producer.log"
    XRAY_OPTIONS="$PRODUCE_XRAY_OPTIONS xray_logfile_base=$case_dir/trace-" "$bin" "$@" \
        >> "$case_dir/producer.log" 2>&1 || rc=$?
    if [ "$rc" -gt 128 ]; then
        fail "the producer died of signal $((rc - 128)) ($(kill -l $((rc - 128)) 2>/dev/null || echo '?'))" \
            "$case_dir/producer.log"
    elif [ "$rc" -ne 0 ]; then
        fail "the producer exited with status $rc (1: the XRay runtime did not initialise, patch, finalise, unpatch or flush; 2: bad arguments)" \
            "$case_dir/producer.log"
    fi
    local traces=("$case_dir"/trace-*)
    if [ ! -f "${traces[0]}" ]; then
        fail "the producer wrote no trace (expected $case_dir/trace-*)" "$case_dir/producer.log"
    elif [ "${#traces[@]}" -ne 1 ]; then
        fail "the producer wrote ${#traces[@]} traces, expected one" "$case_dir/producer.log"
    fi
    TRACE=${traces[0]}
    "$FACTS" --json "$case_dir/facts.json" --functions "$case_dir/facts-functions.txt" "$TRACE" \
        > "$case_dir/facts.txt" ||
        fail "xray_log_facts.py cannot read the trace through" "$case_dir/facts.txt"
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

# dump_functions: "COUNT ID ACTION" lines of the dump's function records.
dump_functions() {
    sed -n 's/^{"t":"function","action":"\([a-z_]*\)","func":\([0-9]*\)[,}].*/\2 \1/p' "$DUMP" |
        sort | uniq -c
}

# buffers_per_thread: "COUNT TID" lines, most buffers first.
buffers_per_thread() {
    sed -n 's/^{"t":"new_buffer","tid":\(-\{0,1\}[0-9]*\)}$/\1/p' "$DUMP" | sort | uniq -c | sort -rn
}

# fact KEY: a number from the case's facts (KEY: a dotted path; 0 if absent).
fact() {
    python3 -c 'import json, sys
f = json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."):
    f = f.get(k, 0) if isinstance(f, dict) else 0
print(f)' "$case_dir/facts.json" "$1"
}

# same_counts A B: two "COUNT ID ACTION" files hold the same lines.
same_counts() {
    cmp -s <(awk '{ print $1, $2, $3 }' "$1" | sort) <(awk '{ print $1, $2, $3 }' "$2" | sort)
}

# The program's functions and the calls it makes (see xray_fdr_app.cc):
# "NAME ENTRY-ACTION CALLS-PER-THREAD" for N calls per thread.
expected_calls() {
    local n=$1
    local walks=$(( (n / 4) * 10 + (n % 4) * (n % 4 + 1) / 2 ))
    local events=$(( n > 0 ? (n - 1) / EVENT_EVERY + 1 : 0 ))
    printf '%s\n' "work enter 1" "tail enter $n" "walk enter_args $walks" \
        "leaf enter_args $walks" "event enter $events"
}

# function ids of the program's functions in APP: "ID NAME", from llvm-xray
# extract (the instrumentation map).
FUNCTION_IDS=$OUT/function-ids.txt
function_ids() {
    "$LLVM_XRAY" extract --symbolize "$APP" > "$OUT/instr-map.yaml" 2> "$OUT/instr-map.stderr" ||
        { case_name=instr-map case_dir=$OUT
          fail "$LLVM_XRAY extract cannot read the instrumentation map of $APP" "$OUT/instr-map.stderr"; }
    sed -n "s/^- { id: \([0-9]*\),.*function-name: '\(work\|tail\|walk\|leaf\|event\)(long)'.*/\1 \2/p" \
        "$OUT/instr-map.yaml" | sort -u > "$FUNCTION_IDS"
    local name
    for name in work tail walk leaf event; do
        [ "$(awk -v n="$name" '$2 == n' "$FUNCTION_IDS" | wc -l)" -eq 1 ] ||
            { case_name=instr-map case_dir=$OUT
              fail "the instrumentation map of $APP has no single function id for $name(long)" \
                  "$FUNCTION_IDS"; }
    done
}

# expect_calls COUNTS N WHAT: COUNTS ("COUNT ID ACTION" lines, from the dump
# or the facts) holds exactly the calls THREADS threads of N calls make: for
# each function its entries (with the entry action: logged-argument functions
# enter with enter_args) and as many exits or tail exits.
expect_calls() {
    local counts=$1 n=$2 what=$3
    local table=$case_dir/expected-calls.txt
    : > "$table"
    local name entry per id calls entries others exits bad=0
    while read -r name entry per; do
        id=$(awk -v n="$name" '$2 == n { print $1 }' "$FUNCTION_IDS")
        calls=$((per * THREADS))
        entries=$(awk -v i="$id" -v a="$entry" '$2 == i && $3 == a { s += $1 } END { print s + 0 }' "$counts")
        others=$(awk -v i="$id" -v a="$entry" '$2 == i && ($3 == "enter" || $3 == "enter_args") && $3 != a { s += $1 } END { print s + 0 }' "$counts")
        exits=$(awk -v i="$id" '$2 == i && ($3 == "exit" || $3 == "tail_exit") { s += $1 } END { print s + 0 }' "$counts")
        printf '%-6s id %-3s expected %6d calls: %6d %s, %d other entries, %6d exits or tail exits\n' \
            "$name" "$id" "$calls" "$entries" "$entry" "$others" "$exits" >> "$table"
        if [ "$entries" -ne "$calls" ] || [ "$others" -ne 0 ] || [ "$exits" -ne "$calls" ]; then
            bad=1
        fi
    done < <(expected_calls "$n")
    [ "$bad" -eq 0 ] ||
        fail "$what does not hold exactly the calls the program made ($THREADS threads x $n calls):" \
            "$table" "$counts"
}

# against_binaries OWN OTHER: TRACE with --binary. Against OWN, the program
# that wrote it: no XRAY-BINARY-* finding and as many errors and warnings as
# without it, and a dump that names every function record's function
# (walk(long) among them). Against OTHER, another build: the mismatch is
# reported (XRAY-BINARY-NO-FUNCTION or XRAY-BINARY-NO-SLED). Sets
# BINARY_SAYS for the case's line.
against_binaries() {
    local own=$1 other=$2 rc=0 file=$case_dir/validate-binary.txt
    "$TRACECHECK" validate --color never --max-repeats 1000000 --binary "$own" "$TRACE" \
        > "$file" 2>&1 || rc=$?
    [ "$rc" -le 1 ] || fail "tracecheck validate --binary $own exited with status $rc" "$file"
    [ "$(count ': [a-z]*: XRAY-BINARY-' "$file")" -eq 0 ] ||
        fail "against the program that wrote it (--binary $own), tracecheck reports XRAY-BINARY-* findings" "$file"
    if [ "$rc" -ne "$VALIDATE_RC" ] || [ "$(count ': error: ' "$file")" -ne "$ERRORS" ] ||
       [ "$(count ': warning: ' "$file")" -ne "$WARNINGS" ]; then
        fail "with --binary $own, tracecheck's verdict or counts differ from those without it ($VALIDATE_RC, $ERRORS errors, $WARNINGS warnings)" "$file"
    fi
    local named=$case_dir/dump-binary.jsonl
    rc=0
    "$TRACECHECK" dump --binary "$own" -o "$named" "$TRACE" > "$case_dir/dump-binary.stderr" 2>&1 || rc=$?
    [ "$rc" -le 1 ] || fail "tracecheck dump --binary exited with status $rc" "$case_dir/dump-binary.stderr"
    local fns unnamed
    fns=$(count '^{"t":"function",' "$named")
    unnamed=$(grep '^{"t":"function",' "$named" | grep -vc '"name":"[^"]' || true)
    [ "$fns" -gt 0 ] && [ "$unnamed" -eq 0 ] ||
        fail "tracecheck dump --binary leaves $unnamed of $fns function records without the function's name" "$named"
    [ "$(count '"name":"walk(long)"' "$named")" -gt 0 ] ||
        fail "tracecheck dump --binary names no record walk(long)" "$named"
    file=$case_dir/validate-other-binary.txt
    rc=0
    "$TRACECHECK" validate --color never --max-repeats 1000000 --binary "$other" "$TRACE" \
        > "$file" 2>&1 || rc=$?
    [ "$rc" -le 1 ] || fail "tracecheck validate --binary $other exited with status $rc" "$file"
    local nofn nosled
    nofn=$(count ': error: XRAY-BINARY-NO-FUNCTION: ' "$file")
    nosled=$(count ': warning: XRAY-BINARY-NO-SLED: ' "$file")
    [ $((nofn + nosled)) -gt 0 ] ||
        fail "against another build (--binary $other), tracecheck reports no XRAY-BINARY-NO-FUNCTION or XRAY-BINARY-NO-SLED" "$file"
    BINARY_SAYS="--binary: its own program: no finding, every record named; $(basename "$other"): $nofn XRAY-BINARY-NO-FUNCTION, $nosled XRAY-BINARY-NO-SLED"
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
        fail "$LLVM_XRAY fdr-dump --verify rejects the trace (exit $LLVM_VERIFY_RC)" \
            "$case_dir/llvm-fdr-dump.tail"
    fi
}

# llvm_convert: llvm-xray convert to YAML with APP's instrumentation map;
# sets YAML. The program's functions must be named in it.
llvm_convert() {
    local rc=0
    YAML=$case_dir/llvm-convert.yaml
    "$LLVM_XRAY" convert --output-format=yaml --symbolize --instr_map="$APP" \
        -o "$YAML" "$TRACE" > "$case_dir/llvm-convert.txt" 2>&1 || rc=$?
    [ "$rc" -eq 0 ] ||
        fail "$LLVM_XRAY convert --output-format=yaml rejects the trace (exit $rc)" "$case_dir/llvm-convert.txt"
    local fn
    for fn in 'walk(long)' 'leaf(long)' 'work(long)' 'tail(long)' 'event(long)'; do
        [ "$(count "function: '$fn'" "$YAML")" -gt 0 ] ||
            fail "$LLVM_XRAY convert --symbolize names no record '$fn': function ids do not match the binary's instrumentation map"
    done
}

# expect_convert_counts COUNTS: llvm-xray convert decodes as many records of
# each kind as COUNTS ("COUNT ID ACTION" lines) holds.
expect_convert_counts() {
    local counts=$1 pair kind action theirs mine
    for pair in function-enter:enter function-enter-arg:enter_args function-exit:exit \
                function-tail-exit:tail_exit; do
        kind=${pair%%:*}
        action=${pair#*:}
        theirs=$(count "kind: $kind," "$YAML")
        mine=$(awk -v a="$action" '$3 == a { s += $1 } END { print s + 0 }' "$counts")
        [ "$theirs" -eq "$mine" ] ||
            fail "$LLVM_XRAY convert decodes $theirs $kind records, the trace holds $mine $action records"
    done
}

# figures: the facts line of the case (sizes, header, records).
figures() {
    sed 's/^/    /' "$case_dir/facts.txt"
}

mkdir -p "$OUT"
function_ids

# ---------------------------------------------------------------------------
# fdr: a multi-threaded trace with call arguments and custom events.
begin fdr
produce "$APP" --threads "$THREADS" --calls "$CALLS" --buffer-size "$BUFFER_SIZE" \
    --buffers 4096 --custom
validate
expect_clean
against_binaries "$APP" "$APP_TYPED"
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

dump_functions > "$case_dir/dump-functions.txt"
expect_calls "$case_dir/dump-functions.txt" "$CALLS" "tracecheck's dump"
same_counts "$case_dir/dump-functions.txt" "$case_dir/facts-functions.txt" ||
    fail "tracecheck's dump and xray_log_facts.py count different function records (COUNT ID ACTION):" \
        "$case_dir/dump-functions.txt" "$case_dir/facts-functions.txt"

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

events_per_thread=$(( (CALLS - 1) / EVENT_EVERY + 1 ))
custom=$(dump_count custom_event)
custom_ok=$(count "^{\"t\":\"custom_event\",.*\"data\":\"${PAYLOAD_HEX_PREFIX}[0-9a-f]*\"}$" "$DUMP")
[ "$custom" -eq $((THREADS * events_per_thread)) ] ||
    fail "expected $((THREADS * events_per_thread)) custom events ($events_per_thread per thread), the dump has $custom"
[ "$custom_ok" -eq "$custom" ] ||
    fail "$((custom - custom_ok)) of $custom custom events do not carry the program's payload ('iteration N')"
[ "$(dump_count typed_event)" -eq 0 ] || fail "typed events in a trace written without them"

expect_llvm_verify

# LLVM's converter, with the program's instrumentation map, must decode the
# same records as tracecheck.
llvm_convert
expect_convert_counts "$case_dir/dump-functions.txt"
[ "$(count "kind: custom-event," "$YAML")" -eq "$custom" ] ||
    fail "$LLVM_XRAY convert decodes $(count "kind: custom-event," "$YAML") custom events, tracecheck's dump $custom"
functions=$(dump_count function)
tail_exits=$(action_count tail_exit)
echo "$me: fdr: $THREADS threads x $CALLS calls: valid, 0 warnings; every call there; $buffers buffers ($min_per_thread+ per thread), $functions function records ($tail_exits tail exits), $call_args call arguments, $custom custom events; $LLVM_XRAY fdr-dump --verify and convert accept it and decode the same records"
echo "$me: fdr: $BINARY_SAYS"
figures

# ---------------------------------------------------------------------------
# full-N: the runtime's buffer queue runs out (buffer_max buffers of a tiny
# size); compiler-rt's FDR runtime then stops recording. Still a valid trace.
for config in 256:8 128:2; do
    size=${config%%:*}
    max=${config#*:}
    begin "full-$size"
    produce "$APP" --threads "$THREADS" --calls "$CALLS" --buffer-size "$size" --buffers "$max" --custom
    validate
    expect_clean
    dump
    buffers=$(dump_count new_buffer)
    [ "$buffers" -eq "$max" ] ||
        fail "expected the buffer queue to be used up ($max buffers of $size bytes), the trace has $buffers buffers" \
            "$case_dir/producer.log"
    [ "$(dump_count function)" -gt 0 ] || fail "no function record in the trace"
    expect_llvm_verify
    echo "$me: full-$size: buffer queue used up ($max buffers of $size bytes): valid, 0 warnings; $LLVM_XRAY fdr-dump --verify accepts it"
done

# ---------------------------------------------------------------------------
# typed: compiler-rt's BufferExtents undercount for typed events.
begin typed
produce "$APP_TYPED" --threads "$THREADS" --calls "$CALLS" --buffer-size "$BUFFER_SIZE" --buffers 4096 \
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
against_binaries "$APP_TYPED" "$APP"
echo "$me: typed: $BINARY_SAYS"
dump allow_findings
typed=$(count '^{"t":"typed_event","type":7,' "$DUMP")
[ "$typed" -gt 0 ] || fail "the dump holds no typed event of type 7" "$case_dir/dump.stderr"
llvm_verify
if [ "$LLVM_VERIFY_RC" -eq 0 ]; then llvm_says="accepts it"; else llvm_says="rejects it too"; fi
echo "$me: typed: rejected with $past XRAY-RECORD-PAST-EXTENTS errors naming compiler-rt's typed-event BufferExtents bug, nothing else; $typed typed events decoded; $LLVM_XRAY fdr-dump --verify $llvm_says"
figures

# ---------------------------------------------------------------------------
# basic: basic mode, as XRAY_OPTIONS selects it; the threshold 0 keeps every
# call (the runtime erases calls shorter than 5 us by default).
begin basic
PRODUCE_XRAY_OPTIONS="xray_mode=xray-basic" \
XRAY_BASIC_OPTIONS="func_duration_threshold_us=0 max_stack_depth=64 thread_buffer_size=$BASIC_RECORDS" \
    produce "$APP" --mode basic --threads "$THREADS" --calls "$BASIC_CALLS"
if [ "$(fact header.type)" -ne 0 ] || [ "$(fact header.version)" -ne 3 ]; then
    fail "expected a basic-mode log (header type 0, version 3)" "$case_dir/facts.txt"
fi
expect_calls "$case_dir/facts-functions.txt" "$BASIC_CALLS" "the basic-mode log"
log_args=$(fact kinds.call_arg)
log_functions=$(fact kinds.function)
log_enter_args=$(awk '$3 == "enter_args" { s += $1 } END { print s + 0 }' "$case_dir/facts-functions.txt")
[ "$log_args" -eq "$log_enter_args" ] ||
    fail "expected one argument payload per logged-argument entry; the log has $log_enter_args EnterArg records and $log_args payloads" \
        "$case_dir/facts.txt"
llvm_convert
expect_convert_counts "$case_dir/facts-functions.txt"

validate
basic_mode=$(count ': error: XRAY-HEADER-BASIC-MODE: ' "$case_dir/validate.txt")
if [ "$VALIDATE_RC" -eq 1 ] && [ "$basic_mode" -gt 0 ] && [ "$basic_mode" -eq "$ERRORS" ] &&
   [ "$WARNINGS" -eq 0 ]; then
    verdict="KNOWN DEPARTURE: tracecheck reports XRAY-HEADER-BASIC-MODE (it has no basic-mode reader yet; rulings 13 to 16 make this log valid)"
else
    expect_clean
    against_binaries "$APP" "$APP_TYPED"
    echo "$me: basic: $BINARY_SAYS"
    dump
    dump_functions > "$case_dir/dump-functions.txt"
    same_counts "$case_dir/dump-functions.txt" "$case_dir/facts-functions.txt" ||
        fail "tracecheck's dump of the basic-mode log and the log itself (xray_log_facts.py) hold different function records (COUNT ID ACTION):" \
            "$case_dir/dump-functions.txt" "$case_dir/facts-functions.txt"
    [ "$(dump_count call_arg)" -eq "$log_args" ] ||
        fail "tracecheck's dump has $(dump_count call_arg) call arguments, the log $log_args argument payloads"
    verdict="valid, 0 warnings; tracecheck's dump holds the same records"
fi
echo "$me: basic: $THREADS threads x $BASIC_CALLS calls, $BASIC_RECORDS-record thread buffers: every call there ($log_functions function records, $log_args argument payloads); $LLVM_XRAY convert reads the same records; tracecheck: $verdict"
figures

echo "$me: all passed (traces in $OUT/)"
