/* Independent judges of one XRay run: see xray_oracle.h. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/common/bytes.h"
#include "../../parsers/xray/xray.h"
#include "xray_oracle.h"

/* ---- findings ---- */

/* Findings about a record or payload that the input cuts short: they cover
 * the whole record, so they may reach past the last byte. */
static int about_end_of_input(tc_rule_id r)
{
    return r == TC_RULE_XRAY_RECORD_PAST_EXTENTS || r == TC_RULE_XRAY_V1_RECORD_CROSSES_BUFFER;
}

void xray_oracle_check_findings(const xr_run *run, const hx_plain *pl)
{
    hx_check_well_formed(&run->f, "XRAY TC");
    for (size_t i = 0; i < run->f.n; i++) {
        const hx_finding *d = &run->f.v[i];
        const char *id = tc_rules[d->rule].id;
        FUZZ_ASSERT_MSG(d->rule != TC_RULE_FORMAT_UNKNOWN &&
                            (d->rule != TC_RULE_DIAG_SUPPRESSED ||
                             run->f.max_repeats != UINT32_MAX),
                        "%s from the parser itself", id);
        FUZZ_ASSERT_MSG(d->rule != TC_RULE_INPUT_DECOMPRESS || pl->compressed,
                        "%s on an uncompressed input", id);
    }
    /* A failed decompression leaves only a prefix known. */
    if (!pl->failed)
        hx_check_binary_locations(&run->f, pl->n, about_end_of_input);
}

/* ---- events ---- */

void xray_oracle_check_events(const xr_run *run, const hx_plain *pl)
{
    uint64_t next = 0;
    for (size_t i = 0; i < run->nevents; i++) {
        const tc_xray_event *e = &run->events[i];
        uint64_t size = xr_event_size(e);
        int basic_kind = e->kind == TC_XRAY_EV_BASIC_FUNCTION || e->kind == TC_XRAY_EV_BASIC_ARG;
        FUZZ_ASSERT_MSG((e->kind >= 0 && e->kind < TC_XRAY_KIND_COUNT) ||
                            e->kind == TC_XRAY_EV_HEADER || e->kind == TC_XRAY_EV_FUNCTION ||
                            basic_kind,
                        "event kind %d", e->kind);
        FUZZ_ASSERT_MSG(i == 0 || basic_kind == (run->header.type == 0),
                        "event kind %d in a log of header type %u", e->kind, run->header.type);
        FUZZ_ASSERT_MSG((e->kind == TC_XRAY_EV_HEADER) == (i == 0 && e->offset == 0),
                        "header event %zu at %" PRIu64, i, e->offset);
        FUZZ_ASSERT_MSG(e->offset >= next, "event %zu at %" PRIu64 " overlaps the one before "
                        "(which ends at %" PRIu64 ")", i, e->offset, next);
        if (!pl->failed)
            FUZZ_ASSERT_MSG(size <= pl->n && e->offset <= pl->n - size,
                            "event %zu (%" PRIu64 "+%" PRIu64 ") is not inside the %zu-byte input",
                            i, e->offset, size, pl->n);
        if (e->kind == TC_XRAY_CUSTOM_EVENT || e->kind == TC_XRAY_TYPED_EVENT) {
            FUZZ_ASSERT(e->size >= 0);
            FUZZ_ASSERT_MSG(e->data && e->data_len == (size_t)e->size,
                            "event payload of %zu bytes held for size %" PRId32, e->data_len,
                            e->size);
            if (e->offset + size <= pl->n)
                FUZZ_ASSERT_MSG(memcmp(e->data, pl->p + e->offset + 16, e->data_len) == 0,
                                "the payload at %" PRIu64 " is not the input's bytes", e->offset);
        } else {
            FUZZ_ASSERT(e->data == NULL && e->data_len == 0);
        }
        next = e->offset + size;
    }
    if (run->have_header) {
        FUZZ_ASSERT(run->nevents > 0 && run->events[0].kind == TC_XRAY_EV_HEADER);
        FUZZ_ASSERT((run->header.version >= 1 && run->header.version <= 5 &&
                     run->header.type == 1) ||
                    (run->header.version >= 1 && run->header.version <= 3 &&
                     run->header.type == 0));
    }
    if (!run->dump)
        return;
    /* One dump line per event. */
    size_t lines = 0;
    for (size_t i = 0; i < run->dump_len; i++)
        lines += run->dump[i] == '\n';
    FUZZ_ASSERT_MSG(lines == run->nevents, "%zu dump lines for %zu events", lines, run->nevents);
    FUZZ_ASSERT(run->dump_len == 0 || (strncmp(run->dump, "{\"t\":\"header\"", 13) == 0 &&
                                       run->dump[run->dump_len - 1] == '\n'));
}

