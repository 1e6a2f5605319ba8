/* tracecheck report merge: the shards' JSON reports (report_json.c, version
 * 3) read back and replayed, input by input in the whole run's order,
 * through the writers of every kind. Each finding is rebuilt with every
 * field a writer uses, so the merged reports are those of one run; the
 * per-rule summary is counted again from the findings, which adds up the
 * shards' own. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "report_merge.h"

#define MERGE_REPORT_VERSION 3

static int fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static char *read_all(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fail(err, errlen, "%s: cannot open it", path);
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (size_t got; buf; n += got) {
        if (n + 1 >= cap) {
            char *more = realloc(buf, cap *= 2);
            if (!more) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = more;
        }
        if ((got = fread(buf + n, 1, cap - n - 1, f)) == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        free(buf);
        fail(err, errlen, "%s: %s", path, bad ? "cannot read it" : "out of memory");
        return NULL;
    }
    buf[n] = '\0';
    return buf;
}

static const char *string_of(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* A non-negative integer field; -1 when absent or not one. */
static double number_of(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) && v->valuedouble >= 0 ? v->valuedouble : -1;
}

static uint64_t u64_of(const cJSON *o, const char *key)
{
    double d = number_of(o, key);
    return d < 0 ? 0 : (uint64_t)d;
}

static int severity_of(const char *name)
{
    if (!name)
        return -1;
    if (!strcmp(name, "error"))
        return TC_ERROR;
    if (!strcmp(name, "warning"))
        return TC_WARNING;
    return strcmp(name, "note") ? -1 : TC_NOTE;
}

/* One input's fields and findings, as replay reads them. */
static int check_input(const char *file, const cJSON *in, char *err, size_t errlen)
{
    const char *path = string_of(in, "path"), *status = string_of(in, "status");
    const cJSON *diags = cJSON_GetObjectItemCaseSensitive(in, "diagnostics");
    if (!path || !status || !cJSON_IsArray(diags))
        return fail(err, errlen, "%s: an input without path, status or diagnostics", file);
    if (strcmp(status, "valid") && strcmp(status, "invalid") && strcmp(status, "unreadable"))
        return fail(err, errlen, "%s: %s: unknown status '%s'", file, path, status);
    const char *format = string_of(in, "format");
    if (strcmp(status, "unreadable") && (!format || tc_format_from_name(format) == TC_FORMAT__COUNT))
        return fail(err, errlen, "%s: %s: unknown format '%s'", file, path,
                    format ? format : "(none)");
    const cJSON *d;
    cJSON_ArrayForEach(d, diags) {
        const char *rule = string_of(d, "rule"), *sum = string_of(d, "summarises");
        if (!rule || !tc_rule_find(rule))
            return fail(err, errlen, "%s: %s: a finding of unknown rule '%s'", file, path,
                        rule ? rule : "(none)");
        if (sum && !tc_rule_find(sum))
            return fail(err, errlen, "%s: %s: a finding summarises unknown rule '%s'", file, path,
                        sum);
        if (severity_of(string_of(d, "severity")) < 0 || !string_of(d, "message"))
            return fail(err, errlen, "%s: %s: a finding of %s without severity or message", file,
                        path, rule);
    }
    return 0;
}

/* The shard part of one report: what it must share with the first. */
static int check_shard(tc_merge *m, const char *const *files, size_t i, char *err, size_t errlen)
{
    const cJSON *doc = m->docs[i];
    const char *file = files[i];
    const char *tool = string_of(doc, "tool"), *version = string_of(doc, "tool_version");
    if (!tool || strcmp(tool, "tracecheck"))
        return fail(err, errlen, "%s: not a JSON report of tracecheck validate", file);
    double rv = number_of(doc, "report_version");
    if (rv != MERGE_REPORT_VERSION)
        return fail(err, errlen, "%s: report_version %g; report merge reads version %d (written "
                    "by validate --shard K/N --report json)", file, rv, MERGE_REPORT_VERSION);
    if (!version || strcmp(version, TC_VERSION_STRING))
        return fail(err, errlen, "%s: written by tracecheck %s; this is tracecheck %s, and every "
                    "shard must come from the same version", file, version ? version : "(none)",
                    TC_VERSION_STRING);
    const cJSON *sh = cJSON_GetObjectItemCaseSensitive(doc, "shard");
    if (!cJSON_IsObject(sh))
        return fail(err, errlen, "%s: not the report of a shard (validate --shard K/N)", file);
    if (i == 0)
        return 0;
    const cJSON *first = cJSON_GetObjectItemCaseSensitive(m->docs[0], "shard");
    if (number_of(sh, "count") != number_of(first, "count"))
        return fail(err, errlen, "%s is shard %g/%g but %s is of %g shards", file,
                    number_of(sh, "index"), number_of(sh, "count"), files[0],
                    number_of(first, "count"));
    const char *a = string_of(sh, "options"), *b = string_of(first, "options");
    if (!a || !b || strcmp(a, b))
        return fail(err, errlen, "%s and %s come from runs with different options or arguments "
                    "(fingerprints %s and %s): every shard must run the same command but for "
                    "--shard", files[0], file, b ? b : "none", a ? a : "none");
    a = string_of(sh, "paths");
    b = string_of(first, "paths");
    if (!a || !b || strcmp(a, b) || number_of(sh, "inputs") != number_of(first, "inputs"))
        return fail(err, errlen, "%s and %s found different inputs (%g and %g, fingerprints %s "
                    "and %s): every shard must see the same files under the same names", files[0],
                    file, number_of(first, "inputs"), number_of(sh, "inputs"), b ? b : "none",
                    a ? a : "none");
    return 0;
}

