#include <string.h>

#include "perf_writer.h"

void perf_writer_init(perf_writer *w, const perf_config *cfg)
{
    memset(w, 0, sizeof *w);
    w->cfg = cfg;
}

void perf_unit_insert(perf_unit *u, unsigned at, unsigned code, unsigned tag, uint64_t value)
{
    if (u->n >= PERF_UNIT_MAX || at > u->n)
        return; /* never reached: units hold at most 131 + a mutator's few */
    memmove(&u->w[at + 1], &u->w[at], (u->n - at) * sizeof u->w[0]);
    u->w[at] = (perf_wr){.code = (uint8_t)code, .tag = (uint8_t)tag, .value = value};
    u->n++;
}

void perf_unit_remove(perf_unit *u, unsigned at, unsigned count)
{
    if (at >= u->n)
        return;
    if (count > u->n - at)
        count = u->n - at;
    memmove(&u->w[at], &u->w[at + count], (u->n - at - count) * sizeof u->w[0]);
    u->n -= count;
}

static void put(perf_unit *u, unsigned code, unsigned tag, unsigned ctr, uint64_t value)
{
    perf_unit_put(u, code, tag, value);
    u->w[u->n - 1].ctr = (uint8_t)ctr;
}

void perf_write_header(perf_writer *w, perf_unit *u)
{
    const perf_config *cfg = w->cfg;
    memset(w->last, 0, sizeof w->last);
    put(u, PERF_W32, PERF_T_MARKER, 0, PERF_MARKER);
    put(u, PERF_W8, PERF_T_COUNT_TYPE, 0, cfg->count_type);
    put(u, PERF_W32, PERF_T_MASK, 0, cfg->mask);
    /* Counter definitions from the least significant mask bit up. */
    for (unsigned b = 0; b < PERF_MAX_COUNTERS; b++) {
        if (!(cfg->mask >> b & 1))
            continue;
        const perf_counter *c = &cfg->ctr[b];
        put(u, PERF_W32, PERF_T_SBI_TYPE, b, c->opensbi_type);
        if (c->opensbi_type == 2) {
            /* Always both event_data words; the high one is 0 on a 32-bit
             * system. */
            put(u, PERF_W32, PERF_T_EVENT_LO, b, c->event_data & 0xffffffffu);
            put(u, PERF_W32, PERF_T_EVENT_HI, b, c->event_data >> 32);
        } else
            put(u, PERF_W32, PERF_T_CODE, b, c->code);
        put(u, PERF_W32, PERF_T_INFO, b, (c->csr & 0xfffu) | (uint64_t)(c->width - 1) << 12);
    }
}

uint64_t perf_written_value(const perf_writer *w, const perf_record *r, unsigned b)
{
    const perf_counter *c = &w->cfg->ctr[b];
    switch (w->cfg->count_type) {
    case PERF_COUNT_DELTA: return (r->value[b] - w->last[b]) & perf_width_mask(c->width);
    case PERF_COUNT_XOR: return r->value[b] ^ w->last[b];
    default: return r->value[b];
    }
}

static void put_address(perf_unit *u, uint64_t a)
{
    /* Addresses are even: bit 0 of the low word says a high word follows.
     * The writers send addresses plain in every count type. */
    if (a >> 32) {
        put(u, PERF_W32, PERF_T_ADDR_LO, 0, (a & 0xffffffffu) | 1);
        put(u, PERF_W32, PERF_T_ADDR_HI, 0, a >> 32);
    } else
        put(u, PERF_W32, PERF_T_ADDR_LO, 0, a);
}

void perf_write_record(perf_writer *w, const perf_record *r, perf_unit *u)
{
    put(u, PERF_W8, PERF_T_REC_TYPE, 0, r->type);
    for (unsigned i = 0; i < r->naddr; i++)
        put_address(u, r->addr[i]);
    for (unsigned b = 0; b < PERF_MAX_COUNTERS; b++) {
        if (!(w->cfg->mask >> b & 1))
            continue;
        uint64_t v = perf_written_value(w, r, b);
        /* The low word, then bits 32-47 only when the value needs them. */
        put(u, PERF_W32, PERF_T_CNT_LO, b, v & 0xffffffffu);
        if (v >> 32)
            put(u, PERF_W16, PERF_T_CNT_HI, b, (v >> 32) & 0xffffu);
        w->last[b] = r->value[b];
    }
}
