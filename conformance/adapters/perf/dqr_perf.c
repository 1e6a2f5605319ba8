/*
 * dqr's .perf text against a case's expected canonical dump (dqr.h,
 * docs/dqr.md, "What is compared").
 *
 * The .perf file is written by dqr's PerfConverter (src/trace.cpp), one
 * line per item, in trace order:
 *
 *     # COUNT_TYPE: RAW | Delta | DeltaXOR            emitPerfCntType
 *     [0] TS [Perf Cntr Mask] [Mask=0x%08x]            emitPerfCntrMask
 *     [0] TS [Perf Cntr Def] [Counter=N] [Type=T] [Code=C] [EventData=0x%08lx]
 *            [CntrCSR=0x%03x] [CntrBits=W]             emitPerfCntrDef
 *     [0] TS PC=0x%08llx [Address] ffl:...            emitPerfAddr (manual, ISR)
 *     [0] TS [Func Enter at 0xA] [Called From 0xB]    emitPerfFnEntry
 *     [0] TS [Func Exit] [Func at 0xA] [Returning to 0xB]  emitPerfFnExit
 *     [0] TS PC=0x... [Perf Cntr] [Index=N] [Value=%lld]   emitPerfCntr
 *
 * Both sides become a list of items (a header, a counter definition, a
 * record with its addresses and values) compared in order. dqr does not
 * tell a manual record from an ISR one ([Address] for both); it prints
 * values with %lld, read back modulo 2^64. Timestamps are not compared.
 */
#define _DEFAULT_SOURCE
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dqr.h"

enum { IT_HEADER, IT_COUNTER, IT_RECORD };
enum { K_ENTRY = 0, K_EXIT = 1, K_ADDRESS = 2 }; /* K_ADDRESS: manual or ISR */

typedef struct item {
    int what;
    uint64_t offset;            /* dump: of the header or record */
    int has_offset;
    /* IT_HEADER */
    int count_type;             /* 0..2, -1 unknown */
    int has_mask;
    uint32_t mask;
    /* IT_COUNTER */
    unsigned index, type, csr, width;
    uint64_t code, event_data;
    /* IT_RECORD */
    int kind;
    unsigned n_addr, n_val;
    uint64_t addr[2];
    uint64_t val[32], as_written[32];
} item;

typedef struct items {
    item *v;
    size_t n, cap;
} items;

static item *push(items *l, int what)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        item *v = realloc(l->v, cap * sizeof *v);
        if (!v)
            abort();
        l->v = v;
        l->cap = cap;
    }
    item *it = &l->v[l->n++];
    memset(it, 0, sizeof *it);
    it->what = what;
    it->count_type = -1;
    return it;
}

/* needle in the len bytes at p, or NULL. */
static const char *find(const char *p, size_t len, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= len; i++)
        if (!memcmp(p + i, needle, k))
            return p + i;
    return NULL;
}

/* The number after needle (base 0: 0x for hex), or 0 when absent. */
static uint64_t after(const char *p, size_t len, const char *needle, int *found)
{
    const char *q = find(p, len, needle);
    if (found)
        *found = q != NULL;
    if (!q)
        return 0;
    q += strlen(needle);
    if (*q == '-')
        return (uint64_t)strtoll(q, NULL, 10);
    return strtoull(q, NULL, 0);
}

/* ---- the .perf text ---- */

