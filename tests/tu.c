#include <bzlib.h>
#include <dirent.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "tu.h"

/* ---- suites ---- */

void tu_add_suite(const char *name, const tu_test *tests)
{
    CU_pSuite s = CU_add_suite(name, NULL, NULL);
    if (!s) {
        fprintf(stderr, "cannot add suite %s: %s\n", name, CU_get_error_msg());
        exit(2);
    }
    for (const tu_test *t = tests; t->name; t++)
        if (!CU_add_test(s, t->name, t->fn)) {
            fprintf(stderr, "cannot add test %s: %s\n", t->name, CU_get_error_msg());
            exit(2);
        }
}

/* ---- running inputs ---- */

static char *dup_str(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (!p)
        abort();
    memcpy(p, s, n);
    return p;
}

void tu_collect(void *user, const tc_diag *d)
{
    tu_result *r = user;
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 16;
        r->d = realloc(r->d, r->cap * sizeof *r->d);
        if (!r->d)
            abort();
    }
    tu_diag *t = &r->d[r->n++];
    t->rule = d->rule;
    t->severity = d->severity;
    t->offset = d->offset;
    t->length = d->length;
    t->unlocated = d->unlocated;
    t->message = dup_str(d->message);
    t->context = dup_str(d->context);
}

void tu_result_free(tu_result *r)
{
    for (size_t i = 0; i < r->n; i++) {
        free(r->d[i].message);
        free(r->d[i].context);
    }
    free(r->d);
    free(r->dump);
    memset(r, 0, sizeof *r);
}

/* TU_DUMP=1 in the environment prints every dump and finding (debugging). */
static void maybe_print(const tu_result *r)
{
    if (!getenv("TU_DUMP"))
        return;
    for (size_t i = 0; r->dump && i < tu_dump_lines(r); i++)
        fprintf(stderr, "  %2zu %s\n", i, tu_dump_line(r, i));
    for (size_t i = 0; i < r->n; i++)
        fprintf(stderr, "  @%llu %s: %s\n", (unsigned long long)r->d[i].offset, r->d[i].rule->id,
                r->d[i].message);
}

int tu_check_input(tc_input *in, const char *name, const tu_opts *o, tu_result *r)
{
    static const tu_opts none;
    if (!o)
        o = &none;
    tu_result_free(r);
    tc_options opt = TC_OPTIONS_INIT;
    opt.format = o->format;
    opt.pedantic = o->pedantic;
    opt.max_repeats = o->max_repeats;
    for (unsigned i = 0; i < TC_MAX_BINARIES && o->binaries[i]; i++)
        opt.binaries[opt.n_binaries++] = o->binaries[i];
    opt.on_diag = tu_collect;
    opt.user = r;
    FILE *dump = NULL;
    if (o->dump && !(dump = open_memstream(&r->dump, &r->dump_len)))
        abort();
    tc_check_opts c = {.options = &opt, .input = o->input, .dump = dump};
    r->status = tu_check_input_text(in, name, &c, &r->sum, r->err, sizeof r->err);
    if (dump)
        fclose(dump);
    maybe_print(r);
    return r->status;
}

int tu_check_memory(const void *p, size_t n, const tu_opts *o, tu_result *r)
{
    tc_input *in = tc_input_open_memory(p, n, o ? &o->input : NULL);
    if (!in) {
        tu_result_free(r);
        snprintf(r->err, sizeof r->err, "tc_input_open_memory failed");
        return r->status = 2;
    }
    int rc = tu_check_input(in, "mem", o, r);
    tc_input_close(in);
    return rc;
}

int tu_check_path(const char *path, const tu_opts *o, tu_result *r)
{
    char err[300] = "";
    tc_input *in = tu_input_open(path, o ? &o->input : NULL, err, sizeof err);
    if (!in) {
        tu_result_free(r);
        snprintf(r->err, sizeof r->err, "%s", err);
        return r->status = 2;
    }
    int rc = tu_check_input(in, path, o, r);
    tc_input_close(in);
    return rc;
}