static void add_summary(tc_report_totals *t, const cJSON *doc)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(doc, "summary");
    t->inputs += u64_of(s, "inputs");
    t->valid += u64_of(s, "valid");
    t->invalid += u64_of(s, "invalid");
    t->unreadable += u64_of(s, "unreadable");
    t->errors += u64_of(s, "errors");
    t->warnings += u64_of(s, "warnings");
    t->notes += u64_of(s, "notes");
    t->bytes += u64_of(s, "bytes");
    /* One run's status is the worst of its inputs' (and of its arguments'),
     * --fail-on applied: the worst of the shards' is the same. */
    int status = (int)number_of(s, "exit_status");
    if (status > t->exit_status)
        t->exit_status = status;
}

/* Places each report by its shard index: every one of 1..N once. */
static int place_shards(tc_merge *m, cJSON **given, const char *const *files, size_t n,
                        char *err, size_t errlen)
{
    const cJSON *sh0 = cJSON_GetObjectItemCaseSensitive(given[0], "shard");
    double count = number_of(sh0, "count");
    if (count < 1 || count > 1e6 || count != (double)(size_t)count)
        return fail(err, errlen, "%s: shard count %g is not one of 1..1000000", files[0], count);
    size_t nk = (size_t)count;
    const char **from = calloc(nk, sizeof *from);
    if (!from)
        return fail(err, errlen, "out of memory");
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        double k = number_of(cJSON_GetObjectItemCaseSensitive(given[i], "shard"), "index");
        if (k < 1 || k > count || k != (double)(size_t)k)
            rc = fail(err, errlen, "%s: shard %g/%zu is not one of 1..%zu", files[i], k, nk, nk);
        else if (from[(size_t)k - 1])
            rc = fail(err, errlen, "shard %g/%zu given twice: %s and %s", k, nk,
                      from[(size_t)k - 1], files[i]);
        else
            from[(size_t)k - 1] = files[i];
    }
    if (rc == 0 && n != nk) {
        char missing[512] = "";
        size_t len = 0;
        for (size_t k = 0; k < nk && len < sizeof missing - 40; k++)
            if (!from[k])
                len += (size_t)snprintf(missing + len, sizeof missing - len, "%s%zu/%zu",
                                        len ? ", " : "", k + 1, nk);
        rc = fail(err, errlen, "%zu shard reports for %zu shards: missing %s", n, nk, missing);
    }
    free(from);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        double k = number_of(cJSON_GetObjectItemCaseSensitive(given[i], "shard"), "index");
        m->docs[(size_t)k - 1] = given[i];
    }
    return rc;
}