static void read_perf(const char *text, items *l)
{
    item *hdr = NULL, *rec = NULL;
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        int f;
        if (!strncmp(line, "# COUNT_TYPE: ", 14)) {
            hdr = push(l, IT_HEADER);
            rec = NULL;
            const char *t = line + 14;
            hdr->count_type = !strncmp(t, "RAW", 3) ? 0 : !strncmp(t, "DeltaXOR", 8) ? 2
                              : !strncmp(t, "Delta", 5) ? 1 : -1;
        } else if (find(line, len, "[Perf Cntr Mask]")) {
            if (!hdr)
                hdr = push(l, IT_HEADER);
            hdr->has_mask = 1;
            hdr->mask = (uint32_t)after(line, len, "[Mask=", NULL);
        } else if (find(line, len, "[Perf Cntr Def]")) {
            item *c = push(l, IT_COUNTER);
            c->index = (unsigned)after(line, len, "[Counter=", NULL);
            c->type = (unsigned)after(line, len, "[Type=", NULL);
            c->code = after(line, len, "[Code=", NULL);
            c->event_data = after(line, len, "[EventData=", NULL);
            c->csr = (unsigned)after(line, len, "[CntrCSR=", NULL);
            c->width = (unsigned)after(line, len, "[CntrBits=", NULL);
            rec = NULL;
        } else if (find(line, len, "[Perf Cntr]")) {
            if (!rec) /* a value without its record's line: kept visible */
                rec = push(l, IT_RECORD), rec->kind = -1;
            if (rec->n_val < 32)
                rec->val[rec->n_val] = after(line, len, "[Value=", NULL);
            rec->n_val++;
        } else if (find(line, len, "[Address]")) {
            rec = push(l, IT_RECORD);
            rec->kind = K_ADDRESS;
            rec->n_addr = 1;
            rec->addr[0] = after(line, len, "PC=", NULL);
        } else if (find(line, len, "[Func Enter at ")) {
            rec = push(l, IT_RECORD);
            rec->kind = K_ENTRY;
            rec->n_addr = 2;
            rec->addr[0] = after(line, len, "[Func Enter at ", NULL);
            rec->addr[1] = after(line, len, "[Called From ", NULL);
        } else if (find(line, len, "[Func Exit]")) {
            rec = push(l, IT_RECORD);
            rec->kind = K_EXIT;
            rec->n_addr = 2;
            rec->addr[0] = after(line, len, "[Func at ", &f);
            rec->addr[1] = after(line, len, "[Returning to ", NULL);
        }
        line = end ? end + 1 : NULL;
    }
}

/* ---- the canonical dump (spec/canonical-dump.md, perf) ---- */

/* A JSON array of decimal strings after "key":[ ; returns the count. */
static unsigned array(const char *p, size_t len, const char *key, uint64_t *v, unsigned max)
{
    const char *q = find(p, len, key);
    unsigned n = 0;
    if (!q)
        return 0;
    for (q += strlen(key); q < p + len && *q != ']'; q++)
        if (*q == '"') {
            if (n < max)
                v[n] = strtoull(q + 1, NULL, 10);
            n++;
            q = strchr(q + 1, '"');
            if (!q)
                break;
        }
    return n;
}

static void read_dump(const char *text, items *l)
{
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        int f;
        if (find(line, len, "{\"t\":\"perf_header\"")) {
            item *h = push(l, IT_HEADER);
            h->offset = after(line, len, "\"offset\":\"", &h->has_offset);
            h->count_type = (int)after(line, len, "\"count_type\":", NULL);
            h->has_mask = 1;
            h->mask = (uint32_t)after(line, len, "\"mask\":", NULL);
        } else if (find(line, len, "{\"t\":\"counter\"")) {
            item *c = push(l, IT_COUNTER);
            c->index = (unsigned)after(line, len, "\"index\":", NULL);
            c->type = (unsigned)after(line, len, "\"opensbi_type\":", NULL);
            c->code = after(line, len, "\"code\":", &f);
            c->event_data = after(line, len, "\"event_data\":\"", &f);
            c->csr = (unsigned)after(line, len, "\"csr\":", NULL);
            c->width = (unsigned)after(line, len, "\"width\":", NULL);
        } else if (find(line, len, "{\"t\":\"record\"")) {
            item *r = push(l, IT_RECORD);
            r->offset = after(line, len, "\"offset\":\"", &r->has_offset);
            unsigned type = (unsigned)after(line, len, "\"type\":", NULL);
            r->kind = type == 0 ? K_ENTRY : type == 1 ? K_EXIT : K_ADDRESS;
            r->n_addr = array(line, len, "\"addresses\":[", r->addr, 2);
            r->n_val = array(line, len, "\"decoded\":[", r->val, 32);
            array(line, len, "\"values\":[", r->as_written, 32);
        }
        line = end ? end + 1 : NULL;
    }
}

/* ---- comparing ---- */

static char *say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char buf[768];
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return tc_conf_strdup(buf);
}

static const char *kind_name(int k)
{
    return k == K_ENTRY ? "a function entry" : k == K_EXIT ? "a function exit"
           : k == K_ADDRESS ? "a manual or ISR record" : "counter values without a record line";
}

static const char *count_type_name(int t)
{
    return t == 0 ? "raw" : t == 1 ? "delta" : t == 2 ? "delta XOR" : "unknown";
}

static size_t count(const items *l, int what)
{
    size_t n = 0;
    for (size_t i = 0; i < l->n; i++)
        n += l->v[i].what == what;
    return n;
}

