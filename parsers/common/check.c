/* One path for every input: see check.h. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "split.h"

static const tc_options *options_of(const tc_check_opts *c)
{
    static const tc_options defaults = TC_OPTIONS_INIT;
    return c && c->options ? c->options : &defaults;
}

static void report_unknown_format(tc_diag_sink *d, const uint8_t *p, size_t n)
{
    char hex[3 * 8 + 1] = "";
    size_t h = 0;
    for (size_t i = 0; i < n && i < 8; i++)
        h += (size_t)snprintf(hex + h, sizeof hex - h, "%s%02x", i ? " " : "", p[i]);
    if (n == 0)
        tc_report(d, TC_RULE_FORMAT_UNKNOWN, 0, 0, "the input is empty");
    else
        tc_report(d, TC_RULE_FORMAT_UNKNOWN, 0, n < 8 ? n : 8,
                  "no known format starts with %s%s (%zu bytes); use --format to name one",
                  hex, n > 8 ? " ..." : "", n);
}

/* ---- one check, from its start to its outcome ---- */

typedef struct check_run {
    const tc_check_opts *c;
    const tc_options *opt;
    tc_input *in; /* NULL for a directory */
    tc_diag_sink d;
    tc_jsonl w;                 /* the canonical dump */
    const tc_format_ops *dump;  /* whose dump the events are */
    uint64_t total;             /* the input's bytes, when known; else 0 */
} check_run;

/* The reader's progress, with the input's size for the caller's. */
static void progress(void *user, uint64_t bytes)
{
    const check_run *u = user;
    u->c->progress(u->c->progress_user, bytes, u->total);
}

static void begin(check_run *u, tc_input *in, const char *name, const tc_check_opts *c)
{
    memset(u, 0, sizeof *u);
    u->c = c;
    u->opt = options_of(c);
    u->in = in;
    u->w.f = c ? c->dump : NULL;
    if (in && c && c->progress) {
        uint64_t size = tc_input_size(in);
        u->total = size == UINT64_MAX ? 0 : size;
        tc_reader *r = tc_input_reader(in);
        r->progress = progress;
        r->progress_user = u;
    }
    tc_diag_init(&u->d, name, u->opt->max_repeats, u->opt->pedantic, u->opt->on_diag,
                 u->opt->user);
    u->d.fields = c ? c->fields : NULL;
}

static void dump_event(void *user, const void *event)
{
    check_run *u = user;
    u->dump->dump(&u->w, event);
}

/* What a parser of format f is given. */
static tc_parse_ctx context(check_run *u, const tc_format_ops *f)
{
    u->dump = f;
    return (tc_parse_ctx){.diags = &u->d, .on_event = u->w.f ? dump_event : NULL, .user = u,
                          .no_models = u->opt->no_models, .options = u->opt};
}

/* The outcome: a compressed input is read to its end even when the parser
 * stopped early, so that a corrupt stream is reported whatever the buffer
 * sizes; then the counts, and the status. */
static int end(check_run *u, tc_format f, uint64_t bytes, tc_summary *out, tc_error *err)
{
    tc_reader *r = u->in ? tc_input_reader(u->in) : NULL;
    if (r && tc_input_compression(u->in) != TC_COMP_NONE && !r->failed)
        tc_skip(r, UINT64_MAX);
    if (r && r->failed == TC_READ_DECOMPRESS_ERROR)
        tc_report(&u->d, TC_RULE_INPUT_DECOMPRESS, r->fail_offset, 0, "%s", r->error);
    tc_diag_finish(&u->d);
    if (out) {
        memset(out, 0, sizeof *out);
        out->format = f;
        out->bytes = r ? tc_pos(r) : bytes == UINT64_MAX ? 0 : bytes;
        out->errors = u->d.errors;
        out->warnings = u->d.warnings;
        out->notes = u->d.notes;
    }
    if (r && r->failed == TC_READ_IO_ERROR) {
        tc_error_set(err, "check", "%s", r->error);
        return 2;
    }
    if (!r && bytes == UINT64_MAX)
        return 2; /* err says why */
    if (u->d.failed[0]) {
        tc_error_set(err, "check", "%s", u->d.failed);
        return 2;
    }
    return u->d.errors ? 1 : 0;
}

/* The format of an opened input by its first bytes and name. */
static tc_format sniff(tc_input *in, const char *name)
{
    tc_reader *r = tc_input_reader(in);
    const uint8_t *p = tc_need(r, TC_SNIFF_BYTES);
    return tc_format_detect_named(r->cur, p ? TC_SNIFF_BYTES : tc_avail(r), name);
}

