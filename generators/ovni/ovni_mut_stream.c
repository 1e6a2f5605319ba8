/*
 * Mutators of binary streams (stream.obs) and of the ovni model layer:
 * changes to one stream's header, to its events as they stream out, or to
 * what follows its last event. Events are inserted where the thread's state
 * keeps them harmless (see ovni_view), so that only the rule in question
 * fires; an inserted event takes the clock of the last one written, which
 * keeps clocks in order.
 */
#include <stdlib.h>
#include <string.h>

#include "../../parsers/common/bytes.h"
#include "ovni_mutate.h"

#define R(name) TC_RULE_##name

/* The thread has started and not ended, and is on its CPU: an event
 * inserted here is judged for what it is (libovni's emulator refuses every
 * event of a thread between KCO and KCI). */
static int alive(const ovni_emitter *em)
{
    return em->st->state != OVNI_ST_NEW && em->st->state != OVNI_ST_DEAD && !em->st->out_of_cpu;
}

static int is_ohe(const ovni_ev *ev) { return ovni_ev_is(ev, "OHe"); }

/* A byte outside printable ASCII (0x21-0x7e). */
static uint8_t unprintable(ovni_mutation *mu)
{
    uint8_t b = (uint8_t)tc_rng_below(mu->rng, 256 - 94);
    return b <= 0x20 ? b : (uint8_t)(b + 94); /* 0x00-0x20, then 0x7f-0xff */
}

/* An event with no payload, of a model every stream may use. */
static void emit_plain(ovni_emitter *em, const char *mcv, uint64_t clock)
{
    ovni_ev ev;
    ovni_ev_normal(&ev, mcv, clock, NULL, 0);
    ovni_emit(em, &ev);
}

/* ---- the header ---- */

static void cut_header(ovni_mutation *mu, ovni_emitter *em)
{
    em->bytes->len = (size_t)tc_rng_below(mu->rng, TC_OVNI_HEADER_SIZE);
    em->stop = 1;
    mu->applied = 1;
}

static void bad_magic(ovni_mutation *mu, ovni_emitter *em)
{
    uint8_t was[4];
    memcpy(was, em->bytes->p, 4);
    unsigned n = (unsigned)tc_rng_range(mu->rng, 1, 4);
    for (unsigned i = 0; i < n; i++)
        em->bytes->p[tc_rng_below(mu->rng, 4)] ^= (uint8_t)tc_rng_range(mu->rng, 1, 255);
    /* Two changes of one byte by one value undo each other (found by
     * conformance --generate: --seed 389012010 --size 95 --big-endian left
     * the magic whole); the magic must change. */
    if (!memcmp(was, em->bytes->p, 4))
        em->bytes->p[0] ^= 0x80;
    mu->applied = 1;
}

static void bad_version(ovni_mutation *mu, ovni_emitter *em)
{
    static const uint32_t versions[] = {0, 2, 3, 0xffffffffu, 0x00010000u, 0x100u};
    uint32_t v = tc_rng_chance(mu->rng, 1, 2)
                     ? versions[tc_rng_below(mu->rng, sizeof versions / sizeof versions[0])]
                     : (uint32_t)tc_rng_u64(mu->rng);
    if (v == 1 || v == 0x01000000u) /* version 1 in one byte order or the other */
        v = 2;
    tc_put32(em->bytes->p + 4, v, em->be);
    mu->applied = 1;
}

static void header_only(ovni_mutation *mu, ovni_emitter *em)
{
    em->stop = 1;
    mu->applied = 1;
}

/* ---- framing ---- */

/* A piece of an event after the last one: a few bytes of a header, or a
 * whole header (valid, clock in order) and part of its payload or of a
 * jumbo size. */
