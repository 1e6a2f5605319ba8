/* What a generated perf trace must read back as: see perf_model_oracle.h. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../generators/perf/nexus_write.h"
#include "../../parsers/common/check.h"
#include "../../parsers/common/input.h"
#include "../common/harness.h"
#include "perf_model_oracle.h"

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
    opt.format = TC_FORMAT_PERF;
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
    char err[256] = "";
    tc_error e = TC_ERROR_INIT;
    int status = tc_check_input(in, "fuzz", &c, &sum, &e);
    hx_error_text(&e, err, sizeof err);
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
static char *check_dump(const readback *rb, const perf_config *cfg, const pmo_item *items,
                        size_t nitems, const char *what)
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
            const pmo_item *e = &items[item++];
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

char *pmo_check(const uint8_t *p, size_t n, int container, unsigned srcbits,
                const perf_config *cfg, const pmo_item *items, size_t nitems)
{
    readback rb;
    read_back(&rb, p, n, container, srcbits);
    char *s = check_dump(&rb, cfg, items, nitems, container == PERF_RTD ? "Nexus" : "text");
    free(rb.dump);
    return s;
}
