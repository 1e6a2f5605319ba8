/* What a generated ovni trace must read back as: see ovni_model_oracle.h. */
#define _GNU_SOURCE /* open_memstream */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../generators/common/bytebuf.h"
#include "../../generators/ovni/ovni_events.h"
#include "../../generators/ovni/ovni_gen.h"
#include "../../parsers/common/dump.h"
#include "ovni_dump_oracle.h"
#include "ovni_model_oracle.h"

/* ---- one stream ---- */

void ovni_model_oracle_check_events(const ov_run *run, const ovni_mem_stream *s)
{
    FUZZ_ASSERT_MSG(run->nevents == s->nevents, "%s: %zu events read, %zu written", s->rel,
                    run->nevents, s->nevents);
    for (size_t i = 0; i < run->nevents; i++) {
        const ov_event *a = &run->ev[i];
        const ovni_mem_event *w = &s->events[i];
        const ovni_ev *b = &w->ev;
        int jumbo = (b->flags & TC_OVNI_FLAG_JUMBO) != 0;
        FUZZ_ASSERT_MSG(a->offset == w->offset && a->flags == b->flags &&
                            a->size_code == b->size_code && memcmp(a->mcv, b->mcv, 3) == 0 &&
                            a->clock == b->clock && a->jumbo == jumbo &&
                            a->payload_len == (jumbo ? b->jumbo_size : b->len) &&
                            (!jumbo || b->jumbo_size == b->len),
                        "%s: event %zu (%.3s at %" PRIu64 ") read as %s at %" PRIu64
                        ", clock %" PRIu64 " vs %" PRIu64 ", %" PRIu32 " bytes vs %" PRIu32,
                        s->rel, i, b->mcv, w->offset, a->mcv, a->offset, a->clock, b->clock,
                        a->payload_len, b->len);
        FUZZ_ASSERT_MSG(a->payload && memcmp(a->payload, ovni_mem_payload(s, w), b->len) == 0,
                        "%s: event %zu (%s): the payload read is not the one made", s->rel, i,
                        a->mcv);
    }
}

/* The events read, written again, are the stream's bytes. */
void ovni_model_oracle_check_rewrite(const ov_run *run, const ovni_mem_stream *s)
{
    tc_bytebuf b = {0};
    ovni_write_header(&b, run->big_endian);
    for (size_t i = 0; i < run->nevents; i++) {
        const ov_event *e = &run->ev[i];
        ovni_ev ev;
        if (e->jumbo)
            ovni_ev_jumbo(&ev, e->mcv, e->clock, e->payload, e->payload_len);
        else
            ovni_ev_normal(&ev, e->mcv, e->clock, e->payload, e->payload_len);
        ovni_write_event(&b, &ev, run->big_endian);
    }
    FUZZ_ASSERT_MSG(b.len == s->obs.len && memcmp(b.p, s->obs.p, b.len) == 0,
                    "%s: the events read, written again, are not the stream's %zu bytes (%zu)",
                    s->rel, s->obs.len, b.len);
    tc_bb_free(&b);
}

/* ---- the whole trace, on disk ---- */

static void write_file(const char *path, const tc_bytebuf *b)
{
    FILE *f = fopen(path, "wb");
    FUZZ_ASSERT_MSG(f, "cannot write %s: %s", path, strerror(errno));
    FUZZ_ASSERT(b->len == 0 || fwrite(b->p, 1, b->len, f) == b->len);
    FUZZ_ASSERT(fclose(f) == 0);
}

/* mkdir -p of root/rel. */
static void make_dirs(const char *root, const char *rel)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    for (char *p = path + strlen(root) + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        FUZZ_ASSERT_MSG(mkdir(path, 0700) == 0 || errno == EEXIST, "mkdir %s: %s", path,
                        strerror(errno));
        *p = '/';
    }
    FUZZ_ASSERT_MSG(mkdir(path, 0700) == 0 || errno == EEXIST, "mkdir %s: %s", path,
                    strerror(errno));
}

/* rm -r of what write_trace made: the files, then the directories, deepest
 * first (a parent is removed once its last child is). */
void ovni_model_oracle_remove_trace(const char *root, const ovni_mem_trace *t)
{
    char path[512];
    for (size_t i = 0; i < t->n; i++) {
        snprintf(path, sizeof path, "%s/%s/stream.json", root, t->streams[i].rel);
        unlink(path);
        snprintf(path, sizeof path, "%s/%s/stream.obs", root, t->streams[i].rel);
        unlink(path);
    }
    for (size_t i = 0; i < t->n; i++) {
        snprintf(path, sizeof path, "%s/%s", root, t->streams[i].rel);
        for (;;) {
            if (rmdir(path) != 0)
                break;
            char *slash = strrchr(path, '/');
            if (!slash || (size_t)(slash - path) <= strlen(root))
                break;
            *slash = '\0';
        }
    }
    rmdir(root);
}

