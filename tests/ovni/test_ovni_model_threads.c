/* The model layer of ovni traces on threads and CPUs (rulings 13 and 15,
 * spec/ovni/ovni.md), through whole trace directories (model_trace.h): a
 * model's events need an active thread (OVNI-THREAD-INACTIVE), events
 * while the kernel has the thread off its CPU (OVNI-THREAD-OUT-OF-CPU),
 * the channels' pops, repeats, depth and states left open
 * (OVNI-STATE-*), CPU indexes (OVNI-CPU-UNKNOWN), two threads on one CPU
 * (OVNI-CPU-SHARED), OAs and OAr (OVNI-AFFINITY-STATE,
 * OVNI-THREAD-UNKNOWN). For each rule, a trace that gives exactly that
 * finding, where and with the offending values, and a minimally different
 * valid trace that gives none. Threads on one CPU and OAr naming a thread
 * of no stream span threads: those are judged in clock order across the
 * streams of a loom. Payloads are built from the layouts of models.def by
 * hand, not by the parser's tables.
 *
 * "two threads on one CPU" fails at the commit that added it, on a parser
 * bug kept for its fix (the parser was not changed with the tests): a
 * thread that comes back to a CPU it shared before is not reported again
 * (run_on's last != t). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../suites.h"
#include "model_trace.h"

/* ---- a thread's own states ---- */

static void test_thread_inactive(void)
{
    /* nosv's events come from a running, cooling or warming thread. */
    for (int bad = 0; bad <= 1; bad++) {
        mt_trace t;
        mt_init(&t);
        mt_stream *s = mt_thread(&t, 2, 1);
        mt_ohx(s, 10, 0);
        mt_e0(s, "OHp", 11);
        uint64_t at = 0;
        if (bad)
            at = mt_e0(s, "VHw", 12);
        mt_e0(s, "OHr", 13);
        if (!bad)
            mt_e0(s, "VHw", 14);
        mt_e0(s, "VHW", 15);
        mt_e0(s, "OHe", 16);
        if (bad)
            MT_EXPECT(&t, "VHw while paused", "OVNI-THREAD-INACTIVE", 0, (int64_t)at,
                      "VHw, of the nosv model, while thread 2 is paused; nosv's events need the "
                      "thread running, cooling or warming");
        else
            MT_VALID(&t, "VHw once resumed");
        mt_free(&t);
    }
    /* Before the thread's OHx. */
    for (int bad = 0; bad <= 1; bad++) {
        mt_trace t;
        mt_init(&t);
        mt_stream *s = mt_thread(&t, 2, 1);
        uint64_t at = 0;
        /* VPr: a thread starts Progressing (the models' connect), so VPp
         * first would be a repeat. */
        if (bad) {
            at = mt_e0(s, "VPr", 5);
            mt_ohx(s, 10, 0);
        } else {
            mt_ohx(s, 5, 0);
            mt_e0(s, "VPr", 10);
        }
        mt_e0(s, "OHe", 16);
        if (bad)
            MT_EXPECT(&t, "VPr before OHx", "OVNI-THREAD-INACTIVE", 0, (int64_t)at,
                      "VPr, of the nosv model, while thread 2 is not started");
        else
            MT_VALID(&t, "VPr after OHx");
        mt_free(&t);
    }
    /* MPI's events need the thread running: cooling is not enough. */
    for (int bad = 0; bad <= 1; bad++) {
        mt_trace t;
        mt_init(&t);
        mt_stream *s = mt_thread(&t, 2, 1);
        snprintf(s->require, sizeof s->require, "{\"ovni\": \"1.1.0\", \"mpi\": \"1.0.0\"}");
        mt_ohx(s, 10, 0);
        mt_e0(s, "MUi", 11);
        uint64_t at = 0;
        if (bad) {
            mt_e0(s, "OHc", 12);
            at = mt_e0(s, "MUI", 13);
        } else {
            mt_e0(s, "MUI", 12);
            mt_e0(s, "OHc", 13);
        }
        mt_e0(s, "OHe", 14);
        if (bad)
            MT_EXPECT(&t, "MUI while cooling", "OVNI-THREAD-INACTIVE", 0, (int64_t)at,
                      "MUI, of the mpi model, while thread 2 is cooling; mpi's events need the "
                      "thread running");
        else
            MT_VALID(&t, "MUI before cooling");
        mt_free(&t);
    }
}

