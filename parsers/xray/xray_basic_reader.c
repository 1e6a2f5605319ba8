/*
 * Strict streaming reader of XRay basic-mode ("naive") logs: after the
 * 32-byte header, 32-byte records, each thread's buffer flushed as a block
 * (spec/xray/xray.md, "Basic mode", rulings 13 to 16).
 *
 *   function record:  u16 record type 0, u8 cpu, u8 type, i32 function id,
 *                     u64 tsc, u32 tid, u32 pid (version 3), 8 bytes padding
 *   argument payload: u16 record type 1, 2 bytes padding, i32 function id,
 *                     u32 tid, u32 pid (version 3), u64 argument, 8 bytes padding
 *
 * One pass. The state is per thread (its last TSC and a bounded call stack),
 * in a table of at most MAX_THREADS threads with second-chance eviction, and
 * the call stacks share a budget of frames, so memory does not grow with the
 * log whatever its threads.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/bytes.h"
#include "../common/split.h"
#include "xray_basic.h"
#include "xray_binary.h"
#include "xray_fields.h"

#define REC TC_XRAY_BASIC_RECORD_SIZE
#define MAX_THREADS 4096u                 /* threads whose state is kept at once */
#define INDEX_SIZE (2 * MAX_THREADS)      /* open addressing, at most half full */
#define FRAME_BUDGET (1u << 18)           /* call-stack frames over all threads */
#define FIRST_FRAMES 16u

typedef struct bthread {
    uint32_t tid, pid;     /* pid is 0 before version 3: threads are told by tid */
    int referenced;        /* second chance: looked up since the clock hand passed */
    int have_tsc;
    uint64_t tsc, tsc_off; /* the TSC of its last function record, and where */
    uint32_t depth, cap;   /* open entries held, and room for them */
    uint64_t untracked;    /* open entries beyond what is held */
    int32_t *stack;        /* function ids of the open entries, innermost last */
    uint64_t *stack_off;   /* and their offsets */
    /* A segment (split.h) does not know the thread's state at its start:
     * what it needs of it is kept here for the join (below). */
    uint64_t first_tsc;    /* of its first function record in the segment */
    int32_t *under;        /* exits that found the segment's stack empty, in order */
    uint32_t *under_most;  /* the segment's deepest stack before each of them */
    uint32_t nunder, under_cap;
    uint32_t most;         /* the segment's deepest stack since the last of them */
    int tainted;           /* did what the state before would change (unwinding into it) */
} bthread;

/* What the record before an argument payload was. */
enum prev { PREV_NONE, PREV_RECORD, PREV_UNKNOWN };

typedef struct basic_parser {
    tc_reader *r;
    tc_diag_sink *d;
    const tc_parse_ctx *ctx;
    const tc_xray_header *h;
    int be;
    unsigned version;
    int pedantic; /* the pedantic notes are wanted */

    bthread *threads;  /* nthreads of MAX_THREADS used */
    unsigned nthreads, hand;
    uint16_t *index;   /* slot + 1 of threads, 0: empty */
    uint64_t frames;   /* frames allocated over all threads */
    bthread *cur;      /* the thread of the last function record */

    tc_split_seg *seg; /* NULL: the whole log, or a segment in a known state */
    int seg_mode;      /* a segment of the parallel phase: state before it unknown */
    int abandon;       /* the segment's threads did not fit the table */

    int prev;          /* enum prev */
    int prev_payload;  /* the record before is an argument payload */
    int prev_head;     /* the type of the function record that heads the record before and
                        * the payloads after it (judged at the first payload only); -1: not
                        * known, a payload before a segment */
    uint64_t prev_head_off;
    int32_t prev_func;
    uint32_t prev_tid, prev_pid;
    uint64_t prev_off;
    tc_xray_bins *bins; /* --binary: the programs' maps; NULL: none given */
} basic_parser;

static const char *const type_names[4] = {"Enter", "Exit", "TailExit", "EnterArg"};

/* ---- threads ---- */

static unsigned slot_of(uint32_t tid, uint32_t pid)
{
    uint32_t h = tid * 0x9e3779b1u ^ (pid + 0x7f4a7c15u) * 0x85ebca77u;
    return (h ^ h >> 15) & (INDEX_SIZE - 1);
}

/* Index position of a thread in a table (index over threads), or of the
 * empty slot where it would go. */
static unsigned find_in(const uint16_t *index, const bthread *threads, uint32_t tid,
                        uint32_t pid)
{
    unsigned i = slot_of(tid, pid);
    while (index[i]) {
        const bthread *t = &threads[index[i] - 1];
        if (t->tid == tid && t->pid == pid)
            return i;
        i = (i + 1) & (INDEX_SIZE - 1);
    }
    return i;
}

static unsigned find(const basic_parser *p, uint32_t tid, uint32_t pid)
{
    return find_in(p->index, p->threads, tid, pid);
}

/* Removes index position i, moving later entries of its cluster back so that
 * every lookup still finds them (linear probing without tombstones). */