/* The input on c->threads threads, when its format and the input allow it
 * (split.h); 0 when it is left to one. */
static int split(check_run *u, tc_input *in, const tc_format_ops *f, const tc_parse_ctx *ctx)
{
    const tc_check_opts *c = u->c;
    if (!f->split || !c || c->threads < 2 || ctx->on_event || c->fields)
        return 0;
    return tc_split_check(in, f->split, ctx, c->threads, c->split_min, NULL) == 0;
}

int tc_check_input(tc_input *in, const char *name, const tc_check_opts *c, tc_summary *out,
                   tc_error *err)
{
    tc_format format = options_of(c)->format;
    const tc_format_ops *f = tc_format_ops_for(format);
    if (format != TC_FORMAT_AUTO && !f) {
        tc_error_set(err, "check", "the %s format is not built into this tracecheck",
                     tc_format_name(format));
        return 2;
    }
    check_run u;
    begin(&u, in, name, c);
    tc_reader *r = tc_input_reader(in);
    if (!f) {
        f = tc_format_ops_for(sniff(in, name));
        size_t n = tc_avail(r) < TC_SNIFF_BYTES ? tc_avail(r) : TC_SNIFF_BYTES;
        if (!f && r->failed != TC_READ_DECOMPRESS_ERROR)
            report_unknown_format(&u.d, r->cur, n);
    }
    if (f) {
        tc_parse_ctx ctx = context(&u, f);
        if (!split(&u, in, f, &ctx))
            f->parse(r, &ctx);
    }
    return end(&u, f ? f->format : TC_FORMAT_AUTO, 0, out, err);
}