static void test_out_of_cpu(void)
{
    for (int bad = 0; bad <= 1; bad++) {
        mt_trace t;
        mt_init(&t);
        mt_stream *s = mt_thread(&t, 2, 1);
        snprintf(s->require, sizeof s->require,
                 "{\"ovni\": \"1.1.0\", \"nosv\": \"2.7.0\", \"kernel\": \"1.0.0\"}");
        mt_ohx(s, 10, 0);
        uint64_t out = mt_e0(s, "KCO", 11), at = 0;
        if (bad) {
            at = mt_e0(s, "VHw", 12);
            mt_e0(s, "KCI", 13);
        } else {
            mt_e0(s, "KCI", 12);
            mt_e0(s, "VHw", 13);
        }
        mt_e0(s, "VHW", 14);
        mt_e0(s, "OHe", 15);
        char needle[160];
        snprintf(needle, sizeof needle,
                 "VHw while the kernel has thread 2 off its CPU (KCO at offset %llu, no KCI since)",
                 (unsigned long long)out);
        if (bad)
            MT_EXPECT(&t, "VHw between KCO and KCI", "OVNI-THREAD-OUT-OF-CPU", 0, (int64_t)at,
                      needle);
        else
            MT_VALID(&t, "VHw after KCI");
        mt_free(&t);
    }
}