static void unindex(basic_parser *p, unsigned i)
{
    for (;;) {
        p->index[i] = 0;
        unsigned j = i;
        for (;;) {
            j = (j + 1) & (INDEX_SIZE - 1);
            if (!p->index[j])
                return;
            const bthread *t = &p->threads[p->index[j] - 1];
            unsigned k = slot_of(t->tid, t->pid);
            /* Stays when its home k lies cyclically in (i, j]. */
            if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
                continue;
            p->index[i] = p->index[j];
            i = j;
            break;
        }
    }
}

/* What a thread holds in memory: its frames, and a segment's exits. */
static void free_thread(bthread *t)
{
    free(t->stack);
    free(t->stack_off);
    free(t->under);
    free(t->under_most);
}

static void drop_stack(basic_parser *p, bthread *t)
{
    free_thread(t);
    t->under = NULL;
    t->under_most = NULL;
    t->nunder = t->under_cap = 0;
    p->frames -= t->cap;
    t->stack = NULL;
    t->stack_off = NULL;
    t->cap = t->depth = 0;
    t->untracked = 0;
}

/* A slot for a new thread: a free one, or the first the clock hand finds
 * that was not looked up since it last passed (its state is forgotten). */
static bthread *take_slot(basic_parser *p)
{
    if (p->nthreads < MAX_THREADS)
        return &p->threads[p->nthreads++];
    p->abandon |= p->seg_mode; /* which thread the sequential parse forgets is not known */
    for (;;) {
        bthread *t = &p->threads[p->hand];
        p->hand = (p->hand + 1) % MAX_THREADS;
        if (t->referenced) {
            t->referenced = 0;
            continue;
        }
        unindex(p, find(p, t->tid, t->pid));
        drop_stack(p, t);
        if (p->cur == t)
            p->cur = NULL;
        return t;
    }
}

static bthread *thread(basic_parser *p, uint32_t tid, uint32_t pid)
{
    bthread *t = p->cur;
    if (t && t->tid == tid && t->pid == pid)
        return t; /* records come in blocks of one thread */
    unsigned i = find(p, tid, pid);
    if (p->index[i]) {
        t = &p->threads[p->index[i] - 1];
    } else {
        t = take_slot(p);
        memset(t, 0, sizeof *t);
        t->tid = tid;
        t->pid = pid;
        p->index[find(p, tid, pid)] = (uint16_t)(t - p->threads + 1);
    }
    t->referenced = 1;
    p->cur = t;
    return t;
}

/* Room for cap frames in t's stack; 0 when out of memory. */
static int stack_room(bthread *t, uint32_t cap)
{
    if (cap <= t->cap)
        return 1;
    int32_t *s = realloc(t->stack, cap * sizeof *s);
    if (!s)
        return 0;
    t->stack = s;
    uint64_t *o = realloc(t->stack_off, cap * sizeof *o);
    if (!o)
        return 0;
    t->stack_off = o;
    t->cap = cap;
    return 1;
}

/* Room for one more open entry; 0 when the thread's stack or the budget is
 * full (the entry is then counted, not held). */
static int grow(basic_parser *p, bthread *t)
{
    if (t->depth < t->cap)
        return 1;
    uint32_t cap = t->cap ? 2 * t->cap : FIRST_FRAMES, had = t->cap;
    if (cap > TC_XRAY_MAX_STACK)
        cap = TC_XRAY_MAX_STACK;
    if (cap <= t->cap || p->frames + (cap - t->cap) > FRAME_BUDGET || !stack_room(t, cap))
        return 0;
    p->frames += cap - had;
    return 1;
}

/* ---- records ---- */

/* " (thread T)" or " (thread T, process P)": how a message names a thread. */
static void who(const basic_parser *p, char *buf, size_t size, uint32_t tid, uint32_t pid)
{
    if (p->version >= 3)
        snprintf(buf, size, "thread %" PRIu32 ", process %" PRIu32, tid, pid);
    else
        snprintf(buf, size, "thread %" PRIu32, tid);
}

static void padding_nonzero(basic_parser *p, uint64_t pos, const uint8_t *b, int payload, int at)
{
    char hex[48];
    size_t h = 0;
    if (payload)
        h += (size_t)snprintf(hex, sizeof hex, "%02x %02x | ", b[2], b[3]);
    for (int i = 24; i < REC; i++)
        h += (size_t)snprintf(hex + h, sizeof hex - h, "%s%02x", i > 24 ? " " : "", b[i]);
    tc_report(p->d, TC_RULE_XRAY_BASIC_PADDING_NONZERO, pos + (uint64_t)at,
              at == 2 ? REC - 2 : 8, "%s has padding bytes %s",
              payload ? "argument payload" : "function record", hex);
}

/* Runs on every record: the 8 bytes at the end are tested at once, and the
 * message is made out of line. */
static inline void check_padding(basic_parser *p, uint64_t pos, const uint8_t *b, int payload)
{
    uint64_t tail;
    memcpy(&tail, b + 24, sizeof tail);
    if (payload && (b[2] | b[3]))
        padding_nonzero(p, pos, b, payload, 2);
    else if (tail)
        padding_nonzero(p, pos, b, payload, 24);
}

