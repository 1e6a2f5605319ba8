/*
 * Strict streaming parser for XRay FDR traces. One pass, no seeking back;
 * state is per buffer (preamble step, CPU and TSC, a bounded call stack), so
 * memory does not grow with the trace. Every length is checked against the
 * buffer and the input before it is used.
 *
 * Framing: version 1 buffers are buffer_size bytes from their NewBuffer;
 * later versions put a BufferExtents(n) record before n bytes of records.
 *
 * The 32-byte header is read here for both of XRay's formats: a basic-mode
 * header (type 0, versions 1 to 3) hands the rest to xray_basic_reader.c.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/bytes.h"
#include "../common/split.h"
#include "xray.h"
#include "xray_basic.h"
#include "xray_binary.h"
#include "xray_fields.h"

enum step { STEP_NEW_BUFFER, STEP_WALL_TIME, STEP_PID, STEP_CPU, STEP_BODY };
enum last { LAST_OTHER, LAST_ENTER, LAST_ENTER_ARGS, LAST_CALL_ARG, LAST_UNKNOWN };
/* What the fast path does with a record, by its first byte (function_run). */
enum fast_class { FAST_FUNCTION, FAST_CALL_ARG, FAST_NEW_CPU, FAST_TSC_WRAP, FAST_EVENT,
                  FAST_TYPED_EVENT, FAST_OTHER };

/* What body_run does with a record, by its first byte (body_step): */
#define BS_EXIT 0x01u   /* a function record's Exit or Tail_Exit: a frame off */
#define BS_ENTER 0x02u  /* Entry or Entry_Args: a frame on */
#define BS_ARG 0x04u    /* a CallArgument: taken after a record with BS_ALLOWS */
#define BS_ALLOWS 0x08u /* Entry_Args or CallArgument: a CallArgument may follow */
#define BS_LAST 4       /* the shift of the enum last the record leaves (2 bits) */
#define BS_EVENT 0x40u  /* a version 5 custom or typed event: taken by a branch */
#define BS_TYPED 0x80u  /* a typed event */

#define CPU_SLOTS 16

typedef struct xray_parser {
    tc_reader *r;
    tc_diag_sink *d;
    const tc_parse_ctx *ctx;
    tc_xray_header h;
    tc_split_seg *seg;  /* NULL: the whole input */
    int be;
    unsigned version;
    uint8_t extents_tag, new_buffer_tag; /* first bytes of those records */

    /* the current buffer */
    uint64_t index;     /* buffers started so far */
    int in_buffer;      /* 0 between buffers */
    int have_pid;
    uint64_t start;     /* offset of its BufferExtents (v2+) or NewBuffer (v1) */
    uint64_t end;       /* one past its last byte; UINT64_MAX when following records past it */
    int following;      /* extents too small: reading on to the next BufferExtents */
    int ended_by_eof;   /* the input ended inside the buffer */
    int step;           /* enum step */
    int preamble_reported;
    int last;           /* enum last: what came before, for CallArgument */
    int32_t tid, pid;
    int cpu_known;
    uint16_t cpu;
    uint64_t tsc;
    uint64_t typed_events;
    struct { uint16_t cpu; uint64_t tsc; } cpus[CPU_SLOTS];
    unsigned ncpus, cpu_next;
    uint32_t depth;
    uint64_t untracked; /* frames beyond TC_XRAY_MAX_STACK */
    tc_xray_bins *bins; /* --binary: the programs' maps; NULL: none given */
    void (*run)(struct xray_parser *); /* the fast path of the byte order */
    uint8_t fast_class[256]; /* enum fast_class of a record by its first byte */
    uint8_t body_step[2][256]; /* BS_ bits of a record by its first byte; [1]: --pedantic */
    /* Open entries (function id, offset), 1-based: stack[0] is a sentinel. */
    uint32_t stack[TC_XRAY_MAX_STACK + 2];
    uint64_t stack_off[TC_XRAY_MAX_STACK + 2];
} xray_parser;

static const char *const kind_names[TC_XRAY_KIND_COUNT] = {
    "NewBuffer",  "EndOfBuffer",       "NewCPUId",    "TSCWrap",          "WallTimeMarker",
    "CustomEventMarker", "CallArgument", "BufferExtents", "TypedEventMarker", "PIDEntry",
};

static const char *const action_names[8] = {
    "Entry", "Exit", "Tail_Exit", "Entry_Args", "action 4", "action 5", "action 6", "action 7",
};

const char *tc_xray_kind_name(unsigned kind)
{
    return kind < TC_XRAY_KIND_COUNT ? kind_names[kind] : "unknown metadata";
}

const char *tc_xray_action_name(unsigned action) { return action_names[action & 7]; }

/* Byte-order-specific bit layout of the first byte and word (FDR doc
 * §Function Records: LSB first on little-endian, MSB first on big-endian). */
static inline int is_metadata(const xray_parser *p, uint8_t b)
{
    return p->be ? b >> 7 : b & 1;
}

static inline unsigned meta_kind(const xray_parser *p, uint8_t b)
{
    return p->be ? b & 0x7fu : b >> 1;
}

static uint8_t meta_tag(int be, unsigned kind)
{
    return be ? (uint8_t)(0x80u | kind) : (uint8_t)(kind << 1 | 1u);
}

int tc_xray_sniff(const uint8_t *b, size_t n)
{
    if (n < 4)
        return 0;
    for (int be = 0; be <= 1; be++) {
        unsigned type = tc_rd16(b + 2, be);
        unsigned version = tc_rd16(b, be);
        if (type == 1 && version >= 1 && version <= 0xff)
            return 1;
        if (version >= 1 && version <= 5) /* any type: a wrong one is XRAY-HEADER-TYPE */
            return 1;
    }
    /* A version outside 1..5 with type 1 in either order: still XRay, with a
     * header error to report rather than "unknown format". */
    return (b[2] == 1 && b[3] == 0) || (b[2] == 0 && b[3] == 1);
}

int tc_xray_basic_sniff(const uint8_t *b, size_t n)
{
    if (n < 4)
        return 0;
    for (int be = 0; be <= 1; be++) {
        unsigned version = tc_rd16(b, be);
        if (tc_rd16(b + 2, be) == 0 && version >= 1 && version <= 3)
            return 1;
    }
    return 0;
}

/* ---- reporting ---- */

static void context(void *parser, char *buf, size_t size)
{
    xray_parser *p = parser;
    if (!p->in_buffer)
        return;
    int n = snprintf(buf, size, "in buffer %" PRIu64 " at offset %" PRIu64, p->index, p->start);
    if (n <= 0 || (size_t)n >= size || p->step == STEP_NEW_BUFFER)
        return;
    if (p->have_pid)
        snprintf(buf + n, size - (size_t)n, " (thread %" PRId32 ", process %" PRId32 ")", p->tid,
                 p->pid);
    else
        snprintf(buf + n, size - (size_t)n, " (thread %" PRId32 ")", p->tid);
}

static void emit(xray_parser *p, tc_xray_event *ev)
{
    ev->header = &p->h;
    ev->cpu = p->cpu;
    ev->tsc = p->tsc;
    ev->tid = p->tid;
    ev->pid = p->pid;
    p->ctx->on_event(p->ctx->user, ev);
}

#define EMITTING(p) ((p)->ctx->on_event != NULL)

static void check_reserved(xray_parser *p, uint64_t pos, const uint8_t *b, unsigned used,
                           unsigned kind)
{
    if (!tc_rule_enabled(p->d, TC_RULE_XRAY_RECORD_RESERVED_NONZERO))
        return;
    for (unsigned i = 1 + used; i < TC_XRAY_METADATA_SIZE; i++) {
        if (b[i] == 0)
            continue;
        char hex[3 * 16 + 1];
        size_t h = 0;
        for (unsigned j = 1 + used; j < TC_XRAY_METADATA_SIZE; j++)
            h += (size_t)snprintf(hex + h, sizeof hex - h, "%s%02x", h ? " " : "", b[j]);
        tc_report(p->d, TC_RULE_XRAY_RECORD_RESERVED_NONZERO, pos + 1 + used,
                  TC_XRAY_METADATA_SIZE - 1 - used, "%s record has reserved bytes %s",
                  tc_xray_kind_name(kind), hex);
        return;
    }
}

/* ---- buffer state ---- */

