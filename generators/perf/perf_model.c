#include <string.h>

#include "perf_model.h"

/* Counter CSRs: cycle is 0xC00, instret 0xC02, hpmcounterN 0xC00 + N. The
 * time counter (mask bit 1) is not CSR-mapped: its CSR number is 0 (Doc,
 * counter_info). */
#define CSR_CYCLE 0xC00u

/* Where code lives: a 32-bit system's program (bare metal at 0x80000000),
 * a 64-bit Linux process's program low and its shared libraries just
 * under 256 GiB (high word 0x3f), and, seen from a timer interrupt, the
 * kernel (high word 0xffffffff). */
#define BARE_BASE   0x80000000ull
#define USER_BASE   0x10000ull
#define LIB_BASE    0x3fa0000000ull
#define KERNEL_BASE 0xffffffff80000000ull

static void place_functions(perf_model *m)
{
    tc_rng *rng = m->rng;
    m->nfunc = 8 + (unsigned)tc_rng_below(rng, 120);
    unsigned nlib = m->cfg.rv64 ? 1 + (unsigned)tc_rng_below(rng, m->nfunc / 2) : 0;
    unsigned nkernel = m->cfg.rv64 && m->cfg.method == PERF_METHOD_ISR ? m->nfunc / 8 : 0;
    uint64_t prog = m->cfg.rv64 ? USER_BASE : BARE_BASE, lib = LIB_BASE, kernel = KERNEL_BASE;
    for (unsigned i = 0; i < m->nfunc; i++) {
        /* Function sizes and alignment: compressed code is 2-byte aligned;
         * addresses are always even. */
        uint32_t size = 16 + 2 * (uint32_t)tc_rng_below(rng, 2048);
        uint64_t *base = i > 0 && i <= nlib                ? &lib
                         : i > nlib && i <= nlib + nkernel ? &kernel
                                                           : &prog;
        m->func[i] = *base;
        m->fsize[i] = size;
        *base += size + 2 * tc_rng_below(rng, 64);
    }
}

static void define_counter(perf_model *m, unsigned bit, uint64_t boot)
{
    tc_rng *rng = m->rng;
    perf_counter *c = &m->cfg.ctr[bit];
    memset(c, 0, sizeof *c);
    c->csr = CSR_CYCLE + bit;
    c->width = 64;
    switch (bit) {
    case 0: /* cycle: SBI_PMU_HW_CPU_CYCLES */
        c->code = 1;
        c->value = boot;
        return;
    case 1: /* time: the encoder's timestamp, no CSR */
        c->csr = 0;
        c->value = boot / m->time_div;
        return;
    case 2: /* instret: SBI_PMU_HW_INSTRUCTIONS */
        c->code = 2;
        c->value = boot / 1024 * m->ipc;
        return;
    default: break;
    }
    c->opensbi_type = (uint32_t)tc_rng_below(rng, 3);
    if (c->opensbi_type == 0) /* cache references .. ref cycles */
        c->code = 3 + (uint32_t)tc_rng_below(rng, 8);
    else if (c->opensbi_type == 1) /* cache id, op id, result id */
        c->code = (uint32_t)(tc_rng_below(rng, 7) << 3 | tc_rng_below(rng, 3) << 1 |
                             tc_rng_below(rng, 2));
    else {
        /* A raw event selector: event class in the low byte, an event mask
         * above; a 64-bit system's selector can use the high word. */
        c->event_data = (1 + tc_rng_below(rng, 3)) | (1ull << (8 + tc_rng_below(rng, 20)));
        if (m->cfg.rv64 && tc_rng_chance(rng, 1, 2))
            c->event_data |= tc_rng_below(rng, 1u << 16) << 32;
    }
    unsigned w = (unsigned)tc_rng_below(rng, 12);
    c->width = w < 5 ? 40 : w < 9 ? 48 : w < 11 ? 64 : 16 + (unsigned)tc_rng_below(rng, 16);
    c->rate =
        c->width < 32 ? 1 + (uint32_t)tc_rng_below(rng, 8) : 1 + (uint32_t)tc_rng_below(rng, 700);
    /* Event counters start near 0 when programmed; in delta modes some
     * narrow ones start near the top, so they wrap during the run. */
    c->value = tc_rng_below(rng, 1000);
    if (m->cfg.count_type != PERF_COUNT_RAW && c->width < 64 && tc_rng_chance(rng, 1, 3))
        c->value = perf_width_mask(c->width) - tc_rng_below(rng, 1u << 12);
    c->value &= perf_width_mask(c->width);
    /* Raw values must not go down (a warning): a narrow counter stops
     * short of its maximum instead of wrapping. */
    c->saturate = m->cfg.count_type == PERF_COUNT_RAW;
}

