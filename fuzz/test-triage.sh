#!/bin/bash
# make check's test of fuzz/triage.sh (check-fuzz-triage in fuzz/fuzz.mk).
#
#   test-triage.sh BIN_DIR SCRATCH_DIR
#
# Builds a synthetic campaign of fuzz/selftest_crash.c in SCRATCH_DIR: two
# AFL++ instance directories whose crashes/ hold both of the harness's
# failures (a failed check, a heap overflow) several times, under other
# names and with other tails, and whose queues hold passing inputs with
# duplicates; and a flat libFuzzer directory with a crash- artifact of the
# first failure and a corpus input. triage.sh, filing into a scratch
# regressions directory (TRIAGE_REGRESSIONS), must file exactly two inputs,
# each minimised to its magic prefix, with a note; a second run must file
# nothing and leave both files as they were.
set -u

[ $# -eq 2 ] || { echo "usage: $0 BIN_DIR SCRATCH_DIR" >&2; exit 2; }
bin_dir=$1 scratch=$2
here=$(cd "$(dirname "$0")" && pwd)
t=selftest_crash
fail() { echo "check-fuzz-triage: $*" >&2; exit 1; }

rm -rf "$scratch"
camp=$scratch/campaign lfdir=$scratch/libfuzzer regs=$scratch/regressions
mkdir -p "$camp/main/queue" "$camp/main/crashes" "$camp/main/hangs" "$camp/s2/queue" \
    "$camp/s2/crashes" "$lfdir" "$regs" || exit 1
# Queues: a short and a long passing input (two paths), each more than once.
printf 'short' >"$camp/main/queue/id:000000,time:0,execs:0,orig:a"
printf 'a passing input longer than the magic' >"$camp/main/queue/id:000001,src:000000,op:havoc"
printf 'short' >"$camp/s2/queue/id:000000,time:0,execs:0,orig:a"
printf 'a passing input longer than the magic' >"$camp/s2/queue/id:000001,sync:main,src:000001"
printf 'other' >"$camp/s2/queue/id:000002,src:000000,op:flip1"
# Crashes: A three times, B twice, with tails for the minimiser to drop.
printf 'TCSELFTEST-A and a tail of 40 bytes to be minimised' >"$camp/main/crashes/id:000000,sig:06,src:000001,op:havoc"
printf 'TCSELFTEST-A\x00\xff\x10 another tail' >"$camp/s2/crashes/id:000000,sig:06,src:000000,op:havoc"
printf 'TCSELFTEST-B with a tail of about thirty bytes' >"$camp/main/crashes/id:000001,sig:06,src:000001,op:ext_AO"
printf 'TCSELFTEST-Bxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' >"$camp/s2/crashes/id:000001,sig:06,src:000002,op:havoc"
printf 'README of AFL++, not an input' >"$camp/main/crashes/README.txt"
printf 'TCSELFTEST-A from libFuzzer' >"$lfdir/crash-0123456789abcdef0123456789abcdef01234567"
printf 'a corpus input of libFuzzer' >"$lfdir/5f1b7d3a0e4c9b2a6d8f0e1c3b5a7d9f2e4c6b8a"

run() {
    TRIAGE_REGRESSIONS=$regs TRIAGE_TIMEOUT=5 TRIAGE_MIN_SECONDS=20 "$here/triage.sh" \
        --bin-dir "$bin_dir" --corpus-min "$scratch/corpus-min" "$t" "$camp" "$lfdir" \
        >"$scratch/triage$1.log" 2>&1
}
run 1
rc=$?
[ "$rc" -eq 1 ] || { cat "$scratch/triage1.log" >&2; fail "triage.sh exited with $rc, not 1 (new crashes filed)"; }

# (d) exactly the two distinct failures, named by their stacks, with notes.
mapfile -t bins < <(cd "$regs" && ls -- *.bin 2>/dev/null)
[ ${#bins[@]} -eq 2 ] || { cat "$scratch/triage1.log" >&2; fail "filed ${#bins[@]} inputs, not 2: ${bins[*]}"; }
for b in "${bins[@]}"; do
    [[ $b =~ ^$t-[0-9a-f]{8}\.bin$ ]] || fail "badly named regression $b"
    n=$regs/${b%.bin}.note
    [ -f "$n" ] && [ "$(wc -l <"$n")" -eq 1 ] || fail "$n is not a one-line note"
    grep -q "^$t: .*; stack ${b:${#t}+1:8}: .*open" "$n" || fail "$n lacks the harness, stack or 'open': $(cat "$n")"
    # (c) minimised: the magic prefix and nothing else.
    size=$(stat -c %s "$regs/$b")
    [ "$size" -eq 12 ] || fail "$b has $size bytes, not the 12 of its magic prefix"
done
grep -l 'fuzz check failed at fuzz/selftest_crash.c:[0-9]*' "$regs"/*.note >/dev/null ||
    fail "no note names the failed check's file:line"
grep -l 'heap-buffer-overflow.*read_past_end' "$regs"/*.note >/dev/null ||
    fail "no note names the heap overflow and its frame"
cat "$regs"/*.bin | grep -q TCSELFTEST-A || fail "the check failure was not filed"
cat "$regs"/*.bin | grep -q TCSELFTEST-B || fail "the heap overflow was not filed"
grep -q '5 crash/hang input(s): 2 distinct stack(s), 2 new' "$scratch/triage1.log" ||
    { cat "$scratch/triage1.log" >&2; fail "the five crashes were not grouped into two stacks"; }

# (a) the corpus: six inputs, four distinct, two paths of the harness.
n=$(find "$scratch/corpus-min" -type f | wc -l)
[ "$n" -eq 2 ] || { cat "$scratch/triage1.log" >&2; fail "the minimised corpus has $n inputs, not 2"; }

# Filed once: a second run finds both known and overwrites nothing.
sums=$(cd "$regs" && sha1sum -- *)
run 2
rc=$?
[ "$rc" -eq 0 ] || { cat "$scratch/triage2.log" >&2; fail "the second run exited with $rc, not 0"; }
grep -q '2 distinct stack(s), 0 new, 2 already filed' "$scratch/triage2.log" ||
    { cat "$scratch/triage2.log" >&2; fail "the second run did not find both filed"; }
[ "$(cd "$regs" && sha1sum -- *)" = "$sums" ] || fail "the second run changed the regressions"

echo "fuzz: triage.sh filed the 2 distinct crashes of 5 (minimised, with notes), minimised the corpus to $n, and files nothing twice"