static void start_buffer(xray_parser *p, uint64_t start, uint64_t length)
{
    p->index++;
    p->in_buffer = 1;
    p->have_pid = 0;
    p->start = start;
    p->end = length > UINT64_MAX - start ? UINT64_MAX : start + length;
    p->following = 0;
    p->ended_by_eof = 0;
    p->step = STEP_NEW_BUFFER;
    p->preamble_reported = 0;
    p->last = LAST_OTHER;
    p->tid = p->pid = 0;
    p->cpu_known = 0;
    p->cpu = 0;
    p->tsc = 0;
    p->typed_events = 0;
    p->ncpus = p->cpu_next = 0;
    p->depth = 0;
    p->untracked = 0;
}

static const char *step_name(const xray_parser *p, int step)
{
    switch (step) {
    case STEP_NEW_BUFFER: return "NewBuffer";
    case STEP_WALL_TIME: return "WallTimeMarker";
    case STEP_PID: return "PIDEntry";
    case STEP_CPU: return "NewCPUId";
    default: (void)p; return "a body record";
    }
}

static int next_step(const xray_parser *p, int step)
{
    int next = step + 1;
    if (next == STEP_PID && p->version < 3)
        next = STEP_CPU;
    return next;
}

/* A record that does not belong where the preamble is: reported once per
 * buffer, after which CallArgument placement is not judged (its context is
 * unknown). */
static void preamble_violation(xray_parser *p, uint64_t pos, uint64_t len, const char *found)
{
    if (!p->preamble_reported)
        tc_report(p->d, TC_RULE_XRAY_PREAMBLE_ORDER, pos, len,
                  "expected %s at this point of the buffer's preamble, found %s",
                  step_name(p, p->step), found);
    p->preamble_reported = 1;
    p->last = LAST_UNKNOWN;
}

/* NewBuffer, WallTimeMarker, PIDEntry or NewCPUId. Returns 0 when the record
 * is misplaced in the body (and must not change the buffer's identity). */
static int preamble_record(xray_parser *p, uint64_t pos, int step, unsigned kind)
{
    if (p->step == STEP_BODY) {
        if (step == STEP_CPU)
            return 1;
        tc_report(p->d, TC_RULE_XRAY_BODY_PREAMBLE_RECORD, pos, TC_XRAY_METADATA_SIZE,
                  "%s record in the body of the buffer, after its NewCPUId",
                  tc_xray_kind_name(kind));
        return 0;
    }
    if (step != p->step)
        preamble_violation(p, pos, TC_XRAY_METADATA_SIZE, tc_xray_kind_name(kind));
    p->step = next_step(p, step);
    return 1;
}

/* Any record other than the four preamble ones. */
static inline void body_record(xray_parser *p, uint64_t pos, uint64_t len, const char *what)
{
    if (p->step != STEP_BODY) {
        preamble_violation(p, pos, len, what);
        p->step = STEP_BODY;
    }
}

static void finish_buffer(xray_parser *p)
{
    if (p->step < STEP_BODY && !p->preamble_reported && !p->ended_by_eof)
        tc_report(p->d, TC_RULE_XRAY_PREAMBLE_INCOMPLETE, p->start, p->end - p->start,
                  "the buffer ends before its NewCPUId record (%s was expected next)",
                  step_name(p, p->step));
}

/* Skips what is left of the buffer (after EndOfBuffer or an unreadable event). */
static void skip_rest(xray_parser *p)
{
    if (p->following) { /* the end is unknown: stop here; framing resynchronises */
        p->end = tc_pos(p->r);
        return;
    }
    uint64_t want = p->end - tc_pos(p->r);
    if (tc_skip(p->r, want) < want)
        p->ended_by_eof = 1;
}

/* ---- TSC and CPU ---- */

/* NewCPUId: the TSC of the CPU being left is remembered (a slot of its
 * own, or the oldest slot when all are taken), and the new CPU's TSC must
 * not be below what that CPU reached before. A CPU has one slot at most, so
 * one pass finds both; it has no branch on the slots' contents (the CPUs
 * come in no order a processor would predict). */
static void new_cpu(xray_parser *p, uint64_t pos, uint16_t cpu, uint64_t tsc)
{
    /* every slot, those not in use left out by a test rather than by the
     * loop's count, which changes within a buffer */
    unsigned left = 0, entered = 0; /* slot + 1, 0 for none */
    for (unsigned i = 0; i < CPU_SLOTS; i++) {
        unsigned used = i < p->ncpus;
        left = (used & (p->cpus[i].cpu == p->cpu)) ? i + 1 : left;
        entered = (used & (p->cpus[i].cpu == cpu)) ? i + 1 : entered;
    }
    if (p->cpu_known) {
        if (!left) {
            left = (p->ncpus < CPU_SLOTS ? p->ncpus++ : p->cpu_next++ % CPU_SLOTS) + 1;
            p->cpus[left - 1].cpu = p->cpu;
            if (entered == left) /* its slot went to the CPU being left */
                entered = 0;
        }
        p->cpus[left - 1].tsc = p->tsc;
        if (cpu == p->cpu)
            entered = left;
    }
    if (entered && tsc < p->cpus[entered - 1].tsc)
        tc_report_ex(p->d, TC_RULE_XRAY_TSC_BACKWARDS, pos + 3, 8,
                     TC_EXTRA(TC_VALUES(TC_UINT("cpu", cpu), TC_UINT("tsc", tsc),
                                        TC_UINT("previous_tsc", p->cpus[entered - 1].tsc))),
                     "NewCPUId sets CPU %u's TSC to %" PRIu64 ", below the %" PRIu64
                     " it reached earlier in this buffer",
                     cpu, tsc, p->cpus[entered - 1].tsc);
    p->cpu_known = 1;
    p->cpu = cpu;
    p->tsc = tsc;
}

/* ---- records ---- */

/* What function records change, kept apart from the parser so that a run of
 * records can hold it in registers (see function_run). */
typedef struct fn_state {
    uint64_t tsc;
    uint64_t untracked;
    uint32_t depth;
    int last;
} fn_state;

static inline fn_state fn_load(const xray_parser *p)
{
    fn_state st = {p->tsc, p->untracked, p->depth, p->last};
    return st;
}

static inline void fn_store(xray_parser *p, const fn_state *st)
{
    p->tsc = st->tsc;
    p->untracked = st->untracked;
    p->depth = st->depth;
    p->last = st->last;
}

/* Exit or Tail_Exit of fid while another function is innermost. */
static __attribute__((noinline)) void mismatch(xray_parser *p, fn_state *st, uint64_t pos,
                                               unsigned action, uint32_t fid)
{
    char mine[160], theirs[160]; /* the functions' names, with --binary */
    tc_xray_bins_label(p->bins, fid, mine, sizeof mine);
    tc_xray_bins_label(p->bins, p->stack[st->depth], theirs, sizeof theirs);
    tc_report_ex(p->d, TC_RULE_XRAY_CALLSTACK_MISMATCH, pos, TC_XRAY_FUNCTION_SIZE,
                 TC_EXTRA(TC_RELATED(p->stack_off[st->depth]),
                          TC_VALUES(TC_UINT("function", fid),
                                    TC_UINT("open_function", p->stack[st->depth]))),
                 "%s of function %" PRIu32 "%s, but the innermost open Entry is of function "
                 "%" PRIu32 "%s (at offset %" PRIu64 ")",
                 action_names[action], fid, mine, p->stack[st->depth], theirs,
                 p->stack_off[st->depth]);
    /* Unwind to the function if it is open further down. */
    for (uint32_t i = st->depth - 1; i > 0; i--)
        if (p->stack[i] == fid) {
            st->depth = i - 1;
            break;
        }
    st->last = LAST_OTHER;
}

/* Everything the common case leaves out: reportable values, and stacks
 * deeper than the frames kept. */
static __attribute__((noinline)) void function_rare(xray_parser *p, fn_state *st, uint64_t pos,
                                                    unsigned action, uint32_t fid,
                                                    uint32_t delta)
{
    if (delta > INT32_MAX)
        tc_report_ex(p->d, TC_RULE_XRAY_TSC_DELTA_LARGE, pos + 4, 4,
                     TC_EXTRA(TC_VALUES(TC_UINT("delta", delta))),
                     "TSC delta %" PRIu32 " (0x%08" PRIx32 ") is above INT32_MAX; the runtime "
                     "writes a TSCWrap record for deltas that large",
                     delta, delta);
    switch (action) {
    case TC_XRAY_ENTER:
    case TC_XRAY_ENTER_ARGS:
        if (st->depth < TC_XRAY_MAX_STACK) {
            st->depth++;
            p->stack[st->depth] = fid;
            p->stack_off[st->depth] = pos;
        } else {
            st->untracked++;
        }
        st->last = action == TC_XRAY_ENTER ? LAST_ENTER : LAST_ENTER_ARGS;
        break;
    case TC_XRAY_EXIT:
    case TC_XRAY_TAIL_EXIT:
        st->last = LAST_OTHER;
        if (st->untracked)
            st->untracked--;
        else if (st->depth > 0 && p->stack[st->depth] == fid)
            st->depth--;
        else if (st->depth > 0)
            mismatch(p, st, pos, action, fid);
        break;
    default:
        tc_report(p->d, TC_RULE_XRAY_FUNCTION_ACTION, pos, 4,
                  "function record (function id %" PRIu32 ") has action %u; actions 0 to 3 "
                  "are defined", fid, action);
        st->last = LAST_OTHER;
        break;
    }
}

