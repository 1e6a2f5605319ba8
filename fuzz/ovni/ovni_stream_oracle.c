/* A reading of ovni streams from the spec: see ovni_stream_oracle.h. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovni_stream_oracle.h"
#include "ovni_spec_table.h"

/* ---- the stream as spec/ovni/ovni.md describes it ---- */

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

enum { NEW, RUNNING, PAUSED, COOLING, WARMING, DEAD };

typedef struct mstate {
    ovni_oracle_view v;
    int state;
    int flush, unsorted;
    uint64_t flush_at, unsorted_at, last;
} mstate;

/* Every model's events and their payload layouts, read off
 * spec/ovni/models.def by this file's own expansion of it; otails[i] is
 * what follows event i's fixed fields in a jumbo payload (0 nothing, 1 a
 * NUL-terminated string, else the size of an array's values). */
typedef struct oevent {
    char m, c, v;
    uint8_t jumbo, old;
    uint16_t fixed; /* bytes of the fixed fields */
} oevent;

#define F(t, n) +OVS_SIZE_##t
#define S(n) +0
#define A(t, n) +0
#define NOFIELDS
#define JUMBO 1
#define OLD 2
static const oevent oevents[] = {
#define TC_OVNI_EVENT(MODEL, C, V, FLAGS, FIELDS, ACTION, CHAN, STATE, MEANING)                    \
    {OVS_LETTER_##MODEL, C, V, ((FLAGS) & JUMBO) != 0, ((FLAGS) & OLD) != 0, 0 FIELDS},
#include "../../spec/ovni/models.def"
};
#undef F
#undef S
#undef A
#define F(t, n)
#define S(n) 1 +
#define A(t, n) OVS_SIZE_##t +
static const uint8_t otails[] = {
#define TC_OVNI_EVENT(MODEL, C, V, FLAGS, FIELDS, ACTION, CHAN, STATE, MEANING) FIELDS 0,
#include "../../spec/ovni/models.def"
};
#undef F
#undef S
#undef A
#undef NOFIELDS
#undef JUMBO
#undef OLD

static int known_letter(uint8_t c) { return c && c < 0x80 && strchr("O6VKPTMD", c); }

static const oevent *oevent_of(const uint8_t *mcv, uint8_t *tail)
{
    for (size_t i = 0; i < sizeof oevents / sizeof oevents[0]; i++)
        if (mcv[0] == (uint8_t)oevents[i].m && mcv[1] == (uint8_t)oevents[i].c &&
            mcv[2] == (uint8_t)oevents[i].v) {
            *tail = otails[i];
            return &oevents[i];
        }
    return NULL;
}

/* The payload as the layout has it: a normal event of the fixed size, or a
 * jumbo one of the fixed fields then the tail (a string whose first NUL is
 * its last byte; a whole number, at least one, of array values). */
static int payload_fits(const oevent *d, uint8_t tail, const xevent *e)
{
    if (e->jumbo != d->jumbo)
        return 0;
    if (!d->jumbo || !tail)
        return e->len == d->fixed;
    if (e->len < d->fixed)
        return 0;
    uint32_t rest = e->len - d->fixed;
    if (tail > 1)
        return rest > 0 && rest % tail == 0;
    return rest > 0 && memchr(e->data + d->fixed, '\0', rest) == e->data + e->len - 1;
}

/* The spec's thread states: which of OHx, OHe, OHp, OHr, OHc, OHw each
 * state allows, and where it leads. */
static int thread_next(int from, uint8_t v)
{
    switch (v) {
    case 'x': return from == NEW ? RUNNING : -1; /* a thread with a CPU takes no other (ruling 13) */
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
    int dead = m->v.thread && m->state == DEAD, flush = mcv[0] == 'O' && mcv[1] == 'F';
    if (dead && !flush)
        find(x, TC_RULE_OVNI_THREAD_AFTER_END, e->offset, 12);
    if (mcv[0] != 'O') {
        /* Ruling 8: a known model the stream does not require; an unknown
         * letter unless the stream requires a model tracecheck does not know.
         * A byte that is no letter at all is OVNI-MCV-PRINTABLE's alone.
         * Then only a known model, required at a known version, is judged
         * (ruling 15). */
        if (!m->v.known || !printable(mcv[0]))
            return;
        int known = known_letter(mcv[0]);
        if (known ? !m->v.letters[mcv[0]] : !m->v.unknown_required) {
            find(x, TC_RULE_OVNI_MODEL_NOT_REQUIRED, e->offset, 1);
            return;
        }
        if (!known || (m->v.incompatible && m->v.incompatible[mcv[0]]))
            return;
    }
    uint8_t tail = 0;
    const oevent *d = oevent_of(mcv, &tail);
    if (!d) {
        find(x, TC_RULE_OVNI_MODEL_UNKNOWN_EVENT, e->offset, 4);
        return;
    }
    if (d->old) { /* ruling 17 */
        find(x, TC_RULE_OVNI_MODEL_OLD_EVENT, e->offset, 4);
        return;
    }
    if (!payload_fits(d, tail, e))
        find(x, TC_RULE_OVNI_MODEL_PAYLOAD, e->offset, 1);
    if (mcv[0] != 'O')
        return;
    if (m->v.thread && dead && !flush)
        return; /* judged no further after its end */
    if (mcv[1] == 'H' && mcv[2] != 'C' && m->v.thread) {
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

/* The events and findings spec/ovni/ovni.md implies for the n bytes at p, in the
 * order the parser reports them: per event, the stream's findings, then
 * the model layer's (when models); then the end's. */
static void expect_stream(expect *x, const uint8_t *p, size_t n, const ovni_oracle_view *v, int models)
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

int ovni_oracle_model_rule(tc_rule_id r)
{
    return r == TC_RULE_OVNI_MODEL_PAYLOAD || r == TC_RULE_OVNI_MODEL_NOT_REQUIRED ||
           r == TC_RULE_OVNI_MODEL_UNKNOWN_EVENT || r == TC_RULE_OVNI_THREAD_BEFORE_START ||
           r == TC_RULE_OVNI_THREAD_AFTER_END || r == TC_RULE_OVNI_THREAD_RUNNING ||
           r == TC_RULE_OVNI_THREAD_STATE || r == TC_RULE_OVNI_THREAD_NO_END ||
           r == TC_RULE_OVNI_FLUSH_BALANCE || r == TC_RULE_OVNI_UNSORTED_BALANCE ||
           r == TC_RULE_OVNI_MODEL_OLD_EVENT || ovni_oracle_state_rule(r);
}

int ovni_oracle_state_rule(tc_rule_id r)
{
    switch (r) {
    case TC_RULE_OVNI_THREAD_INACTIVE:
    case TC_RULE_OVNI_THREAD_OUT_OF_CPU:
    case TC_RULE_OVNI_CPU_UNKNOWN:
    case TC_RULE_OVNI_CPU_SHARED:
    case TC_RULE_OVNI_THREAD_UNKNOWN:
    case TC_RULE_OVNI_AFFINITY_STATE:
    case TC_RULE_OVNI_STATE_POP:
    case TC_RULE_OVNI_STATE_REPEAT:
    case TC_RULE_OVNI_STATE_DEPTH:
    case TC_RULE_OVNI_STATE_OPEN_AT_END:
    case TC_RULE_OVNI_TASK_DUPLICATE:
    case TC_RULE_OVNI_TASK_UNKNOWN:
    case TC_RULE_OVNI_TASK_TYPE_UNKNOWN:
    case TC_RULE_OVNI_TASK_TYPE_DUPLICATE:
    case TC_RULE_OVNI_TASK_ID_ZERO:
    case TC_RULE_OVNI_TASK_BODY_ID:
    case TC_RULE_OVNI_TASK_STATE:
    case TC_RULE_OVNI_TASK_NESTING:
    case TC_RULE_OVNI_TASK_STACK:
    case TC_RULE_OVNI_MARK_UNDECLARED:
    case TC_RULE_OVNI_MARK_VALUE_ZERO:
    case TC_RULE_OVNI_MARK_KIND:
    case TC_RULE_OVNI_HWC_UNDECLARED: return 1;
    default: return 0;
    }
}

static int not_state_rule(tc_rule_id r) { return !ovni_oracle_state_rule(r); }

/* The run reports exactly the expected findings (each rule's first
 * max_repeats under the run's repeat cap) and events. */
static void compare_expected(const ov_run *run, const expect *x, const char *what)
{
    hx_expect want = {0};
    for (size_t i = 0; i < x->nf; i++)
        hx_expect_add(&want, x->f[i].rule, x->f[i].offset, x->f[i].length);
    hx_assert_expected(&run->f, &want, not_state_rule, HX_CMP_LENGTH, what);
    hx_expect_free(&want);
    FUZZ_ASSERT_MSG(run->nevents == x->nev, "%s: %zu events, spec/ovni/ovni.md's reading has %zu",
                    what, run->nevents, x->nev);
    for (size_t i = 0; run->ev && i < run->nevents; i++) {
        const ov_event *a = &run->ev[i];
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

/* Each event, written back from its fields, is the input's bytes there;
 * the events follow each other from the header on. */
void ovni_oracle_check_reencode(const ov_run *run, const uint8_t *p, size_t n)
{
    uint64_t pos = 8;
    for (size_t i = 0; i < run->nevents; i++) {
        const ov_event *e = &run->ev[i];
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

void ovni_oracle_check_stream(const ov_run *run, const uint8_t *p, size_t n, const ovni_oracle_view *v,
                      int models, const char *what)
{
    expect x;
    expect_stream(&x, p, n, v, models);
    compare_expected(run, &x, what);
    expect_free(&x);
}

/* Metadata for the model layer, picked by the input: a thread stream or
 * not, and which models it requires (ovni.require read or not). */
void ovni_oracle_pick_meta(tc_ovni_meta *m, ovni_oracle_view *v, hx_rng *r)
{
    memset(m, 0, sizeof *m);
    m->readable = 1;
    uint64_t h = hx_rng_next(r);
    m->thread = (h & 3) != 0;
    m->models.known = (h & 4) != 0;
    static const char letters[] = "6VKPTMD";
    for (int i = 0; i < 7; i++)
        if (h >> (3 + i) & 1)
            m->models.letters[(unsigned char)letters[i]] = 1;
    m->models.unknown_required = (h >> 10 & 3) == 0;
    /* Now and then a model at a version not known (rulings 9 and 15):
     * ovni's own, or one of those required. */
    m->models.incompatible['O'] = m->models.known && (h >> 24 & 7) == 0;
    for (int i = 0; i < 7; i++)
        if (m->models.letters[(unsigned char)letters[i]] && (h >> (27 + 3 * i) & 7) == 0)
            m->models.incompatible[(unsigned char)letters[i]] = 1;
    snprintf(m->models.names, sizeof m->models.names, "ovni");
    *v = (ovni_oracle_view){m->thread, m->models.known, m->models.letters, m->models.unknown_required,
                    m->models.incompatible['O'], m->models.incompatible};
}

