#include <errno.h>
#include <string.h>

#include "perf_gen.h"
#include "perf_mutate.h"

int perf_default_container(int violate)
{
    const perf_mutator *m = violate >= 0 ? perf_mutator_for((tc_rule_id)violate) : NULL;
    return m && !(m->containers & PERF_IN_RTD) ? PERF_TEXT : PERF_RTD;
}

/* Hands a header or record to the container, store by store. */
static void emit(perf_out *o, const perf_unit *u)
{
    for (unsigned i = 0; i < u->n; i++)
        perf_out_write(o, u->w[i].code, u->w[i].value);
}

static void emit_header(perf_out *o, perf_writer *w, perf_unit *u)
{
    if (o->container == PERF_TEXT)
        perf_out_comment(o, "header: marker, count type, counter mask, counter definitions");
    u->n = 0;
    perf_write_header(w, u);
    emit(o, u);
}

static const char *const type_names[] = {"raw", "delta", "delta XOR"};

static int check_params(const perf_gen_params *p, const perf_mutator *m, int violate,
                        const perf_gen_plan *plan, tc_error *err)
{
    if (violate >= 0 && !m) {
        tc_error_set(err, "gen",
                     "%s is not a rule perf data can break (see 'tracecheck gen perf "
                     "--list-mutators')",
                     tc_rules[violate].id);
        return -1;
    }
    if (p->srcbits > 8) {
        tc_error_set(err, "gen", "--srcbits %u: SRC is 0 to 8 bits", p->srcbits);
        return -1;
    }
    if (p->count_type > PERF_COUNT_XOR) {
        tc_error_set(err, "gen", "count type %d: 0 (raw), 1 (delta) or 2 (delta XOR)",
                     p->count_type);
        return -1;
    }
    if (m && p->container >= 0 && !(m->containers & (1u << p->container))) {
        tc_error_set(err, "gen", "%s exists only in the %s container", tc_rules[violate].id,
                     m->containers & PERF_IN_RTD ? "Nexus (rtd)" : "text");
        return -1;
    }
    if (p->count_type >= 0 && plan->model.count_type >= 0 &&
        p->count_type != plan->model.count_type) {
        tc_error_set(err, "gen", "%s needs the %s count type", tc_rules[violate].id,
                     type_names[plan->model.count_type]);
        return -1;
    }
    return 0;
}