/* The checks and stack bookkeeping of one function record. be is a
 * compile-time constant at every call site, so the byte-order tests fold
 * away. The common case has no data-dependent branch: entries and exits of
 * a real program alternate unpredictably, and a mispredicted branch costs
 * more than the rest of the record. The stack is 1-based, stack[0] a
 * sentinel that no function id (28 bits) equals. */
static inline __attribute__((always_inline)) void
function_step(xray_parser *p, fn_state *st, uint64_t pos, const uint8_t *b, const int be)
{
    uint32_t w = tc_rd32(b, be), delta = tc_rd32(b + 4, be);
    unsigned action = be ? (w >> 28) & 7u : (w >> 1) & 7u;
    uint32_t fid = be ? w & 0x0fffffffu : w >> 4;

    st->tsc += delta;
    uint32_t depth = st->depth;
    if (__builtin_expect((delta > INT32_MAX) | (action > 3) | (st->untracked != 0) |
                             (depth >= TC_XRAY_MAX_STACK), 0)) {
        function_rare(p, st, pos, action, fid, delta);
        return;
    }
    unsigned is_exit = (action ^ (action >> 1)) & 1u; /* 1 and 2; 0 and 3 enter */
    p->stack[depth + 1] = fid; /* an entry's frame; above the top, harmless for an exit */
    p->stack_off[depth + 1] = pos;
    unsigned match = p->stack[depth] == fid;
    if (__builtin_expect(is_exit & (depth != 0) & !match, 0)) {
        mismatch(p, st, pos, action, fid);
        return;
    }
    st->depth = is_exit ? depth - match : depth + 1;
    st->last = is_exit ? LAST_OTHER : action == TC_XRAY_ENTER ? LAST_ENTER : LAST_ENTER_ARGS;
}

static void function_record(xray_parser *p, uint64_t pos, const uint8_t *b)
{
    if (p->step != STEP_BODY)
        body_record(p, pos, TC_XRAY_FUNCTION_SIZE, "a function record");
    fn_state st = fn_load(p);
    if (p->be)
        function_step(p, &st, pos, b, 1);
    else
        function_step(p, &st, pos, b, 0);
    fn_store(p, &st);
    uint32_t w = tc_rd32(b, p->be);
    unsigned action = p->be ? (w >> 28) & 7u : (w >> 1) & 7u;
    uint32_t fid = p->be ? w & 0x0fffffffu : w >> 4;
    if (p->bins)
        tc_xray_bins_record(p->bins, p->d, pos, TC_XRAY_FUNCTION_SIZE, action, fid);
    if (TC_FIELDS_ON(p->d))
        tc_xray_fields_function(p->d, pos, p->be, action, fid, tc_rd32(b + 4, p->be),
                                tc_xray_bins_name(p->bins, fid));
    if (EMITTING(p)) {
        tc_xray_event ev = {.kind = TC_XRAY_EV_FUNCTION, .offset = pos, .action = action,
                            .func_id = fid, .delta = tc_rd32(b + 4, p->be),
                            .named = p->bins != NULL,
                            .func_name = tc_xray_bins_name(p->bins, fid)};
        emit(p, &ev);
    }
}

/* The bits of a function record, read as a little-endian 64-bit word, that
 * keep it off the fast path: the tag bit (a metadata record), the top bit
 * of the action (actions above 3) and the top bit of the TSC delta (above
 * INT32_MAX). Little-endian files: byte 0 bits 0 and 3, byte 7 bit 7;
 * big-endian: byte 0 bits 7 and 6, byte 4 bit 7. */
static inline uint64_t dirty_mask(int be)
{
    return be ? UINT64_C(0x00000080000000c0) : UINT64_C(0x8000000000000009);
}

/* Whether the version 5 event at cur is the fast path's to take: a size
 * and a TSC delta that are not negative, the payload before end (the
 * window's end or the buffer's, whichever comes first). */
static inline int event_fits(const uint8_t *cur, const uint8_t *end, const int be)
{
    int32_t size = (int32_t)tc_rd32(cur + 1, be), delta = (int32_t)tc_rd32(cur + 5, be);
    return size >= 0 && delta >= 0 &&
           (uint64_t)size <= (uint64_t)(end - cur) - TC_XRAY_METADATA_SIZE;
}

/* The records of a buffer's body that need no more than a few registers,
 * one after the other from cur: clean function records (as in
 * function_step's common path) and CallArguments after their Entry_Args or
 * another CallArgument. Metadata records come every five or six function
 * records at random places, so a test of the record's kind would be
 * mispredicted at each one: here a CallArgument is a function record whose
 * stack change and TSC delta are masked off (body_step, by the first
 * byte), the record's length (8 or 16 bytes) comes from its tag bit, and
 * the only branch is taken by anything else: a version 5 event in its
 * common case, taken there, or what leaves the loop before the record
 * (another metadata record, a dirty function record, a CallArgument
 * elsewhere or with --pedantic, an exit that does not match). Takes
 * records that start at least 32 bytes before cur + left (the next record
 * is read ahead). Returns where it stopped; the caller takes that record.
 * The stack's frame above the top is written for every record, harmless as
 * in function_step. */
static inline __attribute__((always_inline)) const uint8_t *
body_run(xray_parser *p, fn_state *st, const uint8_t *cur, size_t left, uint64_t pos,
         const uint8_t *steps, const int be)
{
    uint32_t *stack = p->stack;
    uint64_t *stack_off = p->stack_off;
    size_t depth = st->depth; /* a word: an index without a widening */
    uint64_t tsc = st->tsc;
    const uint64_t mask = dirty_mask(be);
    /* A record moves 8 bytes or more and the depth by one at most: within
     * this many bytes every record finds room on the stack (depth below
     * TC_XRAY_MAX_STACK), so that the loop need not test it. */
    size_t room = 32 + 8 * (TC_XRAY_MAX_STACK - 1 - depth);
    const uint8_t *first = cur, *end = cur + left;
    if (left > room)
        left = room;
    if (left < 32)
        return cur;
    const uint8_t *last_start = cur + (left - 32);
    const uint64_t bias = pos - (uint64_t)(uintptr_t)cur; /* a record's offset, less its address */
    /* BS_ARG when a CallArgument may come next */
    unsigned allow = st->last == LAST_ENTER_ARGS || st->last == LAST_CALL_ARG ? BS_ARG : 0;
    unsigned step = 0;
    uint64_t q = tc_le64(cur);
    for (;;) {
        uint32_t w = be ? __builtin_bswap32((uint32_t)q) : (uint32_t)q;
        uint32_t delta = be ? __builtin_bswap32((uint32_t)(q >> 32)) : (uint32_t)(q >> 32);
        unsigned tag = be ? (unsigned)(q >> 7) & 1u : (unsigned)q & 1u;
        /* The next record, 8 or 16 bytes on, chosen by the tag bit rather
         * than loaded once the new position is known: the chain from one
         * record to the next is then shorter by an add. */
        uint64_t next = tag ? tc_le64(cur + 16) : tc_le64(cur + 8);
        uint32_t fid = be ? w & 0x0fffffffu : w >> 4;
        unsigned e = steps[q & 0xffu];
        unsigned pop = e & BS_EXIT & (depth != 0);
        /* the tag bit is dirty too: a CallArgument passes only as one */
        unsigned bad = ((q & mask) != 0) | (pop & (stack[depth] != fid));
        if (__builtin_expect(bad > (e & allow), 0)) { /* e & allow: 0 or BS_ARG */
            if (!(e & BS_EVENT) || !event_fits(cur, end, be))
                break;
            /* An event, every few dozen records, costs a mispredicted
             * branch wherever it is taken: here it spares the return to
             * function_run and its dispatch. Its TSC delta is not
             * negative (event_fits). */
            tsc += tc_rd32(cur + 5, be);
            p->typed_events += (e & BS_TYPED) != 0;
            allow = 0;
            step = (unsigned)LAST_OTHER << BS_LAST;
            cur += TC_XRAY_METADATA_SIZE + tc_rd32(cur + 1, be);
            if (cur > last_start)
                break;
            q = tc_le64(cur);
            continue;
        }
        stack[depth + 1] = fid;
        stack_off[depth + 1] = bias + (uint64_t)(uintptr_t)cur;
        tsc += (e & BS_ARG) ? 0 : delta;
        depth += ((e & BS_ENTER) >> 1) - (size_t)pop;
        allow = (e & BS_ALLOWS) >> 1;
        step = e;
        cur += TC_XRAY_FUNCTION_SIZE + TC_XRAY_FUNCTION_SIZE * tag;
        q = next;
        if (cur > last_start)
            break;
    }
    st->depth = (uint32_t)depth;
    st->tsc = tsc;
    if (cur != first) /* what the last record taken leaves */
        st->last = (int)(step >> BS_LAST & 3u);
    return cur;
}

