#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../ovni/ovni_trace.h"
#include "check.h"
#include "formats.h"

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

typedef struct dump_state {
    tc_jsonl w;
    const tc_format_ops *ops;
} dump_state;

static void dump_event(void *user, const void *event)
{
    dump_state *ds = user;
    ds->ops->dump(&ds->w, event);
}

int tc_check_input(tc_input *in, const char *name, const tc_check_opts *c, tc_summary *out,
                   char *err, size_t errlen)
{
    static const tc_options defaults = TC_OPTIONS_INIT;
    const tc_options *opt = c && c->options ? c->options : &defaults;
    tc_reader *r = tc_input_reader(in);
    if (c && c->progress) {
        r->progress = c->progress;
        r->progress_user = c->progress_user;
    }
    tc_diag_sink d;
    tc_diag_init(&d, name, opt->max_repeats, opt->pedantic, opt->on_diag, opt->user);

    tc_format format = opt->format;
    if (format == TC_FORMAT_AUTO) {
        const uint8_t *p = tc_need(r, TC_SNIFF_BYTES);
        size_t n = p ? TC_SNIFF_BYTES : tc_avail(r);
        format = tc_format_detect_named(r->cur, n, name);
        if (format == TC_FORMAT_AUTO && r->failed != TC_READ_DECOMPRESS_ERROR)
            report_unknown_format(&d, r->cur, n);
    }
    const tc_format_ops *ops = tc_format_ops_for(format);
    if (format != TC_FORMAT_AUTO && !ops) {
        snprintf(err, errlen, "the %s format is not built into this tracecheck",
                 tc_format_name(format));
        return 2;
    }
    if (ops) {
        dump_state ds = {.w = {.f = c ? c->dump : NULL}, .ops = ops};
        tc_parse_ctx ctx = {.diags = &d, .on_event = ds.w.f ? dump_event : NULL, .user = &ds,
                            .no_models = opt->no_models, .options = opt};
        ops->parse(r, &ctx);
    }
    /* A compressed input is read to its end even when the parser stopped
     * early, so that a corrupt stream is reported whatever the buffer sizes. */
    if (tc_input_compression(in) != TC_COMP_NONE && !r->failed)
        tc_skip(r, UINT64_MAX);
    if (r->failed == TC_READ_DECOMPRESS_ERROR)
        tc_report(&d, TC_RULE_INPUT_DECOMPRESS, r->fail_offset, 0, "%s", r->error);
    tc_diag_finish(&d);

    if (out) {
        memset(out, 0, sizeof *out);
        out->format = format;
        out->bytes = tc_pos(r);
        out->errors = d.errors;
        out->warnings = d.warnings;
        out->notes = d.notes;
    }
    if (r->failed == TC_READ_IO_ERROR) {
        snprintf(err, errlen, "%s", r->error);
        return 2;
    }
    if (d.failed[0]) {
        snprintf(err, errlen, "%s", d.failed);
        return 2;
    }
    return d.errors ? 1 : 0;
}

/* A directory: an ovni trace. */
static int check_dir(const char *path, const tc_check_opts *c, tc_summary *out, char *err,
                     size_t errlen)
{
    static const tc_options defaults = TC_OPTIONS_INIT;
    const tc_options *opt = c && c->options ? c->options : &defaults;
    if (opt->format != TC_FORMAT_AUTO && opt->format != TC_FORMAT_OVNI) {
        snprintf(err, errlen, "is a directory (a %s input is a file)", tc_format_name(opt->format));
        return 2;
    }
    if (opt->format == TC_FORMAT_AUTO && !tc_ovni_is_trace_dir(path) && !tc_ovni_has_layout(path)) {
        snprintf(err, errlen, "is a directory with no stream.json below it and no loom.* "
                              "directory, so no ovni trace (name its files, or use --format ovni)");
        return 2;
    }
    tc_diag_sink d;
    tc_diag_init(&d, path, opt->max_repeats, opt->pedantic, opt->on_diag, opt->user);
    tc_ovni_opts o = {opt->no_models, c ? c->input : (tc_input_opts){0}, c ? c->dump : NULL};
    uint64_t bytes = tc_ovni_check_trace(path, &d, &o, err, errlen);
    tc_diag_finish(&d);
    if (out) {
        memset(out, 0, sizeof *out);
        out->format = TC_FORMAT_OVNI;
        out->bytes = bytes == UINT64_MAX ? 0 : bytes;
        out->errors = d.errors;
        out->warnings = d.warnings;
        out->notes = d.notes;
    }
    if (bytes == UINT64_MAX)
        return 2;
    return d.errors ? 1 : 0;
}

int tc_check_path(const char *path, const tc_check_opts *c, tc_summary *out, char *err,
                  size_t errlen)
{
    struct stat st;
    if (strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return check_dir(path, c, out, err, errlen);
    tc_input *in = tc_input_open(path, c ? &c->input : NULL, err, errlen);
    if (!in)
        return 2;
    int status = tc_check_input(in, path, c, out, err, errlen);
    tc_input_close(in);
    return status;
}

int tc_validate_file(const char *path, const tc_options *opt, tc_summary *out, char *errbuf,
                     size_t errlen)
{
    char scratch[256];
    tc_check_opts c = {.options = opt};
    if (!errbuf) {
        errbuf = scratch;
        errlen = sizeof scratch;
    }
    return tc_check_path(path, &c, out, errbuf, errlen);
}

int tc_validate_buffer(const void *data, size_t size, const char *name, const tc_options *opt,
                       tc_summary *out)
{
    char err[256];
    tc_check_opts c = {.options = opt};
    tc_input *in = tc_input_open_memory(data, size, NULL);
    if (!in)
        return 2;
    int status = tc_check_input(in, name ? name : "<memory>", &c, out, err, sizeof err);
    tc_input_close(in);
    return status;
}