static void test_states(void)
{
    /* A subsystem left that was never entered, or not the innermost. */
    for (int bad = 0; bad <= 2; bad++) {
        mt_trace t;
        mt_init(&t);
        mt_stream *s = mt_thread(&t, 2, 1);
        mt_ohx(s, 10, 0);
        uint64_t at = 0, hungry = 0;
        if (bad == 1) {
            at = mt_e0(s, "VHW", 11);
        } else {
            mt_e0(s, "VHw", 11);
            hungry = mt_e0(s, "VSh", 12);
            if (bad == 2)
                at = mt_e0(s, "VHW", 13); /* refused: the stack stays */
            mt_e0(s, "VSf", 14);
            mt_e0(s, "VHW", 15);
        }
        mt_e0(s, "OHe", 16);
        char needle[200];
        snprintf(needle, sizeof needle,
                 "VHW leaves 'working as a worker thread', but the innermost of the thread's nosv "
                 "subsystem is 'hungry, waiting for work from the scheduler' (entered at offset "
                 "%llu)", (unsigned long long)hungry);
        if (bad == 1)
            MT_EXPECT(
                &t, "VHW alone", "OVNI-STATE-POP", 0, (int64_t)at,
                "VHW leaves 'working as a worker thread', but the thread's nosv subsystem has "
                "none entered");
        else if (bad == 2)
            MT_EXPECT(&t, "VHW over VSh", "OVNI-STATE-POP", 0, (int64_t)at, needle);
        else
            MT_VALID(&t, "VHw VSh VSf VHW");
        mt_free(&t);
    }
    /* A stack mark popped with another value (ovniemu's chan_pop). */
    for (int bad = 0; bad <= 1; bad++) {
        mt_trace t;
        mt_init(&t);
        mt_stream *s = mt_thread(&t, 2, 1);
        snprintf(s->extra + strlen(s->extra), sizeof s->extra - strlen(s->extra),
                 ", \"mark\": {\"4\": {\"title\": \"phase\", \"chan_type\": \"stack\"}}");
        mt_ohx(s, 10, 0);
        uint64_t push = mt_mark(s, "OM[", 11, 7, 4);
        uint64_t at = mt_mark(s, "OM]", 12, bad ? 8 : 7, 4);
        mt_e0(s, "OHe", 13);
        char needle[200];
        snprintf(needle, sizeof needle,
                 "OM] leaves value 8, but the innermost of the thread's stack of mark type 4 is "
                 "value 7 (entered at offset %llu)", (unsigned long long)push);
        if (bad)
            MT_EXPECT(&t, "OM] of another value", "OVNI-STATE-POP", 0, (int64_t)at, needle);
        else
            MT_VALID(&t, "OM[ OM] of one value");
        mt_free(&t);
    }
    /* A progress state set again (nosv's are set once each), and a nanos6
     * subsystem entered over itself; nosv's subsystems may repeat. */
    for (int bad = 0; bad <= 1; bad++) {
        mt_trace t;
        mt_init(&t);
        mt_stream *s = mt_thread(&t, 2, 1);
        mt_ohx(s, 10, 0);
        uint64_t first = mt_e0(s, "VPr", 11);
        uint64_t at = mt_e0(s, bad ? "VPr" : "VPp", 12);
        mt_e0(s, "VHw", 13);
        mt_e0(s, "VHw", 14);
        mt_e0(s, "VHW", 15);
        mt_e0(s, "VHW", 16);
        mt_e0(s, "OHe", 17);
        char needle[200];
        snprintf(needle, sizeof needle,
                 "VPr sets 'resting' again (set at offset %llu); the thread's nosv progress "
                 "state does not repeat a state", (unsigned long long)first);
        if (bad)
            MT_EXPECT(&t, "VPr twice", "OVNI-STATE-REPEAT", 0, (int64_t)at, needle);
        else
            MT_VALID(&t, "VPr VPp; VHw over VHw");
        mt_free(&t);
    }
    /* A thread starts Progressing: VPp first sets it again (the models'
     * connect sets every thread's progress state, ovniemu's chan_set). */
    for (int bad = 0; bad <= 1; bad++) {
        mt_trace t;
        mt_init(&t);
        mt_stream *s = mt_thread(&t, 2, 1);
        mt_ohx(s, 10, 0);
        uint64_t at = mt_e0(s, bad ? "VPp" : "VPa", 11);
        mt_e0(s, "OHe", 12);
        if (bad)
            MT_EXPECT(&t, "VPp first", "OVNI-STATE-REPEAT", 0, (int64_t)at,
                      "VPp sets 'progressing' again (the state a thread starts in)");
        else
            MT_VALID(&t, "VPa first");
        mt_free(&t);
    }
    for (int bad = 0; bad <= 1; bad++) {
        mt_trace t;
        mt_init(&t);
        mt_stream *s = mt_thread(&t, 2, 1);
        snprintf(s->require, sizeof s->require, "{\"ovni\": \"1.1.0\", \"nanos6\": \"1.1.0\"}");
        mt_ohx(s, 10, 0);
        uint64_t first = mt_e0(s, "6W[", 11), at = 0;
        if (bad) {
            at = mt_e0(s, "6W[", 12);
        } else {
            mt_e0(s, "6Wt", 12);
            mt_e0(s, "6WT", 13);
        }
        mt_e0(s, "6W]", 14);
        mt_e0(s, "OHe", 15);
        char needle[240];
        snprintf(needle, sizeof needle,
                 "6W[ enters 'in the worker loop, looking for tasks' over itself (entered at offset "
                 "%llu); the thread's nanos6 subsystem does not repeat a state",
                 (unsigned long long)first);
        if (bad)
            MT_EXPECT(&t, "6W[ over 6W[", "OVNI-STATE-REPEAT", 0, (int64_t)at, needle);
        else
            MT_VALID(&t, "6W[ 6Wt 6WT 6W]");
        mt_free(&t);
    }
}

