/*
 * The ovni stream parser and model layer on raw bytes: the input is a
 * stream.obs. Besides crashes, leaks and undefined behaviour (the
 * sanitizers), it checks that:
 *
 *  - the parser reads the stream as spec/ovni.md says: a reading of the
 *    stream written here from the spec (header, events, jumbo sizes, the
 *    rulings' checks, the unsorted regions of ruling 11, and the model
 *    layer's payload sizes, thread states and regions) gives the same
 *    events, field by field, and the same findings: rule, offset and
 *    length, in the same order;
 *  - every event re-encodes to the input's bytes, and the events tile the
 *    stream from its header on;
 *  - every input path gives the same result: memory, read() with tiny
 *    windows, sliding mmap windows; the library's entry point (which keeps
 *    payloads and writes the canonical dump) and the stream calls a whole
 *    trace's check makes, with payloads and without;
 *  - options change only what they should: without the model layer only its
 *    findings go; with the default repeat cap each rule stops at the cap
 *    with one TC-DIAG-SUPPRESSED note; with metadata (picked from the input:
 *    thread or not, which models are required) the model layer judges
 *    models and thread life as the metadata says;
 *  - diagnostics are well formed (OVNI rules with the catalogue's severity,
 *    one-line messages, locations inside the input), and the canonical dump
 *    is strict JSON, one line per record, exactly the schema's lines.
 *
 * LLVMFuzzerCustomMutator mutates inputs event by event (ovni_mutator.c);
 * under AFL++ the same mutator is a custom mutator library.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parsers/common/dump.h"
#include "../parsers/common/input.h"
#include "../parsers/common/json.h"
#include "fuzz_helpers.h"
#include "ovni_mutator.h"
#include "ovni_run.h"

/* ---- the stream as spec/ovni.md describes it ---- */

typedef struct xfind {
    tc_rule_id rule;
    uint64_t offset, length;
} xfind;

typedef struct xevent {
    uint64_t offset;
    uint8_t b0;
    const uint8_t *mcv;
    uint64_t clock;
    int jumbo;
    uint32_t len;
    const uint8_t *data;
} xevent;

typedef struct expect {
    xfind *f;
    size_t nf, fcap;
    xevent *ev;
    size_t nev, evcap;
    int header_ok, be;
} expect;

static void find(expect *x, tc_rule_id rule, uint64_t offset, uint64_t length)
{
    if (x->nf == x->fcap) {
        x->fcap = x->fcap ? 2 * x->fcap : 32;
        x->f = realloc(x->f, x->fcap * sizeof *x->f);
        FUZZ_CHECK_ALLOC(x->f);
    }
    x->f[x->nf++] = (xfind){rule, offset, length};
}

static uint64_t rd(const uint8_t *p, int n, int be)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v |= (uint64_t)p[be ? n - 1 - i : i] << (8 * i);
    return v;
}

static int printable(uint8_t c) { return c >= 0x21 && c <= 0x7e; }

/* What the model layer is told about the stream (a tc_ovni_meta's part). */
typedef struct mview {
    int thread;
    int known;            /* ovni.require was read */
    const uint8_t *letters;
    int unknown_required;
    int ovni_unjudged;    /* ovni's model required at a version not known (ruling 9) */
} mview;

enum { NEW, RUNNING, PAUSED, COOLING, WARMING, DEAD };

typedef struct mstate {
    mview v;
    int state;
    int flush, unsorted;
    uint64_t flush_at, unsorted_at, last;
} mstate;