/* ---- buffers ---- */

/* Whether the run reported rule at an offset in [from, to]. */
static int reported_between(const xr_run *run, tc_rule_id rule, uint64_t from, uint64_t to)
{
    for (size_t i = 0; i < run->f.n; i++)
        if (run->f.v[i].rule == rule && run->f.v[i].offset >= from && run->f.v[i].offset <= to)
            return 1;
    return 0;
}

/* Ruling 10's call stack of one buffer: Entry and Entry_Args open a frame
 * (beyond 1024 frames they are only counted), Exit and Tail_Exit close the
 * innermost one; an exit of another function while frames are open is a
 * mismatch, after which the stack unwinds to that function when it is open
 * further down. */
typedef struct stack {
    uint32_t fid[TC_XRAY_MAX_STACK];
    uint32_t depth;
    uint64_t untracked;
} stack;

/* Whether the function event is an exit ruling 10 rejects. */
static int stack_step(stack *s, const tc_xray_event *e)
{
    if (e->action == TC_XRAY_ENTER || e->action == TC_XRAY_ENTER_ARGS) {
        if (s->depth < TC_XRAY_MAX_STACK)
            s->fid[s->depth++] = e->func_id;
        else
            s->untracked++;
        return 0;
    }
    if (e->action != TC_XRAY_EXIT && e->action != TC_XRAY_TAIL_EXIT)
        return 0; /* XRAY-FUNCTION-ACTION's */
    if (s->untracked) {
        s->untracked--;
        return 0;
    }
    if (s->depth == 0)
        return 0; /* a buffer may start mid-stack */
    if (s->fid[s->depth - 1] == e->func_id) {
        s->depth--;
        return 0;
    }
    for (uint32_t j = s->depth - 1; j-- > 0;)
        if (s->fid[j] == e->func_id) {
            s->depth = j;
            break;
        }
    return 1;
}

static int buffer_rule(tc_rule_id r)
{
    return r == TC_RULE_XRAY_EXTENTS_OVER_BUFFER_SIZE || r == TC_RULE_XRAY_CALLSTACK_MISMATCH;
}