static void check_pid(basic_parser *p, uint64_t pos, unsigned at, uint32_t pid, int payload)
{
    if (pid != 0 && p->version < 3)
        tc_report(p->d, TC_RULE_XRAY_BASIC_PID_BEFORE_V3, pos + at, 4,
                  "%s has process id %" PRIu32 " in a version %u log; process ids came with "
                  "version 3", payload ? "argument payload" : "function record", pid,
                  p->version);
}

static void mismatch(basic_parser *p, bthread *t, uint64_t pos, unsigned type, int32_t func)
{
    char w[64], mine[160], theirs[160]; /* the functions' names, with --binary */
    who(p, w, sizeof w, t->tid, t->pid);
    tc_xray_bins_label(p->bins, (uint32_t)func, mine, sizeof mine);
    tc_xray_bins_label(p->bins, (uint32_t)t->stack[t->depth - 1], theirs, sizeof theirs);
    tc_report_ex(p->d, TC_RULE_XRAY_BASIC_CALLSTACK_MISMATCH, pos, REC,
                 TC_EXTRA(TC_RELATED(t->stack_off[t->depth - 1]),
                          TC_VALUES(TC_INT("function", func),
                                    TC_INT("open_function", t->stack[t->depth - 1]))),
                 "%s of function %" PRId32 "%s, but the innermost open Enter of %s is of "
                 "function %" PRId32 "%s (at offset %" PRIu64 ")",
                 type_names[type], func, mine, w, t->stack[t->depth - 1], theirs,
                 t->stack_off[t->depth - 1]);
    /* Unwind to the function if it is open further down. */
    for (uint32_t i = t->depth - 1; i-- > 0;)
        if (t->stack[i] == func) {
            t->depth = i;
            return;
        }
    t->tainted |= p->seg_mode; /* it may be open below the segment's start */
}

/* An exit with the segment's stack empty: the state before decides. */
static void underflow(bthread *t, int32_t func)
{
    if (t->nunder == t->under_cap) {
        uint32_t cap = t->under_cap ? 2 * t->under_cap : 16;
        int32_t *u = cap <= 2 * TC_XRAY_MAX_STACK ? realloc(t->under, cap * sizeof *u) : NULL;
        if (u)
            t->under = u;
        uint32_t *m = u ? realloc(t->under_most, cap * sizeof *m) : NULL;
        if (!m) { /* more than any stack the state before can hold */
            t->tainted = 1;
            return;
        }
        t->under_most = m;
        t->under_cap = cap;
    }
    t->under_most[t->nunder] = t->most;
    t->under[t->nunder++] = func;
    t->most = 0;
}

static void call_stack_slow(basic_parser *p, bthread *t, uint64_t pos, unsigned type,
                            int32_t func)
{
    if (type == 0 || type == 3) {
        if (!t->untracked && grow(p, t)) {
            t->stack[t->depth] = func;
            t->stack_off[t->depth] = pos;
            t->depth++;
            if (t->depth > t->most)
                t->most = t->depth;
        } else {
            t->untracked++;
            t->tainted |= p->seg_mode;
        }
        return;
    }
    if (t->untracked) {
        t->untracked--;
    } else if (t->depth > 0 && t->stack[t->depth - 1] == func) {
        t->depth--;
    } else if (t->depth > 0) {
        mismatch(p, t, pos, type, func);
    } else if (p->seg_mode) {
        underflow(t, func);
    }
}

/* What call_stack_slow does, without a data-dependent branch in the common
 * case (no untracked entries, room for one more frame, and an exit that
 * matches or finds the stack empty outside a segment): entries and exits
 * of a real program alternate unpredictably, and a mispredicted branch costs
 * more than the rest of the record. */
static inline void call_stack(basic_parser *p, bthread *t, uint64_t pos, unsigned type,
                              int32_t func)
{
    uint32_t d = t->depth;
    if (__builtin_expect(t->untracked != 0 || d >= t->cap, 0)) {
        call_stack_slow(p, t, pos, type, func);
        return;
    }
    unsigned is_exit = (type ^ (type >> 1)) & 1u; /* 1 and 2; 0 and 3 enter */
    unsigned open = d != 0;
    /* An exit that does not match, or that finds a segment's stack empty,
     * is rare: it leaves through a predicted branch, and the depth does not
     * wait for the load of the innermost frame. */
    if (__builtin_expect(is_exit & (open ? t->stack[d - 1] != func : (unsigned)p->seg_mode), 0)) {
        call_stack_slow(p, t, pos, type, func);
        return;
    }
    t->stack[d] = func; /* an entry's frame; above the top, harmless for an exit */
    t->stack_off[d] = pos;
    d = d + 1u - is_exit - (is_exit & open);
    t->depth = d;
    t->most = (!is_exit & (d > t->most)) ? d : t->most;
}

static void emit(basic_parser *p, tc_xray_event *ev)
{
    ev->header = p->h;
    p->ctx->on_event(p->ctx->user, ev);
}