/* ovni's own events and their payloads: spec/ovni.md's table. */
static int ovni_payload(const uint8_t *cv)
{
    static const struct {
        char cv[3];
        int payload;
    } t[] = {{"Hx", 16}, {"HC", 12}, {"He", 0}, {"Hp", 0}, {"Hr", 0}, {"Hc", 0},
             {"Hw", 0},  {"As", 4},  {"Ar", 8}, {"Cn", 4}, {"B.", 0}, {"F[", 0},
             {"F]", 0},  {"U[", 0},  {"U]", 0}, {"M[", 12}, {"M]", 12}, {"M=", 12}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (cv[0] == (uint8_t)t[i].cv[0] && cv[1] == (uint8_t)t[i].cv[1])
            return t[i].payload;
    return -1;
}

/* The spec's thread states: which of OHx, OHe, OHp, OHr, OHc, OHw each
 * state allows, and where it leads. */
static int thread_next(int from, uint8_t v)
{
    switch (v) {
    case 'x': return from == RUNNING ? -1 : RUNNING;
    case 'e': return from == RUNNING || from == COOLING ? DEAD : -1;
    case 'p': return from == RUNNING || from == COOLING ? PAUSED : -1;
    case 'r': return from == PAUSED || from == WARMING ? RUNNING : -1;
    case 'c': return from == RUNNING ? COOLING : -1;
    default: return from == PAUSED ? WARMING : -1; /* 'w' */
    }
}

static void model_event(expect *x, mstate *m, const xevent *e)
{
    const uint8_t *mcv = e->mcv;
    m->last = e->offset;
    if (mcv[0] == 'O' && m->v.ovni_unjudged)
        return; /* ruling 9: and the thread never gets a state */
    if (m->v.thread && m->state == DEAD && !(mcv[0] == 'O' && mcv[1] == 'F'))
        find(x, TC_RULE_OVNI_THREAD_AFTER_END, e->offset, 12);
    if (mcv[0] != 'O') {
        /* Ruling 8: a known model the stream does not require; an unknown
         * letter unless the stream requires a model tracecheck does not know.
         * A byte that is no letter at all is OVNI-MCV-PRINTABLE's alone. */
        if (!m->v.known || !printable(mcv[0]))
            return;
        int known = mcv[0] < 0x80 && strchr("6VKPTMD", mcv[0]) && mcv[0];
        if (known ? !m->v.letters[mcv[0]] : !m->v.unknown_required)
            find(x, TC_RULE_OVNI_MODEL_NOT_REQUIRED, e->offset, 1);
        return;
    }
    int payload = ovni_payload(mcv + 1);
    if (payload < 0) {
        find(x, TC_RULE_OVNI_MODEL_UNKNOWN_EVENT, e->offset, 4);
        return;
    }
    if (e->jumbo || e->len != (uint32_t)payload)
        find(x, TC_RULE_OVNI_MODEL_PAYLOAD, e->offset, 1);
    if (mcv[1] == 'H' && mcv[2] != 'C' && m->v.thread && m->state != DEAD) {
        int to = thread_next(m->state, mcv[2]);
        if (m->state == NEW && mcv[2] != 'x')
            find(x, TC_RULE_OVNI_THREAD_BEFORE_START, e->offset, 12);
        else if (mcv[2] == 'x' && m->state == RUNNING)
            find(x, TC_RULE_OVNI_THREAD_RUNNING, e->offset, 12);
        else if (to < 0)
            find(x, TC_RULE_OVNI_THREAD_STATE, e->offset, 12);
        if (to >= 0)
            m->state = to;
    } else if (mcv[1] == 'F' || mcv[1] == 'U') {
        int *open = mcv[1] == 'F' ? &m->flush : &m->unsorted;
        uint64_t *at = mcv[1] == 'F' ? &m->flush_at : &m->unsorted_at;
        tc_rule_id rule = mcv[1] == 'F' ? TC_RULE_OVNI_FLUSH_BALANCE : TC_RULE_OVNI_UNSORTED_BALANCE;
        int begin = mcv[2] == '[';
        if (begin == *open)
            find(x, rule, e->offset, 12);
        *open = begin;
        *at = e->offset;
    }
}

static void model_finish(expect *x, mstate *m)
{
    if (m->flush)
        find(x, TC_RULE_OVNI_FLUSH_BALANCE, m->flush_at, 12);
    if (m->unsorted)
        find(x, TC_RULE_OVNI_UNSORTED_BALANCE, m->unsorted_at, 12);
    if (m->v.thread && m->state != NEW && m->state != DEAD)
        find(x, TC_RULE_OVNI_THREAD_NO_END, m->last, 12);
}

/* The events and findings spec/ovni.md implies for the n bytes at p, in the
 * order the parser reports them: per event, the stream's findings, then
 * the model layer's (when models); then the end's. */
static void expect_stream(expect *x, const uint8_t *p, size_t n, const mview *v, int models)
{
    memset(x, 0, sizeof *x);
    if (n < 8) {
        find(x, TC_RULE_OVNI_STREAM_HEADER_TRUNCATED, 0, n);
        return;
    }
    if (memcmp(p, "ovni", 4) != 0) {
        find(x, TC_RULE_OVNI_STREAM_MAGIC, 0, 4);
        return;
    }
    if (rd(p + 4, 4, 0) == 1) {
        x->be = 0;
    } else if (rd(p + 4, 4, 1) == 1) {
        x->be = 1;
    } else {
        find(x, TC_RULE_OVNI_STREAM_VERSION, 4, 4);
        return;
    }
    x->header_ok = 1;
    mstate m = {.v = *v};
    int have_clock = 0;
    uint64_t last = 0;
    /* Ruling 11: ovnisort's unsorted region, after an OU[ up to the next
     * OU], read from the codes alone. */
    int region = 0;
    size_t pos = 8;
    for (;;) {
        if (pos == n) {
            if (x->nev == 0)
                find(x, TC_RULE_OVNI_STREAM_NO_EVENTS, 0, 8);
            break;
        }
        if (n - pos < 12) {
            find(x, TC_RULE_OVNI_EVENT_TRUNCATED, pos, n - pos);
            break;
        }
        xevent e = {.offset = pos, .b0 = p[pos], .mcv = p + pos + 1,
                    .clock = rd(p + pos + 4, 8, x->be), .jumbo = (p[pos] & 0x10) != 0};
        if (p[pos] & 0xe0)
            find(x, TC_RULE_OVNI_EVENT_FLAGS, pos, 1);
        if (!printable(p[pos + 1]) || !printable(p[pos + 2]) || !printable(p[pos + 3]))
            find(x, TC_RULE_OVNI_MCV_PRINTABLE, pos + 1, 3);
        int ou = e.mcv[0] == 'O' && e.mcv[1] == 'U';
        int opens = ou && e.mcv[2] == '[', closes = ou && e.mcv[2] == ']';
        if (e.clock >= 1ull << 63) {
            find(x, TC_RULE_OVNI_CLOCK_RANGE, pos + 4, 8);
        } else {
            if (have_clock && e.clock < last)
                find(x, region && !closes ? TC_RULE_OVNI_CLOCK_UNSORTED
                                          : TC_RULE_OVNI_CLOCK_DECREASE, pos + 4, 8);
            have_clock = 1;
            last = e.clock;
        }
        if (region ? closes : opens)
            region = !region;
        size_t start;
        if (!e.jumbo) {
            unsigned code = p[pos] & 0x0fu;
            e.len = code ? code + 1 : 0;
            start = pos + 12;
            if (n - start < e.len) {
                find(x, TC_RULE_OVNI_EVENT_TRUNCATED, pos, n - pos);
                break;
            }
        } else {
            if ((p[pos] & 0x0fu) != 3)
                find(x, TC_RULE_OVNI_JUMBO_SIZE_CODE, pos, 1);
            if (n - pos < 16) {
                find(x, TC_RULE_OVNI_EVENT_TRUNCATED, pos, n - pos);
                break;
            }
            e.len = (uint32_t)rd(p + pos + 12, 4, x->be);
            if (e.len >= 2u << 20)
                find(x, TC_RULE_OVNI_JUMBO_LARGE, pos + 12, 4);
            start = pos + 16;
            if (n - start < e.len) {
                find(x, TC_RULE_OVNI_JUMBO_PAST_EOF, pos + 12, 4);
                break;
            }
        }
        e.data = p + start;
        if (x->nev == x->evcap) {
            x->evcap = x->evcap ? 2 * x->evcap : 64;
            x->ev = realloc(x->ev, x->evcap * sizeof *x->ev);
            FUZZ_CHECK_ALLOC(x->ev);
        }
        x->ev[x->nev++] = e;
        if (models)
            model_event(x, &m, &e);
        pos = start + e.len;
    }
    if (models)
        model_finish(x, &m);
}

static void expect_free(expect *x)
{
    free(x->f);
    free(x->ev);
}

static int model_rule(tc_rule_id r)
{
    return r == TC_RULE_OVNI_MODEL_PAYLOAD || r == TC_RULE_OVNI_MODEL_NOT_REQUIRED ||
           r == TC_RULE_OVNI_MODEL_UNKNOWN_EVENT || r == TC_RULE_OVNI_THREAD_BEFORE_START ||
           r == TC_RULE_OVNI_THREAD_AFTER_END || r == TC_RULE_OVNI_THREAD_RUNNING ||
           r == TC_RULE_OVNI_THREAD_STATE || r == TC_RULE_OVNI_THREAD_NO_END ||
           r == TC_RULE_OVNI_FLUSH_BALANCE || r == TC_RULE_OVNI_UNSORTED_BALANCE;
}

/* The run reports exactly the expected findings and events. */
static void compare_expected(const ofz_stream_run *run, const expect *x, const char *what)
{
    size_t n = run->d.n < x->nf ? run->d.n : x->nf;
    for (size_t i = 0; i <= n; i++) {
        int same = i < n && run->d.v[i].rule == x->f[i].rule &&
                   run->d.v[i].offset == x->f[i].offset && run->d.v[i].length == x->f[i].length;
        if (same)
            continue;
        if (i == n && run->d.n == x->nf)
            break;
        fprintf(stderr, "%s: finding %zu differs from spec/ovni.md's reading:\n", what, i);
        for (size_t k = i; k < i + 3; k++) {
            if (k < run->d.n)
                ofz_print_diag(stderr, "parser", &run->d.v[k]);
            if (k < x->nf)
                fprintf(stderr, "  expected: %s at %" PRIu64 "+%" PRIu64 "\n",
                        tc_rules[x->f[k].rule].id, x->f[k].offset, x->f[k].length);
        }
        FUZZ_FAIL("%s: %zu findings, %zu expected", what, run->d.n, x->nf);
    }
    FUZZ_ASSERT_MSG(run->nevents == x->nev, "%s: %zu events, spec/ovni.md's reading has %zu",
                    what, run->nevents, x->nev);
    for (size_t i = 0; run->ev && i < run->nevents; i++) {
        const ofz_event *a = &run->ev[i];
        const xevent *b = &x->ev[i];
        FUZZ_ASSERT_MSG(a->offset == b->offset && a->flags == (b->b0 & 0xf0u) &&
                            a->size_code == (b->b0 & 0x0fu) && memcmp(a->mcv, b->mcv, 3) == 0 &&
                            a->mcv[3] == '\0' && a->clock == b->clock && a->jumbo == b->jumbo &&
                            a->payload_len == b->len,
                        "%s: event %zu at %" PRIu64 " is not the one at %" PRIu64
                        " (%s, clock %" PRIu64 ", %" PRIu32 " bytes)",
                        what, i, a->offset, b->offset, a->mcv, a->clock, a->payload_len);
        FUZZ_ASSERT_MSG(!a->payload || memcmp(a->payload, b->data, b->len) == 0,
                        "%s: the payload of event %zu at %" PRIu64 " is not the input's bytes",
                        what, i, a->offset);
    }
}

/* ---- invariants of one run ---- */

static void check_locations(const ofz_stream_run *run, size_t n)
{
    for (size_t i = 0; i < run->d.n; i++) {
        const ofz_diag *d = &run->d.v[i];
        FUZZ_ASSERT_MSG(!d->unlocated && d->line == 0 && d->path == NULL,
                        "%s: a binary stream's finding is located by offset only", tc_rules[d->rule].id);
        FUZZ_ASSERT_MSG(d->offset <= n && d->length <= n - d->offset,
                        "%s covers %" PRIu64 "+%" PRIu64 ", input has %zu bytes: %s",
                        tc_rules[d->rule].id, d->offset, d->length, n, d->message);
    }
}

/* Each event, written back from its fields, is the input's bytes there;
 * the events follow each other from the header on. */
static void check_reencode(const ofz_stream_run *run, const uint8_t *p, size_t n)
{
    uint64_t pos = 8;
    for (size_t i = 0; i < run->nevents; i++) {
        const ofz_event *e = &run->ev[i];
        uint8_t h[16];
        FUZZ_ASSERT_MSG(e->offset == pos, "event %zu at %" PRIu64 ", the one before ends at %"
                        PRIu64, i, e->offset, pos);
        FUZZ_ASSERT((e->flags & 0x0fu) == 0 && e->size_code < 16);
        FUZZ_ASSERT(e->jumbo == ((e->flags & 0x10u) != 0));
        h[0] = (uint8_t)(e->flags | e->size_code);
        memcpy(h + 1, e->mcv, 3);
        for (int k = 0; k < 8; k++)
            h[4 + (run->big_endian ? 7 - k : k)] = (uint8_t)(e->clock >> (8 * k));
        size_t hl = 12;
        if (e->jumbo) {
            for (int k = 0; k < 4; k++)
                h[12 + (run->big_endian ? 3 - k : k)] = (uint8_t)(e->payload_len >> (8 * k));
            hl = 16;
        } else {
            FUZZ_ASSERT_MSG(e->payload_len == (e->size_code ? e->size_code + 1u : 0u),
                            "event %zu: size code %u with %" PRIu32 " bytes", i, e->size_code,
                            e->payload_len);
        }
        FUZZ_ASSERT_MSG(e->payload, "event %zu at %" PRIu64 ": no payload held", i, e->offset);
        FUZZ_ASSERT_MSG(hl + e->payload_len <= n - e->offset &&
                            memcmp(p + e->offset, h, hl) == 0 &&
                            memcmp(p + e->offset + hl, e->payload, e->payload_len) == 0,
                        "event %zu at %" PRIu64 " does not re-encode to the input's bytes", i,
                        e->offset);
        pos = e->offset + hl + e->payload_len;
    }
}

/* ---- the canonical dump ---- */

/* spec/canonical-dump.md: three characters, each byte the code point of
 * its value (\u00XX outside printable ASCII). */
static void dump_mcv(char *out, const char mcv[4])
{
    size_t k = 0;
    for (int i = 0; i < 3; i++) {
        uint8_t c = (uint8_t)mcv[i];
        if (c == '"' || c == '\\') {
            out[k++] = '\\';
            out[k++] = (char)c;
        } else if (c >= 0x20 && c < 0x7f) {
            out[k++] = (char)c;
        } else {
            k += (size_t)snprintf(out + k, 7, "\\u%04x", c);
        }
    }
    out[k] = '\0';
}

/* One line: strict JSON (tracecheck's own tokenizer, RFC 8259). */
static void check_json_line(const char *line, size_t len, size_t lineno)
{
    tc_reader r;
    tc_reader_init_memory(&r, line, len);
    ofz_diags d;
    tc_diag_sink sink;
    ofz_sink_init(&sink, &d, 0);
    tc_json *j = tc_json_new(&r, &sink);
    FUZZ_CHECK_ALLOC(j);
    tc_json_token t;
    while (tc_json_next(j, &t) > 0)
        ;
    tc_json_free(j);
    ofz_sink_finish(&sink, &d);
    if (d.n) {
        ofz_print_diag(stderr, "dump", &d.v[0]);
        FUZZ_FAIL("dump line %zu is not strict JSON: %.*s", lineno, (int)(len > 200 ? 200 : len),
                  line);
    }
    ofz_diags_free(&d);
}

static void check_dump(const ofz_stream_run *run)
{
    const char *s = run->dump ? run->dump : "";
    size_t lineno = 0;
    char want[512];
    while (*s) {
        const char *nl = strchr(s, '\n');
        FUZZ_ASSERT_MSG(nl, "the dump's last line has no newline");
        size_t len = (size_t)(nl - s);
        /* Lines are compared with the schema's exactly, below; the strict
         * tokenizer (a 60 KiB state to set up) reads a sample of them, and
         * the lines compared by a prefix only. */
        int exact = 1, validated = 0;
        if (lineno < 3 || lineno % 64 == 0) {
            check_json_line(s, len, lineno);
            validated = 1;
        }
        if (lineno == 0) {
            snprintf(want, sizeof want, "{\"t\":\"header\",\"format\":\"ovni\",\"dump_version\":%d}",
                     TC_DUMP_VERSION);
        } else if (lineno == 1) {
            snprintf(want, sizeof want, "{\"t\":\"stream\",\"path\":\".\",\"byte_order\":\"%s\"}",
                     run->big_endian ? "big" : "little");
        } else {
            FUZZ_ASSERT_MSG(lineno - 2 < run->nevents, "dump line %zu: more lines than events",
                            lineno);
            const ofz_event *e = &run->ev[lineno - 2];
            char mcv[24];
            dump_mcv(mcv, e->mcv);
            int k = snprintf(want, sizeof want,
                             "{\"t\":\"event\",\"stream\":\".\",\"clock\":\"%" PRIu64
                             "\",\"mcv\":\"%s\",\"flags\":%u,\"size_code\":%u",
                             e->clock, mcv, e->flags, e->size_code);
            if (e->jumbo)
                k += snprintf(want + k, sizeof want - (size_t)k, ",\"jumbo_size\":%" PRIu32,
                              e->payload_len);
            k += snprintf(want + k, sizeof want - (size_t)k, ",\"payload\":\"");
            /* Payloads are compared by length and a prefix: the line may be long. */
            size_t show = e->payload_len > 64 ? 64 : e->payload_len;
            for (size_t i = 0; i < show; i++)
                k += snprintf(want + k, sizeof want - (size_t)k, "%02x", e->payload[i]);
            if (e->payload_len > 64) {
                FUZZ_ASSERT_MSG(len == (size_t)k + 2 * (e->payload_len - 64) + 2 &&
                                    strncmp(s, want, (size_t)k) == 0,
                                "dump line %zu is not the event's: %.*s", lineno,
                                (int)(len > 300 ? 300 : len), s);
                exact = 0;
                if (!validated)
                    check_json_line(s, len, lineno);
            } else {
                snprintf(want + k, sizeof want - (size_t)k, "\"}");
            }
        }
        if (exact)
            FUZZ_ASSERT_MSG(strlen(want) == len && strncmp(s, want, len) == 0,
                            "dump line %zu is\n  %.*s\nnot\n  %s", lineno,
                            (int)(len > 300 ? 300 : len), s, want);
        lineno++;
        s = nl + 1;
    }
    size_t lines = run->header_ok ? run->nevents + 2 : 0;
    FUZZ_ASSERT_MSG(lineno == lines, "%zu dump lines for %zu events", lineno, run->nevents);
}

/* ---- comparing runs ---- */

static void compare_runs(const ofz_stream_run *a, const char *la, const ofz_stream_run *b,
                         const char *lb, int same_payloads)
{
    ofz_assert_same_diags(&a->d, la, &b->d, lb);
    FUZZ_ASSERT_MSG(a->nevents == b->nevents, "%s: %zu events, %s: %zu", la, a->nevents, lb,
                    b->nevents);
    FUZZ_ASSERT_MSG(a->header_ok == b->header_ok && a->big_endian == b->big_endian,
                    "%s and %s read the header differently", la, lb);
    if (same_payloads)
        FUZZ_ASSERT_MSG(a->event_hash == b->event_hash, "%s and %s: the events differ", la, lb);
    for (size_t i = 0; a->ev && b->ev && i < a->nevents; i++) {
        ofz_event x = a->ev[i], y = b->ev[i];
        if (!same_payloads && (!x.payload || !y.payload))
            x.payload = y.payload = NULL; /* one of them did not ask for it */
        FUZZ_ASSERT_MSG(ofz_events_equal(&x, &y), "%s and %s: event %zu at %" PRIu64 " differs",
                        la, lb, i, x.offset);
    }
}

/* Without the model layer: the same findings less the model layer's. */
static void check_no_models(const ofz_stream_run *base, const ofz_stream_run *nm)
{
    size_t j = 0;
    for (size_t i = 0; i < base->d.n; i++) {
        const ofz_diag *d = &base->d.v[i];
        if (model_rule(d->rule))
            continue;
        FUZZ_ASSERT_MSG(j < nm->d.n && ofz_diag_eq(d, &nm->d.v[j]),
                        "without the model layer, finding %zu is not %s at %" PRIu64, j,
                        tc_rules[d->rule].id, d->offset);
        j++;
    }
    FUZZ_ASSERT_MSG(j == nm->d.n, "without the model layer there are %zu extra findings",
                    nm->d.n - j);
    FUZZ_ASSERT(nm->event_hash == base->event_hash && nm->nevents == base->nevents);
}

/* With the default cap: the first max_repeats findings of each rule, then
 * one suppression note per rule over the cap; the counters count them all. */
static void check_capped(const ofz_stream_run *base, const ofz_stream_run *capped)
{
    uint64_t seen[TC_RULE__COUNT] = {0};
    size_t j = 0;
    for (size_t i = 0; i < base->d.n; i++) {
        const ofz_diag *d = &base->d.v[i];
        if (++seen[d->rule] > TC_DEFAULT_MAX_REPEATS)
            continue;
        FUZZ_ASSERT_MSG(j < capped->d.n && ofz_diag_eq(&capped->d.v[j], d),
                        "with the repeat cap, finding %zu is not %s at %" PRIu64, j,
                        tc_rules[d->rule].id, d->offset);
        j++;
    }
    for (int r = 0; r < TC_RULE__COUNT; r++) {
        if (seen[r] <= TC_DEFAULT_MAX_REPEATS)
            continue;
        FUZZ_ASSERT_MSG(j < capped->d.n && capped->d.v[j].rule == TC_RULE_DIAG_SUPPRESSED &&
                            capped->d.v[j].unlocated &&
                            strstr(capped->d.v[j].message, tc_rules[r].id),
                        "no suppression note for %s (%" PRIu64 " findings)", tc_rules[r].id,
                        seen[r]);
        j++;
    }
    FUZZ_ASSERT_MSG(j == capped->d.n, "the capped run has %zu findings, expected %zu",
                    capped->d.n, j);
    FUZZ_ASSERT(capped->d.errors == base->d.errors && capped->d.warnings == base->d.warnings &&
                capped->d.notes == base->d.notes);
}

/* ---- the harness ---- */

static void parse_memory(ofz_stream_run *run, const uint8_t *data, size_t size,
                         const ofz_stream_opts *o)
{
    tc_reader r;
    tc_reader_init_memory(&r, data, size);
    ofz_parse_stream(run, &r, o);
}

/* Metadata for the model layer, picked by the input: a thread stream or
 * not, and which models it requires (ovni.require read or not). */
static void pick_meta(tc_ovni_meta *m, mview *v, uint32_t h)
{
    memset(m, 0, sizeof *m);
    m->readable = 1;
    m->thread = (h & 3) != 0;
    m->models.known = (h & 4) != 0;
    static const char letters[] = "6VKPTMD";
    for (int i = 0; i < 7; i++)
        if (h >> (3 + i) & 1)
            m->models.letters[(unsigned char)letters[i]] = 1;
    m->models.unknown_required = (h >> 10 & 3) == 0;
    /* Now and then ovni's model at a version not known (ruling 9). */
    m->models.incompatible['O'] = m->models.known && (h >> 24 & 7) == 0;
    snprintf(m->models.names, sizeof m->models.names, "ovni");
    *v = (mview){m->thread, m->models.known, m->models.letters, m->models.unknown_required,
                 m->models.incompatible['O']};
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const mview plain = {1, 0, NULL, 0, 0}; /* no metadata: a thread's stream, any model */
    uint32_t h = ofz_hash(data, size);

    /* The library's entry point reads what starts like a JSON object as
     * metadata (ovni_trace.c: after a BOM and white space, a '{'). */
    int as_meta = 0;
    if (!(size >= 4 && memcmp(data, "ovni", 4) == 0)) {
        size_t i = size >= 3 && data[0] == 0xef && data[1] == 0xbb && data[2] == 0xbf ? 3 : 0;
        while (i < size && i < 64 && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' ||
                                      data[i] == '\r'))
            i++;
        as_meta = i < size && i < 64 && data[i] == '{';
    }
    ofz_stream_run lib;
    const ofz_stream_opts lib_opts = {.library = 1, .models = 1, .keep = 1, .dump = 1};
    parse_memory(&lib, data, size, &lib_opts);
    ofz_check_diags_well_formed(&lib.d, as_meta ? "OVNI TC" : "OVNI");

    /* As a whole trace's check reads it, with payloads: the base run. */
    ofz_stream_run base;
    const ofz_stream_opts base_opts = {.payloads = 1, .models = 1, .keep = 1};
    parse_memory(&base, data, size, &base_opts);
    ofz_check_diags_well_formed(&base.d, "OVNI");
    check_locations(&base, size);
    expect x;
    expect_stream(&x, data, size, &plain, 1);
    compare_expected(&base, &x, "the stream calls");
    expect_free(&x);
    check_reencode(&base, data, size);
    if (!as_meta) {
        compare_runs(&lib, "tc_ovni_parse", &base, "the stream calls", 1);
        check_dump(&lib);
    }

    /* Without payloads (a trace's check): jumbo data is skipped, not held. */
    ofz_stream_run other;
    const ofz_stream_opts quiet = {.models = 1, .keep = 1};
    parse_memory(&other, data, size, &quiet);
    compare_runs(&base, "with payloads", &other, "without", 0);
    ofz_stream_run_free(&other);

    const ofz_stream_opts no_models = {.payloads = 1};
    parse_memory(&other, data, size, &no_models);
    check_no_models(&base, &other);
    ofz_stream_run_free(&other);

    const ofz_stream_opts capped = {.payloads = 1, .models = 1,
                                    .max_repeats = TC_DEFAULT_MAX_REPEATS};
    parse_memory(&other, data, size, &capped);
    check_capped(&base, &other);
    ofz_stream_run_free(&other);

    /* With metadata, picked by the input. */
    tc_ovni_meta meta;
    mview v;
    pick_meta(&meta, &v, h);
    const ofz_stream_opts with_meta = {.models = 1, .meta = &meta, .keep = 1};
    parse_memory(&other, data, size, &with_meta);
    ofz_check_diags_well_formed(&other.d, "OVNI");
    expect_stream(&x, data, size, &v, 1);
    compare_expected(&other, &x, "with metadata");
    expect_free(&x);
    ofz_stream_run_free(&other);

    /* Through files, as `tracecheck validate` reads them: read() with tiny
     * windows and sliding mmap windows (every other input: two system calls
     * a window), compared with the same reading from memory. A compressed
     * input would be decompressed on that path only. */
    if (tc_detect_compression(data, size) == TC_COMP_NONE) {
        static const size_t windows[] = {1, 2, 3, 5, 8, 12, 13, 16, 17, 31, 64, 65, 100, 127,
                                         128, 129, 255, 4096};
        static const size_t map_windows[] = {100, 1000, 4095, 4096, 4097, 12288};
        const size_t nw = sizeof windows / sizeof windows[0];
        const size_t nmw = sizeof map_windows / sizeof map_windows[0];
        for (int mmap = 0; mmap < 2; mmap++) {
            if (mmap && (h & 1))
                continue;
            size_t w = mmap ? map_windows[(h >> 8) % nmw] : windows[(h >> 4) % nw];
            ofz_file *f = ofz_file_open(data, size, w, !mmap);
            if (!f)
                break;
            /* The library's entry point, or the stream calls with or without
             * payloads; the same reading from memory is the reference. */
            int library = (h >> (20 + mmap)) & 1;
            const ofz_stream_opts o = {.library = library, .payloads = (h >> (22 + mmap)) & 1,
                                       .models = 1};
            ofz_stream_run ref;
            parse_memory(&ref, data, size, &o);
            ofz_parse_stream(&other, ofz_file_reader(f), &o);
            char what[64];
            snprintf(what, sizeof what, "%s (window %zu)", mmap ? "mmap" : "read()", w);
            FUZZ_ASSERT_MSG(!other.read_failed, "%s: the read failed", what);
            compare_runs(&ref, "memory", &other, what, 1);
            FUZZ_ASSERT_MSG(other.end_pos == ref.end_pos,
                            "%s stops at %" PRIu64 ", memory at %" PRIu64, what, other.end_pos,
                            ref.end_pos);
            ofz_stream_run_free(&ref);
            ofz_stream_run_free(&other);
            ofz_file_close(f);
        }
    }

    ofz_stream_run_free(&lib);
    ofz_stream_run_free(&base);
    return 0;
}

/* ---- structure-aware mutation ---- */

/* libFuzzer's byte mutator. Weak: the regression driver has none (and
 * never mutates), so there its address is null and the mutator falls back
 * on its own byte changes. */
FUZZ_EXTERN_C size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size)
    __attribute__((weak));

FUZZ_EXTERN_C size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
                                             unsigned int seed);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    return ovni_mutate(data, size, max_size, seed, LLVMFuzzerMutate);
}

FUZZ_EXTERN_C size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1,
                                               const uint8_t *data2, size_t size2, uint8_t *out,
                                               size_t max_out_size, unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2,
                                 size_t size2, uint8_t *out, size_t max_out_size,
                                 unsigned int seed)
{
    return ovni_cross_over(data1, size1, data2, size2, out, max_out_size, seed);
}