static uint32_t draw_mask(tc_rng *rng, const perf_plan *plan)
{
    unsigned k = (unsigned)tc_rng_below(rng, 8);
    if (k == 0 && !plan->need_counter && !plan->need_narrow)
        return 0;
    if (k == 1)
        return 0xffffffffu;
    uint32_t mask = 0;
    if (tc_rng_chance(rng, 3, 4))
        mask |= 1u;
    if (tc_rng_chance(rng, 1, 2))
        mask |= 2u;
    if (tc_rng_chance(rng, 3, 4))
        mask |= 4u;
    unsigned hpm = (unsigned)tc_rng_below(rng, 7);
    for (unsigned i = 0; i < hpm; i++)
        mask |= 1u << (3 + tc_rng_below(rng, 29));
    if (!mask)
        mask = 1u;
    return mask;
}

void perf_model_init(perf_model *m, tc_rng *rng, const perf_plan *plan)
{
    memset(m, 0, sizeof *m);
    m->rng = rng;
    perf_config *cfg = &m->cfg;
    cfg->count_type =
        plan->count_type >= 0 ? (unsigned)plan->count_type : (unsigned)tc_rng_below(rng, 3);
    if (plan->method >= 0)
        cfg->method = (unsigned)plan->method;
    else {
        unsigned k = (unsigned)tc_rng_below(rng, 4);
        cfg->method = k < 2 ? PERF_METHOD_CALLS : k == 2 ? PERF_METHOD_MANUAL : PERF_METHOD_ISR;
    }
    cfg->rv64 = plan->need_rv64 || tc_rng_chance(rng, 2, 3);
    place_functions(m);

    static const unsigned divs[] = {1, 8, 50, 100};
    m->time_div = divs[tc_rng_below(rng, 4)];
    m->ipc = 300 + (unsigned)tc_rng_below(rng, 1100);
    /* Cycles since boot: over 2^32 (so the 16-bit high part shows) and far
     * enough under 2^48 that a long run never passes it (the writers drop
     * bits above 47). */
    uint64_t boot = (1ull << 32) + tc_rng_below(rng, (1ull << 44) - (1ull << 32));
    m->cycles = boot;
    m->time = boot / m->time_div;

    cfg->mask = draw_mask(rng, plan);
    for (unsigned b = 0; b < PERF_MAX_COUNTERS; b++)
        if (cfg->mask >> b & 1)
            define_counter(m, b, boot);
    if (plan->need_narrow) {
        /* Make one event counter narrower than 32 bits. */
        unsigned b = 3 + (unsigned)tc_rng_below(rng, 29);
        if (!(cfg->mask >> b & 1)) {
            cfg->mask |= 1u << b;
            define_counter(m, b, boot);
        }
        perf_counter *c = &cfg->ctr[b];
        c->width = 16 + (unsigned)tc_rng_below(rng, 16);
        c->rate = 1 + (uint32_t)tc_rng_below(rng, 8);
        c->value &= perf_width_mask(c->width);
    }
}

static uint64_t grow(perf_counter *c, uint64_t inc)
{
    uint64_t max = perf_width_mask(c->width);
    if (c->saturate)
        c->value = inc > max - c->value ? max : c->value + inc;
    else
        c->value = (c->value + inc) & max;
    return c->value;
}

static uint64_t pc_in(perf_model *m, unsigned f)
{
    return m->func[f] + 2 * tc_rng_below(m->rng, m->fsize[f] / 2);
}