static int is_dir(const char *path)
{
    struct stat st;
    return strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A directory: one trace of the format that has them and claims it (or of
 * the format given). */
static int check_dir(const char *path, const tc_check_opts *c, tc_summary *out, tc_error *err)
{
    tc_format format = options_of(c)->format;
    const tc_format_ops *f = NULL;
    if (format != TC_FORMAT_AUTO) {
        f = tc_format_ops_for(format);
        if (!f || !f->dir) {
            tc_error_set(err, "check", "is a directory (a %s input is a file)",
                         tc_format_name(format));
            return 2;
        }
    }
    for (size_t i = 0; !f && tc_format_at(i); i++)
        if (tc_format_at(i)->dir && tc_format_at(i)->dir->named(path))
            f = tc_format_at(i);
    if (!f) {
        /* One cause: what the directory lacks for each format that has
         * directories, and how to name one. */
        char why[TC_ERROR_MESSAGE_MAX];
        size_t n = (size_t)snprintf(why, sizeof why, "is a directory with ");
        for (size_t i = 0, k = 0; tc_format_at(i) && n < sizeof why; i++)
            if (tc_format_at(i)->dir)
                n += (size_t)snprintf(why + n, sizeof why - n, "%s%s", k++ ? "; " : "",
                                      tc_format_at(i)->dir->absent);
        for (size_t i = 0, k = 0; tc_format_at(i) && n < sizeof why; i++)
            if (tc_format_at(i)->dir)
                n += (size_t)snprintf(why + n, sizeof why - n, "%s--format %s",
                                      k++ ? ", or " : " (name its files, or use ",
                                      tc_format_at(i)->name);
        if (n < sizeof why)
            snprintf(why + n, sizeof why - n, ")");
        tc_error_set_value(err, "check", path, "%s", why);
        return 2;
    }
    check_run u;
    begin(&u, NULL, path, c);
    uint64_t bytes = f->dir->check(path, &u.d, u.opt, c, err);
    return end(&u, f->format, bytes, out, err);
}

int tc_check_path(const char *path, const tc_check_opts *c, tc_summary *out, tc_error *err)
{
    if (is_dir(path))
        return check_dir(path, c, out, err);
    tc_input *in = tc_input_open(path, c ? &c->input : NULL, err);
    if (!in)
        return 2;
    int status = tc_check_input(in, path, c, out, err);
    tc_input_close(in);
    return status;
}

tc_format tc_detect_path(const char *path, const tc_check_opts *c)
{
    tc_format f = options_of(c)->format;
    if (f != TC_FORMAT_AUTO)
        return f;
    tc_error err = TC_ERROR_INIT;
    tc_input *in = tc_input_open(path, c ? &c->input : NULL, &err);
    tc_error_free(&err); /* unreadable: no format, and the check says why */
    if (!in)
        return TC_FORMAT_AUTO;
    f = sniff(in, path);
    tc_input_close(in);
    return f;
}

/* ---- companions ---- */

const tc_format_ops *tc_companion_find(const char *path, const tc_check_opts *c, char *out,
                                       size_t outlen)
{
    for (size_t i = 0; tc_format_at(i); i++) {
        const tc_format_ops *f = tc_format_at(i);
        /* The name first: opening the input is the dearer test. */
        if (f->companion && f->companion->find(path, out, outlen) &&
            tc_detect_path(path, c) == f->format)
            return f;
    }
    if (outlen)
        out[0] = '\0';
    return NULL;
}

int tc_companion_load(tc_companion *comp, const tc_check_opts *c, tc_summary *out, tc_error *err)
{
    const tc_format_ops *f = tc_format_ops_for(comp->pairing->companion->format);
    comp->model = NULL;
    if (out)
        memset(out, 0, sizeof *out);
    tc_input *in = tc_input_open(comp->path, c ? &c->input : NULL, err);
    if (!in)
        return 2;
    /* Detected as validate would (content, then name): an input of the
     * pairing format given as the companion would otherwise pass as a
     * companion with nothing in it. */
    tc_format found = sniff(in, comp->path);
    if (found != TC_FORMAT_AUTO && found != f->format) {
        tc_error_set(err, "check", "is a %s (by its content or name), not a %s to pair %ss with",
                     tc_format_name(found), f->title, comp->pairing->title);
        tc_input_close(in);
        return 2;
    }
    check_run u;
    begin(&u, in, comp->path, c);
    comp->model = f->model->load(tc_input_reader(in), &u.d);
    int status = end(&u, f->format, 0, out, err);
    tc_input_close(in);
    if (status == 2)
        tc_companion_free(comp);
    return status;
}

void tc_companion_free(tc_companion *comp)
{
    if (comp->model)
        tc_format_ops_for(comp->pairing->companion->format)->model->free(comp->model);
    comp->model = NULL;
}

int tc_check_paired(const char *path, const tc_companion *comp, const tc_check_opts *c,
                    tc_summary *out, int *paired, tc_error *err)
{
    if (paired)
        *paired = 0;
    if (!comp->model || is_dir(path))
        return tc_check_path(path, c, out, err);
    tc_input *in = tc_input_open(path, c ? &c->input : NULL, err);
    if (!in)
        return 2;
    tc_format format = options_of(c)->format;
    if ((format != TC_FORMAT_AUTO ? format : sniff(in, path)) != comp->pairing->format) {
        int status = tc_check_input(in, path, c, out, err);
        tc_input_close(in);
        return status;
    }
    check_run u;
    begin(&u, in, path, c);
    tc_parse_ctx ctx = context(&u, comp->pairing);
    comp->pairing->companion->parse_with(tc_input_reader(in), &ctx, comp->model, comp->path);
    if (paired)
        *paired = 1;
    int status = end(&u, comp->pairing->format, 0, out, err);
    tc_input_close(in);
    return status;
}

int tc_check_pair(const tc_format_ops *pairing, const char *companion, const char *path,
                  const tc_check_opts *c, tc_error *err)
{
    tc_companion comp = {pairing, companion, NULL};
    int rc = tc_companion_load(&comp, c, NULL, err);
    if (rc != 2) {
        int rt = tc_check_paired(path, &comp, c, NULL, NULL, err);
        rc = rt > rc ? rt : rc;
    }
    tc_companion_free(&comp);
    return rc;
}

/* ---- the public entry points ---- */

int tc_validate_file(const char *path, const tc_options *opt, tc_summary *out, char *errbuf,
                     size_t errlen)
{
    tc_check_opts c = {.options = opt};
    tc_error err = TC_ERROR_INIT;
    int status = tc_check_path(path, &c, out, &err);
    if (errbuf && errlen && tc_error_is_set(&err))
        tc_error_format(&err, errbuf, errlen);
    tc_error_free(&err);
    return status;
}

int tc_validate_buffer(const void *data, size_t size, const char *name, const tc_options *opt,
                       tc_summary *out)
{
    tc_check_opts c = {.options = opt};
    tc_input *in = tc_input_open_memory(data, size, NULL);
    if (!in)
        return 2;
    tc_error err = TC_ERROR_INIT;
    int status = tc_check_input(in, name ? name : "<memory>", &c, out, &err);
    tc_error_free(&err);
    tc_input_close(in);
    return status;
}