/* body_run out of line, for each byte order: inlined into the fast path,
 * the loop shares its registers with the rest of it, and its state goes
 * through the stack; a call every dozen records or so costs less. */
static __attribute__((noinline)) const uint8_t *
body_run_le(xray_parser *p, fn_state *st, const uint8_t *cur, size_t left, uint64_t pos,
            const uint8_t *steps)
{
    return body_run(p, st, cur, left, pos, steps, 0);
}

static __attribute__((noinline)) const uint8_t *
body_run_big(xray_parser *p, fn_state *st, const uint8_t *cur, size_t left, uint64_t pos,
             const uint8_t *steps)
{
    return body_run(p, st, cur, left, pos, steps, 1);
}

/* The fast path: the records of a buffer's body wholly inside both the
 * window and the buffer. body_run takes the common ones; what it stops at
 * goes through function_step or, when it is a metadata record, as below.
 * It stops at the first metadata record it cannot take here, the buffer's
 * end or the window's end, and leaves dumps (which want an event per
 * record) to the general loop. */
static inline __attribute__((always_inline)) void function_run(xray_parser *p, const int be)
{
    tc_reader *r = p->r;
    /* With --binary every record is looked up, and a view (fields.h) wants
     * every record's fields: the general loop does both. */
    if (p->step != STEP_BODY || EMITTING(p) || p->bins || TC_FIELDS_ON(p->d))
        return;
    const uint8_t *cur = r->cur, *end = r->end;
    uint64_t window_end = r->base_off + (uint64_t)(end - r->base);
    if (p->end < window_end)
        end = r->base + (p->end - r->base_off);
    const uint8_t *base = r->base;
    uint64_t base_off = r->base_off;
    const uint8_t *fast = p->fast_class;
    const int pedantic = tc_rule_enabled(p->d, TC_RULE_XRAY_RECORD_RESERVED_NONZERO);
    fn_state st = fn_load(p);
    while (end - cur >= TC_XRAY_FUNCTION_SIZE) {
        if (!st.untracked && st.depth < TC_XRAY_MAX_STACK) {
            cur = (be ? body_run_big : body_run_le)(p, &st, cur, (size_t)(end - cur),
                                                    base_off + (uint64_t)(cur - base),
                                                    p->body_step[pedantic != 0]);
            if (end - cur < TC_XRAY_FUNCTION_SIZE)
                break;
        }
        if (!(be ? cur[0] >> 7 : cur[0] & 1)) {
            function_step(p, &st, base_off + (uint64_t)(cur - base), cur, be);
            cur += TC_XRAY_FUNCTION_SIZE;
            continue;
        }
        /* The metadata records of a buffer's body, in their common case
         * (nothing to report, no reserved bytes to look at, the record and
         * its payload in the window), stay here: what metadata_record does
         * for them, without its general steps. Everything else goes to the
         * general loop. */
        if (end - cur < TC_XRAY_METADATA_SIZE || pedantic)
            break;
        switch (fast[cur[0]]) {
        case FAST_CALL_ARG: /* right after its Entry_Args */
            if (st.last != LAST_ENTER_ARGS && st.last != LAST_CALL_ARG)
                goto out;
            st.last = LAST_CALL_ARG;
            cur += TC_XRAY_METADATA_SIZE;
            continue;
        case FAST_NEW_CPU:
            st.last = LAST_OTHER;
            fn_store(p, &st);
            new_cpu(p, base_off + (uint64_t)(cur - base), tc_rd16(cur + 1, be),
                    tc_rd64(cur + 3, be));
            st = fn_load(p);
            cur += TC_XRAY_METADATA_SIZE;
            continue;
        case FAST_TSC_WRAP: {
            uint64_t tsc = tc_rd64(cur + 1, be);
            if (p->cpu_known && tsc < st.tsc)
                goto out;
            st.tsc = tsc;
            st.last = LAST_OTHER;
            cur += TC_XRAY_METADATA_SIZE;
            continue;
        }
        case FAST_EVENT:
        case FAST_TYPED_EVENT: { /* version 5 (fast_class): a TSC delta */
            /* end is the buffer's end or before it: the payload is in both */
            if (!event_fits(cur, end, be))
                goto out;
            st.tsc += tc_rd32(cur + 5, be);
            st.last = LAST_OTHER;
            p->typed_events += fast[cur[0]] == FAST_TYPED_EVENT;
            cur += TC_XRAY_METADATA_SIZE + tc_rd32(cur + 1, be);
            continue;
        }
        default:
            goto out;
        }
    }
out:
    fn_store(p, &st);
    r->cur = cur;
}

/* The fast path's classes of first bytes (enum fast_class). */
static void fast_classes(xray_parser *p)
{
    for (unsigned b = 0; b < 256; b++) {
        int c = FAST_OTHER;
        if (!is_metadata(p, (uint8_t)b))
            c = FAST_FUNCTION;
        else if (meta_kind(p, (uint8_t)b) == TC_XRAY_CALL_ARG)
            c = FAST_CALL_ARG;
        else if (meta_kind(p, (uint8_t)b) == TC_XRAY_NEW_CPU)
            c = FAST_NEW_CPU;
        else if (meta_kind(p, (uint8_t)b) == TC_XRAY_TSC_WRAP)
            c = FAST_TSC_WRAP;
        else if (meta_kind(p, (uint8_t)b) == TC_XRAY_CUSTOM_EVENT && p->version >= 5)
            c = FAST_EVENT;
        else if (meta_kind(p, (uint8_t)b) == TC_XRAY_TYPED_EVENT && p->version >= 5)
            c = FAST_TYPED_EVENT;
        p->fast_class[b] = (uint8_t)c;
        /* body_run: a function record's action (actions above 3 and
         * metadata records other than CallArgument are dirty bits) */
        unsigned action = p->be ? (b >> 4) & 3u : (b >> 1) & 3u, step;
        if (c == FAST_CALL_ARG)
            step = BS_ARG | BS_ALLOWS | (unsigned)LAST_CALL_ARG << BS_LAST;
        else if (action == TC_XRAY_EXIT || action == TC_XRAY_TAIL_EXIT)
            step = BS_EXIT | (unsigned)LAST_OTHER << BS_LAST;
        else if (action == TC_XRAY_ENTER)
            step = BS_ENTER | (unsigned)LAST_ENTER << BS_LAST;
        else
            step = BS_ENTER | BS_ALLOWS | (unsigned)LAST_ENTER_ARGS << BS_LAST;
        if (c == FAST_EVENT || c == FAST_TYPED_EVENT)
            step = BS_EVENT | (c == FAST_TYPED_EVENT ? BS_TYPED : 0);
        p->body_step[0][b] = (uint8_t)step;
        /* with --pedantic the general loop examines a CallArgument's
         * reserved bytes */
        p->body_step[1][b] = (uint8_t)(c == FAST_CALL_ARG || (step & BS_EVENT) ? 0 : step);
    }
}

/* The fast path of each byte order. */
static __attribute__((noinline)) void function_run_le(xray_parser *p) { function_run(p, 0); }
static __attribute__((noinline)) void function_run_big(xray_parser *p) { function_run(p, 1); }

