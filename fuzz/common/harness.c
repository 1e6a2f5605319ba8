/* The harness kit: see harness.h. */
#define _GNU_SOURCE /* memfd_create */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "../../parsers/common/formats.h"
#include "../../parsers/common/input.h"
#include "harness.h"

/* ---- finding capture ---- */

struct hx_text_block {
    hx_text_block *older;
    size_t used, size;
    char text[];
};

enum { TEXT_BLOCK = 16384 };

/* One text block and one findings array kept from run to run (the last
 * freed): a run of a lean harness then allocates nothing for its findings. */
static hx_text_block *spare_block;
static hx_finding *spare_v;
static size_t spare_cap;

/* A copy of s in out's text blocks (a block of its own when it is long). */
static char *dup_or_null(hx_findings *out, const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    hx_text_block *b = out->text;
    if (!b || b->size - b->used < n) {
        size_t size = n > TEXT_BLOCK ? n : TEXT_BLOCK;
        if (spare_block && spare_block->size >= size) {
            b = spare_block;
            spare_block = NULL;
            size = b->size;
        } else {
            b = malloc(sizeof *b + size);
            FUZZ_CHECK_ALLOC(b);
        }
        b->older = out->text;
        b->used = 0;
        b->size = size;
        out->text = b;
    }
    char *d = memcpy(b->text + b->used, s, n);
    b->used += n;
    return d;
}

void hx_collect(void *user, const tc_diag *d)
{
    hx_findings *out = user;
    if (out->n == out->cap && !out->v && spare_v) {
        out->v = spare_v;
        out->cap = spare_cap;
        spare_v = NULL;
    }
    if (out->n == out->cap) {
        out->cap = out->cap ? 2 * out->cap : 16;
        out->v = realloc(out->v, out->cap * sizeof *out->v);
        FUZZ_CHECK_ALLOC(out->v);
    }
    hx_finding *x = &out->v[out->n++];
    x->rule = tc_rule_index(d->rule);
    x->severity = d->severity;
    x->offset = d->offset;
    x->length = d->length;
    x->line = d->line;
    x->column = d->column;
    x->unlocated = d->unlocated;
    x->path = dup_or_null(out, d->json_path);
    x->message = dup_or_null(out, d->message);
    x->context = dup_or_null(out, d->context);
    out->count[x->rule]++;
}

void hx_sink_init(tc_diag_sink *s, hx_findings *out, int pedantic, unsigned max_repeats)
{
    memset(out, 0, sizeof *out);
    /* "No cap" is a cap no input of a fuzzer's size can reach. */
    out->max_repeats = max_repeats ? max_repeats : UINT32_MAX;
    tc_diag_init(s, "fuzz", out->max_repeats, pedantic, hx_collect, out);
}

void hx_sink_finish(tc_diag_sink *s, hx_findings *out)
{
    tc_diag_finish(s);
    out->errors = s->errors;
    out->warnings = s->warnings;
    out->notes = s->notes;
    memcpy(out->count, s->count, sizeof out->count);
}

void hx_findings_free(hx_findings *f)
{
    while (f->text) {
        hx_text_block *older = f->text->older;
        if (!spare_block && f->text->size == TEXT_BLOCK)
            spare_block = f->text;
        else
            free(f->text);
        f->text = older;
    }
    if (!spare_v) {
        spare_v = f->v;
        spare_cap = f->cap;
    } else {
        free(f->v);
    }
    memset(f, 0, sizeof *f);
}

void hx_findings_drop(hx_findings *f, size_t i)
{
    hx_finding *x = &f->v[i];
    f->count[x->rule]--;
    if (x->severity == TC_ERROR)
        f->errors--;
    else if (x->severity == TC_WARNING)
        f->warnings--;
    else
        f->notes--;
    /* Its texts stay in the blocks until the findings are freed. */
    memmove(x, x + 1, (f->n - i - 1) * sizeof *x);
    f->n--;
}

/* ---- checks of one run ---- */

int hx_clean_text(const char *s)
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

