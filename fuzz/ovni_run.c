#define _GNU_SOURCE /* memfd_create, open_memstream */
#include <inttypes.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../parsers/common/input.h"
#include "../parsers/common/jsonl.h"
#include "../parsers/common/parse.h"
#include "../parsers/ovni/ovni_dump.h"
#include "../parsers/ovni/ovni_model.h"
#include "../parsers/ovni/ovni_trace.h"
#include "fuzz_helpers.h"
#include "ovni_run.h"

/* ---- diagnostics ---- */

static char *dup_or_null(const char *s)
{
    if (!s)
        return NULL;
    char *d = strdup(s);
    FUZZ_CHECK_ALLOC(d);
    return d;
}

void ofz_collect(void *user, const tc_diag *d)
{
    ofz_diags *out = user;
    if (out->n == out->cap) {
        out->cap = out->cap ? 2 * out->cap : 16;
        out->v = realloc(out->v, out->cap * sizeof *out->v);
        FUZZ_CHECK_ALLOC(out->v);
    }
    ofz_diag *x = &out->v[out->n++];
    x->rule = tc_rule_index(d->rule);
    x->severity = d->severity;
    x->offset = d->offset;
    x->length = d->length;
    x->line = d->line;
    x->column = d->column;
    x->unlocated = d->unlocated;
    x->path = dup_or_null(d->json_path);
    x->message = dup_or_null(d->message);
    x->context = dup_or_null(d->context);
    out->count[x->rule]++; /* a sink made by ofz_sink_init replaces these with its own */
}

void ofz_sink_init(tc_diag_sink *s, ofz_diags *out, unsigned max_repeats)
{
    memset(out, 0, sizeof *out);
    /* "No cap" is a cap no input of a fuzzer's size can reach. */
    tc_diag_init(s, "fuzz", max_repeats ? max_repeats : UINT32_MAX, 1, ofz_collect, out);
}

void ofz_sink_finish(tc_diag_sink *s, ofz_diags *out)
{
    tc_diag_finish(s);
    out->errors = s->errors;
    out->warnings = s->warnings;
    out->notes = s->notes;
    memcpy(out->count, s->count, sizeof out->count);
}

void ofz_diags_free(ofz_diags *d)
{
    for (size_t i = 0; i < d->n; i++) {
        free(d->v[i].path);
        free(d->v[i].message);
        free(d->v[i].context);
    }
    free(d->v);
    memset(d, 0, sizeof *d);
}

static int str_eq(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

int ofz_diag_eq(const ofz_diag *a, const ofz_diag *b)
{
    return a->rule == b->rule && a->severity == b->severity && a->offset == b->offset &&
           a->length == b->length && a->line == b->line && a->column == b->column &&
           a->unlocated == b->unlocated && str_eq(a->path, b->path) &&
           str_eq(a->message, b->message) && str_eq(a->context, b->context);
}

long ofz_first_diag_difference(const ofz_diags *a, const ofz_diags *b)
{
    size_t n = a->n < b->n ? a->n : b->n;
    for (size_t i = 0; i < n; i++)
        if (!ofz_diag_eq(&a->v[i], &b->v[i]))
            return (long)i;
    return a->n == b->n ? -1 : (long)n;
}

void ofz_print_diag(FILE *f, const char *label, const ofz_diag *d)
{
    fprintf(f, "  %s: %s at %" PRIu64 "+%" PRIu64 " (%" PRIu32 ":%" PRIu32 " %s)%s: %s%s%s\n",
            label, tc_rules[d->rule].id, d->offset, d->length, d->line, d->column,
            d->path ? d->path : "-", d->unlocated ? " (unlocated)" : "",
            d->message ? d->message : "(no message)", d->context ? " -- " : "",
            d->context ? d->context : "");
}

void ofz_print_diag_difference(FILE *f, const ofz_diags *a, const char *la, const ofz_diags *b,
                               const char *lb, long from)
{
    fprintf(f, "diagnostics differ from #%ld (%s has %zu, %s has %zu):\n", from, la, a->n, lb,
            b->n);
    for (size_t i = (size_t)from; i < (size_t)from + 3; i++) {
        if (i < a->n)
            ofz_print_diag(f, la, &a->v[i]);
        if (i < b->n)
            ofz_print_diag(f, lb, &b->v[i]);
    }
}

void ofz_assert_same_diags(const ofz_diags *a, const char *la, const ofz_diags *b,
                           const char *lb)
{
    long d = ofz_first_diag_difference(a, b);
    if (d >= 0) {
        ofz_print_diag_difference(stderr, a, la, b, lb, d);
        FUZZ_FAIL("%s and %s report differently", la, lb);
    }
    FUZZ_ASSERT_MSG(a->errors == b->errors && a->warnings == b->warnings && a->notes == b->notes,
                    "%s and %s: counters %" PRIu64 "/%" PRIu64 "/%" PRIu64 " vs %" PRIu64
                    "/%" PRIu64 "/%" PRIu64, la, lb, a->errors, a->warnings, a->notes,
                    b->errors, b->warnings, b->notes);
}

/* Whether s is one line of UTF-8 text (RFC 3629): no byte below 0x20 (DEL
 * is let through, as JSON strings let it through unescaped). */
static int clean_text(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned char b = *p;
        if (b < 0x20)
            return 0;
        if (b < 0x80) {
            p++;
            continue;
        }
        size_t len = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
        if (b < 0xc2 || b > 0xf4)
            return 0;
        for (size_t i = 1; i < len; i++)
            if ((p[i] & 0xc0) != 0x80)
                return 0;
        if ((b == 0xe0 && p[1] < 0xa0) || (b == 0xed && p[1] >= 0xa0) ||
            (b == 0xf0 && p[1] < 0x90) || (b == 0xf4 && p[1] >= 0x90))
            return 0;
        p += len;
    }
    return 1;
}

