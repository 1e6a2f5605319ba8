/*
 * SARIF 2.1.0 (OASIS, sarif-v2.1.0-errata01-os) for code-scanning views:
 * one run whose tool.driver carries the whole rule catalogue, one result
 * per finding pointing into the artifact (file) it is in, the inputs as
 * run.artifacts, the exit status in run.invocations, and the per-rule
 * summary in run.properties. Regions are byteOffset/byteLength in binary
 * inputs and startLine/startColumn in JSON and text ones. Results stream
 * out as they come; artifacts and invocations are written at the end.
 * docs/reports.md describes every field.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parsers/common/formats.h"
#include "report_writers.h"

#define SARIF_SCHEMA                                                                               \
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

typedef struct artifact {
    int is_input; /* an input as named, with what was learnt about it */
    int status;
    tc_format format;
    uint64_t bytes;
} artifact;

typedef struct sarif_writer {
    tc_report_writer base;
    int started;
    uint64_t results;
    tc_report_names names; /* artifact uris' paths, by artifact index */
    artifact *arts;
    size_t cap;
    FILE *notes; /* toolExecutionNotifications so far */
    char *notes_buf;
    size_t notes_len;
    uint64_t nnotes;
} sarif_writer;

static const char *level(tc_severity s)
{
    switch (s) {
    case TC_ERROR: return "error";
    case TC_WARNING: return "warning";
    default: return "note";
    }
}

static void docs_uri(FILE *f, const sarif_writer *w, const char *rest)
{
    const char *base = tc_report_docs_base(&w->base.opts);
    size_t n = strlen(base);
    fputc('"', f);
    /* The base is a URI already: only what JSON needs is escaped. */
    for (const char *p = base; *p; p++) {
        if (*p == '"' || *p == '\\')
            fputc('\\', f);
        if ((unsigned char)*p >= 0x20)
            fputc(*p, f);
    }
    if (n && base[n - 1] != '/')
        fputc('/', f);
    fputs(rest, f);
}

/* A path as a URI reference (RFC 3986): an absolute path as a file: URI,
 * a relative one as a relative reference; every byte but unreserved ones
 * and '/' percent-encoded. */
static void uri(FILE *f, const char *path)
{
    static const char hex[] = "0123456789ABCDEF";
    fputc('"', f);
    if (path[0] == '/')
        fputs("file://", f);
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        unsigned char c = *p;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            c == '-' || c == '.' || c == '_' || c == '~' || c == '/')
            fputc(c, f);
        else
            fprintf(f, "%%%c%c", hex[c >> 4], hex[c & 15]);
    }
    fputc('"', f);
}

static void artifact_location(FILE *f, const char *path, long index)
{
    fputs("{\"uri\":", f);
    uri(f, path);
    /* GitHub's convention for paths relative to the checkout. */
    if (path[0] != '/')
        fputs(",\"uriBaseId\":\"%SRCROOT%\"", f);
    if (index >= 0)
        fprintf(f, ",\"index\":%ld", index);
    fputc('}', f);
}

static void text(FILE *f, const char *key, const char *value)
{
    fprintf(f, "\"%s\":{\"text\":", key);
    tc_report_json_string(f, value);
    fputc('}', f);
}

static void rule(FILE *f, const sarif_writer *w, const tc_rule_info *r)
{
    fputs("{\"id\":", f);
    tc_report_json_string(f, r->id);
    fputc(',', f);
    text(f, "shortDescription", r->summary);
    fputc(',', f);
    text(f, "fullDescription", r->explanation);
    fputs(",\"helpUri\":", f);
    char rest[300];
    snprintf(rest, sizeof rest, "docs/rules/%s.md#%s\"", tc_rule_page(r), r->id);
    docs_uri(f, w, rest);
    fprintf(f, ",\"defaultConfiguration\":{\"level\":\"%s\"},\"properties\":{\"severity\":\"%s\","
               "\"reference\":",
            level(r->severity), tc_severity_name(r->severity));
    tc_report_json_string(f, r->reference);
    fputs(",\"family\":", f);
    tc_report_json_string(f, r->family);
    fprintf(f, ",\"pedantic\":%s}}", r->flags & TC_RF_PEDANTIC ? "true" : "false");
}

