/* The API for a producer's tests (parsers/common/result.c, options.c):
 * tc_options_set, tc_check_buffer / tc_check_file and the tc_result
 * accessors, on valid and invalid inputs of every format taken from the
 * conformance cases. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "tu.h"

#define CASES "conformance/cases/"

/* ---- tc_options_set ---- */

static void test_options_set_valid(void)
{
    tc_options o = TC_OPTIONS_INIT;
    CU_ASSERT_EQUAL(tc_options_set(&o, "format", "dcfg-trace"), 0);
    CU_ASSERT_EQUAL(o.format, TC_FORMAT_DCFG_TRACE);
    CU_ASSERT_EQUAL(tc_options_set(&o, "format", "auto"), 0);
    CU_ASSERT_EQUAL(o.format, TC_FORMAT_AUTO);
    CU_ASSERT_EQUAL(tc_options_set(&o, "container", "text"), 0);
    CU_ASSERT_EQUAL(o.perf_container, TC_PERF_CONTAINER_TEXT);
    CU_ASSERT_EQUAL(tc_options_set(&o, "container", "rtd"), 0);
    CU_ASSERT_EQUAL(o.perf_container, TC_PERF_CONTAINER_RTD);
    CU_ASSERT_EQUAL(tc_options_set(&o, "srcbits", "8"), 0);
    CU_ASSERT_EQUAL(o.perf_srcbits, 8);
    CU_ASSERT_EQUAL(tc_options_set(&o, "perf-channel", "0x1f"), 0);
    CU_ASSERT_EQUAL(o.perf_channel, 31);
    CU_ASSERT_EQUAL(tc_options_set(&o, "perf-marker", "0xFFFFFFFF"), 0);
    CU_ASSERT_EQUAL(o.perf_marker, 0xffffffffu);
    CU_ASSERT_EQUAL(tc_options_set(&o, "pedantic", "1"), 0);
    CU_ASSERT_EQUAL(o.pedantic, 1);
    CU_ASSERT_EQUAL(tc_options_set(&o, "no-models", "1"), 0);
    CU_ASSERT_EQUAL(o.no_models, 1);
    CU_ASSERT_EQUAL(tc_options_set(&o, "max-repeats", "4294967295"), 0);
    CU_ASSERT_EQUAL(o.max_repeats, 4294967295u);
}

/* Every bad key or value is refused and leaves the options as they were. */
static void test_options_set_invalid(void)
{
    static const char *const bad[][2] = {
        {"format", "xray5"},      {"format", ""},           {"container", "nexus"},
        {"container", "RTD"},     {"srcbits", "9"},         {"srcbits", "-1"},
        {"srcbits", " 1"},        {"srcbits", "1x"},        {"perf-channel", "32"},
        {"perf-marker", "0x100000000"}, {"perf-marker", "0x"}, {"pedantic", "2"},
        {"no-models", "yes"},     {"max-repeats", "0"},     {"max-repeats", "4294967296"},
        {"srcbits", "99999999999999999999999"}, {"--format", "xray"}, {"colour", "1"},
    };
    const tc_options init = TC_OPTIONS_INIT;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tc_options o = init;
        CHECK(tc_options_set(&o, bad[i][0], bad[i][1]) == -1, "%s=\"%s\" was accepted",
              bad[i][0], bad[i][1]);
        CHECK(memcmp(&o, &init, sizeof o) == 0, "%s=\"%s\" changed the options", bad[i][0],
              bad[i][1]);
    }
    tc_options o = init;
    CU_ASSERT_EQUAL(tc_options_set(&o, NULL, "1"), -1);
    CU_ASSERT_EQUAL(tc_options_set(&o, "pedantic", NULL), -1);
    CU_ASSERT_EQUAL(tc_options_set(NULL, "pedantic", "1"), -1);
}

/* ---- one case per format, valid and invalid ---- */