/* Where a call in function f returns to: past f's first instruction. */
static uint64_t call_site_in(perf_model *m, unsigned f)
{
    return m->func[f] + 2 + 2 * tc_rng_below(m->rng, m->fsize[f] / 2 - 1);
}

static void advance(perf_model *m)
{
    tc_rng *rng = m->rng;
    uint64_t dt;
    switch (m->cfg.method) {
    case PERF_METHOD_ISR: dt = 20000 + tc_rng_below(rng, 1000); break; /* the timer period */
    case PERF_METHOD_MANUAL: dt = 100 + tc_rng_below(rng, 30000); break;
    default: dt = 20 + tc_rng_below(rng, tc_rng_chance(rng, 1, 8) ? 20000 : 800); break;
    }
    uint64_t t0 = m->cycles / m->time_div;
    m->cycles += dt;
    m->time = m->cycles / m->time_div;
    for (unsigned b = 0; b < PERF_MAX_COUNTERS; b++) {
        if (!(m->cfg.mask >> b & 1))
            continue;
        perf_counter *c = &m->cfg.ctr[b];
        uint64_t inc;
        if (b == 0)
            inc = dt;
        else if (b == 1)
            inc = m->time - t0;
        else if (b == 2)
            inc = (dt * m->ipc + tc_rng_below(rng, 1024)) >> 10;
        else
            inc = (dt * c->rate + tc_rng_below(rng, 1024)) >> 10;
        grow(c, inc);
    }
}

void perf_model_next(perf_model *m, perf_record *r, int kind)
{
    advance(m);
    for (unsigned b = 0; b < PERF_MAX_COUNTERS; b++)
        r->value[b] = m->cfg.mask >> b & 1 ? m->cfg.ctr[b].value : 0;
    unsigned cur = m->depth ? m->stack[m->depth - 1] : 0;
    if (kind >= 0) {
        r->type = (unsigned)kind;
        r->naddr = 1;
        r->addr[0] = pc_in(m, cur);
        return;
    }
    switch (m->cfg.method) {
    case PERF_METHOD_MANUAL:
    case PERF_METHOD_ISR:
        r->type = m->cfg.method == PERF_METHOD_MANUAL ? PERF_REC_MANUAL : PERF_REC_ISR;
        r->naddr = 1;
        r->addr[0] = pc_in(m, (unsigned)tc_rng_below(m->rng, m->nfunc));
        return;
    default: break;
    }
    /* Calls, as the writers record them from -finstrument-functions: the
     * function entered or left, then the call site in its caller; an exit
     * repeats its entry's two addresses (spec/perf/perf.md, "Function entry
     * and exit records"). */
    int enter = m->depth == 0                                ? 1
                : m->unwinding || m->depth >= PERF_MAX_DEPTH ? 0
                                                             : tc_rng_chance(m->rng, 1, 2);
    r->naddr = 2;
    if (enter) {
        unsigned callee = 1 + (unsigned)tc_rng_below(m->rng, m->nfunc - 1);
        m->stack[m->depth] = callee;
        m->site[m->depth] = call_site_in(m, cur);
        r->type = PERF_REC_ENTRY;
        r->addr[0] = m->func[callee];
        r->addr[1] = m->site[m->depth];
        m->depth++;
    } else {
        m->depth--;
        r->type = PERF_REC_EXIT;
        r->addr[0] = m->func[m->stack[m->depth]];
        r->addr[1] = m->site[m->depth];
    }
}

uint64_t perf_model_other_site(perf_model *m, uint64_t site)
{
    /* A function is at least 16 bytes, so there are 7 call sites in it or
     * more: one other than site comes within two draws, or from a fixed
     * choice (no loop on a choice stream that only gives zeros). */
    unsigned cur = m->depth ? m->stack[m->depth - 1] : 0;
    uint64_t other = call_site_in(m, cur);
    if (other == site)
        other = site == m->func[cur] + 2 ? site + 2 : m->func[cur] + 2;
    return other;
}