static void append_partial(ovni_mutation *mu, ovni_emitter *em)
{
    tc_bytebuf *b = em->bytes;
    unsigned how = (unsigned)tc_rng_below(mu->rng, 3);
    if (how == 0) {
        size_t n = (size_t)tc_rng_range(mu->rng, 1, TC_OVNI_EVENT_HEADER_SIZE - 1);
        uint8_t *p = tc_bb_append(b, NULL, n);
        tc_rng_fill(mu->rng, p, n);
    } else {
        uint8_t *p = tc_bb_append(b, NULL, TC_OVNI_EVENT_HEADER_SIZE);
        unsigned code = how == 1 ? (unsigned)tc_rng_range(mu->rng, 1, 15) : TC_OVNI_JUMBO_SIZE_CODE;
        p[0] = (uint8_t)((how == 2 ? TC_OVNI_FLAG_JUMBO : 0) | code);
        memcpy(p + 1, how == 2 ? "VYc" : "OAs", 3);
        tc_put64(p + 4, em->last_clock, em->be);
        size_t have = (size_t)tc_rng_below(mu->rng, how == 2 ? 4 : code + 1);
        tc_rng_fill(mu->rng, tc_bb_append(b, NULL, have), have);
    }
}

static void truncate_event(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    /* Variant 1: the stream ends inside its first event, so no thread state
     * is left behind. Variant 0 appends at the end instead. */
    if (mu->variant != 1 || !em->first)
        return;
    ovni_emit(em, ev);
    em->bytes->len = em->last_at + (size_t)tc_rng_range(mu->rng, 1, ovni_ev_size(ev) - 1);
    em->stop = 1;
    mu->applied = 1;
}

static void truncated_end(ovni_mutation *mu, ovni_emitter *em)
{
    if (mu->applied)
        return;
    append_partial(mu, em);
    mu->applied = 1;
}

static int plan_truncate(ovni_mutation *mu, ovni_plan *pl)
{
    ovni_victim_any(mu, pl);
    mu->variant = (unsigned)tc_rng_below(mu->rng, 2);
    return 1;
}

static void set_flags(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    if (!ovni_take(mu, is_ohe(ev)))
        return;
    (void)em;
    ev->flags |= (uint8_t)(tc_rng_range(mu->rng, 1, 7) << 5); /* 0x20, 0x40, 0x80 */
    mu->applied = 1;
}

/* A task type registration (nosv's jumbo event) of len bytes. */
static void emit_jumbo(ovni_emitter *em, uint64_t clock, const uint8_t *data, uint32_t len,
                       unsigned size_code)
{
    ovni_ev ev;
    ovni_ev_jumbo(&ev, "VYc", clock, data, len);
    ev.size_code = (uint8_t)size_code;
    ovni_emit(em, &ev);
}

static unsigned not_three(ovni_mutation *mu)
{
    unsigned c = (unsigned)tc_rng_below(mu->rng, 15);
    return c >= 3 ? c + 1 : c;
}

static void jumbo_code(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    int jumbo = (ev->flags & TC_OVNI_FLAG_JUMBO) != 0;
    if (!(jumbo || is_ohe(ev)) || !ovni_take(mu, is_ohe(ev)))
        return;
    if (jumbo) {
        ev->size_code = (uint8_t)not_three(mu);
    } else {
        static const uint8_t data[] = {7, 0, 0, 0, 'r', 'e', 'd', 'u', 'c', 'e', 0};
        emit_jumbo(em, em->last_clock, data, sizeof data, not_three(mu));
    }
    mu->applied = 1;
}

static void jumbo_past_end(ovni_mutation *mu, ovni_emitter *em)
{
    static const uint32_t crashers[] = {0xfffffff0u, 0xffffffffu, 0x7fffffffu, 0x7ffffff0u};
    uint32_t size = tc_rng_chance(mu->rng, 1, 4)
                        ? crashers[tc_rng_below(mu->rng, 4)]
                        : (uint32_t)tc_rng_range(mu->rng, 1, TC_OVNI_JUMBO_WRITE_LIMIT - 1);
    uint32_t have = (uint32_t)tc_rng_below(mu->rng, size < 64 ? size : 64);
    uint8_t *p = tc_bb_append(em->bytes, NULL, TC_OVNI_EVENT_HEADER_SIZE + 4 + have);
    p[0] = TC_OVNI_FLAG_JUMBO | TC_OVNI_JUMBO_SIZE_CODE;
    memcpy(p + 1, "VYc", 3);
    tc_put64(p + 4, em->last_clock, em->be);
    tc_put32(p + 12, size, em->be);
    memset(p + 16, 'j', have);
    mu->applied = 1;
}