typedef struct api_case {
    const char *path;  /* under conformance/cases/ */
    const char *name;  /* the name given with the buffer */
    const char *set[2]; /* an option to set first, or NULLs */
    int status;
    const char *rule;  /* a rule that must be found, or NULL for none at all of error severity */
    tc_format format;
} api_case;

static const api_case buffer_cases[] = {
    {"xray/y_xray_v3_be.xray", "t.xray", {0}, 0, NULL, TC_FORMAT_XRAY},
    {"xray/n_xray_v3_walltime_usec.xray", "t.xray", {0}, 1, "XRAY-WALLTIME-USEC", TC_FORMAT_XRAY},
    /* Perf data is told by its name, or by the options for a nameless buffer. */
    {"perf/y_perf_gen_delta_rtd.rtd", "trace.rtd", {0}, 0, NULL, TC_FORMAT_PERF},
    {"perf/n_perf_address_high_16bit.rtd", "trace.rtd", {0}, 1, "PERF-ADDRESS-WIDTH",
     TC_FORMAT_PERF},
    {"perf/n_perf_address_high_16bit.rtd", NULL, {"format", "perf"}, 1, "PERF-ADDRESS-WIDTH",
     TC_FORMAT_PERF},
    {"perf/y_perf_manual_raw_itc.itc", "trace.itc", {0}, 0, NULL, TC_FORMAT_PERF},
    {"perf/n_perf_text_extra_field.itc", "trace.itc", {0}, 1, "PERF-TEXT-SYNTAX", TC_FORMAT_PERF},
    {"dcfg/y_dcfg_gen_edge_type_name.dcfg.json", "p.dcfg.json", {0}, 0, "DCFG-EDGE-TYPE-NAME",
     TC_FORMAT_DCFG},
    {"dcfg/n_dcfg_id_0x80000000.dcfg.json", NULL, {"format", "dcfg"}, 1, "DCFG-ID-RANGE",
     TC_FORMAT_DCFG},
    {"dcfg-trace/y_dtrc_edge_count_zero_and_one.trace.json", "p.trace.json", {0}, 0, NULL,
     TC_FORMAT_DCFG_TRACE},
    {"dcfg-trace/n_dtrc_seq_cycle.trace.json", "p.trace.json", {0}, 1, "DTRC-SEQ-CYCLE",
     TC_FORMAT_DCFG_TRACE},
    {"ovni/y_ovni_equal_clocks/loom.node1/proc.4100/thread.4100/stream.obs", "stream.obs", {0}, 0,
     NULL, TC_FORMAT_OVNI},
};

static uint8_t *read_case(const char *path, size_t *n)
{
    char full[512];
    snprintf(full, sizeof full, CASES "%s", path);
    uint8_t *p = tu_read_file(full, n);
    CHECK(p != NULL, "cannot read %s", full);
    return p;
}