static void test_depth_and_end(void)
{
    /* 512 nested states fit, 513 do not (ovniemu's MAX_CHAN_STACK). */
    for (int bad = 0; bad <= 1; bad++) {
        mt_trace t;
        mt_init(&t);
        mt_stream *s = mt_thread(&t, 2, 1);
        uint64_t clock = 10;
        mt_ohx(s, clock++, 0);
        uint64_t last = 0, at = 0;
        for (int i = 0; i < 512; i++)
            last = mt_e0(s, "VHw", clock++);
        if (bad)
            at = mt_e0(s, "VHw", clock++);
        for (int i = 0; i < 512; i++)
            mt_e0(s, "VHW", clock++);
        mt_e0(s, "OHe", clock++);
        char needle[240];
        snprintf(needle, sizeof needle,
                 "VHw enters the thread's nosv subsystem 513 levels deep (innermost: 'working as a "
                 "worker thread', entered at offset %llu); the emulator holds 512",
                 (unsigned long long)last);
        if (bad)
            MT_EXPECT(&t, "513 levels", "OVNI-STATE-DEPTH", 0, (int64_t)at, needle);
        else
            MT_VALID(&t, "512 levels");
        mt_free(&t);
    }
    /* A subsystem still entered when the stream ends (ovniemu -l). */
    for (int bad = 0; bad <= 1; bad++) {
        mt_trace t;
        mt_init(&t);
        mt_stream *s = mt_thread(&t, 2, 1);
        mt_ohx(s, 10, 0);
        uint64_t at = mt_e0(s, "VHw", 11);
        if (!bad)
            mt_e0(s, "VHW", 12);
        mt_e0(s, "OHe", 13);
        char needle[200];
        snprintf(needle, sizeof needle,
                 "thread 2's stream ends with 1 nosv subsystem still entered: 'working as a "
                 "worker thread' (offset %llu)", (unsigned long long)at);
        if (bad)
            MT_EXPECT(&t, "VHw never left", "OVNI-STATE-OPEN-AT-END", 0, (int64_t)at, needle);
        else
            MT_VALID(&t, "VHw left");
        mt_free(&t);
    }
}

/* ---- threads on CPUs ---- */

static void test_cpus(void)
{
    /* CPU indexes of loom l: 0, 1, and -1, its virtual CPU. */
    static const int32_t cpus[] = {0, 1, -1, 2, -2};
    for (size_t i = 0; i < sizeof cpus / sizeof cpus[0]; i++) {
        mt_trace t;
        mt_init(&t);
        mt_stream *s = mt_thread(&t, 2, 1);
        uint64_t at = mt_ohx(s, 10, cpus[i]);
        mt_e0(s, "OHe", 11);
        char what[32], needle[160];
        snprintf(what, sizeof what, "OHx on CPU %d", (int)cpus[i]);
        snprintf(needle, sizeof needle,
                 "OHx names CPU index %d, but loom l has CPUs 0 to 1 (and -1, its virtual CPU)",
                 (int)cpus[i]);
        if (cpus[i] >= 2 || cpus[i] < -1)
            MT_EXPECT(&t, what, "OVNI-CPU-UNKNOWN", 0, (int64_t)at, needle);
        else
            MT_VALID(&t, what);
        mt_free(&t);
    }
    /* OAs to a CPU the loom does not have. */
    for (int bad = 0; bad <= 1; bad++) {
        mt_trace t;
        mt_init(&t);
        mt_stream *s = mt_thread(&t, 2, 1);
        mt_ohx(s, 10, 0);
        uint64_t at = mt_e32(s, "OAs", 11, bad ? 7 : 1);
        mt_e0(s, "OHe", 12);
        if (bad)
            MT_EXPECT(&t, "OAs to CPU 7", "OVNI-CPU-UNKNOWN", 0, (int64_t)at,
                      "OAs names CPU index 7, but loom l has CPUs 0 to 1");
        else
            MT_VALID(&t, "OAs to CPU 1");
        mt_free(&t);
    }
}