static void call_argument(xray_parser *p, uint64_t pos, const uint8_t *b)
{
    body_record(p, pos, TC_XRAY_METADATA_SIZE, "CallArgument");
    switch (p->last) {
    case LAST_ENTER_ARGS:
    case LAST_CALL_ARG:
    case LAST_UNKNOWN:
        break;
    case LAST_ENTER:
        if (p->version < 5)
            tc_report(p->d, TC_RULE_XRAY_CALLARG_AFTER_ENTER, pos, TC_XRAY_METADATA_SIZE,
                      "CallArgument after a plain Entry record (action 0), not Entry_Args; "
                      "version %u runtimes wrote this", p->version);
        else
            tc_report(p->d, TC_RULE_XRAY_CALLARG_PLACEMENT, pos, TC_XRAY_METADATA_SIZE,
                      "CallArgument after a plain Entry record (action 0); in version 5 "
                      "arguments follow Entry_Args (action 3)");
        break;
    default:
        tc_report(p->d, TC_RULE_XRAY_CALLARG_PLACEMENT, pos, TC_XRAY_METADATA_SIZE,
                  "CallArgument does not follow an Entry_Args record or another CallArgument");
        break;
    }
    p->last = LAST_CALL_ARG;
    check_reserved(p, pos, b, 8, TC_XRAY_CALL_ARG);
    if (EMITTING(p)) {
        tc_xray_event ev = {.kind = TC_XRAY_CALL_ARG, .offset = pos,
                            .value = tc_rd64(b + 1, p->be)};
        emit(p, &ev);
    }
}

/* Why BufferExtents may be short: compiler-rt's FDR runtime counts a typed
 * event's payload but not its marker. Empty when the buffer holds none. */
static void typed_event_hint(const xray_parser *p, int this_one, const char *which, char *buf,
                             size_t size)
{
    uint64_t n = p->typed_events + (this_one ? 1 : 0);
    buf[0] = '\0';
    if (n && p->version >= 2)
        snprintf(buf, size,
                 "; the %s holds %" PRIu64 " typed event%s, and compiler-rt's FDR runtime "
                 "leaves each one's 16-byte marker out of BufferExtents",
                 which, n, n == 1 ? "" : "s");
}

/* CustomEventMarker or TypedEventMarker and the payload after it. Returns 0
 * when the rest of the buffer cannot be read. Consumes the record. */
static int event_record(xray_parser *p, uint64_t pos, const uint8_t *b, unsigned kind)
{
    const int be = p->be;
    const char *name = tc_xray_kind_name(kind);
    int32_t size = (int32_t)tc_rd32(b + 1, be);
    tc_xray_event ev = {.kind = (int)kind, .offset = pos, .size = size};

    if (kind == TC_XRAY_TYPED_EVENT && p->version < 5) {
        tc_report(p->d, TC_RULE_XRAY_META_KIND_VERSION, pos, TC_XRAY_METADATA_SIZE,
                  "TypedEventMarker in a version %u file; typed events exist in version 5",
                  p->version);
        ev.kind = -1; /* skipped by its size, not decoded */
    } else {
        body_record(p, pos, TC_XRAY_METADATA_SIZE, name);
        p->last = LAST_OTHER;
    }
    if (size < 0) {
        tc_report(p->d, TC_RULE_XRAY_EVENT_SIZE_NEGATIVE, pos + 1, 4,
                  "%s size is %" PRId32 "; the rest of the buffer is skipped", name, size);
        tc_advance(p->r, TC_XRAY_METADATA_SIZE);
        skip_rest(p);
        return 0;
    }
    uint64_t room = p->end - pos - TC_XRAY_METADATA_SIZE;
    if ((uint64_t)size > room) {
        char hint[200];
        typed_event_hint(p, kind == TC_XRAY_TYPED_EVENT, "buffer", hint, sizeof hint);
        tc_report_ex(p->d, TC_RULE_XRAY_EVENT_PAYLOAD_OVERFLOW, pos + 1, 4,
                     TC_EXTRA(TC_VALUES(TC_INT("payload_size", size), TC_UINT("remaining", room),
                                        TC_UINT("buffer_end", p->end))),
                     "%s announces %" PRId32 " payload bytes, but the buffer has %" PRIu64
                     " left (it ends at offset %" PRIu64 ")%s",
                     name, size, room, p->end, hint);
        tc_advance(p->r, TC_XRAY_METADATA_SIZE);
        skip_rest(p);
        return 0;
    }

    if (ev.kind >= 0) {
        if (kind == TC_XRAY_TYPED_EVENT || p->version >= 5) {
            int32_t delta = (int32_t)tc_rd32(b + 5, be);
            ev.delta = (uint32_t)delta;
            if (delta < 0)
                tc_report(p->d, TC_RULE_XRAY_TSC_BACKWARDS, pos + 5, 4,
                          "%s TSC delta is %" PRId32 ", taking the TSC backwards", name, delta);
            p->tsc += (uint64_t)(int64_t)delta;
            if (kind == TC_XRAY_TYPED_EVENT) {
                ev.event_type = tc_rd16(b + 9, be);
                p->typed_events++;
                check_reserved(p, pos, b, 10, kind);
            } else {
                check_reserved(p, pos, b, 8, kind);
            }
        } else {
            ev.value = tc_rd64(b + 5, be); /* versions 1-4: an absolute TSC */
            if (p->version == 4)
                ev.event_cpu = tc_rd16(b + 13, be);
            check_reserved(p, pos, b, p->version == 4 ? 14 : 12, kind);
        }
    }
    tc_advance(p->r, TC_XRAY_METADATA_SIZE);
    if (TC_FIELDS_ON(p->d) && size > 0) {
        tc_fields_record(p->d, pos + TC_XRAY_METADATA_SIZE, (uint64_t)size, TC_LOOK_HEX,
                         "%s payload", name);
        if (TC_FIELDS_WANT(p->d))
            tc_fields_field(p->d, pos + TC_XRAY_METADATA_SIZE, (uint64_t)size, 0, 0, "data",
                            "%" PRId32 " bytes", size);
    }

    if (EMITTING(p) && ev.kind >= 0) {
        if ((uint32_t)size > TC_READER_MAX_NEED) {
            /* Too large to hold, so it goes out without its data. Skip it
             * first: whether the payload fits in the input is then known on
             * every input path (a stream does not know its end in advance). */
            if (tc_skip(p->r, (uint64_t)size) < (uint64_t)size) {
                p->ended_by_eof = 1;
                return 0;
            }
            emit(p, &ev);
            return 1;
        }
        const uint8_t *data = tc_need(p->r, (size_t)size);
        if (!data && tc_avail(p->r) < (size_t)size && p->r->eof) {
            /* The payload runs past the input: stop at its end, as the path
             * without events does, so that messages give the same sizes. */
            tc_skip(p->r, tc_avail(p->r));
            p->ended_by_eof = 1;
            return 0;
        }
        ev.data = data;
        ev.data_len = data ? (size_t)size : 0;
        emit(p, &ev);
    }
    if (tc_skip(p->r, (uint64_t)size) < (uint64_t)size) {
        p->ended_by_eof = 1;
        return 0;
    }
    return 1;
}

