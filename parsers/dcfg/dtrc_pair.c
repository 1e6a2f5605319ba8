/* DCFG-trace files with their DCFG: see dtrc_pair.h. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/formats.h"
#include "dtrc.h"
#include "dtrc_pair.h"

static size_t ends_with(const char *s, size_t n, const char *tail)
{
    size_t t = strlen(tail);
    return n >= t && memcmp(s + n - t, tail, t) == 0 ? t : 0;
}

static size_t name_start(const char *path, size_t n)
{
    size_t i = n;
    while (i > 0 && path[i - 1] != '/')
        i--;
    return i;
}

size_t tc_dtrc_trace_base(const char *path)
{
    size_t n = tc_strip_compression_suffix(path, strlen(path));
    size_t t = ends_with(path, n, ".trace.json");
    if (!t || n - t <= name_start(path, n - t))
        return 0;
    return n - t;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISDIR(st.st_mode);
}

int tc_dtrc_find_dcfg(const char *path, char *out, size_t outlen)
{
    size_t base = tc_dtrc_trace_base(path);
    if (!base)
        return 0;
    size_t start = name_start(path, base);
    for (;;) {
        /* Uncompressed first, then each compression suffix (Doc: none;
         * SDE writes .bz2). */
        for (size_t k = 0;; k++) {
            const char *suffix = k ? tc_compression_suffixes[k - 1] : "";
            if (!suffix)
                break;
            int n = snprintf(out, outlen, "%.*s.dcfg.json%s", (int)base, path, suffix);
            if (n > 0 && (size_t)n < outlen && exists(out))
                return 1;
        }
        /* Per-process or per-thread traces carry more parts than their DCFG
         * (ruling 20): drop the last one, while one is left. */
        size_t dot = base;
        while (dot > start && path[dot - 1] != '.')
            dot--;
        if (dot <= start + 1)
            break;
        base = dot - 1;
    }
    if (outlen)
        out[0] = '\0';
    return 0;
}

static const tc_options *options(const tc_check_opts *c)
{
    static const tc_options defaults = TC_OPTIONS_INIT;
    return c && c->options ? c->options : &defaults;
}

/* The format of an opened input as tc_check_input would decide it. */
static tc_format detect(tc_input *in, const char *name, tc_format given)
{
    if (given != TC_FORMAT_AUTO)
        return given;
    tc_reader *r = tc_input_reader(in);
    const uint8_t *p = tc_need(r, TC_SNIFF_BYTES);
    return tc_format_detect_named(r->cur, p ? TC_SNIFF_BYTES : tc_avail(r), name);
}

int tc_dtrc_is_trace(const char *path, const tc_check_opts *c)
{
    tc_format f = options(c)->format;
    if (f != TC_FORMAT_AUTO)
        return f == TC_FORMAT_DCFG_TRACE;
    char err[200];
    tc_input *in = tc_input_open(path, c ? &c->input : NULL, err, sizeof err);
    if (!in)
        return 0;
    f = detect(in, path, TC_FORMAT_AUTO);
    tc_input_close(in);
    return f == TC_FORMAT_DCFG_TRACE;
}

/* What tc_check_input does after its parser: a compressed input is read to
 * its end, a corrupt stream reported, the counts summed. Returns 0, 1 or 2. */
static int finish(tc_input *in, tc_diag_sink *d, tc_format f, tc_summary *out, char *err,
                  size_t errlen)
{
    tc_reader *r = tc_input_reader(in);
    if (tc_input_compression(in) != TC_COMP_NONE && !r->failed)
        tc_skip(r, UINT64_MAX);
    if (r->failed == TC_READ_DECOMPRESS_ERROR)
        tc_report(d, TC_RULE_INPUT_DECOMPRESS, r->fail_offset, 0, "%s", r->error);
    tc_diag_finish(d);
    if (out) {
        memset(out, 0, sizeof *out);
        out->format = f;
        out->bytes = tc_pos(r);
        out->errors = d->errors;
        out->warnings = d->warnings;
        out->notes = d->notes;
    }
    if (r->failed == TC_READ_IO_ERROR) {
        snprintf(err, errlen, "%s", r->error);
        return 2;
    }
    return d->errors ? 1 : 0;
}

static void progress(tc_input *in, const tc_check_opts *c)
{
    if (c && c->progress) {
        tc_reader *r = tc_input_reader(in);
        r->progress = c->progress;
        r->progress_user = c->progress_user;
    }
}

int tc_dtrc_load_dcfg(const char *path, const tc_check_opts *c, tc_dcfg_model **model,
                      tc_summary *out, char *err, size_t errlen)
{
    const tc_options *opt = options(c);
    *model = NULL;
    if (out)
        memset(out, 0, sizeof *out);
    tc_input *in = tc_input_open(path, c ? &c->input : NULL, err, errlen);
    if (!in)
        return 2;
    /* Detected as validate would (content, then name): a DCFG-trace given
     * as the DCFG would otherwise pass as a DCFG with no graph. */
    tc_reader *r = tc_input_reader(in);
    tc_format f = detect(in, path, TC_FORMAT_AUTO);
    if (f != TC_FORMAT_AUTO && f != TC_FORMAT_DCFG) {
        snprintf(err, errlen, "is a %s (by its content or name), not a DCFG to pair "
                 "DCFG-traces with", tc_format_name(f));
        tc_input_close(in);
        return 2;
    }
    progress(in, c);
    tc_diag_sink d;
    tc_diag_init(&d, path, opt->max_repeats, opt->pedantic, opt->on_diag, opt->user);
    *model = tc_dcfg_model_load(r, &d);
    int status = finish(in, &d, TC_FORMAT_DCFG, out, err, errlen);
    tc_input_close(in);
    if (status == 2) {
        tc_dcfg_model_free(*model);
        *model = NULL;
    }
    return status;
}

static void dump_event(void *user, const void *event) { tc_dtrc_dump(user, event); }

int tc_dtrc_check_paired(const char *path, const tc_dcfg_model *m, const char *dcfg,
                         const tc_check_opts *c, tc_summary *out, int *paired, char *err,
                         size_t errlen)
{
    const tc_options *opt = options(c);
    if (paired)
        *paired = 0;
    struct stat st;
    if (!m || (strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISDIR(st.st_mode)))
        return tc_check_path(path, c, out, err, errlen);
    tc_input *in = tc_input_open(path, c ? &c->input : NULL, err, errlen);
    if (!in)
        return 2;
    if (detect(in, path, opt->format) != TC_FORMAT_DCFG_TRACE) {
        int status = tc_check_input(in, path, c, out, err, errlen);
        tc_input_close(in);
        return status;
    }
    progress(in, c);
    tc_diag_sink d;
    tc_diag_init(&d, path, opt->max_repeats, opt->pedantic, opt->on_diag, opt->user);
    tc_jsonl w = {.f = c ? c->dump : NULL};
    tc_parse_ctx ctx = {.diags = &d, .on_event = w.f ? dump_event : NULL, .user = &w,
                        .no_models = opt->no_models, .options = opt};
    tc_dtrc_opts o = {.model = m, .dcfg_name = dcfg};
    tc_dtrc_parse_opts(tc_input_reader(in), &ctx, &o);
    if (paired)
        *paired = 1;
    int status = finish(in, &d, TC_FORMAT_DCFG_TRACE, out, err, errlen);
    tc_input_close(in);
    return status;
}