static void test_cpu_shared(void)
{
    /* Threads 2 and 3 on CPU 0: at once, or one after the other (clock
     * order across the streams, whatever the path order). */
    for (int bad = 0; bad <= 1; bad++) {
        mt_trace t;
        mt_init(&t);
        mt_stream *a = mt_thread(&t, 2, 1), *b = mt_thread(&t, 3, 1);
        mt_ohx(a, 10, 0);
        mt_e0(a, "OHe", 20);
        uint64_t at = mt_ohx(b, bad ? 15 : 21, 0);
        mt_e0(b, "OHe", 25);
        if (bad) {
            MT_EXPECT(
                &t, "threads 2 and 3 on CPU 0 at once", "OVNI-CPU-SHARED", 1, (int64_t)at,
                "OHx: thread 3 runs on CPU 0 (phyid 0) of loom l, where thread 2 runs already "
                "(since offset 8 of ");
            /* The other thread's stream, by its path in this run's directory. */
            char *needle = mt_needle_with_path(&t, 0,
                                               "(since offset 8 of %s); a physical CPU runs "
                                               "one thread at a time");
            OT_MSG(&t.r, "OVNI-CPU-SHARED", needle);
            free(needle);
        } else {
            MT_VALID(&t, "threads 2 and 3 on CPU 0, one after the other");
        }
        mt_free(&t);
    }
    /* A thread that moves itself (OAs) onto the CPU of another. */
    for (int bad = 0; bad <= 1; bad++) {
        mt_trace t;
        mt_init(&t);
        mt_stream *a = mt_thread(&t, 2, 1), *b = mt_thread(&t, 3, 1);
        mt_ohx(a, 10, 0);
        mt_e0(a, "OHe", 20);
        mt_ohx(b, 11, 1);
        uint64_t at = mt_e32(b, "OAs", 12, bad ? 0 : (uint32_t)-1);
        mt_e0(b, "OHe", 25);
        if (bad)
            MT_EXPECT(
                &t, "thread 3 moves onto CPU 0", "OVNI-CPU-SHARED", 1, (int64_t)at,
                "OAs: thread 3 runs on CPU 0 (phyid 0) of loom l, where thread 2 runs already");
        else
            MT_VALID(&t, "thread 3 moves onto the virtual CPU");
        mt_free(&t);
    }
    /* Each time two threads come to run on one CPU is a finding: thread 3
     * starts on thread 2's CPU, pauses, and resumes there while thread 2
     * still runs. */
    {
        mt_trace t;
        mt_init(&t);
        mt_stream *a = mt_thread(&t, 2, 1), *b = mt_thread(&t, 3, 1);
        mt_ohx(a, 10, 0);
        mt_e0(a, "OHe", 20);
        uint64_t first = mt_ohx(b, 11, 0);
        mt_e0(b, "OHp", 12);
        uint64_t again = mt_e0(b, "OHr", 13);
        mt_e0(b, "OHe", 14);
        MT_EXPECT(&t, "thread 3 on CPU 0 twice", "OVNI-CPU-SHARED OVNI-CPU-SHARED", 1,
                  (int64_t)first,
                  "OHx: thread 3 runs on CPU 0 (phyid 0) of loom l, where thread 2 runs already");
        const ot_diag *d = ot_find(&t.r, "OVNI-CPU-SHARED", "OHr: thread 3 runs on CPU 0");
        CHECK(d && d->offset == again, "OHr on CPU 0 while thread 2 runs:%s", ot_describe(&t.r));
        mt_free(&t);
    }
    /* Other CPUs, the virtual CPU: at once is fine. */
    static const int32_t other[] = {1, -1};
    for (size_t i = 0; i < 2; i++) {
        mt_trace t;
        mt_init(&t);
        mt_stream *a = mt_thread(&t, 2, 1), *b = mt_thread(&t, 3, 1);
        mt_ohx(a, 10, other[i]);
        mt_e0(a, "OHe", 20);
        mt_ohx(b, 15, other[i] == 1 ? 0 : -1);
        mt_e0(b, "OHe", 25);
        MT_VALID(&t, other[i] == 1 ? "threads on CPUs 1 and 0" : "threads on the virtual CPU");
        mt_free(&t);
    }
    /* A paused thread gives its CPU up; resumed, it takes it back. */
    for (int bad = 0; bad <= 1; bad++) {
        mt_trace t;
        mt_init(&t);
        mt_stream *a = mt_thread(&t, 2, 1), *b = mt_thread(&t, 3, 1);
        mt_ohx(a, 10, 0);
        mt_e0(a, "OHp", 12);
        uint64_t at = mt_e0(a, "OHr", bad ? 14 : 17);
        mt_e0(a, "OHe", 20);
        mt_ohx(b, 13, 0);
        mt_e0(b, "OHe", 16);
        if (bad)
            MT_EXPECT(
                &t, "thread 2 resumes on CPU 0 while thread 3 runs there", "OVNI-CPU-SHARED", 0,
                (int64_t)at,
                "OHr: thread 2 runs on CPU 0 (phyid 0) of loom l, where thread 3 runs already");
        else
            MT_VALID(&t, "thread 3 runs while thread 2 is paused");
        mt_free(&t);
    }
}

