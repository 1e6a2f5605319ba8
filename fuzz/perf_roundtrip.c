/*
 * SiFive perf generator round trip: the fuzzer's bytes steer the
 * generator's simulated run (generators/perf: perf_model, perf_writer,
 * perf_out) as a stream of choices (tc_rng_from_bytes, zeros once the
 * bytes run out): the configuration (count type, counters, collection
 * method, 32- or 64-bit system), up to 160 records, whether and where a
 * second header comes, the Nexus SRC width and the container's own
 * choices (other traffic, timestamps, CR LF). The same ITC writes are put
 * in both containers, a Nexus .rtd and a text message list, and each is
 * read back through the public entry (tc_check_input with the perf format
 * and that container, as `tracecheck dump` reads it). Checked:
 *
 *  - no finding of any severity: the generator means these traces to be
 *    valid and to break no warning either (a second header is a pedantic
 *    note, not asked for here);
 *  - the canonical dump is the header line, then per header its
 *    perf_header line (count type, mask, counters) and one counter line
 *    per mask bit (OpenSBI type, code or event_data, counter_info, CSR,
 *    width), then the records, each with the model's type and addresses,
 *    the values the writer wrote and, decoded, the model's absolute
 *    counter values (ruling 7);
 *  - the two containers give the same dump but for offsets and
 *    timestamps.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../generators/common/rng.h"
#include "../generators/perf/nexus_write.h"
#include "../generators/perf/perf_model.h"
#include "../generators/perf/perf_writer.h"
#include "../parsers/common/check.h"
#include "../parsers/common/input.h"
#include "fuzz_helpers.h"

#define MAX_RECORDS 160
#define MAX_WRITES (2 * 131 + MAX_RECORDS * 69)

/* What was generated, in order: headers (all the same configuration) and
 * records. */
typedef struct expect_item {
    int is_header;
    perf_record rec;                     /* absolute values, by mask bit */
    uint64_t written[PERF_MAX_COUNTERS]; /* as the writer wrote them, by mask bit */
} expect_item;

static expect_item items[MAX_RECORDS + 2];
static size_t nitems;
static perf_wr writes[MAX_WRITES];
static size_t nwrites;

static void keep_unit(const perf_unit *u)
{
    for (unsigned i = 0; i < u->n; i++) {
        FUZZ_ASSERT(nwrites < MAX_WRITES);
        writes[nwrites++] = u->w[i];
    }
}

/* ---- reading back ---- */

typedef struct readback {
    char *dump;
    size_t len;
    size_t findings;
    char first[600];
} readback;

static void on_diag(void *user, const tc_diag *d)
{
    readback *rb = user;
    if (rb->findings++ == 0)
        snprintf(rb->first, sizeof rb->first, "%s at %" PRIu64 ": %s", d->rule->id, d->offset,
                 d->message);
}

static void read_back(readback *rb, const uint8_t *p, size_t n, int container, unsigned srcbits)
{
    memset(rb, 0, sizeof *rb);
    tc_options opt = TC_OPTIONS_INIT;
    opt.format = tc_format_from_name("perf");
    opt.max_repeats = 1000;
    opt.on_diag = on_diag;
    opt.user = rb;
    opt.perf_srcbits = srcbits;
    opt.perf_container = container == PERF_RTD ? TC_PERF_CONTAINER_RTD : TC_PERF_CONTAINER_TEXT;
    FILE *f = open_memstream(&rb->dump, &rb->len);
    FUZZ_CHECK_ALLOC(f);
    tc_check_opts c = {.options = &opt, .dump = f};
    tc_input *in = tc_input_open_memory(p, n, NULL);
    FUZZ_CHECK_ALLOC(in);
    tc_summary sum;
    tc_error why = TC_ERROR_INIT;
    int status = tc_check_input(in, "fuzz", &c, &sum, &why);
    char err[256];
    tc_error_format(&why, err, sizeof err);
    tc_error_free(&why);
    tc_input_close(in);
    FUZZ_ASSERT_MSG(fclose(f) == 0, "writing the dump to memory failed");
    FUZZ_ASSERT_MSG(rb->findings == 0 && status == 0,
                    "the generated %s trace (%zu bytes, srcbits %u): status %d, %zu findings, the "
                    "first %s %s",
                    container == PERF_RTD ? "Nexus" : "text", n, srcbits, status, rb->findings,
                    rb->first, err);
}

/* ---- the dump against the model ---- */

static uint64_t num(const cJSON *o, const char *k, size_t line)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    FUZZ_ASSERT_MSG(v != NULL, "dump line %zu has no \"%s\"", line, k);
    if (cJSON_IsString(v))
        return strtoull(v->valuestring, NULL, 10);
    FUZZ_ASSERT_MSG(cJSON_IsNumber(v), "dump line %zu: \"%s\" is no number", line, k);
    return (uint64_t)v->valuedouble;
}