size_t tu_count(const tu_result *r, const char *rule_id)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n; i++)
        n += strcmp(r->d[i].rule->id, rule_id) == 0;
    return n;
}

const tu_diag *tu_find(const tu_result *r, const char *rule_id)
{
    for (size_t i = 0; i < r->n; i++)
        if (strcmp(r->d[i].rule->id, rule_id) == 0)
            return &r->d[i];
    return NULL;
}

size_t tu_count_severity(const tu_result *r, tc_severity s)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n; i++)
        n += r->d[i].severity == s;
    return n;
}

const char *tu_describe(const tu_result *r)
{
    static char buf[4096];
    size_t h = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < r->n && h < sizeof buf - 1; i++) {
        int k = snprintf(buf + h, sizeof buf - h, "%s%s@%llu", i ? " " : "", r->d[i].rule->id,
                         (unsigned long long)r->d[i].offset);
        if (k < 0)
            break;
        h += (size_t)k;
    }
    if (r->n == 0)
        snprintf(buf, sizeof buf, "(none)");
    return buf;
}

size_t tu_text_lines(const char *text, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += text[i] == '\n';
    return n;
}

const char *tu_text_line(const char *text, size_t len, size_t n, char *buf, size_t size)
{
    buf[0] = '\0';
    if (!text)
        return buf;
    const char *p = text, *end = text + len;
    while (n > 0 && p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            return buf;
        p = nl + 1;
        n--;
    }
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
    if (l >= size)
        l = size - 1;
    memcpy(buf, p, l);
    buf[l] = '\0';
    return buf;
}

size_t tu_dump_lines(const tu_result *r) { return tu_text_lines(r->dump, r->dump_len); }

const char *tu_dump_line(const tu_result *r, size_t n)
{
    static char buf[8192];
    return tu_text_line(r->dump, r->dump_len, n, buf, sizeof buf);
}

/* ---- assertions ---- */

void tu_assert(int ok, const char *file, unsigned line, const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* CUnit copies the condition text into its failure record. */
    CU_assertImplementation(ok ? CU_TRUE : CU_FALSE, line, msg, file, "", CU_FALSE);
}

void tu_assert_rules(const tu_result *r, const char *expected, const char *file, unsigned line)
{
    char got[4096];
    size_t h = 0;
    got[0] = '\0';
    for (size_t i = 0; i < r->n && h < sizeof got; i++)
        h += (size_t)snprintf(got + h, sizeof got - h, "%s%s", i ? " " : "", r->d[i].rule->id);
    int ok = strcmp(got, expected) == 0;
    if (!ok) {
        char detail[4096] = "";
        size_t k = 0;
        for (size_t i = 0; i < r->n && k < sizeof detail; i++)
            k += (size_t)snprintf(detail + k, sizeof detail - k, "\n      @%llu %s: %s",
                                  (unsigned long long)r->d[i].offset, r->d[i].rule->id,
                                  r->d[i].message);
        tu_assert(0, file, line, "rules: expected [%s], got [%s]%s", expected, got, detail);
    } else {
        tu_assert(1, file, line, "rules [%s]", expected);
    }
}

void tu_assert_message(const tu_result *r, const char *rule, const char *needle, const char *file,
                       unsigned line)
{
    for (size_t i = 0; i < r->n; i++)
        if (strcmp(r->d[i].rule->id, rule) == 0 &&
            (!needle || strstr(r->d[i].message, needle))) {
            tu_assert(1, file, line, "message");
            return;
        }
    const tu_diag *d = tu_find(r, rule);
    tu_assert(0, file, line, "no %s finding whose message contains \"%s\" (first %s: \"%s\"; all: %s)",
              rule, needle ? needle : "", rule, d ? d->message : "none", tu_describe(r));
}