static void test_affinity(void)
{
    /* OAr names a thread by tid: of no stream (OVNI-THREAD-UNKNOWN), on the
     * CPU it is on (OVNI-AFFINITY-STATE), or moved to the virtual CPU
     * (valid). Thread 3 runs on CPU 1, thread 2 on CPU 0. */
    for (int bad = 0; bad <= 2; bad++) {
        mt_trace t;
        mt_init(&t);
        mt_stream *a = mt_thread(&t, 2, 1), *b = mt_thread(&t, 3, 1);
        mt_ohx(b, 5, 1);
        mt_e0(b, "OHe", 20);
        mt_ohx(a, 10, 0);
        uint64_t at = mt_e32x2(a, "OAr", 12, bad == 2 ? 1u : (uint32_t)-1, bad == 1 ? 99 : 3);
        mt_e0(a, "OHe", 21);
        if (bad == 1)
            MT_EXPECT(&t, "OAr of thread 99", "OVNI-THREAD-UNKNOWN", 0, (int64_t)at,
                      "OAr moves thread 99 to CPU index -1, but no stream of loom l is thread 99");
        else if (bad == 2)
            MT_EXPECT(&t, "OAr to the CPU it is on", "OVNI-AFFINITY-STATE", 0, (int64_t)at,
                      "OAr moves thread 3 to CPU 1 (phyid 1) of loom l, where it is already");
        else
            MT_VALID(&t, "OAr of thread 3 to the virtual CPU");
        mt_free(&t);
    }
    /* OAs before the thread runs: it has no CPU to leave. */
    for (int bad = 0; bad <= 1; bad++) {
        mt_trace t;
        mt_init(&t);
        mt_stream *s = mt_thread(&t, 2, 1);
        uint64_t at = 0;
        if (bad) {
            at = mt_e32(s, "OAs", 5, 1);
            mt_ohx(s, 10, 0);
        } else {
            mt_ohx(s, 5, 0);
            mt_e32(s, "OAs", 10, 1);
        }
        mt_e0(s, "OHe", 11);
        if (bad)
            MT_EXPECT(&t, "OAs before OHx", "OVNI-AFFINITY-STATE", 0, (int64_t)at,
                      "OAs moves the thread to CPU index 1 before it runs (no OHx before it)");
        else
            MT_VALID(&t, "OAs after OHx");
        mt_free(&t);
    }
    /* OAr of a thread that has ended. */
    for (int bad = 0; bad <= 1; bad++) {
        mt_trace t;
        mt_init(&t);
        mt_stream *a = mt_thread(&t, 2, 1), *b = mt_thread(&t, 3, 1);
        mt_ohx(b, 5, 1);
        mt_e0(b, "OHe", bad ? 11 : 13);
        mt_ohx(a, 10, 0);
        uint64_t at = mt_e32x2(a, "OAr", 12, (uint32_t)-1, 3);
        mt_e0(a, "OHe", 21);
        if (bad)
            MT_EXPECT(&t, "OAr of an ended thread", "OVNI-AFFINITY-STATE", 0, (int64_t)at,
                      "OAr moves thread 3 to CPU index -1, but thread 3 has ended (OHe)");
        else
            MT_VALID(&t, "OAr of a running thread");
        mt_free(&t);
    }
}

static const tu_test tests[] = {
    {"a model's events need an active thread", test_thread_inactive},
    {"events while the kernel has the thread off its CPU", test_out_of_cpu},
    {"channels: pops, repeats", test_states},
    {"channels: 512 levels, states left open", test_depth_and_end},
    {"CPU indexes", test_cpus},
    {"two threads on one CPU", test_cpu_shared},
    {"OAs and OAr", test_affinity},
    {NULL, NULL},
};

void register_ovni_model_threads_suite(void) { tu_add_suite("ovni_model_threads", tests); }
