/*
 * ovni generator round trip: the fuzzer's bytes steer the synthesiser (every
 * choice: shape, byte order, size, names, ids, CPU lists, events), the
 * writer lays the trace out in memory (generators/ovni/ovni_roundtrip.h),
 * and the parsers read it back. Checked:
 *
 *  - each stream's metadata reads with no finding of any severity, and says
 *    what the plan says (thread, loom, pid, tid);
 *  - each stream.obs reads, with its metadata and the model layer, with no
 *    finding of any severity, and also as a lone file (no metadata), and
 *    through read() with tiny windows;
 *  - the events read are the events written, field by field, payloads
 *    compared with the copies the model made (not with the bytes);
 *  - the events read, written again with the generator's writer, give the
 *    stream's bytes;
 *  - the whole trace, written to a scratch directory, passes
 *    tc_ovni_check_trace (ruling 7 across streams) with no finding, and its
 *    canonical dump is exactly the lines spec/canonical-dump.md gives: the
 *    header, one line per stream in path order, then every event of every
 *    stream merged by clock (ties by stream path, then position).
 */
#define _GNU_SOURCE /* open_memstream, mkdtemp */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../generators/ovni/ovni_roundtrip.h"
#include "../parsers/common/dump.h"
#include "../parsers/ovni/ovni_trace.h"
#include "fuzz_helpers.h"
#include "ovni_run.h"

/* ---- one stream ---- */

static void check_no_findings(const ofz_diags *d, const char *what, const char *rel)
{
    if (d->n == 0 && d->errors + d->warnings + d->notes == 0)
        return;
    for (size_t i = 0; i < d->n && i < 5; i++)
        ofz_print_diag(stderr, what, &d->v[i]);
    FUZZ_FAIL("%s of the generated stream %s: %zu findings", what, rel, d->n);
}