/* "record 3 of 5 (offset 77)" for the dump's item at i. */
static void where(const items *want, size_t i, char *buf, size_t size)
{
    const item *w = &want->v[i];
    size_t nth = 0, all = count(want, w->what);
    for (size_t j = 0; j <= i; j++)
        nth += want->v[j].what == w->what;
    const char *what = w->what == IT_HEADER ? "header" : w->what == IT_COUNTER ? "counter"
                                                                                : "record";
    if (w->has_offset)
        snprintf(buf, size, "%s %zu of %zu (offset %" PRIu64 ")", what, nth, all, w->offset);
    else
        snprintf(buf, size, "%s %zu of %zu", what, nth, all);
}

/* Differences inside records that leave the two lists aligned: all are
 * counted, the first is told. */
enum {
    D_ADDR_XOR,    /* an address that is the running XOR of those written */
    D_ADDR,        /* another address */
    D_VAL_WRITTEN, /* a value as written where the dump has it decoded */
    D_VAL,         /* another value */
    D_LAST,        /* the trace's last value missing */
    D_FEWER,       /* fewer values elsewhere */
    D_MORE,        /* more values */
    D__COUNT
};

static const char *const d_one[D__COUNT] = {
    "address that is the running XOR of the addresses as written",
    "other address that differs",
    "value as written where the dump has it decoded",
    "other value that differs",
    "the trace's last value missing",
    "record that lacks values",
    "record with more values",
};
static const char *const d_many[D__COUNT] = {
    "addresses that are the running XOR of the addresses as written",
    "other addresses that differ",
    "values as written where the dump has them decoded",
    "other values that differ",
    "the trace's last value missing",
    "records that lack values",
    "records with more values",
};

typedef struct diffs {
    size_t n[D__COUNT];
    char *first;
} diffs;

static void differ(diffs *d, int kind, char *text)
{
    d->n[kind]++;
    if (!d->first)
        d->first = text;
    else
        free(text);
}

static void compare_record(const item *g, const item *w, const char *at, uint64_t *xor_run,
                           int last, diffs *d)
{
    for (unsigned a = 0; a < w->n_addr && a < 2; a++) {
        *xor_run ^= w->addr[a];
        if (g->addr[a] != w->addr[a])
            differ(d, g->addr[a] == *xor_run ? D_ADDR_XOR : D_ADDR,
                   say("%s: address %u is %#" PRIx64 " in the .perf file, %#" PRIx64
                       " in the dump (as written)%s", at, a + 1, g->addr[a], w->addr[a],
                       g->addr[a] == *xor_run ? ", the .perf file's being the running XOR of "
                                                "the addresses as written" : ""));
    }
    unsigned nv = w->n_val < 32 ? w->n_val : 32;
    for (unsigned v = 0; v < nv && v < g->n_val; v++)
        if (g->val[v] != w->val[v])
            differ(d, g->val[v] == w->as_written[v] ? D_VAL_WRITTEN : D_VAL,
                   say("%s: value %u is %" PRIu64 " in the .perf file, %" PRIu64 " in the dump "
                       "(decoded; as written: %" PRIu64 ")", at, v + 1, g->val[v], w->val[v],
                       w->as_written[v]));
    if (g->n_val != w->n_val)
        differ(d, g->n_val > w->n_val ? D_MORE : last && g->n_val + 1 == w->n_val ? D_LAST
                                                                                  : D_FEWER,
               say("%s: %u counter value%s in the .perf file, %u in the dump%s", at, g->n_val,
                   g->n_val == 1 ? "" : "s", w->n_val,
                   last && g->n_val + 1 == w->n_val ? " (the trace's last value is missing)"
                                                    : ""));
}

/* The first difference, then how many of each kind when there is more than
 * the first, then where the lists stopped lining up (end, or NULL). */
static char *summary(diffs *d, char *end)
{
    size_t total = 0;
    for (int k = 0; k < D__COUNT; k++)
        total += d->n[k];
    char all[640] = "";
    size_t len = 0;
    for (int k = 0; total > 1 && k < D__COUNT && len < sizeof all; k++) {
        if (!d->n[k])
            continue;
        int w = k == D_LAST ? snprintf(all + len, sizeof all - len, "%s%s",
                                       len ? ", " : "; in all: ", d_one[k])
                            : snprintf(all + len, sizeof all - len, "%s%zu %s",
                                       len ? ", " : "; in all: ", d->n[k],
                                       d->n[k] == 1 ? d_one[k] : d_many[k]);
        len += w > 0 ? (size_t)w : 0;
    }
    char *s = tc_conf_printf("%s%s%s%s", d->first, all, end ? "; then " : "", end ? end : "");
    free(d->first);
    free(end);
    return s;
}