static int family_in(const char *family, const char *families)
{
    size_t n = strlen(family);
    for (const char *p = families; (p = strstr(p, family)) != NULL; p += n)
        if ((p == families || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

void ofz_check_diags_well_formed(const ofz_diags *d, const char *families)
{
    uint64_t sev[3] = {0};
    uint64_t per_rule[TC_RULE__COUNT] = {0};
    for (size_t i = 0; i < d->n; i++) {
        const ofz_diag *x = &d->v[i];
        FUZZ_ASSERT_MSG((unsigned)x->rule < TC_RULE__COUNT, "rule index %d", (int)x->rule);
        const tc_rule_info *info = &tc_rules[x->rule];
        FUZZ_ASSERT_MSG(family_in(info->family, families), "%s is not of the families %s",
                        info->id, families);
        FUZZ_ASSERT_MSG(x->severity == info->severity, "%s reported with severity %d", info->id,
                        (int)x->severity);
        FUZZ_ASSERT_MSG(x->message && x->message[0] && clean_text(x->message),
                        "%s: the message is empty, or not one line of UTF-8 text: %s", info->id,
                        x->message ? x->message : "(none)");
        FUZZ_ASSERT_MSG(!x->path || (x->path[0] == '$' && clean_text(x->path)),
                        "%s: the JSON path is not UTF-8 text starting with $: %s", info->id,
                        x->path);
        sev[x->severity]++;
        per_rule[x->rule]++;
    }
    FUZZ_ASSERT_MSG(d->errors == sev[TC_ERROR] && d->warnings == sev[TC_WARNING] &&
                        d->notes == sev[TC_NOTE],
                    "counters %" PRIu64 "/%" PRIu64 "/%" PRIu64 " but %" PRIu64 "/%" PRIu64
                    "/%" PRIu64 " findings delivered", d->errors, d->warnings, d->notes,
                    sev[TC_ERROR], sev[TC_WARNING], sev[TC_NOTE]);
    for (int r = 0; r < TC_RULE__COUNT; r++)
        FUZZ_ASSERT_MSG(d->count[r] == per_rule[r], "%s counted %" PRIu64 ", delivered %" PRIu64,
                        tc_rules[r].id, d->count[r], per_rule[r]);
}

/* ---- binary streams ---- */

/* FNV-1a, 64 bits: cheap, and any difference changes it in practice. */
static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

#define HASH_FIELD(h, f) ((h) = hash_bytes((h), &(f), sizeof(f)))

typedef struct collector {
    ofz_stream_run *run;
    int keep;
    tc_jsonl jl;
} collector;

static void add_event(collector *c, const tc_ovni_event *e)
{
    ofz_stream_run *run = c->run;
    uint64_t h = run->event_hash;
    HASH_FIELD(h, e->offset);
    HASH_FIELD(h, e->flags);
    HASH_FIELD(h, e->size_code);
    h = hash_bytes(h, e->mcv, 4);
    HASH_FIELD(h, e->clock);
    HASH_FIELD(h, e->jumbo);
    HASH_FIELD(h, e->payload_len);
    int held = e->payload != NULL;
    HASH_FIELD(h, held);
    if (e->payload)
        h = hash_bytes(h, e->payload, e->payload_len);
    run->event_hash = h;
    run->nevents++;
    if (!c->keep)
        return;
    if (run->nevents > run->cap) {
        run->cap = run->cap ? 2 * run->cap : 64;
        run->ev = realloc(run->ev, run->cap * sizeof *run->ev);
        FUZZ_CHECK_ALLOC(run->ev);
    }
    ofz_event *x = &run->ev[run->nevents - 1];
    x->offset = e->offset;
    x->flags = e->flags;
    x->size_code = e->size_code;
    memcpy(x->mcv, e->mcv, 4);
    x->clock = e->clock;
    x->jumbo = e->jumbo;
    x->payload_len = e->payload_len;
    x->payload = NULL;
    if (e->payload) {
        x->payload = malloc(e->payload_len ? e->payload_len : 1);
        FUZZ_CHECK_ALLOC(x->payload);
        memcpy(x->payload, e->payload, e->payload_len);
    }
}

static void on_record(void *user, const void *event)
{
    collector *c = user;
    const tc_ovni_dump_record *rec = event;
    if (c->jl.f)
        tc_ovni_dump(&c->jl, rec);
    switch (rec->kind) {
    case TC_OVNI_REC_HEADER:
        FUZZ_ASSERT_MSG(c->run->records == 0 && c->run->nevents == 0,
                        "a header record after %d records", c->run->records);
        c->run->records++;
        break;
    case TC_OVNI_REC_STREAM:
        FUZZ_ASSERT_MSG(c->run->records == 1 && c->run->nevents == 0,
                        "a stream record after %d records and %zu events", c->run->records,
                        c->run->nevents);
        FUZZ_ASSERT(rec->stream && strcmp(rec->stream, ".") == 0 && rec->meta == NULL);
        c->run->records++;
        c->run->big_endian = rec->big_endian;
        break;
    case TC_OVNI_REC_EVENT:
        FUZZ_ASSERT_MSG(c->run->records == 2, "an event before the stream record");
        FUZZ_ASSERT(rec->ev && rec->stream && strcmp(rec->stream, ".") == 0);
        add_event(c, rec->ev);
        break;
    default:
        FUZZ_FAIL("record kind %d", rec->kind);
    }
}

void ofz_parse_stream(ofz_stream_run *run, tc_reader *r, const ofz_stream_opts *o)
{
    memset(run, 0, sizeof *run);
    run->event_hash = 0xcbf29ce484222325ull;
    collector c = {.run = run, .keep = o->keep};
    tc_diag_sink sink;
    ofz_sink_init(&sink, &run->d, o->max_repeats);
    if (o->library) {
        if (o->dump) {
            c.jl.f = open_memstream(&run->dump, &run->dump_len);
            FUZZ_CHECK_ALLOC(c.jl.f);
            /* Only this thread writes it: per-character locking is pure cost. */
            __fsetlocking(c.jl.f, FSETLOCKING_BYCALLER);
        }
        tc_parse_ctx ctx = {.diags = &sink, .on_event = on_record, .user = &c,
                            .no_models = !o->models};
        tc_ovni_parse(r, &ctx);
        run->header_ok = run->records == 2;
        if (c.jl.f)
            fclose(c.jl.f);
    } else {
        /* As a whole trace's check reads a stream.obs (ovni_trace.c). */
        tc_ovni_stream *s = tc_ovni_stream_new(r, &sink, o->payloads);
        FUZZ_CHECK_ALLOC(s);
        tc_ovni_model model;
        tc_ovni_model_init(&model, &sink, o->meta);
        if (tc_ovni_stream_header(s)) {
            run->header_ok = 1;
            tc_ovni_event ev;
            while (tc_ovni_stream_next(s, &ev)) {
                if (o->models)
                    tc_ovni_model_event(&model, &ev);
                add_event(&c, &ev);
            }
            if (o->models)
                tc_ovni_model_finish(&model);
        }
        FUZZ_ASSERT_MSG(tc_ovni_stream_count(s) == run->nevents,
                        "the stream counts %" PRIu64 " events, %zu were delivered",
                        tc_ovni_stream_count(s), run->nevents);
        run->big_endian = tc_ovni_stream_big_endian(s);
        tc_ovni_stream_free(s);
    }
    ofz_sink_finish(&sink, &run->d);
    run->end_pos = tc_pos(r);
    run->read_failed = r->failed;
}

void ofz_stream_run_free(ofz_stream_run *run)
{
    ofz_diags_free(&run->d);
    for (size_t i = 0; run->ev && i < run->nevents; i++)
        free(run->ev[i].payload);
    free(run->ev);
    free(run->dump);
    memset(run, 0, sizeof *run);
}

int ofz_events_equal(const ofz_event *a, const ofz_event *b)
{
    if ((a->payload == NULL) != (b->payload == NULL))
        return 0;
    if (a->payload && memcmp(a->payload, b->payload, a->payload_len) != 0)
        return 0;
    return a->offset == b->offset && a->flags == b->flags && a->size_code == b->size_code &&
           memcmp(a->mcv, b->mcv, 4) == 0 && a->clock == b->clock && a->jumbo == b->jumbo &&
           a->payload_len == b->payload_len;
}

/* ---- metadata ---- */

void ofz_parse_meta(ofz_meta_run *run, tc_reader *r, unsigned max_repeats)
{
    memset(run, 0, sizeof *run);
    tc_diag_sink sink;
    ofz_sink_init(&sink, &run->d, max_repeats);
    tc_ovni_meta_read(r, &sink, &run->meta);
    ofz_sink_finish(&sink, &run->d);
    run->end_pos = tc_pos(r);
    run->read_failed = r->failed;
}

void ofz_meta_run_free(ofz_meta_run *run)
{
    ofz_diags_free(&run->d);
    tc_ovni_meta_free(&run->meta);
    memset(run, 0, sizeof *run);
}

static int loc_eq(const tc_ovni_loc *a, const tc_ovni_loc *b)
{
    if (a->set != b->set)
        return 0;
    return !a->set || (a->offset == b->offset && a->line == b->line && a->column == b->column &&
                       strcmp(a->path, b->path) == 0);
}

const char *ofz_meta_difference(const tc_ovni_meta *a, const tc_ovni_meta *b)
{
#define SAME(f) if (a->f != b->f) return #f
    SAME(readable);
    SAME(thread);
    SAME(has_tid);
    SAME(has_pid);
    SAME(has_app_id);
    SAME(has_rank);
    SAME(has_nranks);
    SAME(has_loom);
    SAME(has_cpus);
    SAME(ncpus);
    SAME(models.known);
    SAME(models.unknown_required);
#undef SAME
#define SAME_IF(has, f) if (a->has && a->f != b->f) return #f
    SAME_IF(has_tid, tid);
    SAME_IF(has_pid, pid);
    SAME_IF(has_app_id, app_id);
    SAME_IF(has_rank, rank);
    SAME_IF(has_nranks, nranks);
#undef SAME_IF
    if (a->has_loom && strcmp(a->loom, b->loom) != 0)
        return "loom";
    if (!loc_eq(&a->tid_at, &b->tid_at) || !loc_eq(&a->pid_at, &b->pid_at) ||
        !loc_eq(&a->loom_at, &b->loom_at) || !loc_eq(&a->app_id_at, &b->app_id_at) ||
        !loc_eq(&a->rank_at, &b->rank_at) || !loc_eq(&a->nranks_at, &b->nranks_at) ||
        !loc_eq(&a->cpus_at, &b->cpus_at))
        return "a location";
    for (size_t i = 0; i < a->ncpus; i++)
        if (a->cpus[i].index != b->cpus[i].index || a->cpus[i].phyid != b->cpus[i].phyid)
            return "cpus";
    if (memcmp(a->models.letters, b->models.letters, sizeof a->models.letters) != 0)
        return "models.letters";
    if (memcmp(a->models.incompatible, b->models.incompatible, sizeof a->models.incompatible) != 0)
        return "models.incompatible";
    if (strcmp(a->models.names, b->models.names) != 0)
        return "models.names";
    return NULL;
}

/* ---- input paths ---- */

struct ofz_file {
    int fd;
    tc_input *in;
};

ofz_file *ofz_file_open(const uint8_t *data, size_t size, size_t window, int no_mmap)
{
    int fd = memfd_create("ovni_fuzz", MFD_CLOEXEC);
    if (fd < 0)
        return NULL;
    for (size_t done = 0; done < size;) {
        ssize_t w = write(fd, data + done, size - done);
        FUZZ_ASSERT_MSG(w > 0, "writing the memfd failed");
        done += (size_t)w;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    tc_input_opts io = {.window = window, .no_mmap = no_mmap};
    tc_error err = TC_ERROR_INIT;
    ofz_file *f = malloc(sizeof *f);
    FUZZ_CHECK_ALLOC(f);
    f->fd = fd;
    f->in = tc_input_open(path, &io, &err);
    FUZZ_ASSERT_MSG(f->in != NULL, "cannot open %s: %s", path, err.n ? err.cause[0]->message : "");
    return f;
}

tc_reader *ofz_file_reader(ofz_file *f) { return tc_input_reader(f->in); }

void ofz_file_close(ofz_file *f)
{
    if (!f)
        return;
    tc_input_close(f->in);
    close(f->fd);
    free(f);
}

uint32_t ofz_hash(const uint8_t *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

void ofz_line_column(const uint8_t *p, size_t n, uint64_t offset, uint32_t *line,
                     uint32_t *column)
{
    uint64_t start = n >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf ? 3 : 0;
    uint32_t l = 1;
    for (uint64_t i = 0; i < offset && i < n; i++)
        if (p[i] == '\n') {
            l++;
            start = i + 1;
        }
    *line = l;
    *column = offset < start ? 1 : (uint32_t)(offset - start + 1);
}
