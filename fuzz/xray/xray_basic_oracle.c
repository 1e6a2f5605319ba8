/* A reading of XRay basic-mode logs from the spec: see xray_basic_oracle.h. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../common/harness.h"
#include "xray_basic_oracle.h"

#define REC 32u
/* Beyond these the parser's bounded state (4096 threads at once, 2^18
 * frames over all threads) may forget: stacks and TSCs are judged on logs
 * that cannot reach them. */
#define JUDGED_RECORDS 14000u

typedef struct thread {
    uint32_t tid, pid;
    int have_tsc;
    uint64_t tsc;
    uint32_t depth;
    uint64_t untracked;
    int32_t *stack; /* TC_XRAY_MAX_STACK frames, innermost last */
} thread;

typedef struct reading {
    const uint8_t *p;
    int be, pedantic, judge_threads;
    unsigned version;
    hx_expect x;
    thread *t;
    size_t nt, tcap;
} reading;

static void expect(reading *g, tc_rule_id rule, uint64_t offset, uint64_t length)
{
    hx_expect_add(&g->x, rule, offset, length);
}

static int basic_rule(tc_rule_id r)
{
    return hx_starts_with(tc_rules[r].id, "XRAY-BASIC-");
}

/* Stacks and TSCs are not judged on logs that could reach the parser's
 * bounds (a harness is a program: a global is fine here). */
static int g_judge_threads;

static int judged_rule(tc_rule_id r)
{
    return basic_rule(r) && (g_judge_threads || (r != TC_RULE_XRAY_BASIC_TSC_BACKWARDS &&
                                                 r != TC_RULE_XRAY_BASIC_CALLSTACK_MISMATCH));
}

static uint64_t rd(const uint8_t *b, int n, int be)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v |= (uint64_t)b[be ? n - 1 - i : i] << (8 * i);
    return v;
}

/* Threads are told by thread id, and from version 3 by process id too. */
static thread *thread_of(reading *g, uint32_t tid, uint32_t pid)
{
    for (size_t i = 0; i < g->nt; i++)
        if (g->t[i].tid == tid && g->t[i].pid == pid)
            return &g->t[i];
    if (g->nt == g->tcap) {
        g->tcap = g->tcap ? 2 * g->tcap : 16;
        g->t = realloc(g->t, g->tcap * sizeof *g->t);
        FUZZ_CHECK_ALLOC(g->t);
    }
    thread *t = &g->t[g->nt++];
    memset(t, 0, sizeof *t);
    t->tid = tid;
    t->pid = pid;
    t->stack = malloc(TC_XRAY_MAX_STACK * sizeof *t->stack);
    FUZZ_CHECK_ALLOC(t->stack);
    return t;
}

/* Ruling 15: the thread's call stack (1024 frames; entries beyond, and
 * after one beyond, are only counted). Returns whether the exit mismatches. */
static int call_stack(thread *t, unsigned type, int32_t func)
{
    if (type == 0 || type == 3) {
        if (!t->untracked && t->depth < TC_XRAY_MAX_STACK)
            t->stack[t->depth++] = func;
        else
            t->untracked++;
        return 0;
    }
    if (t->untracked) {
        t->untracked--;
        return 0;
    }
    if (t->depth == 0)
        return 0; /* logging may start mid-stack */
    if (t->stack[t->depth - 1] == func) {
        t->depth--;
        return 0;
    }
    for (uint32_t i = t->depth - 1; i-- > 0;) /* unwind to it when open further down */
        if (t->stack[i] == func) {
            t->depth = i;
            break;
        }
    return 1;
}

/* The pedantic notes of a record: a process id before version 3, padding
 * that is not zero (the payload's two bytes after its type first). */
static void pedantic_notes(reading *g, uint64_t pos, const uint8_t *b, int payload)
{
    if (!g->pedantic)
        return;
    unsigned pid_at = payload ? 12 : 20;
    if (g->version < 3 && rd(b + pid_at, 4, g->be) != 0)
        expect(g, TC_RULE_XRAY_BASIC_PID_BEFORE_V3, pos + pid_at, 4);
    int tail = 0;
    for (unsigned i = 24; i < REC; i++)
        tail |= b[i];
    if (payload && (b[2] | b[3]))
        expect(g, TC_RULE_XRAY_BASIC_PADDING_NONZERO, pos + 2, REC - 2);
    else if (tail)
        expect(g, TC_RULE_XRAY_BASIC_PADDING_NONZERO, pos + 24, 8);
}