static void large_jumbo(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    if (!alive(em) || !ovni_take(mu, is_ohe(ev)))
        return;
    uint32_t len = (uint32_t)tc_rng_range(mu->rng, TC_OVNI_JUMBO_WRITE_LIMIT,
                                          TC_OVNI_JUMBO_WRITE_LIMIT + 4096);
    uint8_t *data = calloc(len, 1);
    if (!data)
        return;
    /* Task type 99 (no stream makes it), with a label that fills the data
     * to its NUL: the layout holds, only the size is wrong. */
    tc_put32(data, 99, em->be);
    memset(data + 4, 'a', len - 5);
    emit_jumbo(em, em->last_clock, data, len, TC_OVNI_JUMBO_SIZE_CODE);
    free(data);
    mu->applied = 1;
}

/* ---- model, category, value; clocks ---- */

static void unprintable_mcv(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    /* Category or value only, of a nosv event that changes nothing in the
     * model (VSr, VHa ...): it becomes an unknown event (a warning), and
     * no state is left entered or task made for want of it. */
    const tc_ovni_event_info *info =
        tc_ovni_event_lookup((unsigned char)ev->mcv[0], (unsigned char)ev->mcv[1],
                             (unsigned char)ev->mcv[2]);
    int nosv = ev->mcv[0] == 'V' && !(ev->flags & TC_OVNI_FLAG_JUMBO) && info &&
               info->action == TC_OVNI_A_NONE;
    if (!(nosv || (is_ohe(ev) && alive(em))) || !ovni_take(mu, is_ohe(ev)))
        return;
    int which = 1 + (int)tc_rng_below(mu->rng, 2);
    if (nosv) {
        ev->mcv[which] = (char)unprintable(mu);
    } else {
        ovni_ev e;
        char mcv[3] = {'V', 'T', 'x'};
        mcv[which] = (char)unprintable(mu);
        tc_put32(mu->scratch, 1, em->be);
        ovni_ev_normal(&e, mcv, em->last_clock, mu->scratch, 4);
        ovni_emit(em, &e);
    }
    mu->applied = 1;
}

static void clock_back(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    /* Not inside an unsorted region: a decrease there is OVNI-CLOCK-UNSORTED. */
    if (em->first || em->last_clock == 0 || !alive(em) || em->st->in_unsorted ||
        !ovni_take(mu, is_ohe(ev)))
        return;
    uint64_t back = tc_rng_range(mu->rng, 1, em->last_clock < 1000000 ? em->last_clock : 1000000);
    if (tc_rng_chance(mu->rng, 1, 2)) {
        emit_plain(em, "OB.", em->last_clock - back); /* an event out of order */
    } else {
        ev->clock = em->last_clock - back; /* this one, and the next are in order again */
    }
    mu->applied = 1;
}

/* A decrease inside an unsorted region (ruling 11): an event of one of the
 * stream's regions given a clock below the one before it (variant 1), or a
 * region of three events inserted before OHe whose middle one goes back
 * (variant 0, and variant 1 when the stream has no region). */
static void clock_unsorted(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    if (em->last_clock == 0 || !alive(em))
        return;
    uint64_t back = tc_rng_range(mu->rng, 1, em->last_clock < 1000000 ? em->last_clock : 1000000);
    if (mu->variant == 1 && em->st->in_unsorted && !ovni_ev_is(ev, "OU]") &&
        ovni_take(mu, 0)) {
        ev->clock = em->last_clock - back;
        mu->applied = 1;
    } else if (is_ohe(ev) && !mu->applied && !em->st->in_unsorted) {
        uint64_t c = em->last_clock;
        emit_plain(em, "OU[", c);
        emit_plain(em, "OB.", c - back);
        emit_plain(em, "OU]", c);
        mu->applied = 1;
    }
}

static void clock_high(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    (void)em;
    if (!ovni_take(mu, is_ohe(ev)))
        return;
    ev->clock = tc_rng_chance(mu->rng, 1, 4)
                    ? TC_OVNI_CLOCK_LIMIT
                    : tc_rng_range(mu->rng, TC_OVNI_CLOCK_LIMIT, UINT64_MAX);
    mu->applied = 1;
}