static void function_record(basic_parser *p, uint64_t pos, const uint8_t *b)
{
    const int be = p->be;
    unsigned cpu = b[2], type = b[3];
    int32_t func = (int32_t)tc_rd32(b + 4, be);
    uint64_t tsc = tc_rd64(b + 8, be);
    uint32_t tid = tc_rd32(b + 16, be), pid = tc_rd32(b + 20, be);
    if (p->pedantic) {
        check_pid(p, pos, 20, pid, 0);
        check_padding(p, pos, b, 0);
    }
    if (type > 3) {
        tc_report(p->d, TC_RULE_XRAY_BASIC_FUNCTION_TYPE, pos + 3, 1,
                  "function record of function %" PRId32 " (thread %" PRIu32 ") has type %u; "
                  "types 0 (Enter) to 3 (EnterArg) are defined", func, tid, type);
        p->prev = PREV_UNKNOWN;
        return;
    }
    if (type == 2 && p->version == 1)
        tc_report(p->d, TC_RULE_XRAY_BASIC_TAIL_EXIT_VERSION, pos + 3, 1,
                  "TailExit of function %" PRId32 " (thread %" PRIu32 ") in a version 1 log; "
                  "tail exits came with version 2", func, tid);
    bthread *t = thread(p, tid, p->version >= 3 ? pid : 0);
    if (!t->have_tsc)
        t->first_tsc = tsc;
    if (t->have_tsc && tsc < t->tsc) {
        char w[64];
        who(p, w, sizeof w, t->tid, t->pid);
        tc_report_ex(p->d, TC_RULE_XRAY_BASIC_TSC_BACKWARDS, pos + 8, 8,
                     TC_EXTRA(TC_RELATED(t->tsc_off),
                              TC_VALUES(TC_UINT("tsc", tsc), TC_UINT("previous_tsc", t->tsc))),
                     "TSC %" PRIu64 " of %s is below the %" PRIu64
                     " of its record at offset %" PRIu64 " (%" PRIu64 " ticks back)",
                     tsc, w, t->tsc, t->tsc_off, t->tsc - tsc);
    }
    t->tsc = tsc;
    t->tsc_off = pos;
    t->have_tsc = 1;
    call_stack(p, t, pos, type, func);
    if (p->bins)
        tc_xray_bins_record(p->bins, p->d, pos, REC, type, (uint32_t)func);
    p->prev = PREV_RECORD;
    p->prev_payload = 0;
    p->prev_head = (int)type;
    p->prev_head_off = pos;
    p->prev_func = func;
    p->prev_tid = tid;
    p->prev_pid = pid;
    p->prev_off = pos;
    if (p->ctx->on_event) {
        tc_xray_event ev = {.kind = TC_XRAY_EV_BASIC_FUNCTION, .offset = pos, .cpu = (uint16_t)cpu,
                            .tsc = tsc, .tid = (int32_t)tid, .pid = (int32_t)pid,
                            .action = type, .func_id = (uint32_t)func,
                            .named = p->bins != NULL,
                            .func_name = tc_xray_bins_name(p->bins, (uint32_t)func)};
        emit(p, &ev);
    }
}

/* An argument payload whose function, thread or process is not the record's
 * before it. */
static void misplaced_payload(basic_parser *p, uint64_t pos, int32_t func, uint32_t tid,
                              uint32_t pid)
{
    const char *before = p->prev_payload ? "an argument payload" : "a function record";
    int f = func != p->prev_func, th = tid != p->prev_tid;
    char mine[96] = "", theirs[96] = "", same[96] = "";
    size_t m = 0, o = 0, s = 0;
#define PART(diff, fmt, a, b)                                                                    \
    do {                                                                                         \
        if (diff) {                                                                              \
            m += (size_t)snprintf(mine + m, sizeof mine - m, "%s" fmt, m ? ", " : "", a);        \
            o += (size_t)snprintf(theirs + o, sizeof theirs - o, "%s" fmt, o ? ", " : "", b);    \
        } else {                                                                                 \
            s += (size_t)snprintf(same + s, sizeof same - s, "%s" fmt, s ? ", " : "", a);        \
        }                                                                                        \
    } while (0)
    PART(f, "function %" PRId32, func, p->prev_func);
    PART(th, "thread %" PRIu32, tid, p->prev_tid);
    if (p->version >= 3)
        PART(pid != p->prev_pid, "process %" PRIu32, pid, p->prev_pid);
#undef PART
    tc_report_ex(p->d, TC_RULE_XRAY_BASIC_ARG_PLACEMENT, pos, REC,
                 TC_EXTRA(TC_RELATED(p->prev_off)),
                 "argument payload of %s follows %s of %s (%s%sat offset %" PRIu64 ")", mine,
                 before, theirs, same, s ? ", " : "", p->prev_off);
}