static void u64_array(const cJSON *o, const char *k, uint64_t *out, size_t want, size_t line)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, k);
    FUZZ_ASSERT_MSG(cJSON_IsArray(a), "dump line %zu has no array \"%s\"", line, k);
    FUZZ_ASSERT_MSG((size_t)cJSON_GetArraySize(a) == want, "dump line %zu: \"%s\" holds %d, not %zu",
                    line, k, cJSON_GetArraySize(a), want);
    size_t i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, a)
    {
        FUZZ_ASSERT(cJSON_IsString(e));
        out[i++] = strtoull(e->valuestring, NULL, 10);
    }
}

/* One dump line without its offset and timestamp, to compare containers. */
static void strip_place(cJSON *o)
{
    cJSON_DeleteItemFromObjectCaseSensitive(o, "offset");
    cJSON_DeleteItemFromObjectCaseSensitive(o, "timestamp");
}

static const char *type_of(const cJSON *o, size_t line)
{
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "t");
    FUZZ_ASSERT_MSG(cJSON_IsString(t), "dump line %zu has no \"t\"", line);
    return t->valuestring;
}

/* Walks the dump line by line against items[]; returns the dump without
 * offsets and timestamps, one line each, for the other container. */
static char *check_dump(const readback *rb, const perf_config *cfg, const char *what)
{
    size_t line = 0, item = 0, at = 0;
    unsigned ctr_due = 0, ctr_bit = 0;
    size_t cap = rb->len + 64, olen = 0;
    char *out = malloc(cap);
    FUZZ_CHECK_ALLOC(out);
    unsigned n = (unsigned)__builtin_popcount(cfg->mask);
    while (at < rb->len) {
        const char *nl = memchr(rb->dump + at, '\n', rb->len - at);
        FUZZ_ASSERT_MSG(nl != NULL, "%s: the dump does not end a line", what);
        size_t len = (size_t)(nl - (rb->dump + at));
        cJSON *o = cJSON_ParseWithLength(rb->dump + at, len);
        line++;
        FUZZ_ASSERT_MSG(o != NULL, "%s: dump line %zu is not JSON: %.*s", what, line, (int)len,
                        rb->dump + at);
        at += len + 1;
        const char *t = type_of(o, line);
        if (line == 1) {
            FUZZ_ASSERT_MSG(strcmp(t, "header") == 0, "%s: the dump starts with %s", what, t);
        } else if (ctr_due) {
            FUZZ_ASSERT_MSG(strcmp(t, "counter") == 0, "%s: dump line %zu is %s, a counter is due",
                            what, line, t);
            while (!(cfg->mask >> ctr_bit & 1))
                ctr_bit++;
            const perf_counter *c = &cfg->ctr[ctr_bit];
            FUZZ_ASSERT_MSG(num(o, "index", line) == ctr_bit && num(o, "opensbi_type", line) == c->opensbi_type &&
                                num(o, "width", line) == c->width && num(o, "csr", line) == (c->csr & 0xfff) &&
                                num(o, "counter_info", line) == ((c->csr & 0xfff) | (uint64_t)(c->width - 1) << 12),
                            "%s: dump line %zu: counter %u (type %u, width %u, csr 0x%x) differs",
                            what, line, ctr_bit, c->opensbi_type, c->width, c->csr);
            if (c->opensbi_type == 2)
                FUZZ_ASSERT(num(o, "event_data", line) == c->event_data);
            else
                FUZZ_ASSERT(num(o, "code", line) == c->code);
            ctr_bit++;
            ctr_due--;
        } else {
            FUZZ_ASSERT_MSG(item < nitems, "%s: dump line %zu (%s) after the %zu generated items",
                            what, line, t, nitems);
            const expect_item *e = &items[item++];
            if (e->is_header) {
                FUZZ_ASSERT_MSG(strcmp(t, "perf_header") == 0, "%s: dump line %zu is %s, item %zu "
                                "is a header", what, line, t, item - 1);
                FUZZ_ASSERT_MSG(num(o, "count_type", line) == cfg->count_type &&
                                    num(o, "mask", line) == cfg->mask && num(o, "counters", line) == n,
                                "%s: dump line %zu: header (count type %u, mask 0x%x) differs",
                                what, line, cfg->count_type, cfg->mask);
                ctr_due = n;
                ctr_bit = 0;
            } else {
                FUZZ_ASSERT_MSG(strcmp(t, "record") == 0, "%s: dump line %zu is %s, item %zu is a "
                                "record", what, line, t, item - 1);
                const perf_record *r = &e->rec;
                FUZZ_ASSERT_MSG(num(o, "type", line) == r->type, "%s: dump line %zu: type %" PRIu64
                                ", generated %u", what, line, num(o, "type", line), r->type);
                uint64_t a[2], v[PERF_MAX_COUNTERS], d[PERF_MAX_COUNTERS];
                u64_array(o, "addresses", a, r->naddr, line);
                for (unsigned k = 0; k < r->naddr; k++)
                    FUZZ_ASSERT_MSG(a[k] == r->addr[k], "%s: dump line %zu: address %u is 0x%" PRIx64
                                    ", generated 0x%" PRIx64, what, line, k, a[k], r->addr[k]);
                u64_array(o, "values", v, n, line);
                u64_array(o, "decoded", d, n, line);
                unsigned i = 0;
                for (unsigned b = 0; b < PERF_MAX_COUNTERS; b++) {
                    if (!(cfg->mask >> b & 1))
                        continue;
                    FUZZ_ASSERT_MSG(v[i] == e->written[b] && d[i] == r->value[b],
                                    "%s: dump line %zu: counter %u (mask bit %u, %s, width %u): "
                                    "value 0x%" PRIx64 " decoded 0x%" PRIx64 "; written 0x%" PRIx64
                                    ", generated 0x%" PRIx64,
                                    what, line, i, b,
                                    cfg->count_type == 0 ? "raw" : cfg->count_type == 1 ? "delta" : "xor",
                                    cfg->ctr[b].width, v[i], d[i], e->written[b], r->value[b]);
                    i++;
                }
            }
        }
        strip_place(o);
        char *s = cJSON_PrintUnformatted(o);
        FUZZ_CHECK_ALLOC(s);
        size_t sl = strlen(s);
        if (olen + sl + 2 > cap) {
            cap = (olen + sl + 2) * 2;
            out = realloc(out, cap);
            FUZZ_CHECK_ALLOC(out);
        }
        memcpy(out + olen, s, sl);
        olen += sl;
        out[olen++] = '\n';
        out[olen] = '\0';
        cJSON_free(s);
        cJSON_Delete(o);
    }
    FUZZ_ASSERT_MSG(item == nitems && ctr_due == 0, "%s: the dump holds %zu of the %zu generated "
                    "headers and records", what, item, nitems);
    return out;
}