/* One metadata record; returns 0 when the buffer's records end here. */
static int metadata_record(xray_parser *p, uint64_t pos, const uint8_t *b, unsigned kind)
{
    const int be = p->be;
    tc_xray_event ev = {.kind = (int)kind, .offset = pos};
    if (TC_FIELDS_ON(p->d))
        tc_xray_fields_metadata(p->d, pos, b, be, kind, p->version);
    /* CallArgument may follow only a function record or another CallArgument:
     * any other metadata record in between breaks the chain (ruling 7). */
    if (kind != TC_XRAY_CALL_ARG)
        p->last = LAST_OTHER;

    switch (kind) {
    case TC_XRAY_NEW_BUFFER:
        ev.id = (int32_t)tc_rd32(b + 1, be);
        if (preamble_record(p, pos, STEP_NEW_BUFFER, kind))
            p->tid = ev.id;
        check_reserved(p, pos, b, 4, kind);
        break;
    case TC_XRAY_WALL_TIME:
        preamble_record(p, pos, STEP_WALL_TIME, kind);
        ev.wall_sec = (int64_t)tc_rd64(b + 1, be);
        ev.wall_usec = (int32_t)tc_rd32(b + 9, be);
        if (ev.wall_usec < 0 || ev.wall_usec > 999999)
            tc_report(p->d, TC_RULE_XRAY_WALLTIME_USEC, pos + 9, 4,
                      "WallTimeMarker microseconds are %" PRId32 "; 0 to 999999 are valid "
                      "(seconds %" PRId64 ")", ev.wall_usec, ev.wall_sec);
        check_reserved(p, pos, b, 12, kind);
        break;
    case TC_XRAY_PID:
        if (p->version < 3) {
            tc_report(p->d, TC_RULE_XRAY_META_KIND_VERSION, pos, TC_XRAY_METADATA_SIZE,
                      "PIDEntry in a version %u file; PIDEntry exists from version 3",
                      p->version);
            ev.kind = -1;
            break;
        }
        ev.id = (int32_t)tc_rd32(b + 1, be);
        if (preamble_record(p, pos, STEP_PID, kind)) {
            p->pid = ev.id;
            p->have_pid = 1;
        }
        check_reserved(p, pos, b, 4, kind);
        break;
    case TC_XRAY_NEW_CPU: {
        uint16_t cpu = tc_rd16(b + 1, be);
        uint64_t tsc = tc_rd64(b + 3, be);
        if (p->step == STEP_BODY || p->step == STEP_CPU)
            preamble_record(p, pos, STEP_CPU, kind);
        else
            body_record(p, pos, TC_XRAY_METADATA_SIZE, "NewCPUId");
        p->step = STEP_BODY;
        new_cpu(p, pos, cpu, tsc);
        ev.value = tsc;
        check_reserved(p, pos, b, 10, kind);
        break;
    }
    case TC_XRAY_TSC_WRAP: {
        uint64_t tsc = tc_rd64(b + 1, be);
        body_record(p, pos, TC_XRAY_METADATA_SIZE, "TSCWrap");
        if (p->cpu_known && tsc < p->tsc)
            tc_report(p->d, TC_RULE_XRAY_TSC_BACKWARDS, pos + 1, 8,
                      "TSCWrap sets the TSC to %" PRIu64 ", below the %" PRIu64
                      " reached on CPU %u", tsc, p->tsc, p->cpu);
        p->tsc = tsc;
        ev.value = tsc;
        check_reserved(p, pos, b, 8, kind);
        break;
    }
    case TC_XRAY_CALL_ARG:
        call_argument(p, pos, b);
        tc_advance(p->r, TC_XRAY_METADATA_SIZE);
        return 1;
    case TC_XRAY_CUSTOM_EVENT:
    case TC_XRAY_TYPED_EVENT:
        return event_record(p, pos, b, kind);
    case TC_XRAY_END_OF_BUFFER:
        if (p->version >= 2) {
            tc_report(p->d, TC_RULE_XRAY_META_KIND_VERSION, pos, TC_XRAY_METADATA_SIZE,
                      "EndOfBuffer in a version %u file; EndOfBuffer exists only in version 1",
                      p->version);
            ev.kind = -1;
            break;
        }
        check_reserved(p, pos, b, 0, kind);
        if (EMITTING(p))
            emit(p, &ev);
        tc_advance(p->r, TC_XRAY_METADATA_SIZE);
        skip_rest(p); /* padding, never read */
        return 0;
    case TC_XRAY_BUFFER_EXTENTS:
        if (p->version == 1) {
            tc_report(p->d, TC_RULE_XRAY_META_KIND_VERSION, pos, TC_XRAY_METADATA_SIZE,
                      "BufferExtents in a version 1 file; BufferExtents exists from version 2");
        } else {
            tc_report(p->d, TC_RULE_XRAY_BODY_PREAMBLE_RECORD, pos, TC_XRAY_METADATA_SIZE,
                      "BufferExtents inside a buffer (the buffer's own BufferExtents at offset "
                      "%" PRIu64 " says it ends at %" PRIu64 ")", p->start, p->end);
        }
        ev.kind = -1;
        break;
    default:
        tc_report(p->d, TC_RULE_XRAY_META_KIND_UNKNOWN, pos, 1,
                  "metadata record kind %u (first byte 0x%02x); kinds 0 to 9 are defined", kind,
                  b[0]);
        ev.kind = -1;
        break;
    }
    if (EMITTING(p) && ev.kind >= 0)
        emit(p, &ev);
    tc_advance(p->r, TC_XRAY_METADATA_SIZE);
    return 1;
}

/* Whether a BufferExtents record followed by NewBuffer (or by the end of the
 * input) starts at the read position: where framing can resume. */
static int plausible_buffer_at(xray_parser *p)
{
    const uint8_t *b = tc_need(p->r, TC_XRAY_METADATA_SIZE + 1);
    if (b)
        return b[0] == p->extents_tag && b[TC_XRAY_METADATA_SIZE] == p->new_buffer_tag;
    b = tc_need(p->r, 1);
    return b == NULL; /* the end of the input */
}

/* A record of len bytes at pos does not fit before the buffer's end. */
static int record_crosses_end(xray_parser *p, uint64_t pos, size_t len, uint8_t first)
{
    uint64_t left = p->end - pos;
    const char *what = is_metadata(p, first) ? tc_xray_kind_name(meta_kind(p, first))
                                             : "function";
    if (p->version == 1) {
        tc_report(p->d, TC_RULE_XRAY_V1_RECORD_CROSSES_BUFFER, pos, len,
                  "%s record (%zu bytes) starts %" PRIu64 " bytes before the end of its "
                  "%" PRIu64 "-byte buffer", what, len, left, p->h.buffer_size);
        skip_rest(p);
        return 0;
    }
    char hint[200];
    typed_event_hint(p, 0, "buffer", hint, sizeof hint);
    /* Is the next buffer (or the end of the file) where the extents say? Then
     * this buffer was cut short; otherwise its records go on past the end.
     * Peek (left < 16) rather than skip, so the record can still be read. */
    const uint8_t *b = tc_need(p->r, (size_t)left + TC_XRAY_METADATA_SIZE + 1);
    int cut = b ? b[left] == p->extents_tag && b[left + TC_XRAY_METADATA_SIZE] == p->new_buffer_tag
                : tc_avail(p->r) == left;
    if (cut) {
        tc_advance(p->r, (size_t)left);
        tc_report_ex(p->d, TC_RULE_XRAY_RECORD_PAST_EXTENTS, pos, len,
                     TC_EXTRA(TC_RELATED(p->start), TC_VALUES(TC_UINT("record_size", len),
                                                              TC_UINT("buffer_end", p->end))),
                     "%s record (%zu bytes) at offset %" PRIu64 " runs past the buffer's end at "
                     "%" PRIu64 " (BufferExtents at %" PRIu64 "), where the next buffer starts: "
                     "the buffer lacks at least %zu bytes%s",
                     what, len, pos, p->end, p->start, len - (size_t)left, hint);
        return 0;
    }
    tc_report_ex(p->d, TC_RULE_XRAY_RECORD_PAST_EXTENTS, pos, len,
                 TC_EXTRA(TC_RELATED(p->start),
                          TC_VALUES(TC_UINT("record_size", len), TC_UINT("buffer_end", p->end))),
                 "%s record (%zu bytes) at offset %" PRIu64
                 " runs past the buffer's end at %" PRIu64 " (BufferExtents at %" PRIu64
                 "), and records go on after it: BufferExtents is "
                 "too small%s",
                 what, len, pos, p->end, p->start, hint);
    p->following = 1;
    p->end = UINT64_MAX;
    return 1;
}

static void parse_records(xray_parser *p)
{
    tc_reader *r = p->r;
    for (;;) {
        p->run(p);
        uint64_t pos = tc_pos(r);
        if (pos >= p->end)
            return;
        const uint8_t *b = tc_need(r, TC_XRAY_FUNCTION_SIZE);
        if (!b && !(b = tc_need(r, 1))) {
            if (p->following)
                p->end = pos; /* its records went on to the end of the input */
            else
                p->ended_by_eof = 1;
            return;
        }
        int meta = is_metadata(p, b[0]);
        size_t len = meta ? TC_XRAY_METADATA_SIZE : TC_XRAY_FUNCTION_SIZE;
        if (len > p->end - pos) {
            if (!record_crosses_end(p, pos, len, b[0]))
                return;
            continue;
        }
        if (!(b = tc_need(r, len))) {
            tc_skip(r, len);
            if (p->following)
                p->end = tc_pos(r);
            else
                p->ended_by_eof = 1;
            return;
        }
        if (!meta) {
            function_record(p, pos, b);
            tc_advance(r, TC_XRAY_FUNCTION_SIZE);
            continue;
        }
        unsigned kind = meta_kind(p, b[0]);
        if (p->following && kind == TC_XRAY_BUFFER_EXTENTS) {
            p->end = pos; /* the next buffer */
            return;
        }
        if (!metadata_record(p, pos, b, kind))
            return;
    }
}

/* ---- framing ---- */

/* A segment (split.h) stops at the first buffer it would start at or past
 * its stop: the state there is the header's and the count of buffers. */
static int at_stop(xray_parser *p)
{
    if (!p->seg || tc_pos(p->r) < p->seg->stop)
        return 0;
    p->seg->ended = tc_pos(p->r);
    return 1;
}

