/*
 * Canonical dump of SiFive perf data: the schema is spec/canonical-dump.md,
 * "SiFive perf". Values as written and, for counters, decoded per the
 * header's count type (spec/perf/perf.md, ruling 7).
 */
#include "perf_dump.h"
#include "../common/jsonl.h"

static void dump_header(tc_jsonl *w, const tc_perf_header *h)
{
    tc_jl_begin(w, "perf_header");
    tc_jl_u64s(w, "offset", h->offset);
    tc_jl_uint(w, "count_type", h->count_type);
    tc_jl_str(w, "count_type_name", tc_perf_count_type_name(h->count_type));
    tc_jl_uint(w, "mask", h->mask);
    tc_jl_uint(w, "counters", h->n_counters);
    if (h->has_timestamp)
        tc_jl_u64s(w, "timestamp", h->timestamp);
    tc_jl_end(w);
    for (unsigned i = 0; i < h->n_counters; i++) {
        const tc_perf_counter *c = &h->counters[i];
        tc_jl_begin(w, "counter");
        tc_jl_uint(w, "index", c->index);
        tc_jl_uint(w, "opensbi_type", c->opensbi_type);
        if (c->opensbi_type == 2)
            tc_jl_u64s(w, "event_data", c->event_data);
        else
            tc_jl_uint(w, "code", c->code);
        tc_jl_uint(w, "counter_info", c->counter_info);
        tc_jl_uint(w, "csr", c->csr);
        tc_jl_uint(w, "width", c->width);
        tc_jl_end(w);
    }
}

static void dump_record(tc_jsonl *w, const tc_perf_event *ev)
{
    unsigned n = ev->header ? ev->header->n_counters : 0;
    tc_jl_begin(w, "record");
    tc_jl_u64s(w, "offset", ev->offset);
    tc_jl_uint(w, "type", ev->type);
    tc_jl_str(w, "type_name", tc_perf_record_type_name(ev->type));
    tc_jl_u64s_array(w, "addresses", ev->address, ev->n_addresses);
    /* --binary: the addresses' functions; without one the line is as it
     * always was. */
    if (ev->named) {
        tc_jl_array_begin(w, "names");
        for (unsigned i = 0; i < ev->n_addresses && i < 2; i++)
            tc_jl_array_str(w, ev->names[i]);
        tc_jl_array_end(w);
    }
    tc_jl_u64s_array(w, "values", ev->value, n);
    tc_jl_u64s_array(w, "decoded", ev->decoded, n);
    if (ev->has_timestamp)
        tc_jl_u64s(w, "timestamp", ev->timestamp);
    tc_jl_end(w);
}

void tc_perf_dump(tc_jsonl *w, const void *event)
{
    const tc_perf_event *ev = event;
    switch (ev->kind) {
    case TC_PERF_EV_START:
        tc_jl_begin(w, "header");
        tc_jl_str(w, "format", "perf");
        tc_jl_int(w, "dump_version", TC_DUMP_VERSION);
        tc_jl_end(w);
        break;
    case TC_PERF_EV_HEADER: dump_header(w, ev->header); break;
    case TC_PERF_EV_RECORD: dump_record(w, ev); break;
    }
}
