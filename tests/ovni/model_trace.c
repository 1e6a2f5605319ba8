/* Whole ovni trace directories for the model layer's suites: see
 * model_trace.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_trace.h"

static const char NOSV[] = "{\"ovni\": \"1.1.0\", \"nosv\": \"2.7.0\"}";
/* Loom l's CPUs: index 0 (phyid 0) and 1 (phyid 1), given by its first
 * thread. */
static const char CPUS2[] = "\"loom_cpus\": [{\"index\": 0, \"phyid\": 0}, {\"index\": 1, \"phyid\": 1}]";

void mt_init(mt_trace *t)
{
    memset(t, 0, sizeof *t);
}

/* A thread of loom l, requiring ovni and nosv. */
mt_stream *mt_thread(mt_trace *t, int64_t tid, int64_t pid)
{
    if (t->n == MT_MAXS)
        abort();
    mt_stream *s = &t->s[t->n];
    s->tid = tid;
    s->pid = pid;
    snprintf(s->require, sizeof s->require, "%s", NOSV);
    snprintf(s->extra, sizeof s->extra, "%s", t->n == 0 ? CPUS2 : "");
    ob_init(&s->o, 0);
    t->n++;
    return s;
}

static char *stream_dir(const mt_stream *s)
{
    char *p = NULL;
    if (asprintf(&p, "loom.l/proc.%lld/thread.%lld", (long long)s->pid, (long long)s->tid) < 0)
        abort();
    return p;
}

/* root/DIR/name of stream i, malloc'd. */
char *mt_file_of(const mt_trace *t, int i, const char *name)
{
    char *dir = stream_dir(&t->s[i]);
    char *p = NULL;
    if (asprintf(&p, "%s/%s/%s", t->root, dir, name) < 0)
        abort();
    free(dir);
    return p;
}

/* Writes the trace into a new directory and checks it. */
void mt_run(mt_trace *t)
{
    free(t->root);
    t->root = td_new("models");
    for (int i = 0; i < t->n; i++) {
        mt_stream *s = &t->s[i];
        char *json = NULL;
        if (asprintf(&json,
                     "{\"version\": 3, \"ovni\": {\"part\": \"thread\", \"tid\": %lld, \"pid\": "
                     "%lld, \"loom\": \"l\", \"require\": %s, \"finished\": 1%s%s}%s%s}\n",
                     (long long)s->tid, (long long)s->pid, s->require, s->extra[0] ? ", " : "",
                     s->extra, s->top[0] ? ", " : "", s->top) < 0)
            abort();
        char *dir = stream_dir(s);
        td_stream(t->root, dir, json, &s->o);
        free(dir);
        free(json);
    }
    ot_check_path(t->root, NULL, &t->r);
}

void mt_free(mt_trace *t)
{
    for (int i = 0; i < t->n; i++)
        ob_free(&t->s[i].o);
    free(t->root);
    ot_free(&t->r);
    t->n = 0;
    t->root = NULL;
}

/* ---- events (each returns its offset) ---- */

uint64_t mt_e0(mt_stream *s, const char *mcv, uint64_t clock)
{
    uint64_t at = s->o.b.len;
    ob_event(&s->o, mcv, clock, NULL, 0);
    return at;
}

uint64_t mt_e32(mt_stream *s, const char *mcv, uint64_t clock, uint32_t a)
{
    uint64_t at = s->o.b.len;
    uint8_t p[4];
    ob_put32(&s->o, p, a);
    ob_event(&s->o, mcv, clock, p, 4);
    return at;
}

uint64_t mt_e32x2(mt_stream *s, const char *mcv, uint64_t clock, uint32_t a, uint32_t b)
{
    uint64_t at = s->o.b.len;
    uint8_t p[8];
    ob_put32(&s->o, p, a);
    ob_put32(&s->o, p + 4, b);
    ob_event(&s->o, mcv, clock, p, 8);
    return at;
}

