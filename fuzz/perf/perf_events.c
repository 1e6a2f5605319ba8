/* Running the SiFive perf layers in a harness: see perf_events.h. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/perf/perf_msg.h"
#include "../../parsers/perf/perf_sm.h"
#include "perf_events.h"

/* Per run: the state machine's last decoded values (ruling 7). A harness
 * is a program: globals are fine here. */
static int got_have_header;
static uint64_t got_prev_decoded[32];
static int got_prev_valid;

void pf_keep_finding(pf_layer *s, int rule, uint64_t off, uint32_t line, int unlocated)
{
    if (s->nf < PF_MAX_KEPT)
        s->f[s->nf] = (pf_finding){rule, off, line, unlocated};
    s->nf++;
}

pf_event *pf_new_event(pf_layer *s)
{
    pf_event *e = s->ne < PF_MAX_KEPT ? &s->e[s->ne] : NULL;
    s->ne++;
    if (e)
        memset(e, 0, sizeof *e);
    return e;
}

void pf_layer_reset(pf_layer *got)
{
    got->ne = got->nf = 0; /* pf_new_event clears what it hands out */
    got_have_header = 0;
    got_prev_valid = 0;
}

static void on_diag(void *user, const tc_diag *d)
{
    pf_layer *s = user;
    int rule = (int)tc_rule_index(d->rule);
    FUZZ_ASSERT_MSG(d->severity == d->rule->severity, "%s", d->rule->id);
    FUZZ_ASSERT_MSG(strcmp(d->rule->family, "PERF") == 0, "%s", d->rule->id);
    pf_keep_finding(s, rule, d->offset, d->line, d->unlocated);
}

static void copy_header(pf_event *e, const tc_perf_header *h)
{
    e->count_type = h->count_type;
    e->mask = h->mask;
    e->n = h->n_counters;
    for (unsigned i = 0; i < h->n_counters && i < 32; i++) {
        e->sbi[i] = h->counters[i].opensbi_type;
        e->code[i] = h->counters[i].opensbi_type == 2 ? 0 : h->counters[i].code;
        e->evdata[i] = h->counters[i].opensbi_type == 2 ? h->counters[i].event_data : 0;
        e->info[i] = h->counters[i].counter_info;
        e->width[i] = h->counters[i].width;
        e->csr[i] = h->counters[i].csr;
        e->index[i] = h->counters[i].index;
    }
}

void pf_on_event(void *user, const tc_perf_event *ev)
{
    pf_layer *s = user;
    if (ev->kind == TC_PERF_EV_START) {
        FUZZ_ASSERT_MSG(s->ne == 0, "START after %zu events", s->ne);
        pf_event *e = pf_new_event(s);
        if (e)
            e->kind = ev->kind;
        return;
    }
    FUZZ_ASSERT_MSG(s->ne > 0, "event %d before START", (int)ev->kind);
    FUZZ_ASSERT(ev->header != NULL);
    const tc_perf_header *h = ev->header;
    FUZZ_ASSERT_MSG(h->count_type <= TC_PERF_DELTA_XOR, "count type %" PRIu32, h->count_type);
    FUZZ_ASSERT(h->n_counters == (unsigned)__builtin_popcount(h->mask));
    pf_event *e = pf_new_event(s);
    if (ev->kind == TC_PERF_EV_HEADER) {
        got_have_header = 1;
        got_prev_valid = 0;
        if (e) {
            e->kind = ev->kind;
            e->offset = ev->offset;
            e->timestamp = ev->timestamp;
            e->has_timestamp = ev->has_timestamp;
            copy_header(e, h);
        }
        return;
    }
    FUZZ_ASSERT_MSG(ev->kind == TC_PERF_EV_RECORD, "event kind %d", (int)ev->kind);
    FUZZ_ASSERT_MSG(got_have_header, "a record at offset %" PRIu64 " before any header",
                    ev->offset);
    FUZZ_ASSERT_MSG(ev->type <= TC_PERF_ISR, "record type %u", ev->type);
    FUZZ_ASSERT(ev->n_addresses == (ev->type <= TC_PERF_FUNC_EXIT ? 2u : 1u));
    for (unsigned a = 0; a < ev->n_addresses; a++)
        FUZZ_ASSERT_MSG(!(ev->address[a] & 1), "address 0x%" PRIx64, ev->address[a]);
    /* Decoded values follow the count type from the record before (ruling 7). */
    for (unsigned i = 0; i < h->n_counters; i++) {
        unsigned w = h->counters[i].width;
        uint64_t mask = w >= 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
        uint64_t prev = got_prev_valid ? got_prev_decoded[i] : 0;
        uint64_t want = h->count_type == TC_PERF_RAW ? ev->value[i]
                        : h->count_type == TC_PERF_DELTA ? (prev + ev->value[i]) & mask
                                                         : (prev ^ ev->value[i]) & mask;
        FUZZ_ASSERT_MSG(ev->decoded[i] == want,
                        "record at offset %" PRIu64 ", counter %u (%s, width %u): value 0x%" PRIx64
                        " after 0x%" PRIx64 " decodes to 0x%" PRIx64 ", not 0x%" PRIx64,
                        ev->offset, i, tc_perf_count_type_name(h->count_type), w, ev->value[i],
                        prev, ev->decoded[i], want);
        got_prev_decoded[i] = ev->decoded[i];
    }
    got_prev_valid = 1;
    if (e) {
        e->kind = ev->kind;
        e->offset = ev->offset;
        e->timestamp = ev->timestamp;
        e->has_timestamp = ev->has_timestamp;
        e->count_type = h->count_type;
        e->mask = h->mask;
        e->n = h->n_counters;
        e->type = ev->type;
        e->naddr = ev->n_addresses;
        memcpy(e->addr, ev->address, sizeof e->addr);
        for (unsigned i = 0; i < h->n_counters && i < 32; i++) {
            e->value[i] = ev->value[i];
            e->decoded[i] = ev->decoded[i];
        }
    }
}