static void run_buffer_case(const api_case *c)
{
    size_t n;
    uint8_t *p = read_case(c->path, &n);
    if (!p)
        return;
    tc_options o = TC_OPTIONS_INIT;
    if (c->set[0])
        CU_ASSERT_EQUAL_FATAL(tc_options_set(&o, c->set[0], c->set[1]), 0);
    tc_result *r = tc_check_buffer(p, n, c->name, &o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CHECK(tc_result_status(r) == c->status, "%s: status %d, expected %d (%s)", c->path,
          tc_result_status(r), c->status, tc_result_error(r));
    const tc_summary *s = tc_result_summary(r);
    CHECK(s->format == c->format, "%s: read as %s", c->path, tc_format_name(s->format));
    CHECK(s->bytes == n, "%s: %llu of %zu bytes read", c->path, (unsigned long long)s->bytes, n);
    CHECK((s->errors != 0) == (c->status == 1), "%s: %llu errors with status %d", c->path,
          (unsigned long long)s->errors, c->status);
    if (c->rule) {
        const tc_diag *d = tc_result_find(r, c->rule);
        CHECK(d != NULL, "%s: no %s among %zu findings", c->path, c->rule, tc_result_count(r));
        if (d)
            CHECK(!strcmp(d->input, c->name ? c->name : "<memory>"), "%s: input named %s",
                  c->path, d->input);
    } else {
        CHECK(tc_result_count(r) == 0, "%s: %zu findings, the first %s", c->path,
              tc_result_count(r), tc_result_count(r) ? tc_result_diag(r, 0)->rule->id : "");
    }
    CU_ASSERT_STRING_EQUAL(tc_result_error(r), "");
    tc_result_free(r);
    free(p);
}

static void test_buffers_of_each_format(void)
{
    for (size_t i = 0; i < sizeof buffer_cases / sizeof buffer_cases[0]; i++)
        run_buffer_case(&buffer_cases[i]);
}

/* A stream.obs broken in its first byte: the buffer's name and the format
 * option lead to the ovni parser, which reports the magic number. */
static void test_broken_ovni_stream(void)
{
    size_t n;
    uint8_t *p = read_case(buffer_cases[11].path, &n);
    if (!p)
        return;
    p[0] = 'X';
    tc_options o = TC_OPTIONS_INIT;
    CU_ASSERT_EQUAL(tc_options_set(&o, "format", "ovni"), 0);
    tc_result *r = tc_check_buffer(p, n, NULL, &o);
    CU_ASSERT_EQUAL(tc_result_status(r), 1);
    const tc_diag *d = tc_result_find(r, "OVNI-STREAM-MAGIC");
    CU_ASSERT_PTR_NOT_NULL(d);
    if (d) {
        CU_ASSERT_EQUAL(d->offset, 0);
        CU_ASSERT_EQUAL(d->severity, TC_ERROR);
        CU_ASSERT_STRING_EQUAL(d->input, "<memory>");
        CHECK(strstr(d->message, "58 76 6e 69") != NULL, "message: %s", d->message);
    }
    tc_result_free(r);
    free(p);
}

/* Files and ovni trace directories through tc_check_file. */
static void test_files_and_directories(void)
{
    static const struct {
        const char *path;
        int status;
        const char *rule;
    } files[] = {
        {CASES "ovni/y_ovni_equal_clocks", 0, NULL},
        {CASES "ovni/n_ovni_trace_cpu_index", 1, "OVNI-TRACE-CPU-INDEX"},
        {CASES "perf/n_perf_text_extra_field.itc", 1, "PERF-TEXT-SYNTAX"},
        {CASES "xray/y_xray_v3_be.xray", 0, NULL},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        tc_result *r = tc_check_file(files[i].path, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r);
        CHECK(tc_result_status(r) == files[i].status, "%s: status %d (%s)", files[i].path,
              tc_result_status(r), tc_result_error(r));
        if (files[i].rule)
            CHECK(tc_result_find(r, files[i].rule) != NULL, "%s: no %s", files[i].path,
                  files[i].rule);
        else
            CU_ASSERT_EQUAL(tc_result_summary(r)->errors, 0);
        tc_result_free(r);
    }
}

/* An input that cannot be read: status 2 and the reason, no finding. */
static void test_unreadable_file(void)
{
    tc_result *r = tc_check_file(CASES "no/such/file.xray", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(tc_result_status(r), 2);
    CHECK(strstr(tc_result_error(r), "No such file") != NULL, "error: %s", tc_result_error(r));
    CU_ASSERT_EQUAL(tc_result_count(r), 0);
    CU_ASSERT_PTR_NULL(tc_result_diag(r, 0));
    tc_result_free(r);
}

/* ---- the findings' fields ---- */

/* What the caller's own callback saw, deep-copied, to compare with the result. */
typedef struct seen_diag {
    const tc_rule_info *rule;
    tc_severity severity;
    uint64_t offset, length;
    uint32_t line, column;
    int unlocated;
    char input[64], path[128], message[600], context[256];
    int has_path, has_context;
} seen_diag;

typedef struct seen {
    size_t n;
    seen_diag d[8];
} seen;

static void remember(void *user, const tc_diag *d)
{
    seen *s = user;
    if (s->n == sizeof s->d / sizeof s->d[0])
        return;
    seen_diag *e = &s->d[s->n++];
    e->rule = d->rule;
    e->severity = d->severity;
    e->offset = d->offset;
    e->length = d->length;
    e->line = d->line;
    e->column = d->column;
    e->unlocated = d->unlocated;
    snprintf(e->input, sizeof e->input, "%s", d->input);
    e->has_path = d->json_path != NULL;
    snprintf(e->path, sizeof e->path, "%s", d->json_path ? d->json_path : "");
    snprintf(e->message, sizeof e->message, "%s", d->message);
    e->has_context = d->context != NULL;
    snprintf(e->context, sizeof e->context, "%s", d->context ? d->context : "");
}

/* Runs path as a buffer named by a heap copy that is freed, like the bytes,
 * before the findings are read: they must not point into either (ASan
 * reports a use after free otherwise). The caller's callback sees the same
 * findings as the result holds. */
static tc_result *check_and_compare(const char *path, const char *name, seen *s)
{
    size_t n;
    uint8_t *p = read_case(path, &n);
    if (!p)
        return NULL;
    char *heap_name = strdup(name);
    tc_options o = TC_OPTIONS_INIT;
    o.on_diag = remember;
    o.user = s;
    tc_result *r = tc_check_buffer(p, n, heap_name, &o);
    free(heap_name);
    free(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CHECK(tc_result_count(r) == s->n, "%s: %zu findings kept, %zu seen", path,
          tc_result_count(r), s->n);
    for (size_t i = 0; i < s->n && i < tc_result_count(r); i++) {
        const tc_diag *d = tc_result_diag(r, i);
        CU_ASSERT_PTR_EQUAL(d->rule, s->d[i].rule);
        CU_ASSERT_EQUAL(d->severity, s->d[i].severity);
        CU_ASSERT_EQUAL(d->offset, s->d[i].offset);
        CU_ASSERT_EQUAL(d->length, s->d[i].length);
        CU_ASSERT_EQUAL(d->line, s->d[i].line);
        CU_ASSERT_EQUAL(d->column, s->d[i].column);
        CU_ASSERT_EQUAL(d->unlocated, s->d[i].unlocated);
        CU_ASSERT_STRING_EQUAL(d->input, s->d[i].input);
        CU_ASSERT_STRING_EQUAL(d->message, s->d[i].message);
        CU_ASSERT_EQUAL(d->json_path != NULL, s->d[i].has_path);
        if (d->json_path)
            CU_ASSERT_STRING_EQUAL(d->json_path, s->d[i].path);
        CU_ASSERT_EQUAL(d->context != NULL, s->d[i].has_context);
        if (d->context)
            CU_ASSERT_STRING_EQUAL(d->context, s->d[i].context);
    }
    return r;
}

/* JSON: line, column and JSON path, as `tracecheck validate` prints them. */
static void test_fields_of_a_json_finding(void)
{
    seen s = {0};
    tc_result *r = check_and_compare("dcfg/n_dcfg_id_0x80000000.dcfg.json", "p.dcfg.json", &s);
    if (!r)
        return;
    const tc_diag *d = tc_result_find(r, "DCFG-ID-RANGE");
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_EQUAL(d->severity, TC_ERROR);
    CU_ASSERT_EQUAL(d->offset, 1007);
    CU_ASSERT_EQUAL(d->line, 38);
    CU_ASSERT_EQUAL(d->column, 4);
    CU_ASSERT_STRING_EQUAL(d->json_path ? d->json_path : "", "$.EDGE_TYPES[31][0]");
    CU_ASSERT_STRING_EQUAL(d->input, "p.dcfg.json");
    CHECK(strstr(d->message, "2147483648") != NULL, "message: %s", d->message);
    CU_ASSERT_FALSE(d->unlocated);
    tc_result_free(r);
}

/* Binary: a byte offset and the parser's context; no line, no JSON path. */
static void test_fields_of_a_binary_finding(void)
{
    seen s = {0};
    tc_result *r = check_and_compare("xray/n_xray_v3_walltime_usec.xray", "w.xray", &s);
    if (!r)
        return;
    const tc_diag *d = tc_result_find(r, "XRAY-WALLTIME-USEC");
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_EQUAL(d->offset, 73);
    CU_ASSERT_EQUAL(d->line, 0);
    CU_ASSERT_PTR_NULL(d->json_path);
    CHECK(d->context && strstr(d->context, "buffer 1"), "context: %s",
          d->context ? d->context : "(none)");
    CHECK(strstr(d->message, "493083111") != NULL, "message: %s", d->message);
    tc_result_free(r);
}

/* ---- the repeat cap, growth, accessors ---- */

static size_t count_rule(const tc_result *r, const char *id)
{
    size_t n = 0;
    for (size_t i = 0; i < tc_result_count(r); i++)
        n += !strcmp(tc_result_diag(r, i)->rule->id, id);
    return n;
}

/* 40 lines that are not messages: more findings than the result's first
 * allocation, so it grows; with max-repeats 5 only five are kept and one
 * suppression note, while the summary counts all 40. (There being no perf
 * message at all is one more finding, a note.) */
static void test_repeats_and_summary(void)
{
    char text[40 * 4 + 1];
    for (int i = 0; i < 40; i++)
        memcpy(text + 4 * i, "zz!\n", 4);
    text[160] = '\0';

    tc_result *all = tc_check_buffer(text, 160, "junk.itc", NULL);
    tc_options o = TC_OPTIONS_INIT;
    CU_ASSERT_EQUAL(tc_options_set(&o, "max-repeats", "100"), 0);
    tc_result *many = tc_check_buffer(text, 160, "junk.itc", &o);
    CU_ASSERT_EQUAL(tc_options_set(&o, "max-repeats", "5"), 0);
    tc_result *few = tc_check_buffer(text, 160, "junk.itc", &o);
    CU_ASSERT_FATAL(all && many && few);

    /* The default cap of 20, then the note. */
    CU_ASSERT_EQUAL(count_rule(all, "PERF-TEXT-SYNTAX"), 20);
    CU_ASSERT_EQUAL(count_rule(all, "TC-DIAG-SUPPRESSED"), 1);
    CU_ASSERT_EQUAL(count_rule(many, "PERF-TEXT-SYNTAX"), 40);
    CU_ASSERT_EQUAL(count_rule(many, "TC-DIAG-SUPPRESSED"), 0);
    CU_ASSERT_EQUAL(count_rule(few, "PERF-TEXT-SYNTAX"), 5);
    CU_ASSERT_EQUAL(tc_result_summary(few)->errors, 40);
    CU_ASSERT_EQUAL(tc_result_summary(many)->errors, 40);
    CU_ASSERT_EQUAL(tc_result_status(few), 1);
    const tc_diag *note = tc_result_find(few, "TC-DIAG-SUPPRESSED");
    CU_ASSERT_PTR_NOT_NULL_FATAL(note);
    /* It comes last, after everything the parser reported. */
    CU_ASSERT_PTR_EQUAL(note, tc_result_diag(few, tc_result_count(few) - 1));
    CHECK(strstr(note->message, "35 further PERF-TEXT-SYNTAX") != NULL, "note: %s",
          note->message);
    /* Line numbers run on through the growth of the array. */
    for (size_t i = 0; i < 40 && i < tc_result_count(many); i++)
        CHECK(tc_result_diag(many, i)->line == i + 1, "finding %zu on line %u", i,
              (unsigned)tc_result_diag(many, i)->line);
    CU_ASSERT_PTR_NULL(tc_result_diag(many, tc_result_count(many)));
    /* The first finding of a rule, and none of a rule not found. */
    CU_ASSERT_PTR_EQUAL(tc_result_find(many, "PERF-TEXT-SYNTAX"), tc_result_diag(many, 0));
    CU_ASSERT_PTR_NULL(tc_result_find(many, "XRAY-WALLTIME-USEC"));
    CU_ASSERT_PTR_NULL(tc_result_find(many, NULL));
    tc_result_free(all);
    tc_result_free(many);
    tc_result_free(few);
}

/* ---- what a finding holds besides its message ---- */

static const tc_diag_value *value_of(const tc_diag *d, const char *name)
{
    for (size_t i = 0; d && i < d->n_values; i++)
        if (!strcmp(d->values[i].name, name))
            return &d->values[i];
    return NULL;
}

static uint64_t uint_of(const tc_diag *d, const char *name)
{
    const tc_diag_value *v = value_of(d, name);
    CHECK(v && v->type == TC_VALUE_UINT, "%s: no unsigned value %s",
          d ? d->rule->id : "(none)", name);
    return v && v->type == TC_VALUE_UINT ? v->u : UINT64_MAX;
}

typedef struct seen_summary {
    const tc_rule_info *summarises;
    uint64_t suppressed, total;
    size_t others_with_count;
} seen_summary;

static void on_summary(void *user, const tc_diag *d)
{
    seen_summary *s = user;
    if (d->summarises) {
        s->summarises = d->summarises;
        s->suppressed = d->suppressed;
        s->total = uint_of(d, "total");
    } else if (d->suppressed) {
        s->others_with_count++;
    }
}

/* The suppression summary states its count as fields: the rule it stands
 * for and how many of its findings were not shown, through the callback of
 * tc_validate_buffer and in a result alike. */
static void test_suppression_fields(void)
{
    char text[40 * 4 + 1];
    for (int i = 0; i < 40; i++)
        memcpy(text + 4 * i, "zz!\n", 4);
    text[160] = '\0';
    const tc_rule_info *syntax = tc_rule_find("PERF-TEXT-SYNTAX");
    CU_ASSERT_PTR_NOT_NULL_FATAL(syntax);

    seen_summary seen = {0};
    tc_options o = TC_OPTIONS_INIT;
    CU_ASSERT_EQUAL(tc_options_set(&o, "max-repeats", "5"), 0);
    o.on_diag = on_summary;
    o.user = &seen;
    CU_ASSERT_EQUAL(tc_validate_buffer(text, 160, "junk.itc", &o, NULL), 1);
    CU_ASSERT_PTR_EQUAL(seen.summarises, syntax);
    CU_ASSERT_EQUAL(seen.suppressed, 35);
    CU_ASSERT_EQUAL(seen.total, 40);
    CU_ASSERT_EQUAL(seen.others_with_count, 0);

    o.on_diag = NULL;
    tc_result *r = tc_check_buffer(text, 160, "junk.itc", &o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    const tc_diag *note = tc_result_find(r, "TC-DIAG-SUPPRESSED");
    CU_ASSERT_PTR_NOT_NULL_FATAL(note);
    CU_ASSERT_PTR_EQUAL(note->summarises, syntax);
    CU_ASSERT_EQUAL(note->suppressed, 35);
    CU_ASSERT_EQUAL(uint_of(note, "suppressed"), 35);
    CU_ASSERT_EQUAL(uint_of(note, "total"), 40);
    const tc_diag_value *rule = value_of(note, "rule");
    CU_ASSERT(rule && rule->type == TC_VALUE_STRING && !strcmp(rule->s, "PERF-TEXT-SYNTAX"));
    /* The message says the same in words, unchanged. */
    CU_ASSERT_STRING_EQUAL(note->message, "35 further PERF-TEXT-SYNTAX findings not shown (40 in all)");
    const tc_diag *first = tc_result_find(r, "PERF-TEXT-SYNTAX");
    CU_ASSERT_PTR_NOT_NULL_FATAL(first);
    CU_ASSERT_PTR_NULL(first->summarises);
    CU_ASSERT_EQUAL(first->suppressed, 0);
    tc_result_free(r);
}

static tc_result *check_case(const char *path, const char *name, const char *format)
{
    size_t n;
    uint8_t *p = read_case(path, &n);
    if (!p)
        return NULL;
    tc_options o = TC_OPTIONS_INIT;
    if (format)
        CU_ASSERT_EQUAL(tc_options_set(&o, "format", format), 0);
    tc_result *r = tc_check_buffer(p, n, name, &o);
    free(p);
    return r;
}

/* A finding that cites an earlier thing ("first at 1:2", "already defined
 * at line 34:3", "the event at offset 52") has its byte offset in related. */
static void test_related_offsets(void)
{
    static const char twice[] = "{\"MAJOR_VERSION\": 1, \"MAJOR_VERSION\": 1}";
    tc_options o = TC_OPTIONS_INIT;
    CU_ASSERT_EQUAL(tc_options_set(&o, "format", "dcfg"), 0);
    tc_result *r = tc_check_buffer(twice, sizeof twice - 1, "p.dcfg.json", &o);
    const tc_diag *d = tc_result_find(r, "TC-JSON-DUPLICATE-KEY");
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_EQUAL(d->offset, 21);
    CU_ASSERT_EQUAL_FATAL(d->n_related, 1);
    CU_ASSERT_EQUAL(d->related[0], 1);
    /* Findings that cite nothing have none. */
    d = tc_result_find(r, "DCFG-VERSION-MISSING");
    if (d)
        CU_ASSERT_EQUAL(d->n_related, 0);
    tc_result_free(r);

    r = check_case("dcfg/n_dcfg_id_duplicate_edge_type.dcfg.json", "p.dcfg.json", NULL);
    d = tc_result_find(r, "DCFG-ID-DUPLICATE");
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CHECK(strstr(d->message, "already defined at line 34:3") != NULL, "message: %s", d->message);
    CU_ASSERT_EQUAL_FATAL(d->n_related, 1);
    CU_ASSERT_EQUAL(d->related[0], 896);
    CU_ASSERT_EQUAL(uint_of(d, "id"), 27);
    tc_result_free(r);

    r = check_case("ovni/n_ovni_clock_decrease_interleaved/loom.node1/proc.4100/thread.4101/stream.obs",
                   "stream.obs", "ovni");
    d = tc_result_find(r, "OVNI-CLOCK-DECREASE");
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_EQUAL(d->offset, 68);
    CU_ASSERT_EQUAL_FATAL(d->n_related, 1);
    CU_ASSERT_EQUAL(d->related[0], 52);
    CU_ASSERT_EQUAL(uint_of(d, "clock"), UINT64_C(5000000000240));
    CU_ASSERT_EQUAL(uint_of(d, "previous_clock"), UINT64_C(5000000000250));
    tc_result_free(r);
}

/* Rules whose messages quote sizes and widths carry them as named values. */
static void test_named_values(void)
{
    tc_result *r = check_case("xray/n_xray_v1_buffer_size_38.xray", "t.xray", NULL);
    const tc_diag *d = tc_result_find(r, "XRAY-V1-BUFFER-SIZE");
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_EQUAL(d->n_values, 1);
    CU_ASSERT_EQUAL(uint_of(d, "buffer_size"), 38);
    tc_result_free(r);

    r = check_case("xray/n_xray_v2_be_record_past_extents.xray", "t.xray", NULL);
    d = tc_result_find(r, "XRAY-RECORD-PAST-EXTENTS");
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_EQUAL(uint_of(d, "record_size"), 8);
    CU_ASSERT_EQUAL(uint_of(d, "buffer_end"), 528);
    CU_ASSERT_EQUAL_FATAL(d->n_related, 1);
    CU_ASSERT_EQUAL(d->related[0], 32); /* its BufferExtents */
    tc_result_free(r);

    r = check_case("perf/n_perf_gen_counter_width.rtd", "trace.rtd", NULL);
    d = tc_result_find(r, "PERF-COUNTER-WIDTH");
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_EQUAL(uint_of(d, "counter"), 5);
    CU_ASSERT_EQUAL(uint_of(d, "width"), 25);
    CU_ASSERT_EQUAL(uint_of(d, "value"), 0x2000000);
    CU_ASSERT_EQUAL(uint_of(d, "max"), 0x1ffffff);
    CU_ASSERT_EQUAL(uint_of(d, "counter_info"), 0x18c09);
    CU_ASSERT_EQUAL_FATAL(d->n_related, 1);
    CU_ASSERT_EQUAL(d->related[0], 465); /* the record's start */
    tc_result_free(r);
}

/* A compressed buffer is decompressed, as a file is. */
static void test_compressed_buffer(void)
{
    size_t n;
    uint8_t *p = read_case("perf/n_perf_text_extra_field.itc", &n);
    if (!p)
        return;
    tu_bytes gz = {0};
    tu_gzip_member(&gz, p, n);
    tc_result *r = tc_check_buffer(gz.p, gz.len, "trace.itc.gz", NULL);
    CU_ASSERT_EQUAL(tc_result_status(r), 1);
    CU_ASSERT_EQUAL(tc_result_summary(r)->bytes, n);
    const tc_diag *d = tc_result_find(r, "PERF-TEXT-SYNTAX");
    CU_ASSERT_PTR_NOT_NULL(d);
    if (d)
        CU_ASSERT_EQUAL(d->line, 12);
    tc_result_free(r);
    tu_bytes_free(&gz);
    free(p);
}

/* NULL results and empty inputs are handled, not crashed on. */
static void test_null_and_empty(void)
{
    tc_result_free(NULL);
    CU_ASSERT_EQUAL(tc_result_status(NULL), 2);
    CU_ASSERT_EQUAL(tc_result_count(NULL), 0);
    CU_ASSERT_PTR_NULL(tc_result_diag(NULL, 0));
    CU_ASSERT_PTR_NULL(tc_result_summary(NULL));
    CU_ASSERT_STRING_EQUAL(tc_result_error(NULL), "");
    tc_result *r = tc_check_buffer(NULL, 0, NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(tc_result_status(r), 1);
    CU_ASSERT_PTR_NOT_NULL(tc_result_find(r, "TC-FORMAT-UNKNOWN"));
    tc_result_free(r);
}

void register_library_api_suite(void)
{
    static const tu_test tests[] = {
        {"options_set_valid", test_options_set_valid},
        {"options_set_invalid", test_options_set_invalid},
        {"buffers_of_each_format", test_buffers_of_each_format},
        {"broken_ovni_stream", test_broken_ovni_stream},
        {"files_and_directories", test_files_and_directories},
        {"unreadable_file", test_unreadable_file},
        {"fields_of_a_json_finding", test_fields_of_a_json_finding},
        {"fields_of_a_binary_finding", test_fields_of_a_binary_finding},
        {"repeats_and_summary", test_repeats_and_summary},
        {"suppression_fields", test_suppression_fields},
        {"related_offsets", test_related_offsets},
        {"named_values", test_named_values},
        {"compressed_buffer", test_compressed_buffer},
        {"null_and_empty", test_null_and_empty},
        {NULL, NULL},
    };
    tu_add_suite("library_api", tests);
}