/* ---- ovni's model ---- */

/* Payloads: the defined size of ovni's events (spec/ovni/ovni.md). */
static unsigned ovni_payload(const ovni_ev *ev)
{
    static const struct { char cv[3]; unsigned len; } sizes[] = {
        {"Hx", 16}, {"HC", 12}, {"As", 4}, {"Ar", 8}, {"Cn", 4}, {"M[", 12}, {"M]", 12}, {"M=", 12},
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (!memcmp(ev->mcv + 1, sizes[i].cv, 2))
            return sizes[i].len;
    return 0;
}

static void wrong_payload(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    (void)em;
    /* Not a mark pushed or popped: without its value, the mark's stack
     * would go wrong later (OVNI-STATE-POP). */
    if (ev->mcv[0] != 'O' || ovni_ev_is(ev, "OM[") || ovni_ev_is(ev, "OM]") ||
        !ovni_take(mu, is_ohe(ev)))
        return;
    unsigned want = ovni_payload(ev);
    char mcv[3];
    memcpy(mcv, ev->mcv, 3);
    if (tc_rng_chance(mu->rng, 1, 5)) {
        /* The right bytes, as a jumbo event. */
        memset(mu->scratch, 0, sizeof mu->scratch);
        if (ev->len)
            memcpy(mu->scratch, ev->payload, ev->len);
        ovni_ev_jumbo(ev, mcv, ev->clock, mu->scratch, want);
    } else {
        unsigned len;
        do
            len = (unsigned)tc_rng_range(mu->rng, 1, 16);
        while (len == want);
        if (len == 1)
            len = 0; /* no payload (a size of 1 cannot be written) */
        if (len == want)
            len = 2;
        tc_rng_fill(mu->rng, mu->scratch, sizeof mu->scratch);
        if (ev->len)
            memcpy(mu->scratch, ev->payload, ev->len < len ? ev->len : len);
        ovni_ev_normal(ev, mcv, ev->clock, mu->scratch, len);
    }
    mu->applied = 1;
}

/* Known models and an event of each (the model letters of spec/ovni/ovni.md)
 * that libovni's model defines without a payload (its tools decode what the
 * model declares, whatever the event carries), alone or with the event
 * that leaves the state it enters, so that the model's books stay
 * balanced and only the missing requirement is wrong. */
static const struct {
    unsigned use;
    const char *name;
    char mcv[4], then[4];
} foreign[] = {
    {OVNI_USES_NOSV, "nosv", "VSr", ""},
    {OVNI_USES_KERNEL, "kernel", "KCO", "KCI"},
    {OVNI_USES(TC_OVNI_M_NANOS6), "nanos6", "6Sr", ""},
    {OVNI_USES(TC_OVNI_M_OPENMP), "openmp", "PBb", "PBB"},
    {OVNI_USES(TC_OVNI_M_TAMPI), "tampi", "TCi", "TCI"},
    {OVNI_USES(TC_OVNI_M_MPI), "mpi", "MUi", "MUI"},
    {OVNI_USES(TC_OVNI_M_NODES), "nodes", "DR[", "DR]"},
};

static int plan_unrequired(ovni_mutation *mu, ovni_plan *pl)
{
    ovni_victim_any(mu, pl);
    ovni_stream_plan *s = &pl->streams[mu->victim];
    if ((s->uses & OVNI_USES_NOSV) && tc_rng_chance(mu->rng, 1, 3)) {
        /* No nosv in ovni.require of a stream with nosv events (one more
         * is inserted: a short stream may have none). */
        s->unrequired = OVNI_USES_NOSV;
        mu->value = 0;
        return 1;
    }
    size_t options[8], n = 0;
    for (size_t i = 0; i < sizeof foreign / sizeof foreign[0]; i++)
        if (!(s->uses & foreign[i].use) && strcmp(s->also_requires, foreign[i].name) != 0)
            options[n++] = i;
    if (n == 0) { /* it uses every model: one of them goes */
        s->uses &= ~OVNI_USES(TC_OVNI_M_NANOS6);
        s->also_requires[0] = '\0';
        options[n++] = 2;
    }
    mu->value = (int64_t)options[tc_rng_below(mu->rng, n)];
    return 1;
}

static void foreign_event(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    if (mu->applied || !alive(em) || !ovni_take(mu, is_ohe(ev)))
        return;
    emit_plain(em, foreign[mu->value].mcv, em->last_clock);
    if (foreign[mu->value].then[0])
        emit_plain(em, foreign[mu->value].then, em->last_clock);
    mu->applied = 1;
}

static int defined(char c, char v)
{
    static const char cv[][3] = {"Hx", "HC", "He", "Hp", "Hr", "Hc", "Hw", "As", "Ar",
                                 "Cn", "B.", "F[", "F]", "U[", "U]", "M[", "M]", "M="};
    for (size_t i = 0; i < sizeof cv / sizeof cv[0]; i++)
        if (cv[i][0] == c && cv[i][1] == v)
            return 1;
    return 0;
}

static void unknown_event(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    if (!alive(em) || !ovni_take(mu, is_ohe(ev)))
        return;
    static const char cats[] = "HAFUMCBXZ";
    char mcv[3] = {'O', cats[tc_rng_below(mu->rng, sizeof cats - 1)], 0};
    do
        mcv[2] = (char)tc_rng_range(mu->rng, 0x21, 0x7e);
    while (defined(mcv[1], mcv[2]));
    unsigned len = (unsigned)tc_rng_below(mu->rng, 16);
    tc_rng_fill(mu->rng, mu->scratch, sizeof mu->scratch);
    ovni_ev e;
    ovni_ev_normal(&e, mcv, em->last_clock, mu->scratch, len ? len + 1 : 0);
    ovni_emit(em, &e);
    mu->applied = 1;
}

/* ---- thread life ---- */

static void before_start(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    if (!em->first)
        return;
    static const char *const early[] = {"OHe", "OHp", "OHr", "OHc", "OHw"};
    emit_plain(em, early[tc_rng_below(mu->rng, 5)], ev->clock);
    mu->applied = 1;
}

static void after_end_event(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    /* Between OHe and a last flush, or (at the end) after everything. */
    (void)ev;
    if (em->st->state != OVNI_ST_DEAD || !tc_rng_chance(mu->rng, 1, 2))
        return;
    static const char *const late[] = {"OB.", "OHx", "OHp", "OHe", "OAs", "OM=", "VTx"};
    unsigned k = (unsigned)tc_rng_below(mu->rng, 7);
    if (k == 6 && !(em->plan->streams[em->stream].uses & OVNI_USES_NOSV))
        k = 0;
    ovni_ev e;
    memset(mu->scratch, 0, sizeof mu->scratch);
    /* Each with its payload: OHx, OAs, OM=, VTx (task and body ids). */
    unsigned len = k == 1 ? 16 : k == 4 ? 4 : k == 5 ? 12 : k == 6 ? 8 : 0;
    ovni_ev_normal(&e, late[k], em->last_clock, mu->scratch, len);
    ovni_emit(em, &e);
    mu->applied = 1;
}

static void after_end(ovni_mutation *mu, ovni_emitter *em)
{
    if (mu->applied)
        return;
    emit_plain(em, tc_rng_chance(mu->rng, 1, 2) ? "OB." : "OHp", em->last_clock + 1);
    mu->applied = 1;
}

static void run_twice(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    if (em->first || em->st->state != OVNI_ST_RUNNING || em->st->out_of_cpu ||
        !ovni_take(mu, is_ohe(ev)))
        return;
    tc_rng_fill(mu->rng, mu->scratch, sizeof mu->scratch);
    ovni_ev e;
    ovni_ev_normal(&e, "OHx", em->last_clock, mu->scratch, 16);
    ovni_emit(em, &e);
    mu->applied = 1;
}

static void bad_transition(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    if (em->first || !alive(em) || !ovni_take(mu, is_ohe(ev)))
        return;
    /* What each state refuses (libovni's thread states in spec/ovni/ovni.md). */
    static const char *const refused[][4] = {
        [OVNI_ST_RUNNING] = {"OHr", "OHw", NULL},
        [OVNI_ST_PAUSED] = {"OHp", "OHc", "OHe", NULL},
        [OVNI_ST_COOLING] = {"OHr", "OHw", "OHc", NULL},
        [OVNI_ST_WARMING] = {"OHp", "OHc", "OHw", "OHe"},
    };
    const char *const *list = refused[em->st->state];
    unsigned n = 0;
    while (n < 4 && list[n])
        n++;
    emit_plain(em, list[tc_rng_below(mu->rng, n)], em->last_clock);
    mu->applied = 1;
}

static void no_end(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    if (mu->variant == 0) {
        if (is_ohe(ev)) { /* drop OHe (a last flush may follow: still alive) */
            em->drop = 1;
            mu->applied = 1;
        }
        return;
    }
    /* Stop where no region is open (nor a model's state: ovniemu's linter
     * would find it left entered) and the thread is alive. */
    if (em->first || !alive(em) || em->st->in_flush || em->st->in_unsorted || em->st->open ||
        !ovni_take(mu, is_ohe(ev)))
        return;
    em->stop = 1;
    mu->applied = 1;
}

static int plan_variant2(ovni_mutation *mu, ovni_plan *pl)
{
    ovni_victim_any(mu, pl);
    mu->variant = (unsigned)tc_rng_below(mu->rng, 2);
    return 1;
}

static int plan_variant3(ovni_mutation *mu, ovni_plan *pl)
{
    ovni_victim_any(mu, pl);
    mu->variant = (unsigned)tc_rng_below(mu->rng, 3);
    return 1;
}

static void flush_unbalanced(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    if (mu->variant == 0) { /* a lone OF] (not between KCO and KCI: OVNI-THREAD-OUT-OF-CPU) */
        if (!em->first && !em->st->in_flush && !em->st->out_of_cpu &&
            ovni_take(mu, is_ohe(ev))) {
            emit_plain(em, "OF]", em->last_clock);
            mu->applied = 1;
        }
    } else if (mu->variant == 1) { /* a flush that does not end */
        if (ovni_ev_is(ev, "OF]") && ovni_take(mu, 0)) {
            em->drop = 1;
            mu->applied = 1;
        }
    }
}

static void flush_open_end(ovni_mutation *mu, ovni_emitter *em)
{
    if (mu->applied)
        return;
    emit_plain(em, "OF[", em->last_clock + 1); /* variant 2, or no OF] to drop */
    mu->applied = 1;
}

static void unsorted_unbalanced(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    if (mu->variant == 0) { /* a lone OU] */
        if (alive(em) && !em->first && !em->st->in_unsorted && ovni_take(mu, is_ohe(ev))) {
            emit_plain(em, "OU]", em->last_clock);
            mu->applied = 1;
        }
    } else if (mu->variant == 1 && ovni_ev_is(ev, "OU]")) { /* a region that does not end */
        if (ovni_take(mu, 0)) {
            em->drop = 1;
            mu->applied = 1;
        }
    } else if (is_ohe(ev) && !mu->applied && alive(em) && !em->st->in_unsorted) {
        emit_plain(em, "OU[", em->last_clock); /* variant 2, or no OU] to drop */
        mu->applied = 1;
    }
}

const ovni_mutator ovni_stream_mutators[] = {
    {R(OVNI_STREAM_HEADER_TRUNCATED), "cuts a stream.obs inside its 8-byte header (0 to 7 bytes)",
     ovni_victim_any, NULL, NULL, cut_header, NULL, NULL},
    {R(OVNI_STREAM_MAGIC), "changes 1 to 4 bytes of a stream's magic", ovni_victim_any, NULL,
     NULL, bad_magic, NULL, NULL},
    {R(OVNI_STREAM_VERSION), "sets a stream's version to one that is not 1 in either byte order",
     ovni_victim_any, NULL, NULL, bad_version, NULL, NULL},
    {R(OVNI_STREAM_NO_EVENTS), "writes a stream's header and no events", ovni_victim_any, NULL,
     NULL, header_only, NULL, NULL},
    {R(OVNI_EVENT_TRUNCATED),
     "ends a stream with part of an event (a few header bytes, or a header and part of its "
     "payload or jumbo size), or inside its first event",
     plan_truncate, NULL, NULL, NULL, truncate_event, truncated_end},
    {R(OVNI_EVENT_FLAGS), "sets flag bits 0x20, 0x40 or 0x80 on an event", ovni_victim_any, NULL,
     NULL, NULL, set_flags, NULL},
    {R(OVNI_JUMBO_SIZE_CODE), "gives a jumbo event (VYc) a size code other than 3",
     ovni_victim_nosv, NULL, NULL, NULL, jumbo_code, NULL},
    {R(OVNI_JUMBO_PAST_EOF),
     "ends a stream with a jumbo event whose size runs past the end (now and then 0xFFFFFFF0, "
     "0x7FFFFFFF and the like)",
     ovni_victim_any, NULL, NULL, NULL, NULL, jumbo_past_end},
    {R(OVNI_JUMBO_LARGE), "inserts a jumbo event (VYc) of 2 MiB or a little more",
     ovni_victim_nosv, NULL, NULL, NULL, large_jumbo, NULL},
    {R(OVNI_MCV_PRINTABLE),
     "sets the category or value of a nosv event to a byte outside 0x21-0x7e",
     ovni_victim_nosv, NULL, NULL, NULL, unprintable_mcv, NULL},
    {R(OVNI_CLOCK_DECREASE), "gives an event, or an inserted OB., a clock below the last one",
     ovni_victim_any, NULL, NULL, NULL, clock_back, NULL},
    {R(OVNI_CLOCK_UNSORTED),
     "gives an event of an unsorted region (OU[ ... OU]) a clock below the last one, or inserts "
     "OU[ OB. OU] whose OB. goes back",
     plan_variant2, NULL, NULL, NULL, clock_unsorted, NULL},
    {R(OVNI_CLOCK_RANGE), "gives an event a clock of 2^63 or more", ovni_victim_any, NULL, NULL,
     NULL, clock_high, NULL},
    {R(OVNI_MODEL_PAYLOAD),
     "gives an ovni event (OHx, OHe, OAs...) a payload of another size, or makes it jumbo",
     ovni_victim_any, NULL, NULL, NULL, wrong_payload, NULL},
    {R(OVNI_MODEL_NOT_REQUIRED),
     "inserts an event (or an enter-leave pair) of a known model the stream does not require, "
     "or drops nosv from ovni.require of a stream with nosv events",
     plan_unrequired, NULL, NULL, NULL, foreign_event, NULL},
    {R(OVNI_MODEL_UNKNOWN_EVENT), "inserts an O event that ovni does not define", ovni_victim_any,
     NULL, NULL, NULL, unknown_event, NULL},
    {R(OVNI_THREAD_BEFORE_START), "inserts OHe, OHp, OHr, OHc or OHw before a thread's OHx",
     ovni_victim_any, NULL, NULL, NULL, before_start, NULL},
    {R(OVNI_THREAD_AFTER_END), "inserts an event other than OF[/OF] after a thread's OHe",
     ovni_victim_any, NULL, NULL, NULL, after_end_event, after_end},
    {R(OVNI_THREAD_RUNNING), "inserts OHx while the thread runs", ovni_victim_any, NULL, NULL,
     NULL, run_twice, NULL},
    {R(OVNI_THREAD_STATE),
     "inserts a thread event its state refuses (OHr while running, OHc while paused...)",
     ovni_victim_any, NULL, NULL, NULL, bad_transition, NULL},
    {R(OVNI_THREAD_NO_END), "drops a thread's OHe, or ends its stream early", plan_variant2, NULL,
     NULL, NULL, no_end, NULL},
    {R(OVNI_FLUSH_BALANCE), "inserts a lone OF], drops an OF], or ends a stream with OF[",
     plan_variant3, NULL, NULL, NULL, flush_unbalanced, flush_open_end},
    {R(OVNI_UNSORTED_BALANCE),
     "inserts a lone OU], drops an OU], or leaves an OU[ open at the thread's end",
     plan_variant3, NULL, NULL, NULL, unsorted_unbalanced, NULL},
};

const size_t ovni_stream_mutator_count =
    sizeof ovni_stream_mutators / sizeof ovni_stream_mutators[0];