static void argument_payload(basic_parser *p, uint64_t pos, const uint8_t *b)
{
    const int be = p->be;
    int32_t func = (int32_t)tc_rd32(b + 4, be);
    uint32_t tid = tc_rd32(b + 8, be), pid = tc_rd32(b + 12, be);
    uint64_t arg = tc_rd64(b + 16, be);
    if (p->pedantic) {
        check_pid(p, pos, 12, pid, 1);
        check_padding(p, pos, b, 1);
    }
    if (p->prev == PREV_NONE)
        tc_report(p->d, TC_RULE_XRAY_BASIC_ARG_PLACEMENT, pos, REC,
                  "argument payload of function %" PRId32 " (thread %" PRIu32 ") is the first "
                  "record of the log; a payload follows the record of its function", func, tid);
    else if (p->prev == PREV_RECORD &&
             (func != p->prev_func || tid != p->prev_tid ||
              (p->version >= 3 && pid != p->prev_pid)))
        misplaced_payload(p, pos, func, tid, pid);
    else if (p->prev == PREV_RECORD && p->prev_head != 3 /* EnterArg */ && !p->prev_payload)
        /* Ruling 17: compiler-rt writes payloads only after an EnterArg
         * record; LLVM's reader takes one after any record of its function.
         * The payloads after this one follow it: one finding for them all. */
        tc_report_ex(p->d, TC_RULE_XRAY_BASIC_ARG_PLACEMENT, pos, REC,
                     TC_EXTRA(TC_RELATED(p->prev_head_off)),
                     "argument payload of function %" PRId32 " (thread %" PRIu32 ") follows %s "
                     "%s record (type %d) of its function at offset %" PRIu64 "; a payload "
                     "follows an EnterArg record (type 3) or another payload of it",
                     func, tid, p->prev_head == 2 ? "a" : "an", type_names[p->prev_head], p->prev_head,
                     p->prev_head_off);
    p->prev = PREV_RECORD;
    p->prev_payload = 1;
    p->prev_func = func;
    p->prev_tid = tid;
    p->prev_pid = pid;
    p->prev_off = pos;
    if (p->ctx->on_event) {
        tc_xray_event ev = {.kind = TC_XRAY_EV_BASIC_ARG, .offset = pos, .tid = (int32_t)tid,
                            .pid = (int32_t)pid, .func_id = (uint32_t)func, .value = arg};
        emit(p, &ev);
    }
}

static void record(basic_parser *p, uint64_t pos, const uint8_t *b)
{
    unsigned rtype = tc_rd16(b, p->be);
    if (TC_FIELDS_ON(p->d))
        tc_xray_fields_basic(p->d, pos, b, p->be, p->version,
                             tc_xray_bins_name(p->bins, tc_rd32(b + 4, p->be)));
    if (rtype == TC_XRAY_BASIC_FUNCTION) {
        function_record(p, pos, b);
    } else if (rtype == TC_XRAY_BASIC_ARG_PAYLOAD) {
        argument_payload(p, pos, b);
    } else {
        tc_report(p->d, TC_RULE_XRAY_BASIC_RECORD_TYPE, pos, 2,
                  "record type %u (0x%04x); 0 (function record) and 1 (argument payload) are "
                  "defined", rtype, rtype);
        p->prev = PREV_UNKNOWN;
    }
}

/* ---- the fast path ----
 *
 * Records that need nothing but the common checks (function records of a
 * known thread, types 0 to 3, the TSC not going back, a call stack on its
 * branch-free path; argument payloads right after an EnterArg or another
 * payload of their function) are taken in a loop of their own, without a
 * call per record and without the per-record tests of the general path
 * (views, --binary, events, --pedantic; the caller makes sure none is on).
 * It stops before the first record that needs more, which record() then
 * takes, so findings and state are what record() alone would give. The
 * switch to another thread (every six records or so in a real log, whose
 * threads flush their buffers in turns) stays in the loop. */

/* What fast_run keeps of the current thread in locals (see there). */
typedef struct thread_hot {
    uint32_t depth, most;
    uint64_t tsc, tsc_off;
} thread_hot;

static inline thread_hot hot_load(const bthread *t)
{
    return (thread_hot){t->depth, t->most, t->tsc, t->tsc_off};
}

static inline void hot_store(bthread *t, thread_hot h)
{
    t->depth = h.depth;
    t->most = h.most;
    t->tsc = h.tsc;
    t->tsc_off = h.tsc_off;
}

/* What the record before an argument payload says of it (the p->prev*
 * fields), set as record() would after the run's records b[0..n) at pos:
 * from the last function record among them and the payloads after it. The
 * run's first record is a function record. */
static void fast_run_prev(basic_parser *p, const uint8_t *b, size_t n, uint64_t pos, int be)
{
    size_t k = n - 1;
    while (tc_rd16(b + k * REC, be) == TC_XRAY_BASIC_ARG_PAYLOAD)
        k--;
    const uint8_t *f = b + k * REC;
    p->prev = PREV_RECORD;
    p->prev_payload = 0;
    p->prev_head = f[3];
    p->prev_head_off = pos + k * REC;
    p->prev_func = (int32_t)tc_rd32(f + 4, be);
    p->prev_tid = tc_rd32(f + 16, be);
    p->prev_pid = tc_rd32(f + 20, be);
    p->prev_off = pos + k * REC;
    if (k + 1 < n) { /* payloads after it: their pid (ignored before version 3) */
        p->prev_payload = 1;
        p->prev_pid = tc_rd32(b + (n - 1) * REC + 12, be);
        p->prev_off = pos + (n - 1) * REC;
    }
}