void ovni_model_oracle_write_trace(const char *root, const ovni_mem_trace *t)
{
    char path[512];
    for (size_t i = 0; i < t->n; i++) {
        const ovni_mem_stream *s = &t->streams[i];
        make_dirs(root, s->rel);
        snprintf(path, sizeof path, "%s/%s/stream.json", root, s->rel);
        write_file(path, &s->json);
        snprintf(path, sizeof path, "%s/%s/stream.obs", root, s->rel);
        write_file(path, &s->obs);
    }
}

/* ---- its canonical dump ---- */

typedef struct tagged {
    const ovni_mem_stream *s;
    size_t stream, index;
} tagged;

static int by_clock(const void *a, const void *b)
{
    const tagged *x = a, *y = b;
    uint64_t cx = x->s->events[x->index].ev.clock, cy = y->s->events[y->index].ev.clock;
    if (cx != cy)
        return cx < cy ? -1 : 1;
    int c = strcmp(x->s->rel, y->s->rel);
    if (c)
        return c;
    return x->index < y->index ? -1 : x->index > y->index;
}

static int by_rel(const void *a, const void *b)
{
    return strcmp((*(const ovni_mem_stream *const *)a)->rel,
                  (*(const ovni_mem_stream *const *)b)->rel);
}

/* An event's dump line (spec/canonical-dump.md), from what was written. */
static void event_line(FILE *f, const ovni_mem_stream *s, const ovni_mem_event *w)
{
    const ovni_ev *e = &w->ev;
    fprintf(f, "{\"t\":\"event\",\"stream\":\"%s\",\"clock\":\"%" PRIu64 "\",\"mcv\":\"", s->rel,
            e->clock);
    for (int i = 0; i < 3; i++) {
        uint8_t c = (uint8_t)e->mcv[i];
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c >= 0x20 && c < 0x7f)
            fputc(c, f);
        else
            fprintf(f, "\\u%04x", c);
    }
    fprintf(f, "\",\"flags\":%u,\"size_code\":%u", e->flags, e->size_code);
    if (e->flags & TC_OVNI_FLAG_JUMBO)
        fprintf(f, ",\"jumbo_size\":%" PRIu32, e->jumbo_size);
    fputs(",\"payload\":\"", f);
    const uint8_t *p = ovni_mem_payload(s, w);
    for (uint32_t i = 0; i < e->len; i++)
        fprintf(f, "%02x", p[i]);
    fputc('"', f);
    ovni_oracle_dump_model(f, e->mcv, (e->flags & TC_OVNI_FLAG_JUMBO) != 0, p, e->len, s->big_endian);
    fputs("}\n", f);
}

char *ovni_model_oracle_trace_dump(const ovni_mem_trace *t, size_t *len)
{
    char *want = NULL;
    size_t want_len = 0;
    FILE *wf = open_memstream(&want, &want_len);
    FUZZ_CHECK_ALLOC(wf);
    fprintf(wf, "{\"t\":\"header\",\"format\":\"ovni\",\"dump_version\":%d}\n", TC_DUMP_VERSION);
    const ovni_mem_stream **sorted = malloc(t->n * sizeof *sorted);
    FUZZ_CHECK_ALLOC(sorted);
    size_t total = 0;
    for (size_t i = 0; i < t->n; i++) {
        sorted[i] = &t->streams[i];
        total += t->streams[i].nevents;
    }
    qsort(sorted, t->n, sizeof *sorted, by_rel);
    for (size_t i = 0; i < t->n; i++) {
        const ovni_mem_stream *s = sorted[i];
        fprintf(wf, "{\"t\":\"stream\",\"path\":\"%s\",\"byte_order\":\"%s\",\"loom\":\"%s\","
                    "\"pid\":%" PRId64 ",\"tid\":%" PRId64 "}\n",
                s->rel, s->big_endian ? "big" : "little", s->loom, s->pid, s->tid);
    }
    tagged *all = malloc((total + 1) * sizeof *all);
    FUZZ_CHECK_ALLOC(all);
    size_t k = 0;
    for (size_t i = 0; i < t->n; i++)
        for (size_t e = 0; e < t->streams[i].nevents; e++)
            all[k++] = (tagged){&t->streams[i], i, e};
    if (total)
        qsort(all, total, sizeof *all, by_clock);
    for (size_t i = 0; i < total; i++)
        event_line(wf, all[i].s, &all[i].s->events[all[i].index]);
    fclose(wf);
    free(all);
    free(sorted);
    *len = want_len;
    return want;
}