static void check_events(const ofz_stream_run *run, const ovni_mem_stream *s)
{
    FUZZ_ASSERT_MSG(run->nevents == s->nevents, "%s: %zu events read, %zu written", s->rel,
                    run->nevents, s->nevents);
    for (size_t i = 0; i < run->nevents; i++) {
        const ofz_event *a = &run->ev[i];
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
static void check_rewrite(const ofz_stream_run *run, const ovni_mem_stream *s)
{
    tc_bytebuf b = {0};
    ovni_write_header(&b, run->big_endian);
    for (size_t i = 0; i < run->nevents; i++) {
        const ofz_event *e = &run->ev[i];
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

static void check_stream(const ovni_mem_stream *s, uint32_t h)
{
    FUZZ_ASSERT_MSG(s->has_json && s->has_obs, "%s: a generated stream without its files",
                    s->rel);
    ofz_meta_run meta;
    tc_reader r;
    tc_reader_init_memory(&r, s->json.p, s->json.len);
    ofz_parse_meta(&meta, &r, 0);
    check_no_findings(&meta.d, "the metadata", s->rel);
    const tc_ovni_meta *m = &meta.meta;
    FUZZ_ASSERT_MSG(m->readable && m->thread && m->has_tid && m->has_pid && m->has_loom &&
                        m->tid == s->tid && m->pid == s->pid && strcmp(m->loom, s->loom) == 0,
                    "%s: the metadata reads as tid %" PRId64 " pid %" PRId64 " loom \"%s\", the "
                    "plan has %" PRId64 ", %" PRId64 ", \"%s\"", s->rel, m->tid, m->pid, m->loom,
                    s->tid, s->pid, s->loom);

    ofz_stream_run run, other;
    const ofz_stream_opts with_meta = {.payloads = 1, .models = 1, .meta = m, .keep = 1};
    tc_reader_init_memory(&r, s->obs.p, s->obs.len);
    ofz_parse_stream(&run, &r, &with_meta);
    check_no_findings(&run.d, "the stream", s->rel);
    FUZZ_ASSERT_MSG(run.header_ok && run.big_endian == s->big_endian,
                    "%s: the header reads as %s-endian", s->rel, run.big_endian ? "big" : "little");
    check_events(&run, s);
    check_rewrite(&run, s);

    /* As a lone stream.obs (no metadata: every model's events let through). */
    const ofz_stream_opts lone = {.library = 1, .models = 1};
    tc_reader_init_memory(&r, s->obs.p, s->obs.len);
    ofz_parse_stream(&other, &r, &lone);
    check_no_findings(&other.d, "the lone stream", s->rel);
    FUZZ_ASSERT(other.nevents == run.nevents);
    ofz_stream_run_free(&other);

    /* Through a file, with a tiny read() window. */
    static const size_t windows[] = {1, 7, 12, 13, 16, 64, 100};
    size_t w = windows[h % (sizeof windows / sizeof windows[0])];
    ofz_file *f = ofz_file_open(s->obs.p, s->obs.len, w, 1);
    if (f) {
        const ofz_stream_opts o = {.models = 1, .meta = m};
        ofz_parse_stream(&other, ofz_file_reader(f), &o);
        check_no_findings(&other.d, "the stream (read() window)", s->rel);
        FUZZ_ASSERT_MSG(other.nevents == run.nevents, "%s: %zu events through a window of %zu",
                        s->rel, other.nevents, w);
        ofz_stream_run_free(&other);
        ofz_file_close(f);
    }
    ofz_stream_run_free(&run);
    ofz_meta_run_free(&meta);
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
static void remove_trace(const char *root, const ovni_mem_trace *t)
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
    fputs("\"}\n", f);
}

static void check_trace(const ovni_mem_trace *t)
{
    const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    char root[64];
    snprintf(root, sizeof root, "%s/ovni_roundtrip.XXXXXX", base);
    FUZZ_ASSERT_MSG(mkdtemp(root), "mkdtemp: %s", strerror(errno));
    char path[512];
    for (size_t i = 0; i < t->n; i++) {
        const ovni_mem_stream *s = &t->streams[i];
        make_dirs(root, s->rel);
        snprintf(path, sizeof path, "%s/%s/stream.json", root, s->rel);
        write_file(path, &s->json);
        snprintf(path, sizeof path, "%s/%s/stream.obs", root, s->rel);
        write_file(path, &s->obs);
    }

    char *dump = NULL;
    size_t dump_len = 0;
    FILE *df = open_memstream(&dump, &dump_len);
    FUZZ_CHECK_ALLOC(df);
    ofz_diags d;
    tc_diag_sink sink;
    ofz_sink_init(&sink, &d, 0);
    tc_ovni_opts o = {.no_models = 0, .dump = df};
    tc_error why = TC_ERROR_INIT;
    uint64_t bytes = tc_ovni_check_trace(root, &sink, &o, &why);
    char err[256];
    tc_error_format(&why, err, sizeof err);
    tc_error_free(&why);
    ofz_sink_finish(&sink, &d);
    fclose(df);
    FUZZ_ASSERT_MSG(bytes != UINT64_MAX, "tc_ovni_check_trace: %s", err);
    check_no_findings(&d, "the trace", root);
    ofz_diags_free(&d);

    /* The dump spec/canonical-dump.md gives for what was written. */
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
    if (dump_len != want_len || memcmp(dump, want, want_len) != 0) {
        size_t at = 0;
        while (at < dump_len && at < want_len && dump[at] == want[at])
            at++;
        size_t line_start = at;
        while (line_start > 0 && want[line_start - 1] != '\n')
            line_start--;
        FUZZ_FAIL("the trace's canonical dump differs from what was written, at byte %zu:\n"
                  "  dump: %.200s\n  want: %.200s", at, dump + line_start, want + line_start);
    }
    free(all);
    free(sorted);
    free(want);
    free(dump);
    remove_trace(root, t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tc_rng choices;
    tc_rng_from_bytes(&choices, data, size);
    ovni_mem_trace t = {0};
    ovni_gen_params used;
    if (ovni_roundtrip_synth(&choices, &used, &t) != 0)
        return 0; /* out of memory */
    FUZZ_ASSERT_MSG(t.n > 0, "the synthesiser made no stream");
    uint32_t h = ofz_hash(data, size);
    for (size_t i = 0; i < t.n; i++)
        check_stream(&t.streams[i], h + (uint32_t)i);
    check_trace(&t);
    ovni_mem_trace_free(&t);
    return 0;
}