static inline __attribute__((always_inline)) size_t
fast_run(basic_parser *p, const uint8_t *b, size_t n, uint64_t pos, const int be)
{
    const int v3 = p->version >= 3, v1 = p->version == 1;
    /* The current thread's state lives in locals while its records last,
     * written back at a switch and at the end: kept in the thread, the
     * depth and the TSC would wait each record for the store of the record
     * before (the stack's frames may alias them). What an argument payload
     * is judged against is the record before it, read where it lies; the
     * p->prev* fields are set once at the end. */
    bthread *t = p->cur;
    thread_hot h = t ? hot_load(t) : (thread_hot){0, 0, 0, 0};
    const uint8_t *const first = b;
    const uint64_t first_pos = pos;
    size_t i = 0;
    for (; i < n; i++, b += REC, pos += REC) {
        unsigned rtype = tc_rd16(b, be);
        if (rtype == TC_XRAY_BASIC_ARG_PAYLOAD) {
            /* After a record of the run (the first payload of a run is
             * record()'s): an EnterArg or a payload of the same function,
             * thread and process. */
            if (i == 0)
                break;
            const uint8_t *q = b - REC;
            int after_payload = tc_rd16(q, be) == TC_XRAY_BASIC_ARG_PAYLOAD;
            unsigned at = after_payload ? 8 : 16;
            if (tc_rd32(b + 4, be) != tc_rd32(q + 4, be) ||
                tc_rd32(b + 8, be) != tc_rd32(q + at, be) ||
                (v3 && tc_rd32(b + 12, be) != tc_rd32(q + at + 4, be)) ||
                (!after_payload && q[3] != 3))
                break;
            continue;
        }
        unsigned type = b[3];
        if (rtype != TC_XRAY_BASIC_FUNCTION || type > 3 || (type == 2 && v1))
            break;
        int32_t func = (int32_t)tc_rd32(b + 4, be);
        uint64_t tsc = tc_rd64(b + 8, be);
        uint32_t tid = tc_rd32(b + 16, be), key = v3 ? tc_rd32(b + 20, be) : 0;
        if (!t || t->tid != tid || t->pid != key) {
            /* What thread() does for a thread it knows; a new one is
             * record()'s. */
            unsigned at = find(p, tid, key);
            if (!p->index[at])
                break;
            if (t)
                hot_store(t, h);
            t = &p->threads[p->index[at] - 1];
            t->referenced = 1;
            p->cur = t;
            h = hot_load(t);
        }
        uint32_t d = h.depth;
        if (!t->have_tsc || tsc < h.tsc || t->untracked != 0 || d >= t->cap)
            break;
        /* d < cap: the stack is there, and stack[d - open] is in it. */
        unsigned is_exit = (type ^ (type >> 1)) & 1u, open = d != 0;
        unsigned differs = t->stack[d - open] != func;
        if (is_exit & ((open & differs) | ((open ^ 1u) & (unsigned)p->seg_mode)))
            break;
        h.tsc = tsc;
        h.tsc_off = pos;
        t->stack[d] = func; /* as call_stack() */
        t->stack_off[d] = pos;
        d = d + 1u - is_exit - (is_exit & open);
        h.depth = d;
        h.most = (!is_exit & (d > h.most)) ? d : h.most;
    }
    if (t)
        hot_store(t, h);
    if (i)
        fast_run_prev(p, first, i, first_pos, be);
    return i;
}

static __attribute__((noinline)) size_t fast_run_le(basic_parser *p, const uint8_t *b, size_t n,
                                                    uint64_t pos)
{
    return fast_run(p, b, n, pos, 0);
}

static __attribute__((noinline)) size_t fast_run_be(basic_parser *p, const uint8_t *b, size_t n,
                                                    uint64_t pos)
{
    return fast_run(p, b, n, pos, 1);
}

/* ---- segments (split.h) ----
 *
 * A segment starts at a record: the record before it says what an argument
 * payload is judged against. Its threads start empty; what they did before
 * is the state the join brings: their TSCs, their open entries (exits that
 * find the segment's stack empty pop them, in order) and the table's size
 * and frames. The join accepts a segment when that state would change none
 * of its findings, which is so for every sound log. */

typedef struct basic_carry {
    bthread *threads; /* the segment's, in the order they first appeared */
    unsigned n;
    int abandon;
} basic_carry;

/* What the parse before leaves: every thread's state, in the order the
 * threads first appeared (the table's order until it is full). */
typedef struct basic_state {
    bthread *threads; /* MAX_THREADS of them */
    uint16_t *index;
    unsigned n;
    uint64_t frames;
} basic_state;

/* The record before a segment, for the argument payload check. */
static void prev_of(basic_parser *p, uint64_t pos, const uint8_t *b)
{
    const int be = p->be;
    unsigned rtype = tc_rd16(b, be);
    p->prev = PREV_UNKNOWN;
    if (rtype == TC_XRAY_BASIC_FUNCTION && b[3] <= 3) {
        p->prev_payload = 0;
        p->prev_head = b[3];
        p->prev_head_off = pos;
        p->prev_tid = tc_rd32(b + 16, be);
        p->prev_pid = tc_rd32(b + 20, be);
    } else if (rtype == TC_XRAY_BASIC_ARG_PAYLOAD) {
        p->prev_payload = 1;
        p->prev_head = -1;
        p->prev_tid = tc_rd32(b + 8, be);
        p->prev_pid = tc_rd32(b + 12, be);
    } else {
        return;
    }
    p->prev = PREV_RECORD;
    p->prev_func = (int32_t)tc_rd32(b + 4, be);
    p->prev_off = pos;
}