/* OHx: i32 cpu, i32 tid, u64 tag. */
uint64_t mt_ohx(mt_stream *s, uint64_t clock, int32_t cpu)
{
    uint64_t at = s->o.b.len;
    uint8_t p[16];
    ob_put32(&s->o, p, (uint32_t)cpu);
    ob_put32(&s->o, p + 4, 0);
    ob_put64(&s->o, p + 8, 0);
    ob_event(&s->o, "OHx", clock, p, 16);
    return at;
}

/* OM[, OM], OM=: i64 value, i32 type. */
uint64_t mt_mark(mt_stream *s, const char *mcv, uint64_t clock, int64_t value, int32_t type)
{
    uint64_t at = s->o.b.len;
    uint8_t p[12];
    ob_put64(&s->o, p, (uint64_t)value);
    ob_put32(&s->o, p + 8, (uint32_t)type);
    ob_event(&s->o, mcv, clock, p, 12);
    return at;
}

/* A type made (VYc, 6Yc, POc): jumbo, u32 typeid, the label and its NUL. */
uint64_t mt_type_made(mt_stream *s, const char *mcv, uint64_t clock, uint32_t id, const char *label)
{
    uint64_t at = s->o.b.len;
    uint8_t p[64];
    size_t n = strlen(label);
    ob_put32(&s->o, p, id);
    memcpy(p + 4, label, n + 1);
    ob_jumbo(&s->o, mcv, clock, p, (uint32_t)(4 + n + 1));
    return at;
}

/* VWC with n counter values. */
uint64_t mt_counters(mt_stream *s, uint64_t clock, unsigned n)
{
    uint64_t at = s->o.b.len;
    uint8_t p[64] = {0};
    for (unsigned i = 0; i < n; i++)
        ob_put64(&s->o, p + 8 * i, 1000 + i);
    ob_jumbo(&s->o, "VWC", clock, p, 8 * n);
    return at;
}

/* ---- expectations ---- */

static size_t words(const char *s)
{
    size_t n = 0;
    for (const char *p = s; *p; p++)
        n += *p != ' ' && (p == s || p[-1] == ' ');
    return n;
}

/* The trace gives exactly the findings `rules`, in order; the first is in
 * the file `name` of stream `in`, at offset `at` (-1: not checked) and its
 * message says `needle` (NULL: not checked). */
void mt_expect_at(mt_trace *t, const char *what, const char *rules, int in, const char *name,
                  int64_t at, const char *needle, const char *file, unsigned line)
{
    mt_run(t);
    const ot_result *r = &t->r;
    char got[1024] = "";
    size_t h = 0;
    for (size_t i = 0; i < r->n && h < sizeof got; i++)
        h += (size_t)snprintf(got + h, sizeof got - h, "%s%s", i ? " " : "", r->d[i].rule->id);
    tu_assert(!strcmp(got, rules), file, line, "%s: rules: expected [%s], got [%s]:%s", what,
              rules, got, ot_describe(r));
    if (!words(rules)) {
        tu_assert(r->status == 0, file, line, "%s: status %d", what, r->status);
        return;
    }
    char first[64];
    snprintf(first, sizeof first, "%.*s", (int)strcspn(rules, " "), rules);
    const ot_diag *d = ot_find(r, first, needle);
    tu_assert(d != NULL, file, line, "%s: no %s saying \"%s\":%s", what, first,
              needle ? needle : "", ot_describe(r));
    if (!d)
        return;
    tu_assert(d->severity == TC_ERROR || !strcmp(first, "OVNI-MODEL-OLD-EVENT"), file, line,
              "%s: %s is not an error", what, first);
    if (at >= 0)
        tu_assert(d->offset == (uint64_t)at, file, line, "%s: %s at offset %llu, expected %lld",
                  what, first, (unsigned long long)d->offset, (long long)at);
    char *want = mt_file_of(t, in, name);
    tu_assert(d->input && !strcmp(d->input, want), file, line, "%s: reported against %s, expected %s",
              what, d->input ? d->input : "(none)", want);
    free(want);
}

/* Its message names the stream.obs of stream i: "...of PATH". */
char *mt_needle_with_path(const mt_trace *t, int i, const char *fmt)
{
    char *path = mt_file_of(t, i, "stream.obs");
    char *s = NULL;
    if (asprintf(&s, fmt, path) < 0)
        abort();
    free(path);
    return s;
}
