/* ovni runtime traces: the format's descriptor (formats.h). A trace is a
 * directory in libovni's layout; its stream files are read on their own
 * too. */
#include "../common/check.h"
#include "../common/formats.h"
#include "../common/options.h"
#include "ovni.h"
#include "ovni_dump.h"
#include "ovni_trace.h"

/* A binary stream's magic number, or a metadata document's first key. */
static int sniff(const uint8_t *p, size_t n, const char *name)
{
    (void)name;
    return tc_ovni_sniff_stream(p, n) || tc_ovni_sniff_metadata(p, n);
}

/* Named: a trace when a stream.json lies below it, or in libovni's layout
 * (an empty trace is then reported as such). Found in a search: both. */
static int named(const char *dir) { return tc_ovni_is_trace_dir(dir) || tc_ovni_has_layout(dir); }
static int found(const char *dir) { return tc_ovni_has_layout(dir) && tc_ovni_is_trace_dir(dir); }

static uint64_t check(const char *dir, tc_diag_sink *d, const tc_options *opt,
                      const tc_check_opts *c, tc_error *err)
{
    tc_ovni_opts o = {opt->no_models, c ? c->input : (tc_input_opts){0}, c ? c->dump : NULL,
                      c ? c->threads : 1};
    return tc_ovni_check_trace(dir, d, &o, err);
}

static const tc_format_dir dir = {
    .named = named,
    .found = found,
    .check = check,
    .absent = "no stream.json below it and no loom.* directory, so no ovni trace",
    .what = "ovni trace with a stream.json",
    .help = "an ovni trace when a\n"
            "stream.json lies below it, when it holds loom.* directories or is named ovni,\n"
            "or with --format ovni",
};

static int set_no_models(tc_options *opt, const char *value)
{
    unsigned long long v;
    if (tc_parse_number(value, 0, 1, &v))
        return -1;
    opt->no_models = (int)v;
    return 0;
}

static const tc_format_option options[] = {
    {"no-models", NULL, "ovni: skip the model layer (ovni's own events)\n", "takes 0 or 1",
     set_no_models, NULL},
    {NULL, NULL, NULL, NULL, NULL, NULL},
};

extern const tc_format_pages tc_ovni_model_pages; /* ovni_model_pages.c */

/* Every model needs its y_, n_ and i_ cases (the coverage check). */
static const char *const models[] = {
#define TC_OVNI_MODEL(ID, LETTER, NAME, VERSION, NEEDS, WHO) NAME,
#include "../../spec/ovni/models.def"
    NULL,
};

const tc_format_ops tc_ovni_format = {
    .format = TC_FORMAT_OVNI,
    .name = "ovni",
    .title = "ovni trace",
    .description = "ovni runtime trace (specification v3)",
    .rule_family = "OVNI",
    .spec = "ovni",
    .strength = TC_DETECT_MAGIC,
    .sniff = sniff,
    .parse = tc_ovni_parse,
    .dump = tc_ovni_dump,
    .options = options,
    .dir = &dir,
    .pages = &tc_ovni_model_pages,
    .coverage_topics = models,
};