/* Moves to the segment's first record; 0 when it has none before its stop. */
static int segment_start(basic_parser *p)
{
    tc_reader *r = p->r;
    tc_split_seg *seg = p->seg;
    uint64_t at = seg->start > TC_XRAY_HEADER_SIZE ? seg->start : TC_XRAY_HEADER_SIZE;
    at = TC_XRAY_HEADER_SIZE + (at - TC_XRAY_HEADER_SIZE + REC - 1) / REC * REC;
    if (at >= seg->stop)
        return 0;
    if (at > TC_XRAY_HEADER_SIZE) {
        uint64_t want = at - REC - tc_pos(r);
        const uint8_t *b;
        if (tc_skip(r, want) < want || !(b = tc_need(r, REC)))
            return 0;
        prev_of(p, at - REC, b);
        tc_advance(r, REC);
    }
    seg->began = at;
    return 1;
}

static uint32_t cap_for(uint64_t depth)
{
    if (depth == 0)
        return 0;
    uint32_t cap = FIRST_FRAMES;
    while (cap < depth && cap < TC_XRAY_MAX_STACK)
        cap *= 2;
    return cap < TC_XRAY_MAX_STACK ? cap : TC_XRAY_MAX_STACK;
}

/* The state's entry of a thread, or NULL with *where (may be NULL) its
 * index position. */
static bthread *state_find(basic_state *st, uint32_t tid, uint32_t pid, unsigned *where)
{
    unsigned i = find_in(st->index, st->threads, tid, pid);
    if (where)
        *where = i;
    return st->index[i] ? &st->threads[st->index[i] - 1] : NULL;
}

static void state_free(void *state)
{
    basic_state *st = state;
    if (!st)
        return;
    for (unsigned i = 0; i < st->n; i++)
        free_thread(&st->threads[i]);
    free(st->threads);
    free(st->index);
    free(st);
}

static void carry_free(void *carry)
{
    basic_carry *c = carry;
    if (!c)
        return;
    for (unsigned i = 0; i < c->n; i++)
        free_thread(&c->threads[i]);
    free(c->threads);
    free(c);
}

/* The deepest stack of a thread that held depth frames when segment s
 * started: after its k-th exit that found the segment's stack empty, the
 * stack holds what is left of those frames (exits past them change
 * nothing) and the segment's own. */
static uint64_t deepest(uint32_t depth, const bthread *s)
{
    uint64_t most = 0;
    for (uint32_t k = 0; k <= s->nunder; k++) {
        uint64_t left = depth > k ? depth - k : 0;
        uint64_t own = k < s->nunder ? s->under_most[k] : s->most;
        if (left + own > most)
            most = left + own;
    }
    return most;
}

static int join(void **state, const tc_split_seg *seg)
{
    const basic_carry *c = seg->carry;
    if (!c || c->abandon)
        return -1;
    basic_state *st = *state;
    if (!st) {
        if (!(st = calloc(1, sizeof *st)) || !(st->threads = calloc(MAX_THREADS, sizeof *st->threads)) ||
            !(st->index = calloc(INDEX_SIZE, sizeof *st->index))) {
            state_free(st);
            return -1;
        }
        *state = st;
    }
    /* First whether the state changes any finding, without changing it. */
    unsigned fresh = 0;
    uint64_t frames = st->frames;
    for (unsigned i = 0; i < c->n; i++) {
        const bthread *s = &c->threads[i];
        if (s->tainted || s->untracked)
            return 0;
        const bthread *t = state_find(st, s->tid, s->pid, NULL);
        uint32_t depth = t ? t->depth : 0;
        fresh += !t;
        if (t && t->have_tsc && s->have_tsc && s->first_tsc < t->tsc)
            return 0; /* XRAY-BASIC-TSC-BACKWARDS at its first record */
        for (uint32_t k = 0; k < s->nunder && depth > 0; k++, depth--)
            if (t->stack[depth - 1] != s->under[k])
                return 0; /* XRAY-BASIC-CALLSTACK-MISMATCH */
        uint64_t most = deepest(t ? t->depth : 0, s);
        if (most > TC_XRAY_MAX_STACK)
            return 0;
        uint32_t cap = t ? t->cap : 0, want = cap_for(most);
        frames += want > cap ? want - cap : 0;
    }
    if (st->n + fresh > MAX_THREADS || frames > FRAME_BUDGET)
        return 0; /* the table forgets or the budget refuses: on one thread */
    /* Then the state at the segment's end. */
    for (unsigned i = 0; i < c->n; i++) {
        const bthread *s = &c->threads[i];
        unsigned where;
        bthread *t = state_find(st, s->tid, s->pid, &where);
        if (!t) {
            t = &st->threads[st->n++];
            t->tid = s->tid;
            t->pid = s->pid;
            st->index[where] = (uint16_t)(t - st->threads + 1);
        }
        uint64_t most = deepest(t->depth, s);
        uint32_t pops = s->nunder < t->depth ? s->nunder : t->depth;
        uint32_t cap = cap_for(most) > t->cap ? cap_for(most) : t->cap;
        if (!stack_room(t, cap))
            return -1;
        t->depth -= pops;
        if (s->depth) {
            memcpy(t->stack + t->depth, s->stack, s->depth * sizeof *t->stack);
            memcpy(t->stack_off + t->depth, s->stack_off, s->depth * sizeof *t->stack_off);
            t->depth += s->depth;
        }
        if (s->have_tsc) {
            t->have_tsc = 1;
            t->tsc = s->tsc;
            t->tsc_off = s->tsc_off;
        }
    }
    st->frames = frames;
    return 1;
}