void xray_oracle_check_buffers(const xr_run *run)
{
    if (!run->have_header || run->header.type != 1)
        return;
    const tc_xray_header *h = &run->header;
    const uint64_t size = h->buffer_size;
    /* A record reported past its extents lets the buffer's records go on;
     * such findings suppressed by the repeat cap leave it unknown where. */
    const int past_unknown = run->f.count[TC_RULE_XRAY_RECORD_PAST_EXTENTS] > run->f.max_repeats;
    /* A stack's entries are written before they are read: only its depth
     * needs resetting, not 4 KiB a run. */
    static stack one;
    stack *s = &one;
    s->depth = 0;
    s->untracked = 0;
    hx_expect x = {0};
    uint64_t start = 0, end = 0, tile = UINT64_MAX;
    for (size_t i = 1; i < run->nevents; i++) {
        const tc_xray_event *e = &run->events[i];
        if (h->version == 1 && size > 0) {
            uint64_t t = (e->offset - TC_XRAY_HEADER_SIZE) / size;
            if (t != tile) { /* the next buffer_size tile: a new buffer */
                tile = t;
                start = TC_XRAY_HEADER_SIZE + t * size;
                end = start + size;
                s->depth = 0;
                s->untracked = 0;
            }
        } else if (e->kind == TC_XRAY_BUFFER_EXTENTS) {
            uint64_t n = e->value;
            start = e->offset;
            end = n > UINT64_MAX - 16 - start ? UINT64_MAX : start + 16 + n;
            s->depth = 0;
            s->untracked = 0;
            if (n > UINT64_MAX - 16 || n + 16 > size)
                hx_expect_add(&x, TC_RULE_XRAY_EXTENTS_OVER_BUFFER_SIZE, e->offset + 1, 8);
            continue;
        }
        uint64_t len = xr_event_size(e);
        FUZZ_ASSERT_MSG(e->offset >= start &&
                            (len <= end - e->offset ||
                             (h->version >= 2 &&
                              (past_unknown ||
                               reported_between(run, TC_RULE_XRAY_RECORD_PAST_EXTENTS, start,
                                                e->offset)))),
                        "the %s at %" PRIu64 " (%" PRIu64 " bytes) is not inside its buffer "
                        "[%" PRIu64 ", %" PRIu64 ")", tc_xray_kind_name((unsigned)e->kind),
                        e->offset, len, start, end);
        FUZZ_ASSERT_MSG(e->kind != TC_XRAY_TYPED_EVENT || h->version == 5,
                        "a typed event at %" PRIu64 " decoded in a version %u trace", e->offset,
                        h->version);
        if (e->kind == TC_XRAY_EV_FUNCTION && stack_step(s, e))
            hx_expect_add(&x, TC_RULE_XRAY_CALLSTACK_MISMATCH, e->offset, TC_XRAY_FUNCTION_SIZE);
    }
    hx_assert_expected(&run->f, &x, buffer_rule, HX_CMP_LENGTH,
                       "BufferExtents against buffer_size, and ruling 10's call stacks");
    hx_expect_free(&x);
}

/* ---- an accepted input is a trace: re-checked on the events ---- */

typedef struct acc {
    const xr_run *run;
    size_t i;          /* next event */
    unsigned version;
    uint64_t pos;      /* where the next record must start */
} acc;

static const tc_xray_event *next_event(acc *a, const char *want)
{
    FUZZ_ASSERT_MSG(a->i < a->run->nevents, "accepted, but the events end where %s was due at %"
                    PRIu64, want, a->pos);
    const tc_xray_event *e = &a->run->events[a->i++];
    FUZZ_ASSERT_MSG(e->offset == a->pos, "accepted, but a record at %" PRIu64 " follows one "
                    "ending at %" PRIu64 " (%s due): bytes were skipped", e->offset, a->pos, want);
    a->pos += xr_event_size(e);
    return e;
}

static void expect_kind(const tc_xray_event *e, int kind, const char *name)
{
    FUZZ_ASSERT_MSG(e->kind == kind, "accepted, but the record at %" PRIu64 " is kind %d where %s "
                    "belongs", e->offset, e->kind, name);
}