void xbo_check(const xr_run *run, const uint8_t *p, size_t n, int pedantic)
{
    if (!run->have_header || run->header.type != 0 || n < TC_XRAY_HEADER_SIZE)
        return;
    reading g = {.p = p, .be = run->header.big_endian, .pedantic = pedantic,
                 .version = run->header.version};
    size_t records = (n - TC_XRAY_HEADER_SIZE) / REC;
    g.judge_threads = records <= JUDGED_RECORDS;
    /* What came before an argument payload: nothing, a record whose fields
     * it must share, or a record of no known type (nothing to compare). */
    enum { NONE, RECORD, UNKNOWN } prev = NONE;
    int32_t prev_func = 0;
    uint32_t prev_tid = 0, prev_pid = 0;
    unsigned prev_type = 0; /* the function record's type; payloads: PAYLOAD */
    enum { PAYLOAD = 4 };
    for (size_t k = 0; k < records; k++) {
        uint64_t pos = TC_XRAY_HEADER_SIZE + (uint64_t)k * REC;
        const uint8_t *b = p + pos;
        unsigned rtype = (unsigned)rd(b, 2, g.be);
        if (rtype > 1) {
            expect(&g, TC_RULE_XRAY_BASIC_RECORD_TYPE, pos, 2);
            prev = UNKNOWN;
            continue;
        }
        int payload = rtype == 1;
        int32_t func = (int32_t)rd(b + 4, 4, g.be);
        uint32_t tid = (uint32_t)rd(b + (payload ? 8 : 16), 4, g.be);
        uint32_t pid = (uint32_t)rd(b + (payload ? 12 : 20), 4, g.be);
        pedantic_notes(&g, pos, b, payload);
        if (payload) {
            if (prev == NONE || (prev == RECORD && (func != prev_func || tid != prev_tid ||
                                                    (g.version >= 3 && pid != prev_pid))))
                expect(&g, TC_RULE_XRAY_BASIC_ARG_PLACEMENT, pos, REC);
            else if (prev == RECORD && prev_type != 3 && prev_type != PAYLOAD)
                expect(&g, TC_RULE_XRAY_BASIC_ARG_PLACEMENT, pos, REC); /* ruling 17 */
        } else {
            unsigned type = b[3];
            if (type > 3) {
                expect(&g, TC_RULE_XRAY_BASIC_FUNCTION_TYPE, pos + 3, 1);
                prev = UNKNOWN;
                continue;
            }
            if (type == 2 && g.version == 1)
                expect(&g, TC_RULE_XRAY_BASIC_TAIL_EXIT_VERSION, pos + 3, 1);
            if (g.judge_threads) {
                thread *t = thread_of(&g, tid, g.version >= 3 ? pid : 0);
                uint64_t tsc = rd(b + 8, 8, g.be);
                if (t->have_tsc && tsc < t->tsc)
                    expect(&g, TC_RULE_XRAY_BASIC_TSC_BACKWARDS, pos + 8, 8);
                t->have_tsc = 1;
                t->tsc = tsc;
                if (call_stack(t, type, func))
                    expect(&g, TC_RULE_XRAY_BASIC_CALLSTACK_MISMATCH, pos, REC);
            }
        }
        prev = RECORD;
        prev_type = payload ? PAYLOAD : b[3];
        prev_func = func;
        prev_tid = tid;
        prev_pid = pid;
    }
    size_t rest = (n - TC_XRAY_HEADER_SIZE) % REC;
    if (rest)
        expect(&g, TC_RULE_XRAY_BASIC_FILE_SIZE, n - rest, rest);

    /* The run's XRAY-BASIC findings, in order, are these. */
    g_judge_threads = g.judge_threads;
    hx_assert_expected(&run->f, &g.x, judged_rule, HX_CMP_LENGTH, "the spec's basic-mode reading");
    for (size_t i = 0; i < g.nt; i++)
        free(g.t[i].stack);
    free(g.t);
    hx_expect_free(&g.x);
}