int tc_merge_load(tc_merge *m, const char *const *files, size_t n, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    if (!n)
        return fail(err, errlen, "no shard report given");
    m->docs = calloc(n, sizeof *m->docs);
    cJSON **given = calloc(n, sizeof *given);
    int rc = m->docs && given ? 0 : fail(err, errlen, "out of memory");
    m->nshards = n;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        char *text = read_all(files[i], err, errlen);
        if (!text) {
            rc = -1;
            break;
        }
        given[i] = cJSON_Parse(text);
        free(text);
        /* check_shard compares with the first, kept in docs[0] meanwhile */
        m->docs[i] = given[i];
        rc = given[i] ? check_shard(m, files, i, err, errlen)
                      : fail(err, errlen, "%s: not JSON", files[i]);
    }
    if (m->docs)
        memset(m->docs, 0, n * sizeof *m->docs);
    if (rc == 0)
        rc = place_shards(m, given, files, n, err, errlen);
    if (rc != 0) {
        for (size_t i = 0; given && i < n; i++)
            cJSON_Delete(given[i]);
        free(given);
        if (m->docs)
            memset(m->docs, 0, n * sizeof *m->docs);
        return rc;
    }
    free(given);
    /* Every input of the run in exactly one shard. */
    m->ninputs = u64_of(cJSON_GetObjectItemCaseSensitive(m->docs[0], "shard"), "inputs");
    if (!(m->inputs = calloc(m->ninputs + 1, sizeof *m->inputs)))
        return fail(err, errlen, "out of memory");
    for (size_t i = 0; i < n; i++) {
        const cJSON *in, *list = cJSON_GetObjectItemCaseSensitive(m->docs[i], "inputs");
        char file[64];
        snprintf(file, sizeof file, "shard %zu/%zu", i + 1, n);
        cJSON_ArrayForEach(in, list) {
            double o = number_of(in, "ordinal");
            const char *path = string_of(in, "path");
            if (o < 1 || o > (double)m->ninputs || o != (double)(uint64_t)o)
                return fail(err, errlen, "%s: input %s has ordinal %g, not one of 1..%" PRIu64,
                            file, path ? path : "(no path)", o, m->ninputs);
            if (m->inputs[(uint64_t)o - 1])
                return fail(err, errlen, "input %" PRIu64 " of the run (%s) is in two shards",
                            (uint64_t)o, path ? path : "(no path)");
            if (check_input(file, in, err, errlen) != 0)
                return -1;
            m->inputs[(uint64_t)o - 1] = in;
        }
        add_summary(&m->totals, m->docs[i]);
    }
    for (uint64_t o = 0; o < m->ninputs; o++)
        if (!m->inputs[o])
            return fail(err, errlen, "input %" PRIu64 " of the %" PRIu64 " of the run is in no "
                        "shard", o + 1, m->ninputs);
    if (m->totals.inputs != m->ninputs)
        return fail(err, errlen, "the shards' summaries count %" PRIu64 " inputs, their lists %"
                    PRIu64, m->totals.inputs, m->ninputs);
    return 0;
}

/* A finding as the writers were given it: file and message point into the
 * document. */
static tc_diag diag_of(const cJSON *d, const char *path)
{
    const char *file = string_of(d, "file"), *sum = string_of(d, "summarises");
    const cJSON *unlocated = cJSON_GetObjectItemCaseSensitive(d, "unlocated");
    return (tc_diag){
        .rule = tc_rule_find(string_of(d, "rule")),
        .severity = (tc_severity)severity_of(string_of(d, "severity")),
        .input = file ? file : path,
        .offset = u64_of(d, "offset"),
        .length = u64_of(d, "length"),
        .line = (uint32_t)u64_of(d, "line"),
        .column = (uint32_t)u64_of(d, "column"),
        .json_path = string_of(d, "json_path"),
        .message = string_of(d, "message"),
        .context = string_of(d, "context"),
        .unlocated = cJSON_IsTrue(unlocated),
        .summarises = sum ? tc_rule_find(sum) : NULL,
        .suppressed = u64_of(d, "suppressed"),
    };
}

static int status_of(const char *name)
{
    if (!strcmp(name, "valid"))
        return TC_INPUT_VALID;
    return strcmp(name, "invalid") ? TC_INPUT_UNREADABLE : TC_INPUT_INVALID;
}

void tc_merge_replay(const tc_merge *m, tc_report_set *set)
{
    for (uint64_t o = 0; o < m->ninputs; o++) {
        const cJSON *in = m->inputs[o], *d;
        const char *path = string_of(in, "path"), *format = string_of(in, "format");
        int status = status_of(string_of(in, "status"));
        tc_summary sum = {
            .format = format ? tc_format_from_name(format) : TC_FORMAT_AUTO,
            .bytes = u64_of(in, "bytes"),
            .errors = u64_of(in, "errors"),
            .warnings = u64_of(in, "warnings"),
            .notes = u64_of(in, "notes"),
        };
        tc_report_set_begin(set, path);
        cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(in, "diagnostics")) {
            tc_diag diag = diag_of(d, path);
            tc_report_set_diag(set, &diag);
        }
        const char *error = string_of(in, "error");
        tc_report_set_end(set, path, status, &sum, error ? error : "");
    }
}

void tc_merge_free(tc_merge *m)
{
    for (size_t i = 0; m->docs && i < m->nshards; i++)
        cJSON_Delete(m->docs[i]);
    free(m->docs);
    free(m->inputs);
    memset(m, 0, sizeof *m);
}