/* One buffer ending at `end`, starting with NewBuffer at a->pos. */
static void accepted_buffer(acc *a, uint64_t end)
{
    const unsigned v = a->version;
    const tc_xray_event *e = next_event(a, "NewBuffer");
    expect_kind(e, TC_XRAY_NEW_BUFFER, "NewBuffer");
    int32_t tid = e->id, pid = 0;
    FUZZ_ASSERT(e->tid == tid);
    e = next_event(a, "WallTimeMarker");
    expect_kind(e, TC_XRAY_WALL_TIME, "WallTimeMarker");
    FUZZ_ASSERT_MSG(e->wall_usec >= 0 && e->wall_usec <= 999999, "accepted usec %" PRId32,
                    e->wall_usec);
    if (v >= 3) {
        e = next_event(a, "PIDEntry");
        expect_kind(e, TC_XRAY_PID, "PIDEntry");
        pid = e->id;
    }
    e = next_event(a, "NewCPUId");
    expect_kind(e, TC_XRAY_NEW_CPU, "NewCPUId");
    uint16_t cpu = e->cpu;
    uint64_t tsc = e->value;
    FUZZ_ASSERT(e->tsc == tsc && e->tid == tid && e->pid == pid);
    int last = -1; /* the action of the function record just before, or -1 */
    int after_arg = 0;
    while (a->pos < end) {
        e = next_event(a, "a body record");
        FUZZ_ASSERT_MSG(a->pos <= end, "accepted, but the record at %" PRIu64 " crosses the "
                        "buffer's end at %" PRIu64, e->offset, end);
        int prev = last, prev_arg = after_arg;
        last = -1;
        after_arg = 0;
        switch (e->kind) {
        case TC_XRAY_EV_FUNCTION:
            FUZZ_ASSERT_MSG(e->action <= 3, "accepted action %u", e->action);
            tsc += e->delta;
            last = (int)e->action;
            break;
        case TC_XRAY_CALL_ARG:
            FUZZ_ASSERT_MSG(prev_arg || prev == TC_XRAY_ENTER_ARGS ||
                                (prev == TC_XRAY_ENTER && v < 5),
                            "accepted a CallArgument at %" PRIu64 " after %d", e->offset, prev);
            after_arg = 1;
            break;
        case TC_XRAY_NEW_CPU:
            cpu = e->cpu;
            tsc = e->value;
            break;
        case TC_XRAY_TSC_WRAP:
            tsc = e->value;
            break;
        case TC_XRAY_TYPED_EVENT:
            FUZZ_ASSERT_MSG(v == 5, "accepted a typed event in version %u", v);
            /* fall through */
        case TC_XRAY_CUSTOM_EVENT:
            if (v >= 5) /* versions 1-4 write an absolute TSC that does not move the base */
                tsc += (uint64_t)(int64_t)(int32_t)e->delta;
            break;
        case TC_XRAY_END_OF_BUFFER:
            FUZZ_ASSERT_MSG(v == 1, "accepted EndOfBuffer in version %u", v);
            a->pos = end; /* the padding is never read */
            break;
        default:
            FUZZ_FAIL("accepted a record of kind %d in a buffer's body at %" PRIu64, e->kind,
                      e->offset);
        }
        FUZZ_ASSERT_MSG(e->cpu == cpu && e->tsc == tsc && e->tid == tid && e->pid == pid,
                        "event at %" PRIu64 " carries cpu %u tsc %" PRIu64 " tid %" PRId32
                        " pid %" PRId32 "; reconstructed cpu %u tsc %" PRIu64 " tid %" PRId32
                        " pid %" PRId32, e->offset, e->cpu, e->tsc, e->tid, e->pid, cpu, tsc, tid,
                        pid);
    }
    FUZZ_ASSERT_MSG(a->pos == end, "accepted, but the buffer's records end at %" PRIu64
                    ", not at its end %" PRIu64, a->pos, end);
}