/* A parse from a known state: the threads as the parse before left them,
 * in the same places of the table. */
static int load_state(basic_parser *p, const basic_state *st)
{
    for (unsigned i = 0; i < st->n; i++) {
        const bthread *from = &st->threads[i];
        bthread *t = &p->threads[i];
        *t = *from;
        t->stack = NULL;
        t->stack_off = NULL;
        t->cap = 0;
        t->referenced = 1;
        if (!stack_room(t, from->cap))
            return -1;
        if (from->depth) {
            memcpy(t->stack, from->stack, from->depth * sizeof *t->stack);
            memcpy(t->stack_off, from->stack_off, from->depth * sizeof *t->stack_off);
        }
        p->index[find(p, t->tid, t->pid)] = (uint16_t)(i + 1);
    }
    p->nthreads = st->n;
    p->frames = st->frames;
    return 0;
}

void tc_xray_basic_records(tc_reader *r, const tc_parse_ctx *ctx, const tc_xray_header *h,
                           tc_split_seg *seg)
{
    basic_parser *p = calloc(1, sizeof *p);
    bthread *threads = calloc(MAX_THREADS, sizeof *threads);
    uint16_t *index = calloc(INDEX_SIZE, sizeof *index);
    if (!p || !threads || !index) {
        free(p);
        free(threads);
        free(index);
        tc_diag_fail(ctx->diags, "out of memory");
        return;
    }
    p->r = r;
    p->d = ctx->diags;
    p->ctx = ctx;
    p->h = h;
    p->be = h->big_endian;
    p->version = h->version;
    p->pedantic = tc_rule_enabled(p->d, TC_RULE_XRAY_BASIC_PADDING_NONZERO);
    p->threads = threads;
    p->index = index;
    p->seg = seg;
    p->seg_mode = seg && !seg->state;
    if (seg && seg->state && load_state(p, seg->state) != 0) {
        tc_diag_fail(ctx->diags, "out of memory");
        goto done;
    }
    if (seg && seg->start > 0 && !segment_start(p))
        goto done;
    p->bins = tc_xray_bins_open(ctx);
    /* The fast path: nothing that wants every record (see fast_run). */
    const int fast = !p->pedantic && !p->bins && !ctx->on_event && !TC_FIELDS_ON(p->d);
    for (;;) {
        if (seg && tc_pos(r) >= seg->stop) {
            seg->ended = tc_pos(r);
            goto done;
        }
        const uint8_t *b = tc_need(r, REC);
        if (!b)
            break;
        /* Every whole record the window holds, without asking again. */
        size_t n = tc_avail(r) / REC;
        uint64_t pos = tc_pos(r);
        if (seg && seg->stop != TC_SPLIT_NONE && (seg->stop - pos + REC - 1) / REC < n)
            n = (size_t)((seg->stop - pos + REC - 1) / REC);
        for (size_t i = 0; i < n; i++) {
            if (fast) {
                i += p->be ? fast_run_be(p, b + i * REC, n - i, pos + i * REC)
                           : fast_run_le(p, b + i * REC, n - i, pos + i * REC);
                if (i == n)
                    break;
            }
            record(p, pos + i * REC, b + i * REC);
        }
        tc_advance(r, n * REC);
    }
    size_t rest = tc_avail(r);
    if (rest && !r->failed) {
        uint64_t records = (tc_pos(r) - TC_XRAY_HEADER_SIZE) / REC;
        tc_report(p->d, TC_RULE_XRAY_BASIC_FILE_SIZE, tc_pos(r), rest,
                  "the log ends %zu bytes into a record: after the 32-byte header it has %"
                  PRIu64 " whole 32-byte records and %zu bytes more", rest, records, rest);
        tc_advance(r, rest);
    }
done:
    if (p->seg_mode) { /* the threads go to the join */
        basic_carry *c = malloc(sizeof *c);
        if (c) {
            *c = (basic_carry){threads, p->nthreads, p->abandon};
            seg->carry = c;
            threads = NULL;
        }
    }
    tc_xray_bins_close(p->bins);
    for (unsigned i = 0; threads && i < p->nthreads; i++)
        drop_stack(p, &threads[i]);
    free(index);
    free(threads);
    free(p);
}

static void parse_segment(tc_reader *r, const tc_parse_ctx *ctx, tc_split_seg *seg)
{
    tc_xray_basic_parse_segment(r, ctx, seg);
}

const tc_format_split tc_xray_basic_split = {
    .parse = parse_segment, .join = join, .free_carry = carry_free, .free_state = state_free,
    .one_thread = tc_xray_bins_one_thread,
};