int hx_family_in(tc_rule_id rule, const char *families)
{
    const char *family = tc_rules[rule].family;
    size_t n = strlen(family);
    for (const char *p = families; (p = strstr(p, family)) != NULL; p += n)
        if ((p == families || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

void hx_check_well_formed(const hx_findings *f, const char *families)
{
    uint64_t sev[3] = {0};
    uint64_t per_rule[TC_RULE__COUNT] = {0};
    size_t suppressed = 0;
    for (size_t i = 0; i < f->n; i++) {
        const hx_finding *x = &f->v[i];
        FUZZ_ASSERT_MSG((unsigned)x->rule < TC_RULE__COUNT, "rule index %d", (int)x->rule);
        const tc_rule_info *info = &tc_rules[x->rule];
        if (x->rule == TC_RULE_DIAG_SUPPRESSED) {
            /* The sink's own note at the end, about a rule over the cap. */
            FUZZ_ASSERT_MSG(x->unlocated, "TC-DIAG-SUPPRESSED located: %s", x->message);
            suppressed++;
            continue;
        }
        FUZZ_ASSERT_MSG(suppressed == 0, "%s after a TC-DIAG-SUPPRESSED note", info->id);
        FUZZ_ASSERT_MSG(hx_family_in(x->rule, families), "%s is not of the families %s",
                        info->id, families);
        FUZZ_ASSERT_MSG(x->severity == info->severity, "%s reported with severity %d", info->id,
                        (int)x->severity);
        FUZZ_ASSERT_MSG(x->message && x->message[0] && hx_clean_text(x->message),
                        "%s: the message is empty, or not one line of UTF-8 text: %s", info->id,
                        x->message ? x->message : "(none)");
        FUZZ_ASSERT_MSG(!x->path || (x->path[0] == '$' && hx_clean_text(x->path)),
                        "%s: the JSON path is not UTF-8 text starting with $: %s", info->id,
                        x->path);
        per_rule[x->rule]++;
    }
    size_t over = 0;
    for (int r = 0; r < TC_RULE__COUNT; r++) {
        if (r == TC_RULE_DIAG_SUPPRESSED)
            continue;
        uint64_t shown = f->count[r] < f->max_repeats ? f->count[r] : f->max_repeats;
        FUZZ_ASSERT_MSG(shown == per_rule[r], "%s counted %" PRIu64 ", delivered %" PRIu64
                        " (repeat cap %u)", tc_rules[r].id, f->count[r], per_rule[r],
                        f->max_repeats);
        sev[tc_rules[r].severity] += f->count[r];
        over += f->count[r] > f->max_repeats;
    }
    FUZZ_ASSERT_MSG(suppressed == over, "%zu suppression notes for %zu rules over the cap",
                    suppressed, over);
    FUZZ_ASSERT_MSG(f->errors == sev[TC_ERROR] && f->warnings == sev[TC_WARNING] &&
                        f->notes == sev[TC_NOTE],
                    "counters %" PRIu64 "/%" PRIu64 "/%" PRIu64 " but %" PRIu64 "/%" PRIu64
                    "/%" PRIu64 " findings counted per rule", f->errors, f->warnings, f->notes,
                    sev[TC_ERROR], sev[TC_WARNING], sev[TC_NOTE]);
}

void hx_check_binary_locations(const hx_findings *f, size_t n, int (*past_end)(tc_rule_id))
{
    for (size_t i = 0; i < f->n; i++) {
        const hx_finding *d = &f->v[i];
        const char *id = tc_rules[d->rule].id;
        if (d->rule == TC_RULE_DIAG_SUPPRESSED)
            continue; /* the sink's, about the report */
        FUZZ_ASSERT_MSG(!d->unlocated && d->line == 0 && d->column == 0 && d->path == NULL,
                        "%s: a binary format's finding is located by offset only", id);
        FUZZ_ASSERT_MSG(d->offset <= n, "%s at offset %" PRIu64 ", the input has %zu bytes", id,
                        d->offset, n);
        FUZZ_ASSERT_MSG(d->length <= n - d->offset || (past_end && past_end(d->rule)),
                        "%s covers %" PRIu64 "+%" PRIu64 ", the input has %zu bytes: %s", id,
                        d->offset, d->length, n, d->message);
    }
}

void hx_check_text_locations(const hx_findings *f, const uint8_t *p, size_t n,
                             int allow_unlocated)
{
    hx_lines cur = {0};
    for (size_t i = 0; i < f->n; i++) {
        const hx_finding *x = &f->v[i];
        const char *id = tc_rules[x->rule].id;
        if (x->rule == TC_RULE_DIAG_SUPPRESSED)
            continue; /* the sink's, about the report */
        if (x->unlocated) {
            FUZZ_ASSERT_MSG(allow_unlocated, "%s is unlocated", id);
            continue;
        }
        /* A point at the very end (a document cut short) may cover the byte
         * that is missing. */
        FUZZ_ASSERT_MSG(x->offset <= n && (x->length <= n - x->offset ||
                                           (x->offset == n && x->length <= 1)),
                        "%s at %" PRIu64 "+%" PRIu64 " in an input of %zu bytes", id, x->offset,
                        x->length, n);
        FUZZ_ASSERT_MSG(x->path != NULL, "%s at %" PRIu64 " has no JSON path", id, x->offset);
        uint32_t line, column;
        hx_line_column_next(&cur, p, n, x->offset, &line, &column);
        FUZZ_ASSERT_MSG(x->line == line && x->column == column,
                        "%s at %" PRIu64 " says %" PRIu32 ":%" PRIu32 ", the bytes say %" PRIu32
                        ":%" PRIu32, id, x->offset, x->line, x->column, line, column);
    }
}

void hx_line_column(const uint8_t *p, size_t n, uint64_t offset, uint32_t *line,
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

void hx_line_column_next(hx_lines *c, const uint8_t *p, size_t n, uint64_t offset,
                         uint32_t *line, uint32_t *column)
{
    if (c->line == 0 || offset < c->at) {
        c->at = 0;
        c->start = n >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf ? 3 : 0;
        c->line = 1;
    }
    for (uint64_t i = c->at; i < offset && i < n; i++)
        if (p[i] == '\n') {
            c->line++;
            c->start = i + 1;
        }
    if (offset > c->at)
        c->at = offset < n ? offset : n;
    *line = c->line;
    *column = offset < c->start ? 1 : (uint32_t)(offset - c->start + 1);
}

/* ---- comparisons of two runs ---- */

static int str_eq(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

int hx_finding_eq(const hx_finding *a, const hx_finding *b)
{
    return a->rule == b->rule && a->severity == b->severity && a->offset == b->offset &&
           a->length == b->length && a->line == b->line && a->column == b->column &&
           a->unlocated == b->unlocated && str_eq(a->path, b->path) &&
           str_eq(a->message, b->message) && str_eq(a->context, b->context);
}

long hx_first_difference(const hx_findings *a, const hx_findings *b)
{
    size_t n = a->n < b->n ? a->n : b->n;
    for (size_t i = 0; i < n; i++)
        if (!hx_finding_eq(&a->v[i], &b->v[i]))
            return (long)i;
    return a->n == b->n ? -1 : (long)n;
}

void hx_print_finding(FILE *f, const char *label, const hx_finding *d)
{
    fprintf(f, "  %s: %s at %" PRIu64 "+%" PRIu64, label, tc_rules[d->rule].id, d->offset,
            d->length);
    if (d->line || d->path)
        fprintf(f, " (%" PRIu32 ":%" PRIu32 " %s)", d->line, d->column, d->path ? d->path : "-");
    fprintf(f, "%s: %s%s%s\n", d->unlocated ? " (unlocated)" : "",
            d->message ? d->message : "(no message)", d->context ? " -- " : "",
            d->context ? d->context : "");
}

void hx_print_difference(FILE *f, const hx_findings *a, const char *la, const hx_findings *b,
                         const char *lb, long from)
{
    fprintf(f, "findings differ from #%ld (%s has %zu, %s has %zu):\n", from, la, a->n, lb,
            b->n);
    for (size_t i = (size_t)from; i < (size_t)from + 3; i++) {
        if (i < a->n)
            hx_print_finding(f, la, &a->v[i]);
        if (i < b->n)
            hx_print_finding(f, lb, &b->v[i]);
    }
}

void hx_assert_same(const hx_findings *a, const char *la, const hx_findings *b, const char *lb)
{
    long d = hx_first_difference(a, b);
    if (d >= 0) {
        hx_print_difference(stderr, a, la, b, lb, d);
        FUZZ_FAIL("%s and %s report differently", la, lb);
    }
    FUZZ_ASSERT_MSG(a->errors == b->errors && a->warnings == b->warnings && a->notes == b->notes,
                    "%s and %s: counters %" PRIu64 "/%" PRIu64 "/%" PRIu64 " vs %" PRIu64
                    "/%" PRIu64 "/%" PRIu64, la, lb, a->errors, a->warnings, a->notes,
                    b->errors, b->warnings, b->notes);
}

int hx_pedantic_rule(tc_rule_id r) { return (tc_rules[r].flags & TC_RF_PEDANTIC) != 0; }

void hx_assert_without(const hx_findings *all, const hx_findings *some, const char *what,
                       int (*dropped)(tc_rule_id))
{
    size_t j = 0;
    uint64_t sev[3] = {0};
    for (size_t i = 0; i < all->n; i++) {
        const hx_finding *d = &all->v[i];
        if (dropped(d->rule)) {
            sev[d->severity]++;
            continue;
        }
        if (j < some->n && hx_finding_eq(d, &some->v[j])) {
            j++;
            continue;
        }
        hx_print_finding(stderr, "expected", d);
        if (j < some->n)
            hx_print_finding(stderr, what, &some->v[j]);
        FUZZ_FAIL("%s: finding %zu is not %s at %" PRIu64, what, j, tc_rules[d->rule].id,
                  d->offset);
    }
    FUZZ_ASSERT_MSG(j == some->n, "%s: %zu findings more than expected", what, some->n - j);
    FUZZ_ASSERT_MSG(some->errors + sev[TC_ERROR] == all->errors &&
                        some->warnings + sev[TC_WARNING] == all->warnings &&
                        some->notes + sev[TC_NOTE] == all->notes,
                    "%s: the counters do not add up", what);
}

void hx_assert_capped(const hx_findings *all, const hx_findings *capped, unsigned cap)
{
    uint64_t seen[TC_RULE__COUNT] = {0};
    size_t j = 0;
    for (size_t i = 0; i < all->n; i++) {
        const hx_finding *d = &all->v[i];
        if (++seen[d->rule] > cap)
            continue;
        FUZZ_ASSERT_MSG(j < capped->n && hx_finding_eq(&capped->v[j], d),
                        "with the repeat cap, finding %zu is not %s at %" PRIu64, j,
                        tc_rules[d->rule].id, d->offset);
        j++;
    }
    for (int r = 0; r < TC_RULE__COUNT; r++) {
        if (seen[r] <= cap)
            continue;
        const hx_finding *s = j < capped->n ? &capped->v[j] : NULL;
        FUZZ_ASSERT_MSG(s && s->rule == TC_RULE_DIAG_SUPPRESSED && s->unlocated &&
                            strstr(s->message, tc_rules[r].id),
                        "no suppression note for %s (%" PRIu64 " findings)", tc_rules[r].id,
                        seen[r]);
        j++;
    }
    FUZZ_ASSERT_MSG(j == capped->n, "the capped run has %zu findings, expected %zu", capped->n, j);
    FUZZ_ASSERT_MSG(capped->errors == all->errors && capped->warnings == all->warnings &&
                        capped->notes == all->notes,
                    "the repeat cap changes the counters");
}

/* ---- what an oracle expects ---- */

void hx_expect_add_at(hx_expect *x, const hx_want *w)
{
    if (x->n == x->cap) {
        x->cap = x->cap ? 2 * x->cap : 32;
        x->v = realloc(x->v, x->cap * sizeof *x->v);
        FUZZ_CHECK_ALLOC(x->v);
    }
    x->v[x->n++] = *w;
}

void hx_expect_add(hx_expect *x, tc_rule_id rule, uint64_t offset, uint64_t length)
{
    const hx_want w = {rule, offset, length, 0, 0};
    hx_expect_add_at(x, &w);
}

void hx_expect_free(hx_expect *x)
{
    free(x->v);
    memset(x, 0, sizeof *x);
}

int hx_every_rule(tc_rule_id r)
{
    (void)r;
    return 1;
}

static int want_eq(const hx_finding *d, const hx_want *w, unsigned cmp)
{
    return d->rule == w->rule && d->offset == w->offset &&
           (!(cmp & HX_CMP_LENGTH) || d->length == w->length) &&
           (!(cmp & HX_CMP_LINE) || (d->line == w->line && d->unlocated == w->unlocated));
}

void hx_assert_expected(const hx_findings *f, const hx_expect *x, int (*judged)(tc_rule_id),
                        unsigned cmp, const char *what)
{
    static uint64_t seen[TC_RULE__COUNT], total[TC_RULE__COUNT];
    memset(seen, 0, sizeof seen);
    memset(total, 0, sizeof total);
    size_t j = 0;
    for (size_t i = 0; i < f->n; i++) {
        const hx_finding *d = &f->v[i];
        if (d->rule == TC_RULE_DIAG_SUPPRESSED || !judged(d->rule))
            continue;
        /* The next expected finding still under the cap. */
        while (j < x->n && (!judged(x->v[j].rule) || seen[x->v[j].rule] >= f->max_repeats)) {
            if (judged(x->v[j].rule))
                total[x->v[j].rule]++;
            j++;
        }
        if (j < x->n && want_eq(d, &x->v[j], cmp)) {
            seen[d->rule]++;
            total[d->rule]++;
            j++;
            continue;
        }
        hx_print_finding(stderr, "parser", d);
        if (j < x->n)
            fprintf(stderr, "  expected: %s at %" PRIu64 "+%" PRIu64 " line %" PRIu32 "\n",
                    tc_rules[x->v[j].rule].id, x->v[j].offset, x->v[j].length, x->v[j].line);
        else
            fprintf(stderr, "  expected: no more findings\n");
        FUZZ_FAIL("%s: finding %zu is not the one expected", what, i);
    }
    for (; j < x->n; j++) {
        const hx_want *w = &x->v[j];
        if (!judged(w->rule))
            continue;
        FUZZ_ASSERT_MSG(seen[w->rule] >= f->max_repeats,
                        "%s: %s at %" PRIu64 "+%" PRIu64 " was not reported", what,
                        tc_rules[w->rule].id, w->offset, w->length);
        total[w->rule]++;
    }
    for (int r = 0; r < TC_RULE__COUNT; r++)
        if (r != TC_RULE_DIAG_SUPPRESSED && judged((tc_rule_id)r))
            FUZZ_ASSERT_MSG(f->count[r] == total[r], "%s: %s reported %" PRIu64 " times, %" PRIu64
                            " expected", what, tc_rules[r].id, f->count[r], total[r]);
}

/* ---- decompression ---- */

int hx_compressed(const uint8_t *data, size_t size)
{
    return tc_detect_compression(data, size) != TC_COMP_NONE;
}

int hx_plain_get(hx_plain *pl, const uint8_t *data, size_t size, size_t limit)
{
    memset(pl, 0, sizeof *pl);
    if (!hx_compressed(data, size)) {
        pl->p = data;
        pl->n = size;
        return 1;
    }
    pl->compressed = 1;
    tc_input *in = tc_input_open_memory(data, size, NULL);
    FUZZ_CHECK_ALLOC(in);
    tc_reader *r = tc_input_reader(in);
    size_t cap = 4096;
    pl->owned = malloc(cap);
    FUZZ_CHECK_ALLOC(pl->owned);
    for (;;) {
        const uint8_t *b = tc_need(r, 1);
        if (!b)
            break;
        size_t a = tc_avail(r);
        if (pl->n + a > limit) {
            tc_input_close(in);
            hx_plain_free(pl);
            return 0;
        }
        while (pl->n + a > cap)
            cap *= 2;
        pl->owned = realloc(pl->owned, cap);
        FUZZ_CHECK_ALLOC(pl->owned);
        memcpy(pl->owned + pl->n, b, a);
        pl->n += a;
        tc_advance(r, a);
    }
    pl->failed = r->failed != TC_READ_OK;
    tc_input_close(in);
    pl->p = pl->owned;
    return 1;
}

void hx_plain_free(hx_plain *pl)
{
    free(pl->owned);
    memset(pl, 0, sizeof *pl);
}

/* ---- window replays ---- */

static const char *const path_names[HX_PATH_COUNT] = {
    "memory reader", "input layer in memory", "read() stream", "mmap", "gzip stream",
    "stepped reader"};

const char *hx_path_name(hx_path path) { return path_names[path]; }

/* An in-memory file (memfd) holding the bytes; -1 when there is none. */
static int memfd_of(const uint8_t *data, size_t size)
{
    int fd = memfd_create("tracecheck-fuzz", MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    for (size_t done = 0; done < size;) {
        ssize_t w = write(fd, data + done, size - done);
        FUZZ_ASSERT_MSG(w > 0, "writing the memfd failed");
        done += (size_t)w;
    }
    return fd;
}

/* The bytes gzip-compressed with stored blocks: cheap, and the streaming
 * decompressor still hands them out window by window. */
static uint8_t *gzip_of(const uint8_t *data, size_t size, size_t *out_len)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    FUZZ_ASSERT(deflateInit2(&z, Z_NO_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
                             Z_DEFAULT_STRATEGY) == Z_OK);
    uLong bound = deflateBound(&z, (uLong)size) + 64;
    uint8_t *gz = malloc(bound);
    FUZZ_CHECK_ALLOC(gz);
    z.next_in = (Bytef *)data;
    z.avail_in = (uInt)size;
    z.next_out = gz;
    z.avail_out = (uInt)bound;
    FUZZ_ASSERT(deflate(&z, Z_FINISH) == Z_STREAM_END);
    *out_len = bound - z.avail_out;
    deflateEnd(&z);
    return gz;
}

int hx_open(hx_source *s, hx_path path, const uint8_t *data, size_t size, size_t window)
{
    memset(s, 0, sizeof *s);
    s->path = path;
    s->window = window;
    s->fd = -1;
    tc_input_opts io = {.window = window, .no_mmap = path == HX_READ};
    switch (path) {
    case HX_RAW:
        tc_reader_init_memory(&s->r, data, size);
        s->reader = &s->r;
        return 1;
    case HX_STEPPED:
        tc_reader_init_stepped(&s->r, &s->sm, data, size, window ? window : 1);
        s->reader = &s->r;
        return 1;
    case HX_MEMORY:
        s->in = tc_input_open_memory(data, size, &io);
        break;
    case HX_GZIP: {
        size_t n;
        s->owned = gzip_of(data, size, &n);
        s->in = tc_input_open_memory(s->owned, n, &io);
        break;
    }
    case HX_READ:
    case HX_MMAP: {
        s->fd = memfd_of(data, size);
        if (s->fd < 0)
            return 0;
        char name[64], err[256];
        snprintf(name, sizeof name, "/proc/self/fd/%d", s->fd);
        tc_error why = TC_ERROR_INIT;
        s->in = tc_input_open(name, &io, &why);
        hx_error_text(&why, err, sizeof err);
        FUZZ_ASSERT_MSG(s->in != NULL, "cannot open %s: %s", name, err);
        break;
    }
    default: FUZZ_FAIL("input path %d", (int)path);
    }
    FUZZ_CHECK_ALLOC(s->in);
    s->reader = tc_input_reader(s->in);
    return 1;
}

tc_reader *hx_reader(hx_source *s) { return s->reader; }

void hx_close(hx_source *s)
{
    if (s->in)
        tc_input_close(s->in);
    if (s->fd >= 0)
        close(s->fd);
    free(s->owned);
    memset(s, 0, sizeof *s);
    s->fd = -1;
}

/* ---- the seeded random source ---- */

uint32_t hx_hash32(const uint8_t *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

void hx_rng_init(hx_rng *r, const uint8_t *data, size_t size)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * 0x100000001b3ull;
    r->s = h ? h : 1;
}

uint64_t hx_rng_next(hx_rng *r)
{
    /* xorshift64*: the same sequence on every build */
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 0x2545f4914f6cdd1dull;
}

size_t hx_rng_below(hx_rng *r, size_t n) { return n ? (size_t)(hx_rng_next(r) % n) : 0; }

size_t hx_pick_window(hx_rng *r, hx_path path)
{
    static const size_t windows[] = {1, 2, 3, 5, 8, 12, 13, 16, 17, 31, 32, 33, 48, 63, 64, 65,
                                     100, 127, 128, 129, 255, 4096};
    static const size_t map_windows[] = {100, 1000, 4095, 4096, 4097, 12288};
    if (path == HX_MMAP)
        return HX_PICK(r, map_windows);
    if (path == HX_STEPPED)
        return 1 + hx_rng_below(r, 7);
    return HX_PICK(r, windows);
}

int hx_starts_with(const char *s, const char *prefix)
{
    while (*prefix && *s == *prefix)
        s++, prefix++;
    return *prefix == '\0';
}

/* ---- the library's calls that take more than one call ---- */

void hx_parse(tc_format format, tc_reader *r, const tc_parse_ctx *ctx)
{
    const tc_format_ops *ops = tc_format_ops_for(format);
    FUZZ_ASSERT_MSG(ops != NULL, "format %d is not in the registry", (int)format);
    ops->parse(r, ctx);
}

void hx_error_text(tc_error *e, char *err, size_t errlen)
{
    tc_error_format(e, err, errlen);
    tc_error_free(e);
}
