/* Edges counted in a generated pair's dumps: see dcfg_counts_oracle.h. */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../common/harness.h"
#include "dcfg_counts_oracle.h"

/* ---- counting edges in the two dumps ---- */

typedef struct tally {
    uint64_t pid, edge, thread;
    int64_t n; /* taken in the trace, less the DCFG's count */
    int used;
} tally;

/* Open addressing on (pid, edge, thread): a trace of millions of edges
 * takes a few thousand distinct ones. */
typedef struct tallies {
    tally *v;
    size_t n, cap; /* cap a power of two */
} tallies;

static size_t slot(const tallies *t, uint64_t pid, uint64_t edge, uint64_t thread)
{
    uint64_t h = (pid * 0x9e3779b97f4a7c15ull) ^ (edge * 0xc2b2ae3d27d4eb4full) ^
                 (thread * 0x165667b19e3779f9ull);
    h ^= h >> 29;
    size_t i = (size_t)h & (t->cap - 1);
    while (t->v[i].used &&
           !(t->v[i].pid == pid && t->v[i].edge == edge && t->v[i].thread == thread))
        i = (i + 1) & (t->cap - 1);
    return i;
}

static void add(tallies *t, uint64_t pid, uint64_t edge, uint64_t thread, int64_t n)
{
    if (2 * (t->n + 1) > t->cap) {
        tallies g = {calloc(t->cap ? 2 * t->cap : 1024, sizeof *t->v), 0,
                     t->cap ? 2 * t->cap : 1024};
        FUZZ_CHECK_ALLOC(g.v);
        for (size_t i = 0; i < t->cap; i++)
            if (t->v[i].used) {
                g.v[slot(&g, t->v[i].pid, t->v[i].edge, t->v[i].thread)] = t->v[i];
                g.n++;
            }
        free(t->v);
        *t = g;
    }
    size_t i = slot(t, pid, edge, thread);
    if (!t->v[i].used) {
        t->v[i] = (tally){pid, edge, thread, 0, 1};
        t->n++;
    }
    t->v[i].n += n;
}

/* A member that the dump writes as a decimal string (or a number). */
static uint64_t u64_member(const cJSON *o, const char *name)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, name);
    FUZZ_ASSERT_MSG(m, "a dump line has no \"%s\"", name);
    if (cJSON_IsNumber(m))
        return (uint64_t)m->valuedouble;
    FUZZ_ASSERT_MSG(cJSON_IsString(m), "\"%s\" is neither a string nor a number", name);
    return strtoull(m->valuestring, NULL, 10);
}

typedef void (*line_fn)(void *user, const cJSON *line, const char *t);

static void each_line(const char *dump, size_t len, line_fn fn, void *user)
{
    for (size_t at = 0; at < len;) {
        const char *nl = memchr(dump + at, '\n', len - at);
        size_t n = nl ? (size_t)(nl - (dump + at)) : len - at;
        cJSON *o = cJSON_ParseWithLength(dump + at, n);
        FUZZ_ASSERT_MSG(o, "cJSON does not read the dump line %.*s", (int)(n < 200 ? n : 200),
                        dump + at);
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "t");
        FUZZ_ASSERT(cJSON_IsString(t));
        fn(user, o, t->valuestring);
        cJSON_Delete(o);
        at += n + 1;
    }
}

typedef struct dcfg_side {
    tallies *t;
} dcfg_side;