void tu_assert_offset(const tu_result *r, const char *rule, uint64_t offset, const char *file,
                      unsigned line)
{
    for (size_t i = 0; i < r->n; i++)
        if (strcmp(r->d[i].rule->id, rule) == 0 && r->d[i].offset == offset) {
            tu_assert(1, file, line, "offset");
            return;
        }
    tu_assert(0, file, line, "no %s finding at offset %llu (findings: %s)", rule,
              (unsigned long long)offset, tu_describe(r));
}

void tu_assert_dump_line(const tu_result *r, size_t n, const char *text, const char *file,
                         unsigned line)
{
    const char *got = tu_dump_line(r, n);
    tu_assert(strcmp(got, text) == 0, file, line, "dump line %zu:\n      expected %s\n      got      %s",
              n, text, got);
}

void tu_assert_same(const tu_result *ref, const tu_result *r, int dumps, const char *what)
{
    CHECK(r->status == ref->status, "%s: status %d, reference %d (%s)", what, r->status,
          ref->status, r->err);
    CHECK(r->sum.errors == ref->sum.errors && r->sum.warnings == ref->sum.warnings &&
              r->sum.notes == ref->sum.notes && r->sum.bytes == ref->sum.bytes &&
              r->sum.format == ref->sum.format,
          "%s: summary %llu/%llu/%llu %llu bytes, reference %llu/%llu/%llu %llu bytes", what,
          (unsigned long long)r->sum.errors, (unsigned long long)r->sum.warnings,
          (unsigned long long)r->sum.notes, (unsigned long long)r->sum.bytes,
          (unsigned long long)ref->sum.errors, (unsigned long long)ref->sum.warnings,
          (unsigned long long)ref->sum.notes, (unsigned long long)ref->sum.bytes);
    int diags = r->n == ref->n;
    for (size_t i = 0; diags && i < r->n; i++) {
        const tu_diag *a = &ref->d[i], *b = &r->d[i];
        diags = a->rule == b->rule && a->offset == b->offset && a->length == b->length &&
                strcmp(a->message, b->message) == 0 &&
                ((!a->context && !b->context) ||
                 (a->context && b->context && strcmp(a->context, b->context) == 0));
        if (!diags)
            CHECK(0, "%s: finding %zu differs: %s@%llu \"%s\" vs reference %s@%llu \"%s\"", what,
                  i, b->rule->id, (unsigned long long)b->offset, b->message, a->rule->id,
                  (unsigned long long)a->offset, a->message);
    }
    if (r->n != ref->n)
        CHECK(0, "%s: %zu findings, reference %zu", what, r->n, ref->n);
    if (!dumps)
        return;
    size_t at = 0;
    while (at < r->dump_len && at < ref->dump_len && r->dump[at] == ref->dump[at])
        at++;
    CHECK(r->dump_len == ref->dump_len && at == r->dump_len,
          "%s: dump of %zu bytes differs from the reference's %zu at byte %zu", what,
          r->dump_len, ref->dump_len, at);
}

/* ---- files ---- */

static char tmpdir[512];

const char *tu_tmpdir(void)
{
    if (!tmpdir[0]) {
        const char *base = getenv("TMPDIR");
        snprintf(tmpdir, sizeof tmpdir, "%s/tracecheck-unit-XXXXXX", base && *base ? base : "/tmp");
        if (!mkdtemp(tmpdir)) {
            perror("mkdtemp");
            exit(2);
        }
    }
    return tmpdir;
}

char *tu_write_file(const char *name, const void *p, size_t n)
{
    size_t len = strlen(tu_tmpdir()) + strlen(name) + 2;
    char *path = malloc(len);
    if (!path)
        abort();
    snprintf(path, len, "%s/%s", tu_tmpdir(), name);
    FILE *f = fopen(path, "wb");
    if (!f || (n && fwrite(p, 1, n, f) != n) || fclose(f) != 0) {
        perror(path);
        exit(2);
    }
    return path;
}

uint8_t *tu_read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    tu_bytes b = {0};
    char chunk[65536];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
        tu_bytes_append(&b, chunk, got);
    fclose(f);
    *n = b.len;
    if (!b.p)
        b.p = malloc(1);
    return b.p;
}