int perf_generate(const perf_gen_params *p, int violate, perf_sink sink, perf_gen_stats *stats,
                  tc_error *err)
{
    const perf_mutator *m = violate >= 0 ? perf_mutator_for((tc_rule_id)violate) : NULL;
    perf_gen_plan plan = {.model = {.count_type = -1, .method = -1}};
    if (m && m->plan)
        m->plan(&plan);
    if (check_params(p, m, violate, &plan, err) != 0)
        return -1;
    if (plan.model.count_type < 0)
        plan.model.count_type = p->count_type;
    int container = p->container >= 0 ? p->container : perf_default_container(violate);

    tc_rng rng, mrng;
    tc_rng_seed(&rng, p->seed);
    /* Mutations draw from their own stream. */
    tc_rng_seed(&mrng, p->seed ^ 0x6d75746174696f6eull);
    perf_model model;
    perf_model_init(&model, &rng, &plan.model);
    const perf_config *cfg = &model.cfg;
    perf_writer w;
    perf_writer_init(&w, cfg);
    perf_out o;
    perf_out_init(&o, container, p->srcbits, p->seed, sink.out, sink.mem);
    perf_mutation mu = {.m = m, .rng = &mrng, .model = &model};
    perf_unit u;
    perf_record rec;

    /* Where mutations go: early in a small trace, anywhere in its first
     * half otherwise; enough records after them that they are in the
     * middle. */
    unsigned ctrs = (unsigned)__builtin_popcount(cfg->mask);
    uint64_t per_record = (container == PERF_TEXT ? 17 : 8) * (3 + ctrs);
    uint64_t est_records = p->size / per_record;
    uint64_t span = est_records / 2 < 2 ? 2 : est_records / 2 > 5000 ? 5000 : est_records / 2;
    mu.at = 1 + tc_rng_below(&mrng, span);
    uint64_t min_records = m ? mu.at + 3 : 4;
    uint64_t second_at = UINT64_MAX;
    if (plan.second_header)
        second_at = mu.at;
    else if (!m && est_records >= 16 && tc_rng_chance(&rng, 1, 4))
        second_at = est_records / 4 + tc_rng_below(&rng, est_records / 2);

    o.now = model.time;
    if (m && m->bytes)
        mu.applied = m->bytes(&mu, &o, PERF_AT_START);
    perf_out_sync(&o);
    uint64_t records = 0, headers = 0;
    if (plan.no_data) {
        for (unsigned n = 0; n < 4 || o.total < p->size; n++)
            perf_out_traffic(&o);
        mu.applied = 1;
        goto done;
    }
    if (m && m->before) {
        u.n = 0;
        mu.applied = m->before(&mu, cfg, &u);
        emit(&o, &u);
    }
    if (plan.no_header)
        mu.applied = 1; /* the records alone */
    else {
        emit_header(&o, &w, &u);
        headers++;
    }
    uint64_t data_start = o.total, avg = per_record;
    for (uint64_t idx = 0;; idx++) {
        if (idx >= second_at) {
            if (model.depth > 0)
                model.unwinding = 1; /* perfTraceOn() is called from main */
            else {
                model.unwinding = 0;
                emit_header(&o, &w, &u);
                headers++;
                second_at = UINT64_MAX;
                if (plan.second_header)
                    mu.applied = 1;
            }
        }
        /* A change among the records holds the end back until it is made. */
        int pending = m && !mu.applied && m->where == PERF_AT_MIDDLE;
        int last = idx + 1 >= min_records && o.total + avg >= p->size && !pending;
        int kind = -1;
        if (plan.mixed && !mu.applied && idx >= mu.at) {
            kind = cfg->method == PERF_METHOD_MANUAL ? PERF_REC_ISR : PERF_REC_MANUAL;
            mu.applied = 1;
        }
        perf_model_next(&model, &rec, kind);
        int here = m && !mu.applied && idx >= mu.at;
        if (here && m->record)
            mu.applied = m->record(&mu, &w, &rec, last);
        u.n = 0;
        perf_write_record(&w, &rec, &u);
        if (here && m->unit && !mu.applied)
            mu.applied = m->unit(&mu, &u, last);
        if (container == PERF_TEXT && tc_rng_chance(&rng, 1, 32))
            perf_out_comment(&o, rec.type == PERF_REC_ENTRY  ? "record: function entry"
                                 : rec.type == PERF_REC_EXIT ? "record: function exit"
                                 : rec.type == PERF_REC_ISR  ? "record: timer interrupt"
                                                             : "record: manual");
        emit(&o, &u);
        o.now = model.time;
        if (here && m->bytes && !mu.applied)
            mu.applied = m->bytes(&mu, &o, PERF_AT_MIDDLE);
        records++;
        avg = (o.total - data_start) / records;
        if (last || mu.stop || o.failed)
            break;
        if (pending && idx > min_records + 1000000)
            break; /* reported below */
    }
    if (m && m->after && !mu.applied) {
        u.n = 0;
        mu.applied = m->after(&mu, cfg, &u);
        emit(&o, &u);
    }
    if (m && m->bytes && !mu.applied)
        mu.applied = m->bytes(&mu, &o, PERF_AT_END);
done:;
    int rc = perf_out_flush(&o);
    if (rc != 0)
        tc_error_set(err, "gen", "write failed: %s", strerror(o.failed));
    else if (m && !mu.applied) {
        tc_error_set(err, "gen", "could not break %s in this trace; try another --seed",
                     tc_rules[violate].id);
        rc = -1;
    }
    if (stats) {
        stats->bytes = o.total;
        stats->records = records;
        stats->headers = headers;
        stats->count_type = cfg->count_type;
        stats->method = cfg->method;
        stats->mask = cfg->mask;
    }
    perf_out_free(&o);
    return rc;
}