void pf_on_parse_event(void *user, const void *event) { pf_on_event(user, event); }

void pf_run_sm(pf_layer *got, const tc_perf_msg *m, size_t n, unsigned channel, uint32_t marker,
               int wrapped)
{
    static tc_perf_sm sm;
    pf_layer_reset(got);
    tc_diag_sink d;
    tc_diag_init(&d, "fuzz", UINT32_MAX, 1, on_diag, got);
    tc_perf_sm_init(&sm, &d, channel, marker, pf_on_event, got);
    sm.wrapped = wrapped;
    for (size_t k = 0; k < n; k++)
        tc_perf_sm_feed(&sm, &m[k]);
    tc_perf_sm_finish(&sm);
    FUZZ_ASSERT(d.errors + d.warnings + d.notes == got->nf);
}

/* ---- containers ---- */

void pf_container_reset(pf_container *s)
{
    s->nm = s->nf = 0;
    s->wrapped = s->wrapped_first = 0;
}

void pf_container_msg(pf_container *s, const tc_perf_msg *m)
{
    if (s->nm == 0)
        s->wrapped_first = s->wrapped;
    if (s->nm < PF_MAX_KEPT)
        s->m[s->nm] = *m;
    s->nm++;
}

void pf_container_finding(pf_container *s, int rule, uint64_t off)
{
    if (s->nf < PF_MAX_KEPT)
        s->f[s->nf] = (pf_finding){rule, off, 0, 0};
    s->nf++;
}

static void on_msg(void *user, const tc_perf_msg *m) { pf_container_msg(user, m); }

static void on_container_diag(void *user, const tc_diag *d)
{
    pf_container_finding(user, (int)tc_rule_index(d->rule), d->offset);
}

void pf_read_nexus(pf_container *s, const uint8_t *p, size_t n, unsigned srcbits, size_t step)
{
    pf_container_reset(s);
    tc_diag_sink d;
    tc_diag_init(&d, "fuzz", UINT32_MAX, 1, on_container_diag, s);
    hx_source src;
    hx_open(&src, step ? HX_STEPPED : HX_RAW, p, n, step);
    uint64_t k = tc_nexus_read(hx_reader(&src), &d, srcbits, on_msg, s, &s->wrapped);
    hx_close(&src);
    FUZZ_ASSERT_MSG(k == s->nm, "%" PRIu64 " delivered, %zu seen", k, s->nm);
}

void pf_read_text(pf_container *s, const uint8_t *p, size_t n)
{
    pf_container_reset(s);
    tc_diag_sink d;
    tc_diag_init(&d, "fuzz", UINT32_MAX, 1, on_container_diag, s);
    tc_reader r;
    tc_reader_init_memory(&r, p, n);
    tc_itc_text_read(&r, &d, on_msg, s);
}