static void parse_v1(xray_parser *p)
{
    tc_reader *r = p->r;
    uint64_t size = p->h.buffer_size;
    if (size < TC_XRAY_MIN_V1_BUFFER) {
        tc_report_ex(p->d, TC_RULE_XRAY_V1_BUFFER_SIZE, 16, 8,
                     TC_EXTRA(TC_VALUES(TC_UINT("buffer_size", size))),
                     "buffer_size is %" PRIu64 "; a version 1 buffer holds at least NewBuffer, "
                     "WallTimeMarker and NewCPUId (48 bytes), so the data is not read",
                     size);
        return;
    }
    while (!tc_at_end(r)) {
        if (at_stop(p))
            return;
        start_buffer(p, tc_pos(r), size);
        parse_records(p);
        if (p->ended_by_eof) {
            uint64_t data = tc_pos(r) - TC_XRAY_HEADER_SIZE;
            if (!r->failed) /* the input did not end: it could not be read further */
                tc_report_ex(
                    p->d, TC_RULE_XRAY_V1_FILE_SIZE, p->start, tc_pos(r) - p->start,
                    TC_EXTRA(TC_VALUES(TC_UINT("data_size", data), TC_UINT("buffer_size", size))),
                    "the data section is %" PRIu64 " bytes, not a multiple of buffer_size "
                    "%" PRIu64 ": the last buffer has %" PRIu64 " of its bytes",
                    data, size, data % size);
            return;
        }
        finish_buffer(p);
    }
}

/* Moves to the next BufferExtents tag byte before offset limit: the window
 * is scanned for it before anything looks closer. 0 at the end of the
 * input or at limit. */
static int next_extents_tag(xray_parser *p, uint64_t limit)
{
    tc_reader *r = p->r;
    for (;;) {
        if (!tc_need(r, 1) || tc_pos(r) >= limit)
            return 0;
        const uint8_t *hit = memchr(r->cur, p->extents_tag, tc_avail(r));
        if (hit) {
            tc_advance(r, (size_t)(hit - r->cur));
            return tc_pos(r) < limit;
        }
        tc_advance(r, tc_avail(r));
    }
}

/* Skips bytes that are not a buffer, up to the next plausible BufferExtents
 * or the end. Returns how many were skipped. */
static uint64_t resynchronise(xray_parser *p)
{
    tc_reader *r = p->r;
    uint64_t from = tc_pos(r);
    tc_advance(r, 1);
    while (next_extents_tag(p, UINT64_MAX) && !(plausible_buffer_at(p) && tc_need(r, 1)))
        tc_advance(r, 1);
    return tc_pos(r) - from;
}

static void parse_v2(xray_parser *p)
{
    tc_reader *r = p->r;
    while (!tc_at_end(r)) {
        uint64_t pos = tc_pos(r);
        const uint8_t *b = tc_need(r, TC_XRAY_METADATA_SIZE);
        if (!b || b[0] != p->extents_tag) {
            b = tc_need(r, 1);
            uint8_t first = b[0];
            /* Records that a short BufferExtents left outside the buffer
             * before: say why that happens, as for a record that crosses. */
            char hint[200];
            typed_event_hint(p, 0, "previous buffer", hint, sizeof hint);
            uint64_t skipped = resynchronise(p);
            int at_end = tc_at_end(r);
            p->in_buffer = 0; /* between buffers: no buffer context */
            if (at_end && r->failed)
                ; /* cut by a read failure, reported as such */
            else if (at_end)
                tc_report(p->d, TC_RULE_XRAY_EXTENTS_EXPECTED, pos, skipped,
                          "%" PRIu64 " bytes after the last buffer (first byte 0x%02x); a "
                          "buffer starts with a BufferExtents record",
                          skipped, first);
            else
                tc_report(p->d, TC_RULE_XRAY_EXTENTS_EXPECTED, pos, skipped,
                          "expected a BufferExtents record, found first byte 0x%02x; %" PRIu64
                          " bytes skipped to the next buffer at offset %" PRIu64 "%s",
                          first, skipped, tc_pos(r), hint);
            continue;
        }
        if (at_stop(p))
            return;
        uint64_t n = tc_rd64(b + 1, p->be);
        if (TC_FIELDS_ON(p->d))
            tc_xray_fields_metadata(p->d, pos, b, p->be, TC_XRAY_BUFFER_EXTENTS, p->version);
        start_buffer(p, pos, n > UINT64_MAX - 16 ? UINT64_MAX : n + 16);
        check_reserved(p, pos, b, 8, TC_XRAY_BUFFER_EXTENTS);
        /* buffer_size - n, not n + 16: n near 2^64 must not wrap around. */
        if (n > p->h.buffer_size || p->h.buffer_size - n < 16)
            tc_report_ex(p->d, TC_RULE_XRAY_EXTENTS_OVER_BUFFER_SIZE, pos + 1, 8,
                         TC_EXTRA(TC_VALUES(
                             TC_UINT("buffer_bytes", n > UINT64_MAX - 16 ? UINT64_MAX : n + 16),
                             TC_UINT("extents_size", n), TC_UINT("buffer_size", p->h.buffer_size))),
                         "the buffer takes %" PRIu64 " bytes (16 + %" PRIu64 "), more than the "
                         "header's buffer_size %" PRIu64,
                         n > UINT64_MAX - 16 ? UINT64_MAX : n + 16, n, p->h.buffer_size);
        if (EMITTING(p)) {
            tc_xray_event ev = {.kind = TC_XRAY_BUFFER_EXTENTS, .offset = pos, .value = n};
            emit(p, &ev);
        }
        tc_advance(r, TC_XRAY_METADATA_SIZE);
        parse_records(p);
        if (p->ended_by_eof) {
            if (!r->failed)
                tc_report_ex(p->d, TC_RULE_XRAY_EXTENTS_PAST_EOF, pos + 1, 8,
                             TC_EXTRA(TC_VALUES(
                                 TC_UINT("extents_size", n),
                                 TC_UINT("remaining", tc_pos(r) - pos - TC_XRAY_METADATA_SIZE))),
                             "BufferExtents announces %" PRIu64 " bytes, but the file ends %" PRIu64
                             " bytes after the record",
                             n, tc_pos(r) - pos - TC_XRAY_METADATA_SIZE);
            return;
        }
        finish_buffer(p);
    }
}

/* ---- header ---- */

/* What the file is, by its header, and what the caller reads. */
enum { READ_NOTHING, READ_FDR, READ_BASIC };
typedef enum { MODE_ANY, MODE_FDR, MODE_BASIC } read_mode;