static void remove_tree(const char *path)
{
    DIR *d = opendir(path);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            char sub[1024];
            snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
            remove_tree(sub);
        }
        closedir(d);
        rmdir(path);
    } else {
        unlink(path);
    }
}

void tu_cleanup_tmpdir(void)
{
    if (tmpdir[0])
        remove_tree(tmpdir);
    tmpdir[0] = '\0';
}

/* ---- bytes and compression ---- */

void tu_bytes_append(tu_bytes *b, const void *p, size_t n)
{
    if (b->cap - b->len < n) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap - b->len < n)
            cap *= 2;
        b->p = realloc(b->p, cap);
        if (!b->p)
            abort();
        b->cap = cap;
    }
    if (n)
        memcpy(b->p + b->len, p, n);
    b->len += n;
}

void tu_bytes_free(tu_bytes *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

void tu_gzip_member(tu_bytes *out, const void *p, size_t n)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        abort();
    uLong bound = deflateBound(&z, (uLong)n);
    uint8_t *buf = malloc(bound);
    if (!buf)
        abort();
    z.next_in = (Bytef *)p;
    z.avail_in = (uInt)n;
    z.next_out = buf;
    z.avail_out = (uInt)bound;
    if (deflate(&z, Z_FINISH) != Z_STREAM_END)
        abort();
    tu_bytes_append(out, buf, z.total_out);
    deflateEnd(&z);
    free(buf);
}

void tu_bzip2_stream(tu_bytes *out, const void *p, size_t n)
{
    unsigned cap = (unsigned)(n + n / 100 + 600);
    char *buf = malloc(cap);
    if (!buf)
        abort();
    if (BZ2_bzBuffToBuffCompress(buf, &cap, (char *)p, (unsigned)n, 9, 0, 0) != BZ_OK)
        abort();
    tu_bytes_append(out, buf, cap);
    free(buf);
}

void tu_zstd_frame(tu_bytes *out, const void *p, size_t n)
{
    /* With a content checksum, as the zstd program writes by default: without
     * one a decoder cannot notice corrupt literals. */
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    if (!cc || ZSTD_isError(ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1)))
        abort();
    size_t cap = ZSTD_compressBound(n);
    void *buf = malloc(cap);
    if (!buf)
        abort();
    size_t got = ZSTD_compress2(cc, buf, cap, p, n);
    if (ZSTD_isError(got))
        abort();
    tu_bytes_append(out, buf, got);
    ZSTD_freeCCtx(cc);
    free(buf);
}

int tu_program(char *out, size_t size)
{
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return 0;
    self[n] = '\0';
    char *dir = dirname(dirname(self)); /* .../san/tests/unit -> .../san */
    snprintf(out, size, "%s/tracecheck", dir);
    return access(out, X_OK) == 0;
}

tc_input *tu_input_open(const char *path, const tc_input_opts *o, char *err, size_t errlen)
{
    tc_error e = TC_ERROR_INIT;
    tc_input *in = tc_input_open(path, o, &e);
    tc_error_format(&e, err, errlen);
    tc_error_free(&e);
    return in;
}

int tu_check_input_text(tc_input *in, const char *name, const tc_check_opts *c, tc_summary *out,
                        char *err, size_t errlen)
{
    tc_error e = TC_ERROR_INIT;
    int status = tc_check_input(in, name, c, out, &e);
    tc_error_format(&e, err, errlen);
    tc_error_free(&e);
    return status;
}

int tu_check_path_text(const char *path, const tc_check_opts *c, tc_summary *out, char *err,
                       size_t errlen)
{
    tc_error e = TC_ERROR_INIT;
    int status = tc_check_path(path, c, out, &e);
    tc_error_format(&e, err, errlen);
    tc_error_free(&e);
    return status;
}

int tu_error_text(int rc, tc_error *e, char *buf, size_t n)
{
    tc_error_format(e, buf, n);
    tc_error_free(e);
    return rc;
}