static void start(sarif_writer *w)
{
    FILE *f = w->base.out;
    w->started = 1;
    fprintf(f, "{\"$schema\":\"%s\",\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{"
               "\"name\":\"tracecheck\",\"version\":\"%s\",\"semanticVersion\":\"%s\","
               "\"informationUri\":",
            SARIF_SCHEMA, TC_VERSION_STRING, TC_VERSION_STRING);
    docs_uri(f, w, "README.md\"");
    fputs(",\"rules\":[", f);
    for (size_t i = 0; i < tc_rule_count(); i++) {
        fputs(i ? ",\n" : "\n", f);
        rule(f, w, tc_rule_at(i));
    }
    /* Columns count bytes of the line (the parsers' unit), closest to
     * code points of the two kinds SARIF knows. */
    fputs("]}},\"columnKind\":\"unicodeCodePoints\",\"results\":[", f);
}

static artifact *artifact_at(sarif_writer *w, long i)
{
    if (i < 0)
        return NULL;
    if ((size_t)i >= w->cap) {
        size_t cap = w->cap ? w->cap : 32;
        while (cap <= (size_t)i)
            cap *= 2;
        artifact *a = realloc(w->arts, cap * sizeof *a);
        if (!a)
            return NULL;
        memset(a + w->cap, 0, (cap - w->cap) * sizeof *a);
        w->arts = a;
        w->cap = cap;
    }
    return &w->arts[i];
}

static void input_begin(tc_report_writer *base, const char *path)
{
    sarif_writer *w = (sarif_writer *)base;
    (void)path;
    if (!w->started)
        start(w);
}

/* FNV-1a 64 over the fields, each followed by a NUL. */
static uint64_t fingerprint(const char *const *fields, size_t n)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t i = 0; i < n; i++) {
        for (const char *p = fields[i]; *p; p++)
            h = (h ^ (unsigned char)*p) * 0x100000001b3u;
        h *= 0x100000001b3u; /* the NUL: xor with 0 */
    }
    return h;
}