static int parse_header(xray_parser *p, read_mode mode)
{
    tc_reader *r = p->r;
    const uint8_t *b = tc_need(r, TC_XRAY_HEADER_SIZE);
    if (!b) {
        if (!r->failed)
            tc_report(p->d, TC_RULE_XRAY_HEADER_TRUNCATED, 0, tc_avail(r),
                  "the file has %zu bytes; an XRay header has 32", tc_avail(r));
        return READ_NOTHING;
    }
    unsigned le = tc_le16(b), bev = tc_be16(b);
    if (le >= 1 && le <= 5) {
        p->be = 0;
    } else if (bev >= 1 && bev <= 5) {
        p->be = 1;
    } else {
        tc_report(p->d, TC_RULE_XRAY_HEADER_VERSION, 0, 2,
                  "version field is 0x%02x%02x (%u little-endian, %u big-endian); versions 1 "
                  "to 5 are defined", b[0], b[1], le, bev);
        return READ_NOTHING;
    }
    const int be = p->be;
    p->h.big_endian = be;
    p->run = be ? function_run_big : function_run_le;
    p->h.version = tc_rd16(b, be);
    p->version = p->h.version;
    fast_classes(p);
    p->h.type = tc_rd16(b + 2, be);
    p->h.bitfield = tc_rd32(b + 4, be);
    p->h.cycle_frequency = tc_rd64(b + 8, be);
    p->extents_tag = meta_tag(be, TC_XRAY_BUFFER_EXTENTS);
    p->new_buffer_tag = meta_tag(be, TC_XRAY_NEW_BUFFER);

    int basic = p->h.type == 0;
    if (basic && (p->version > 3 || mode == MODE_FDR)) {
        if (p->version > 3)
            tc_report(p->d, TC_RULE_XRAY_HEADER_BASIC_MODE, 2, 2,
                      "type is 0, an XRay basic-mode log, but its version is %u: basic-mode "
                      "logs have versions 1 to 3", p->version);
        else
            tc_report(p->d, TC_RULE_XRAY_HEADER_BASIC_MODE, 2, 2,
                      "type is 0: this is an XRay basic-mode log (version %u, fixed 32-byte "
                      "records), not a Flight Data Recorder trace as --format xray says; "
                      "--format xray-basic (or auto) reads it", p->version);
        return READ_NOTHING;
    }
    if (p->h.type == 1 && mode == MODE_BASIC) {
        tc_report(p->d, TC_RULE_XRAY_HEADER_TYPE, 2, 2,
                  "type is 1: this is an XRay Flight Data Recorder trace (version %u), not a "
                  "basic-mode log (type 0) as --format xray-basic says; --format xray (or "
                  "auto) reads it", p->version);
        return READ_NOTHING;
    }
    if (!basic && p->h.type != 1) {
        tc_report(p->d, TC_RULE_XRAY_HEADER_TYPE, 2, 2,
                  "type is %u; Flight Data Recorder traces have type 1, basic-mode logs type 0",
                  p->h.type);
        return READ_NOTHING;
    }
    /* In basic mode the 16 bytes after the cycle frequency are a union the
     * runtime fills as it likes (ruling 13): only FDR has buffer_size and
     * reserved bytes there. */
    p->h.buffer_size = basic ? 0 : tc_rd64(b + 16, be);
    if (TC_FIELDS_ON(p->d))
        tc_xray_fields_header(p->d, &p->h);
    uint32_t reserved_bits = be ? p->h.bitfield & 0x3fffffffu : p->h.bitfield >> 2;
    int reserved_bytes = 0;
    for (int i = 24; i < 32 && !basic; i++)
        reserved_bytes |= b[i];
    if ((reserved_bits || reserved_bytes) &&
        tc_rule_enabled(p->d, TC_RULE_XRAY_HEADER_RESERVED_NONZERO)) {
        if (basic)
            tc_report(p->d, TC_RULE_XRAY_HEADER_RESERVED_NONZERO, 4, 4,
                      "reserved header bits 0x%08" PRIx32, reserved_bits);
        else
            tc_report(p->d, TC_RULE_XRAY_HEADER_RESERVED_NONZERO, reserved_bits ? 4 : 24,
                      reserved_bits ? 4 : 8, "reserved header bits 0x%08" PRIx32
                      ", reserved bytes %s", reserved_bits,
                      reserved_bytes ? "not all zero" : "zero");
    }
    if (p->h.cycle_frequency == 0)
        tc_report(p->d, TC_RULE_XRAY_HEADER_CYCLE_FREQUENCY_ZERO, 8, 8,
                  "cycle_frequency is 0: TSC ticks cannot be converted to time");
    if (EMITTING(p)) {
        tc_xray_event ev = {.kind = TC_XRAY_EV_HEADER, .offset = 0};
        emit(p, &ev);
    }
    tc_advance(r, TC_XRAY_HEADER_SIZE);
    return basic ? READ_BASIC : READ_FDR;
}

/* Whether a buffer likely starts at the read position: a BufferExtents
 * record that fits buffer_size, then a NewBuffer record with zero reserved
 * bytes. Where to start a segment; a false start costs time, not truth
 * (split.h). */
static int buffer_start_likely(xray_parser *p)
{
    const uint8_t *b = tc_need(p->r, 2 * TC_XRAY_METADATA_SIZE);
    if (!b || b[0] != p->extents_tag || b[TC_XRAY_METADATA_SIZE] != p->new_buffer_tag)
        return 0;
    uint64_t n = tc_rd64(b + 1, p->be);
    if (p->h.buffer_size < TC_XRAY_METADATA_SIZE || n > p->h.buffer_size - TC_XRAY_METADATA_SIZE)
        return 0;
    for (unsigned i = TC_XRAY_METADATA_SIZE + 5; i < 2 * TC_XRAY_METADATA_SIZE; i++)
        if (b[i])
            return 0;
    return 1;
}

static int find_buffer(xray_parser *p)
{
    while (next_extents_tag(p, p->seg->stop)) {
        if (buffer_start_likely(p))
            return 1;
        tc_advance(p->r, 1);
    }
    return 0;
}

/* Moves to the first buffer at or after the segment's start (at it, when it
 * is exact); 0 when there is none before the segment's stop. */
static int segment_start(xray_parser *p)
{
    tc_reader *r = p->r;
    tc_split_seg *seg = p->seg;
    uint64_t at = seg->start > TC_XRAY_HEADER_SIZE ? seg->start : TC_XRAY_HEADER_SIZE;
    if (p->version == 1 && !seg->exact) { /* buffers of buffer_size bytes */
        uint64_t size = p->h.buffer_size, into = at - TC_XRAY_HEADER_SIZE;
        if (size < TC_XRAY_MIN_V1_BUFFER)
            return 0;
        uint64_t k = into / size + (into % size != 0);
        if (k > (UINT64_MAX - TC_XRAY_HEADER_SIZE) / size)
            return 0;
        at = TC_XRAY_HEADER_SIZE + k * size;
    }
    if (at >= seg->stop)
        return 0;
    uint64_t want = at - tc_pos(r);
    if (tc_skip(r, want) < want)
        return 0;
    if (p->version >= 2 && !seg->exact && !find_buffer(p))
        return 0;
    seg->began = tc_pos(r);
    return 1;
}

/* The segments' contexts name the buffer by its number in the segment. */
static void rebase_context(char *context, size_t size, uint64_t base)
{
    static const char lead[] = "in buffer ";
    if (strncmp(context, lead, sizeof lead - 1) != 0)
        return;
    char *number = context + sizeof lead - 1, *rest;
    uint64_t n = strtoull(number, &rest, 10);
    char tail[256];
    snprintf(tail, sizeof tail, "%s", rest);
    snprintf(number, size - (size_t)(number - context), "%" PRIu64 "%s", n + base, tail);
}

static void parse(tc_reader *r, const tc_parse_ctx *ctx, read_mode mode, tc_split_seg *seg)
{
    /* The call stack's 12 KiB are not cleared: an entry is written when the
     * depth reaches it, before it is read (stack[0], the sentinel, is set
     * below). A run over a small file then costs no 12 KiB of zeroing. */
    xray_parser *p = malloc(sizeof *p);
    if (p)
        memset(p, 0, offsetof(xray_parser, stack));
    if (!p) {
        r->failed = TC_READ_IO_ERROR;
        snprintf(r->error, sizeof r->error, "out of memory");
        return;
    }
    p->r = r;
    p->d = ctx->diags;
    p->ctx = ctx;
    p->stack[0] = UINT32_MAX; /* matches no 28-bit function id */
    p->d->context_fn = context;
    p->d->context_parser = p;
    p->seg = seg;
    int what;
    if (seg && seg->start > 0) {
        /* Read again for this segment: the first one reports its findings. */
        tc_diag_sink quiet;
        tc_diag_init(&quiet, p->d->input, 1, p->d->pedantic, NULL, NULL);
        p->d = &quiet;
        what = parse_header(p, mode);
        p->d = ctx->diags;
        if (what == READ_FDR && !segment_start(p))
            what = READ_NOTHING; /* a basic-mode log finds its records itself */
    } else {
        what = parse_header(p, mode);
        if (seg)
            seg->began = 0;
    }
    switch (what) {
    case READ_FDR:
        p->bins = tc_xray_bins_open(ctx);
        if (p->version == 1)
            parse_v1(p);
        else
            parse_v2(p);
        tc_xray_bins_close(p->bins);
        break;
    case READ_BASIC:
        p->d->context_fn = NULL; /* the basic reader's messages say where */
        p->d->context_parser = NULL;
        tc_xray_basic_records(r, ctx, &p->h, seg);
        break;
    default:
        break;
    }
    if (seg)
        seg->units = p->index;
    p->d->context_fn = NULL;
    p->d->context_parser = NULL;
    free(p);
}

void tc_xray_parse_any(tc_reader *r, const tc_parse_ctx *ctx) { parse(r, ctx, MODE_ANY, NULL); }
void tc_xray_parse(tc_reader *r, const tc_parse_ctx *ctx) { parse(r, ctx, MODE_FDR, NULL); }
void tc_xray_basic_parse(tc_reader *r, const tc_parse_ctx *ctx)
{
    parse(r, ctx, MODE_BASIC, NULL);
}

static void parse_segment(tc_reader *r, const tc_parse_ctx *ctx, tc_split_seg *seg)
{
    parse(r, ctx, MODE_FDR, seg);
}

void tc_xray_basic_parse_segment(tc_reader *r, const tc_parse_ctx *ctx, tc_split_seg *seg)
{
    parse(r, ctx, MODE_BASIC, seg);
}

const tc_format_split tc_xray_split = {.parse = parse_segment, .rebase = rebase_context,
                                       .one_thread = tc_xray_bins_one_thread};