static char *compare_items(const items *got, const items *want)
{
    uint64_t xor_run = 0;
    diffs d = {{0}, NULL};
    size_t i = 0;
    char at[96];
    for (; i < got->n && i < want->n; i++) {
        const item *g = &got->v[i], *w = &want->v[i];
        where(want, i, at, sizeof at);
        if (w->what == IT_HEADER)
            xor_run = 0;
        /* A difference of structure ends the comparison: the lists no
         * longer line up. */
        char *stop = NULL;
        if (g->what != w->what)
            stop = say("at %s the .perf file has %s", at,
                       g->what == IT_HEADER ? "a header" : g->what == IT_COUNTER
                       ? "a counter definition" : kind_name(g->kind));
        else if (w->what == IT_HEADER && g->count_type != w->count_type)
            stop = say("%s: count type %s in the .perf file, %s in the dump", at,
                       count_type_name(g->count_type), count_type_name(w->count_type));
        else if (w->what == IT_HEADER && (!g->has_mask || g->mask != w->mask))
            stop = say("%s: mask %s%#" PRIx32 " in the .perf file, %#" PRIx32 " in the dump",
                       at, g->has_mask ? "" : "(none) ", g->mask, w->mask);
        else if (w->what == IT_COUNTER &&
                 (g->index != w->index || g->type != w->type || g->csr != w->csr ||
                  g->width != w->width || (w->type < 2 && g->code != w->code) ||
                  (w->type == 2 && g->event_data != w->event_data)))
            stop = say("%s: the .perf file defines counter %u as type %u, code %" PRIu64
                       ", event data %#" PRIx64 ", CSR %#x, %u bits; the dump counter %u as "
                       "type %u, code %" PRIu64 ", event data %#" PRIx64 ", CSR %#x, %u bits",
                       at, g->index, g->type, g->code, g->event_data, g->csr, g->width,
                       w->index, w->type, w->type < 2 ? w->code : 0,
                       w->type == 2 ? w->event_data : 0, w->csr, w->width);
        else if (w->what == IT_RECORD && g->kind != w->kind)
            stop = say("%s: %s in the .perf file, %s in the dump", at, kind_name(g->kind),
                       kind_name(w->kind));
        if (stop)
            return d.first ? summary(&d, stop) : stop;
        if (w->what == IT_RECORD)
            compare_record(g, w, at, &xor_run, i + 1 == want->n, &d);
    }
    char *end = NULL;
    if (i < want->n) {
        where(want, i, at, sizeof at);
        end = say("the .perf file ends before %s: %zu header%s and %zu record%s, the dump %zu "
                  "and %zu", at, count(got, IT_HEADER), count(got, IT_HEADER) == 1 ? "" : "s",
                  count(got, IT_RECORD), count(got, IT_RECORD) == 1 ? "" : "s",
                  count(want, IT_HEADER), count(want, IT_RECORD));
    } else if (i < got->n) {
        end = say("the .perf file goes on after the dump's last item with %s (%zu header%s and "
                  "%zu record%s, the dump %zu and %zu)",
                  got->v[i].what == IT_HEADER ? "a header" : got->v[i].what == IT_COUNTER
                  ? "a counter definition" : kind_name(got->v[i].kind),
                  count(got, IT_HEADER), count(got, IT_HEADER) == 1 ? "" : "s",
                  count(got, IT_RECORD), count(got, IT_RECORD) == 1 ? "" : "s",
                  count(want, IT_HEADER), count(want, IT_RECORD));
    }
    if (!d.first)
        return end;
    return summary(&d, end);
}

char *tc_dqr_compare(const char *perf, const char *dump)
{
    items got = {0}, want = {0};
    read_perf(perf, &got);
    read_dump(dump, &want);
    char *why = compare_items(&got, &want);
    free(got.v);
    free(want.v);
    return why;
}

void tc_dqr_perf_summary(const char *perf, size_t *headers, size_t *records, size_t *values)
{
    items got = {0};
    read_perf(perf, &got);
    *headers = count(&got, IT_HEADER);
    *records = count(&got, IT_RECORD);
    *values = 0;
    for (size_t i = 0; i < got.n; i++)
        if (got.v[i].what == IT_RECORD)
            *values += got.v[i].n_val;
    free(got.v);
}