static void diag(tc_report_writer *base, const tc_diag *d)
{
    sarif_writer *w = (sarif_writer *)base;
    FILE *f = base->out;
    int added;
    long ai = tc_report_names_add(&w->names, d->input, &added);
    artifact_at(w, ai);
    fputs(w->results++ ? ",\n{" : "\n{", f);
    fputs("\"ruleId\":", f);
    tc_report_json_string(f, d->rule->id);
    fprintf(f, ",\"ruleIndex\":%zu,\"level\":\"%s\",\"message\":{\"text\":",
            tc_report_rule_index(d->rule), level(d->severity));
    if (d->context) {
        size_t n = strlen(d->message) + strlen(d->context) + 4;
        char *m = malloc(n);
        if (m) {
            snprintf(m, n, "%s (%s)", d->message, d->context);
            tc_report_json_string(f, m);
            free(m);
        } else {
            tc_report_json_string(f, d->message);
        }
    } else {
        tc_report_json_string(f, d->message);
    }
    fputs("},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":", f);
    artifact_location(f, d->input, ai);
    if (!d->unlocated && d->line)
        fprintf(f, ",\"region\":{\"startLine\":%" PRIu32 ",\"startColumn\":%" PRIu32 "}", d->line,
                d->column ? d->column : 1);
    else if (!d->unlocated)
        fprintf(f, ",\"region\":{\"byteOffset\":%" PRIu64 ",\"byteLength\":%" PRIu64 "}",
                d->offset, d->length);
    fputs("}}]", f);
    char loc[4200];
    tc_report_location(d, loc, sizeof loc);
    const char *fields[] = {d->rule->id, d->input, loc, d->message};
    fprintf(f, ",\"partialFingerprints\":{\"tracecheck/v1\":\"%016" PRIx64 "\"}",
            fingerprint(fields, 4));
    if (d->json_path) {
        fputs(",\"properties\":{\"jsonPath\":", f);
        tc_report_json_string(f, d->json_path);
        fputc('}', f);
    }
    fputc('}', f);
}

static void input_end(tc_report_writer *base, const char *path, int status, const tc_summary *s,
                      const char *error)
{
    sarif_writer *w = (sarif_writer *)base;
    int added;
    long ai = tc_report_names_add(&w->names, path, &added);
    artifact *a = artifact_at(w, ai);
    if (a) {
        a->is_input = 1;
        a->status = status;
        a->format = status == TC_INPUT_UNREADABLE ? TC_FORMAT_AUTO : s->format;
        a->bytes = status == TC_INPUT_UNREADABLE ? 0 : s->bytes;
    }
    if (status != TC_INPUT_UNREADABLE)
        return;
    /* An input that could not be read is a matter of the run, not a
     * result about the trace. */
    if (!w->notes)
        w->notes = open_memstream(&w->notes_buf, &w->notes_len);
    if (!w->notes)
        return;
    fputs(w->nnotes++ ? ",{" : "{", w->notes);
    fputs("\"level\":\"error\",\"message\":{\"text\":", w->notes);
    tc_report_json_string(w->notes, error);
    fputs("},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":", w->notes);
    artifact_location(w->notes, path, ai);
    fputs("}}]}", w->notes);
}

static void rule_summary(FILE *f, const tc_rule_tally *tally)
{
    size_t n = 0;
    const tc_rule_stat **v = tally ? tc_rule_tally_sorted(tally, &n) : NULL;
    fputs(",\"properties\":{\"ruleSummary\":[", f);
    for (size_t i = 0; i < n; i++) {
        const tc_rule_stat *s = v[i];
        fputs(i ? ",\n{\"rule\":" : "\n{\"rule\":", f);
        tc_report_json_string(f, s->rule->id);
        fprintf(f, ",\"ruleIndex\":%zu,\"severity\":\"%s\",\"files\":%" PRIu64
                   ",\"findings\":%" PRIu64 ",\"locations\":[",
                tc_report_rule_index(s->rule), tc_severity_name(s->rule->severity), s->files,
                s->findings);
        for (size_t j = 0; j < s->nloc; j++) {
            if (j)
                fputc(',', f);
            tc_report_json_string(f, s->loc[j]);
        }
        fputs("]}", f);
    }
    fputs("]}", f);
    free(v);
}

static void close_writer(tc_report_writer *base, const tc_report_totals *t)
{
    sarif_writer *w = (sarif_writer *)base;
    FILE *f = base->out;
    if (!w->started)
        start(w);
    fputs("\n],\"artifacts\":[", f);
    for (size_t i = 0; i < w->names.count; i++) {
        const artifact *a = i < w->cap ? &w->arts[i] : NULL;
        fputs(i ? ",\n{\"location\":" : "\n{\"location\":", f);
        artifact_location(f, w->names.names[i], -1);
        if (a && a->is_input) {
            /* The size is known when a parser read the input to its end. */
            if (a->status != TC_INPUT_UNREADABLE && a->format != TC_FORMAT_AUTO)
                fprintf(f, ",\"length\":%" PRIu64, a->bytes);
            fprintf(f, ",\"properties\":{\"input\":true,\"status\":\"%s\"", tc_report_status_name(a->status));
            if (a->status != TC_INPUT_UNREADABLE)
                fprintf(f, ",\"format\":\"%s\"",
                        a->format == TC_FORMAT_AUTO ? "unknown" : tc_format_name(a->format));
            fputc('}', f);
        }
        fputc('}', f);
    }
    fprintf(f, "\n],\"invocations\":[{\"executionSuccessful\":%s,\"exitCode\":%d",
            t->exit_status == 2 ? "false" : "true", t->exit_status);
    if (base->opts.command) {
        fputs(",\"commandLine\":", f);
        tc_report_json_string(f, base->opts.command);
    }
    if (w->notes) {
        fclose(w->notes);
        w->notes = NULL;
        fprintf(f, ",\"toolExecutionNotifications\":[%s]", w->notes_buf ? w->notes_buf : "");
    }
    fputc('}', f);
    fputs("]", f);
    rule_summary(f, t->rules);
    fputs("}]}\n", f);
    free(w->notes_buf);
    free(w->arts);
    tc_report_names_free(&w->names);
    free(w);
}

tc_report_writer *tc_report_sarif_new(void)
{
    return tc_report_writer_new(sizeof(sarif_writer), input_begin, diag, input_end, close_writer);
}