/* ---- generation ---- */

static void put_writes(perf_out *o)
{
    for (size_t i = 0; i < nwrites; i++)
        perf_out_write(o, writes[i].code, writes[i].value);
}

static perf_model model;
static perf_unit unit;

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    tc_rng choices;
    tc_rng_from_bytes(&choices, data, size);
    perf_plan plan = {.count_type = -1, .method = -1};
    perf_model_init(&model, &choices, &plan);
    const perf_config *cfg = &model.cfg;
    unsigned records = 1 + (unsigned)tc_rng_below(&choices, MAX_RECORDS);
    /* A second header (perfTraceOn() again, from main) somewhere. */
    unsigned second_at = tc_rng_chance(&choices, 1, 4) ? (unsigned)tc_rng_below(&choices, records)
                                                       : UINT32_MAX;
    unsigned srcbits = (unsigned)tc_rng_below(&choices, 9);
    uint64_t out_seed = tc_rng_u64(&choices);

    perf_writer w;
    perf_writer_init(&w, cfg);
    nitems = nwrites = 0;
    unit.n = 0;
    perf_write_header(&w, &unit);
    keep_unit(&unit);
    items[nitems++] = (expect_item){.is_header = 1};
    for (unsigned idx = 0; idx < records; idx++) {
        if (idx >= second_at) {
            if (model.depth > 0) {
                model.unwinding = 1;
            } else {
                model.unwinding = 0;
                unit.n = 0;
                perf_write_header(&w, &unit);
                keep_unit(&unit);
                items[nitems++] = (expect_item){.is_header = 1};
                second_at = UINT32_MAX;
            }
        }
        expect_item *e = &items[nitems++];
        memset(e, 0, sizeof *e);
        perf_model_next(&model, &e->rec, -1);
        for (unsigned b = 0; b < PERF_MAX_COUNTERS; b++)
            if (cfg->mask >> b & 1)
                e->written[b] = perf_written_value(&w, &e->rec, b);
        unit.n = 0;
        perf_write_record(&w, &e->rec, &unit);
        keep_unit(&unit);
    }

    char *stripped[2];
    for (int container = PERF_RTD; container <= PERF_TEXT; container++) {
        tc_bytebuf mem = {0};
        perf_out o;
        unsigned sb = container == PERF_RTD ? srcbits : 0;
        perf_out_init(&o, container, sb, out_seed, NULL, &mem);
        o.now = model.time;
        perf_out_sync(&o);
        put_writes(&o);
        FUZZ_ASSERT(perf_out_flush(&o) == 0);
        perf_out_free(&o);
        readback rb;
        read_back(&rb, mem.p, mem.len, container, sb);
        stripped[container] = check_dump(&rb, cfg, container == PERF_RTD ? "Nexus" : "text");
        free(rb.dump);
        tc_bb_free(&mem);
    }
    FUZZ_ASSERT_MSG(strcmp(stripped[0], stripped[1]) == 0,
                    "the Nexus and text containers give different dumps:\n%s\n---\n%s", stripped[0],
                    stripped[1]);
    free(stripped[0]);
    free(stripped[1]);
    return 0;
}