/* A basic-mode log: a record per event, whose fields are the input's. */
static void check_accepted_basic(const xr_run *run, const hx_plain *pl)
{
    const tc_xray_header *h = &run->header;
    const int be = h->big_endian;
    size_t records = (pl->n - TC_XRAY_HEADER_SIZE) / TC_XRAY_BASIC_RECORD_SIZE;
    FUZZ_ASSERT_MSG((pl->n - TC_XRAY_HEADER_SIZE) % TC_XRAY_BASIC_RECORD_SIZE == 0,
                    "accepted a basic-mode log of %zu bytes", pl->n);
    FUZZ_ASSERT_MSG(run->nevents == 1 + records, "accepted %zu records with %zu events",
                    records, run->nevents);
    uint32_t prev_func = 0, prev_tid = 0, prev_pid = 0;
    for (size_t i = 0; i < records; i++) {
        const tc_xray_event *e = &run->events[1 + i];
        uint64_t off = TC_XRAY_HEADER_SIZE + (uint64_t)i * TC_XRAY_BASIC_RECORD_SIZE;
        const uint8_t *b = pl->p + off;
        FUZZ_ASSERT_MSG(e->offset == off, "record %zu's event is at %" PRIu64, i, e->offset);
        unsigned rtype = be ? (unsigned)(b[0] << 8 | b[1]) : (unsigned)(b[0] | b[1] << 8);
        uint32_t func, tid, pid;
        if (rtype == 0) {
            FUZZ_ASSERT_MSG(e->kind == TC_XRAY_EV_BASIC_FUNCTION && b[3] <= 3 &&
                                e->action == b[3] && e->cpu == b[2] &&
                                (b[3] != 2 || h->version >= 2),
                            "accepted a function record of type %u at %" PRIu64, b[3], off);
            func = tc_rd32(b + 4, be);
            tid = tc_rd32(b + 16, be);
            pid = tc_rd32(b + 20, be);
            FUZZ_ASSERT(e->tsc == tc_rd64(b + 8, be));
        } else {
            FUZZ_ASSERT_MSG(rtype == 1 && e->kind == TC_XRAY_EV_BASIC_ARG,
                            "accepted record type %u at %" PRIu64, rtype, off);
            func = tc_rd32(b + 4, be);
            tid = tc_rd32(b + 8, be);
            pid = tc_rd32(b + 12, be);
            FUZZ_ASSERT(e->value == tc_rd64(b + 16, be));
            FUZZ_ASSERT_MSG(i > 0 && func == prev_func && tid == prev_tid &&
                                (h->version < 3 || pid == prev_pid),
                            "accepted an argument payload at %" PRIu64 " after another "
                            "function, thread or process", off);
        }
        FUZZ_ASSERT(e->func_id == func && (uint32_t)e->tid == tid && (uint32_t)e->pid == pid);
        prev_func = func;
        prev_tid = tid;
        prev_pid = pid;
    }
}

void xray_oracle_check_accepted(const xr_run *run, const hx_plain *pl)
{
    FUZZ_ASSERT_MSG(run->have_header && pl->n >= TC_XRAY_HEADER_SIZE,
                    "accepted without a header (%zu bytes)", pl->n);
    const tc_xray_header *h = &run->header;
    if (h->type == 0) {
        check_accepted_basic(run, pl);
        return;
    }
    acc a = {run, 1, h->version, TC_XRAY_HEADER_SIZE};
    if (h->version == 1) {
        FUZZ_ASSERT_MSG(h->buffer_size >= TC_XRAY_MIN_V1_BUFFER &&
                            (pl->n - TC_XRAY_HEADER_SIZE) % h->buffer_size == 0,
                        "accepted a version 1 file of %zu bytes with buffer_size %" PRIu64, pl->n,
                        h->buffer_size);
        while (a.pos < pl->n)
            accepted_buffer(&a, a.pos + h->buffer_size);
    } else {
        while (a.pos < pl->n) {
            const tc_xray_event *e = next_event(&a, "BufferExtents");
            expect_kind(e, TC_XRAY_BUFFER_EXTENTS, "BufferExtents");
            FUZZ_ASSERT_MSG(e->value <= pl->n - a.pos, "accepted BufferExtents %" PRIu64
                            " with %" PRIu64 " bytes left", e->value, pl->n - a.pos);
            accepted_buffer(&a, a.pos + e->value);
        }
    }
    FUZZ_ASSERT_MSG(a.pos == pl->n && a.i == run->nevents,
                    "accepted, but the buffers end at %" PRIu64 " of %zu bytes (%zu of %zu events)",
                    a.pos, pl->n, a.i, run->nevents);
}