static void on_dcfg_line(void *user, const cJSON *o, const char *t)
{
    dcfg_side *s = user;
    if (strcmp(t, "edge") != 0)
        return;
    uint64_t pid = u64_member(o, "pid"), id = u64_member(o, "id");
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(o, "count_per_thread");
    /* spec/canonical-dump.md: a string of decimal numbers one space apart;
     * an array of decimal strings is read too. */
    if (cJSON_IsArray(c)) {
        uint64_t thread = 0;
        for (const cJSON *x = c->child; x; x = x->next, thread++) {
            FUZZ_ASSERT_MSG(cJSON_IsString(x) || cJSON_IsNumber(x), "count_per_thread of edge %"
                            PRIu64 " holds something else than counts", id);
            uint64_t v = cJSON_IsString(x) ? strtoull(x->valuestring, NULL, 10)
                                           : (uint64_t)x->valuedouble;
            if (v)
                add(s->t, pid, id, thread, -(int64_t)v);
        }
        return;
    }
    FUZZ_ASSERT_MSG(cJSON_IsString(c), "edge %" PRIu64 ": count_per_thread is no string", id);
    const char *p = c->valuestring;
    for (uint64_t thread = 0; *p; thread++) {
        char *end;
        uint64_t v = strtoull(p, &end, 10);
        FUZZ_ASSERT_MSG(end != p, "count_per_thread \"%s\"", c->valuestring);
        if (v)
            add(s->t, pid, id, thread, -(int64_t)v);
        p = end;
        while (*p == ' ')
            p++;
    }
}

typedef struct trace_side {
    tallies *t;
    uint64_t pid, thread, chunks, edges, announced;
} trace_side;

static void on_trace_line(void *user, const cJSON *o, const char *t)
{
    trace_side *s = user;
    if (strcmp(t, "chunk") == 0) {
        s->chunks++;
        s->pid = u64_member(o, "pid");
        s->thread = u64_member(o, "thread");
        s->announced += u64_member(o, "edge_count");
    } else if (strcmp(t, "edges") == 0) {
        const cJSON *ids = cJSON_GetObjectItemCaseSensitive(o, "ids");
        if (cJSON_IsArray(ids)) {
            for (const cJSON *x = ids->child; x; x = x->next) {
                FUZZ_ASSERT(cJSON_IsString(x) || cJSON_IsNumber(x));
                uint64_t id = cJSON_IsString(x) ? strtoull(x->valuestring, NULL, 10)
                                                : (uint64_t)x->valuedouble;
                s->edges++;
                add(s->t, s->pid, id, s->thread, 1);
            }
            return;
        }
        FUZZ_ASSERT_MSG(cJSON_IsString(ids), "an edges line's ids are no string");
        for (const char *p = ids->valuestring; *p;) {
            char *end;
            uint64_t id = strtoull(p, &end, 10);
            FUZZ_ASSERT_MSG(end != p, "ids \"%.60s\"", ids->valuestring);
            s->edges++;
            add(s->t, s->pid, id, s->thread, 1);
            p = end;
            while (*p == ' ')
                p++;
        }
    }
}

void dco_check_counts(const char *dcfg_dump, size_t dcfg_len, const char *trace_dump,
                      size_t trace_len, const dcfg_gen_stats *st)
{
    tallies t = {0};
    trace_side ts = {&t, 0, 0, 0, 0, 0};
    each_line(trace_dump, trace_len, on_trace_line, &ts);
    FUZZ_ASSERT_MSG(ts.chunks == st->chunks && ts.edges == st->traversed &&
                        ts.announced == st->traversed,
                    "the trace's dump has %" PRIu64 " chunks of %" PRIu64 " edges (%" PRIu64
                    " announced), the generator wrote %" PRIu64 " of %" PRIu64,
                    ts.chunks, ts.edges, ts.announced, st->chunks, st->traversed);
    dcfg_side ds = {&t};
    each_line(dcfg_dump, dcfg_len, on_dcfg_line, &ds);
    for (size_t i = 0; i < t.cap; i++)
        FUZZ_ASSERT_MSG(!t.v[i].used || t.v[i].n == 0,
                        "process %" PRIu64 ", edge %" PRIu64 ", thread %" PRIu64
                        ": taken %" PRId64 " times more in the trace than the DCFG counts",
                        t.v[i].pid, t.v[i].edge, t.v[i].thread, t.v[i].n);
    free(t.v);
}
