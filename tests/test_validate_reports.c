/* The reports of `tracecheck validate` (reports/, docs/reports.md), each
 * read back by a parser: JSON and SARIF 2.1.0 with cJSON (SARIF's required
 * structure checked field by field), JUnit XML with a well-formedness
 * checker, TAP 14 with a TAP reader; the per-rule summary; and `-j N`,
 * whose reports must be byte for byte those of -j 1. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "../reports/report.h"
#include "suites.h"
#include "tu.h"
#include "xray/xb.h"

/* Paths and messages with every character the formats must escape: XML
 * markup, a control character, a byte that is not UTF-8, TAP's '#'. */
#define NASTY_PATH "dir/a<&\"'\x01\xff#b.json"
#define NASTY_MESSAGE "bad \x02 <tag> & \"q\" ]]> \\ end"

/* A small invalid XRay trace: a bad microseconds value (an error) and a
 * large delta (a warning). */
static void invalid_trace(xb *x)
{
    xb_init(x, 5, 0);
    xb_header(x, 4096);
    xb_begin(x);
    xb_new_buffer(x, 77);
    xb_wall(x, 1, 1000000);
    xb_pid(x, 88);
    xb_new_cpu(x, 0, 1);
    xb_fn(x, XB_ENTER, 1, 0x90000000u);
    xb_end(x, 0);
}

#define WALLTIME_OFFSET (32 + 16 + 16 + 9)

/* Four inputs through a report set, the way `tracecheck validate` feeds
 * it: the invalid trace twice (two paths), a JSON input with a located
 * error and a nasty name, and one that cannot be read. */
static char *make_report_with(tc_report_kind kind, size_t *len, int summary)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    tc_report_set set;
    CU_ASSERT_FATAL(tc_report_set_init(&set) == 0);
    tc_report_opts ro = {.docs_uri = "https://example.org/tc/", .rule_summary = summary};
    CU_ASSERT_FATAL(tc_report_set_add(&set, kind, f, &ro) == 0);
    tc_report_totals t = {0};
    xb x;
    invalid_trace(&x);
    tc_options opt = TC_OPTIONS_INIT;
    opt.on_diag = tc_report_set_diag;
    opt.user = &set;
    static const char *const traces[] = {"dir/bad.xray", "dir/bad2.xray"};
    for (int i = 0; i < 2; i++) {
        tc_summary sum;
        tc_report_set_begin(&set, traces[i]);
        int rc = tc_validate_buffer(xb_data(&x), xb_len(&x), traces[i], &opt, &sum);
        CU_ASSERT_EQUAL(rc, 1);
        tc_report_set_end(&set, traces[i], rc, &sum, "");
        t.inputs++;
        t.invalid++;
        t.errors += sum.errors;
        t.warnings += sum.warnings;
    }
    tc_report_set_begin(&set, NASTY_PATH);
    tc_diag d = {.rule = tc_rule_find("TC-JSON-SYNTAX"), .severity = TC_ERROR,
                 .input = NASTY_PATH, .offset = 12, .length = 1, .line = 3, .column = 7,
                 .json_path = "$.a", .message = NASTY_MESSAGE};
    tc_report_set_diag(&set, &d);
    tc_diag w = {.rule = tc_rule_find("TC-JSON-BOM"), .severity = TC_WARNING,
                 .input = NASTY_PATH, .offset = 0, .length = 3, .line = 1, .column = 1,
                 .message = "a byte order mark"};
    tc_report_set_diag(&set, &w);
    tc_summary js = {.format = TC_FORMAT_DCFG, .bytes = 40, .errors = 1, .warnings = 1};
    tc_report_set_end(&set, NASTY_PATH, 1, &js, "");
    tc_summary none = {0};
    tc_report_set_begin(&set, "missing.xray");
    tc_report_set_end(&set, "missing.xray", 2, &none, "cannot open: No such file or directory");
    t.inputs += 2;
    t.invalid++;
    t.unreadable++;
    t.errors++;
    t.warnings++;
    t.exit_status = 2;
    tc_report_set_close(&set, &t);
    fclose(f);
    xb_free(&x);
    return text;
}

static char *make_report(tc_report_kind kind, size_t *len)
{
    return make_report_with(kind, len, 0);
}

static cJSON *get(const cJSON *o, const char *path)
{
    /* "a.b.0.c": object keys and array indexes. */
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    const cJSON *cur = o;
    for (char *save = NULL, *k = strtok_r(buf, ".", &save); cur && k; k = strtok_r(NULL, ".", &save))
        cur = (*k >= '0' && *k <= '9') ? cJSON_GetArrayItem(cur, atoi(k))
                                       : cJSON_GetObjectItemCaseSensitive(cur, k);
    return (cJSON *)cur;
}

static const char *str(const cJSON *o, const char *path)
{
    const char *s = cJSON_GetStringValue(get(o, path));
    return s ? s : "(missing)";
}

static double num(const cJSON *o, const char *path)
{
    const cJSON *n = get(o, path);
    return cJSON_IsNumber(n) ? n->valuedouble : -1;
}

/* ---- JSON ---- */

static void test_json_rules(void)
{
    size_t len;
    char *text = make_report(TC_REPORT_JSON, &len);
    cJSON *doc = cJSON_Parse(text);
    CHECK(doc != NULL, "JSON report does not parse:\n%s", text);
    if (doc) {
        CU_ASSERT_EQUAL(num(doc, "report_version"), 3);
        CU_ASSERT_EQUAL(num(doc, "summary.exit_status"), 2);
        /* Errors first, then warnings; the XRay error in 2 inputs. */
        cJSON *rules = get(doc, "rules");
        CU_ASSERT_EQUAL(cJSON_GetArraySize(rules), 4);
        CU_ASSERT_STRING_EQUAL(str(doc, "rules.0.rule"), "XRAY-WALLTIME-USEC");
        CU_ASSERT_STRING_EQUAL(str(doc, "rules.0.severity"), "error");
        CU_ASSERT_EQUAL(num(doc, "rules.0.files"), 2);
        CU_ASSERT_EQUAL(num(doc, "rules.0.findings"), 2);
        CU_ASSERT_EQUAL(cJSON_GetArraySize(get(doc, "rules.0.locations")), 2);
        char loc[64];
        snprintf(loc, sizeof loc, "dir/bad.xray:%d", WALLTIME_OFFSET);
        CU_ASSERT_STRING_EQUAL(str(doc, "rules.0.locations.0"), loc);
        CU_ASSERT_STRING_EQUAL(str(doc, "rules.1.rule"), "TC-JSON-SYNTAX");
        CU_ASSERT_EQUAL(num(doc, "rules.1.files"), 1);
        CU_ASSERT_STRING_EQUAL(str(doc, "rules.2.rule"), "XRAY-TSC-DELTA-LARGE");
        CU_ASSERT_STRING_EQUAL(str(doc, "rules.2.severity"), "warning");
        CU_ASSERT_STRING_EQUAL(str(doc, "rules.3.rule"), "TC-JSON-BOM");
        /* The path's byte that is not UTF-8 became U+FFFD, the rest kept. */
        CU_ASSERT_STRING_EQUAL(str(doc, "inputs.2.path"), "dir/a<&\"'\x01\xef\xbf\xbd#b.json");
        cJSON_Delete(doc);
    }
    free(text);
}

/* ---- SARIF ---- */

static void test_sarif_structure(void)
{
    size_t len;
    char *text = make_report(TC_REPORT_SARIF, &len);
    cJSON *doc = cJSON_Parse(text);
    CHECK(doc != NULL, "SARIF does not parse:\n%s", text);
    if (!doc) {
        free(text);
        return;
    }
    CU_ASSERT_STRING_EQUAL(str(doc, "version"), "2.1.0");
    CHECK(strstr(str(doc, "$schema"), "sarif-schema-2.1.0.json") != NULL, "$schema");
    CU_ASSERT_EQUAL(cJSON_GetArraySize(get(doc, "runs")), 1);
    cJSON *run = get(doc, "runs.0");
    CU_ASSERT_STRING_EQUAL(str(run, "tool.driver.name"), "tracecheck");
    CU_ASSERT_STRING_EQUAL(str(run, "tool.driver.version"), TC_VERSION_STRING);
    CU_ASSERT_STRING_EQUAL(str(run, "tool.driver.informationUri"),
                           "https://example.org/tc/README.md");

    /* The whole catalogue, in its order. */
    cJSON *rules = get(run, "tool.driver.rules");
    CU_ASSERT_FATAL(cJSON_IsArray(rules));
    CU_ASSERT_EQUAL((size_t)cJSON_GetArraySize(rules), tc_rule_count());
    for (size_t i = 0; i < tc_rule_count(); i++) {
        const tc_rule_info *r = tc_rule_at(i);
        cJSON *j = cJSON_GetArrayItem(rules, (int)i);
        if (!j || strcmp(str(j, "id"), r->id)) {
            CHECK(0, "rule %zu is %s, not %s", i, str(j, "id"), r->id);
            break;
        }
        CU_ASSERT_STRING_EQUAL(str(j, "shortDescription.text"), r->summary);
        CU_ASSERT_STRING_EQUAL(str(j, "fullDescription.text"), r->explanation);
        CU_ASSERT_STRING_EQUAL(str(j, "properties.severity"), tc_severity_name(r->severity));
        CU_ASSERT_STRING_EQUAL(str(j, "properties.reference"), r->reference);
        CU_ASSERT_STRING_EQUAL(str(j, "defaultConfiguration.level"),
                               tc_severity_name(r->severity));
        CHECK(strstr(str(j, "helpUri"), "https://example.org/tc/docs/rules/") == str(j, "helpUri"),
              "helpUri %s", str(j, "helpUri"));
    }
    size_t wi = 0;
    while (wi < tc_rule_count() && strcmp(tc_rule_at(wi)->id, "XRAY-WALLTIME-USEC"))
        wi++;
    cJSON *wr = cJSON_GetArrayItem(rules, (int)wi);
    CU_ASSERT_STRING_EQUAL(str(wr, "helpUri"),
                           "https://example.org/tc/docs/rules/xray.md#XRAY-WALLTIME-USEC");

    /* Results: 2 per trace, 2 for the JSON input. */
    cJSON *results = get(run, "results");
    cJSON *artifacts = get(run, "artifacts");
    CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(results), 6);
    cJSON *res;
    cJSON_ArrayForEach(res, results) {
        int ri = (int)num(res, "ruleIndex");
        CU_ASSERT_STRING_EQUAL(str(res, "ruleId"), str(cJSON_GetArrayItem(rules, ri), "id"));
        const char *lv = str(res, "level");
        CHECK(!strcmp(lv, "error") || !strcmp(lv, "warning") || !strcmp(lv, "note"), "level %s",
              lv);
        CU_ASSERT(*str(res, "message.text") != '(');
        cJSON *al = get(res, "locations.0.physicalLocation.artifactLocation");
        int ai = (int)num(al, "index");
        CU_ASSERT_STRING_EQUAL(str(al, "uri"),
                               str(cJSON_GetArrayItem(artifacts, ai), "location.uri"));
        const char *fp = str(res, "partialFingerprints.tracecheck/v1");
        CHECK(strlen(fp) == 16, "fingerprint %s", fp);
    }
    /* A binary input: a byte region. */
    CU_ASSERT_STRING_EQUAL(str(results, "0.ruleId"), "XRAY-WALLTIME-USEC");
    CU_ASSERT_EQUAL(num(results, "0.locations.0.physicalLocation.region.byteOffset"),
                    WALLTIME_OFFSET);
    CU_ASSERT_EQUAL(num(results, "0.locations.0.physicalLocation.region.byteLength"), 4);
    CU_ASSERT_PTR_NULL(get(results, "0.locations.0.physicalLocation.region.startLine"));
    /* The same finding in another file: another fingerprint. */
    CU_ASSERT_STRING_NOT_EQUAL(str(results, "0.partialFingerprints.tracecheck/v1"),
                               str(results, "2.partialFingerprints.tracecheck/v1"));
    /* A JSON input: a line and column, the name percent-encoded. */
    cJSON *jr = cJSON_GetArrayItem(results, 4);
    CU_ASSERT_STRING_EQUAL(str(jr, "ruleId"), "TC-JSON-SYNTAX");
    CU_ASSERT_EQUAL(num(jr, "locations.0.physicalLocation.region.startLine"), 3);
    CU_ASSERT_EQUAL(num(jr, "locations.0.physicalLocation.region.startColumn"), 7);
    CU_ASSERT_PTR_NULL(get(jr, "locations.0.physicalLocation.region.byteOffset"));
    CU_ASSERT_STRING_EQUAL(str(jr, "locations.0.physicalLocation.artifactLocation.uri"),
                           "dir/a%3C%26%22%27%01%FF%23b.json");
    CU_ASSERT_STRING_EQUAL(str(jr, "message.text"), NASTY_MESSAGE);

    /* One artifact per input, the unreadable one included. */
    CU_ASSERT_EQUAL(cJSON_GetArraySize(artifacts), 4);
    CU_ASSERT_STRING_EQUAL(str(artifacts, "3.location.uri"), "missing.xray");
    CU_ASSERT_STRING_EQUAL(str(artifacts, "3.properties.status"), "unreadable");
    CU_ASSERT_EQUAL(num(artifacts, "2.length"), 40);

    CU_ASSERT_EQUAL(num(run, "invocations.0.exitCode"), 2);
    CU_ASSERT(cJSON_IsFalse(get(run, "invocations.0.executionSuccessful")));
    CU_ASSERT_STRING_EQUAL(str(run, "invocations.0.toolExecutionNotifications.0.message.text"),
                           "cannot open: No such file or directory");
    CU_ASSERT_STRING_EQUAL(str(run, "properties.ruleSummary.0.rule"), "XRAY-WALLTIME-USEC");
    CU_ASSERT_EQUAL(num(run, "properties.ruleSummary.0.files"), 2);
    cJSON_Delete(doc);

    /* Stable: the same inputs give the same document. */
    size_t len2;
    char *again = make_report(TC_REPORT_SARIF, &len2);
    CU_ASSERT(len == len2 && memcmp(text, again, len) == 0);
    free(again);
    free(text);
}

/* ---- JUnit XML ---- */

static int name_char(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '-' || c == '.' || c == ':';
}

/* A reference at p ("&lt;", "&#10;"): its length, 0 when malformed. */
static size_t reference(const char *p)
{
    static const char *const named[] = {"&lt;", "&gt;", "&amp;", "&quot;", "&apos;"};
    for (size_t i = 0; i < 5; i++)
        if (!strncmp(p, named[i], strlen(named[i])))
            return strlen(named[i]);
    if (p[1] != '#')
        return 0;
    size_t n = 2, digits = 0;
    int hex = p[2] == 'x';
    if (hex)
        n++;
    for (; (p[n] >= '0' && p[n] <= '9') || (hex && ((p[n] | 32) >= 'a' && (p[n] | 32) <= 'f'));
         n++)
        digits++;
    if (!digits || p[n] != ';')
        return 0;
    long v = strtol(p + (hex ? 3 : 2), NULL, hex ? 16 : 10);
    /* XML 1.0 "Char": no control characters but tab, line feed, return. */
    if (v < 0x20 && v != 9 && v != 10 && v != 13)
        return 0;
    return n + 1;
}

/* Whether s is a well-formed XML 1.0 document as this writer makes them
 * (declaration, comments, elements, attributes, text); why says where not. */
static int xml_wellformed(const char *s, char *why, size_t whylen)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; u[i]; i++) {
        if (u[i] < 0x20 && u[i] != '\t' && u[i] != '\n' && u[i] != '\r') {
            snprintf(why, whylen, "control character 0x%02x at %zu", u[i], i);
            return 0;
        }
        if (u[i] >= 0x80) { /* UTF-8 */
            size_t n = u[i] >= 0xf0 ? 4 : u[i] >= 0xe0 ? 3 : 2;
            if (u[i] < 0xc2 || u[i] > 0xf4) {
                snprintf(why, whylen, "byte 0x%02x at %zu is not UTF-8", u[i], i);
                return 0;
            }
            for (size_t k = 1; k < n; k++)
                if ((u[i + k] & 0xc0) != 0x80) {
                    snprintf(why, whylen, "bad UTF-8 at %zu", i);
                    return 0;
                }
            i += n - 1;
        }
    }
    const char *p = s;
    if (!strncmp(p, "<?xml ", 6)) {
        p = strstr(p, "?>");
        if (!p)
            return 0;
        p += 2;
    }
    char stack[32][64];
    int depth = 0, roots = 0;
    while (*p) {
        if (*p == '<' && !strncmp(p, "<!--", 4)) {
            const char *e = strstr(p + 4, "-->");
            if (!e) {
                snprintf(why, whylen, "unterminated comment");
                return 0;
            }
            p = e + 3;
        } else if (*p == '<' && p[1] == '/') {
            size_t n = 0;
            p += 2;
            while (name_char((unsigned char)p[n]))
                n++;
            if (!depth || strlen(stack[depth - 1]) != n || strncmp(stack[depth - 1], p, n) ||
                p[n] != '>') {
                snprintf(why, whylen, "mismatched end tag at %.30s", p - 2);
                return 0;
            }
            depth--;
            p += n + 1;
        } else if (*p == '<') {
            size_t n = 0;
            p++;
            while (name_char((unsigned char)p[n]))
                n++;
            if (!n || n >= 64 || depth == 32) {
                snprintf(why, whylen, "bad start tag at %.30s", p - 1);
                return 0;
            }
            if (!depth && roots++) {
                snprintf(why, whylen, "a second root element");
                return 0;
            }
            memcpy(stack[depth], p, n);
            stack[depth][n] = '\0';
            p += n;
            for (;;) { /* attributes */
                while (*p == ' ' || *p == '\n')
                    p++;
                if (*p == '>' || (*p == '/' && p[1] == '>'))
                    break;
                size_t an = 0;
                while (name_char((unsigned char)p[an]))
                    an++;
                if (!an || p[an] != '=' || p[an + 1] != '"') {
                    snprintf(why, whylen, "bad attribute at %.30s", p);
                    return 0;
                }
                p += an + 2;
                while (*p && *p != '"') {
                    if (*p == '<') {
                        snprintf(why, whylen, "'<' in an attribute value");
                        return 0;
                    }
                    if (*p == '&') {
                        size_t r = reference(p);
                        if (!r) {
                            snprintf(why, whylen, "bad reference at %.12s", p);
                            return 0;
                        }
                        p += r;
                    } else {
                        p++;
                    }
                }
                if (*p++ != '"') {
                    snprintf(why, whylen, "unterminated attribute");
                    return 0;
                }
            }
            if (*p == '/')
                p += 2;
            else {
                depth++;
                p++;
            }
        } else if (*p == '&') {
            size_t r = reference(p);
            if (!r) {
                snprintf(why, whylen, "bad reference at %.12s", p);
                return 0;
            }
            p += r;
        } else {
            if (!depth && *p != '\n' && *p != ' ') {
                snprintf(why, whylen, "text outside the root at %.20s", p);
                return 0;
            }
            if (*p == '>' && p > s + 2 && p[-1] == ']' && p[-2] == ']') {
                snprintf(why, whylen, "]]> in text");
                return 0;
            }
            p++;
        }
    }
    if (depth || roots != 1) {
        snprintf(why, whylen, "%d elements left open, %d roots", depth, roots);
        return 0;
    }
    return 1;
}

static size_t count_of(const char *s, const char *needle)
{
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

static void test_xml_checker(void)
{
    /* The checker itself rejects what it must. */
    char why[200];
    CU_ASSERT(xml_wellformed("<a b=\"1&amp;\"><c/>t&#10;</a>\n", why, sizeof why));
    CU_ASSERT(!xml_wellformed("<a><b></a></b>", why, sizeof why));
    CU_ASSERT(!xml_wellformed("<a>x & y</a>", why, sizeof why));
    CU_ASSERT(!xml_wellformed("<a b=\"<\"/>", why, sizeof why));
    CU_ASSERT(!xml_wellformed("<a>\x01</a>", why, sizeof why));
    CU_ASSERT(!xml_wellformed("<a>&#1;</a>", why, sizeof why));
    CU_ASSERT(!xml_wellformed("<a>\xff</a>", why, sizeof why));
    CU_ASSERT(!xml_wellformed("<a/><b/>", why, sizeof why));
}

static void test_junit(void)
{
    size_t len;
    char *text = make_report(TC_REPORT_JUNIT, &len);
    char why[200] = "";
    CHECK(xml_wellformed(text, why, sizeof why), "JUnit XML not well-formed: %s\n%s", why, text);
    CU_ASSERT_EQUAL(count_of(text, "<testcase "), 4);
    CU_ASSERT_EQUAL(count_of(text, "<failure "), 3);
    CU_ASSERT_EQUAL(count_of(text, "<error "), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "<testsuites name=\"tracecheck validate\" tests=\"4\" "
                                        "failures=\"3\" errors=\"1\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "<testcase classname=\"xray\" name=\"dir/bad.xray\">"));
    char msg[200];
    snprintf(msg, sizeof msg, "message=\"1 error: XRAY-WALLTIME-USEC at dir/bad.xray:%d\"",
             WALLTIME_OFFSET);
    CHECK(strstr(text, msg) != NULL, "no %s in\n%s", msg, text);
    /* The nasty name escaped: markup as entities, the control character as
     * text, the stray byte as U+FFFD. */
    CHECK(strstr(text, "name=\"dir/a&lt;&amp;&quot;&apos;\\x01\xef\xbf\xbd#b.json\"") != NULL,
          "escaped name in\n%s", text);
    CHECK(strstr(text, "TC-JSON-SYNTAX at dir/a&lt;&amp;&quot;&apos;\\x01\xef\xbf\xbd#b.json:3:7")
              != NULL, "location in\n%s", text);
    /* Warnings go to system-out. */
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "<system-out>dir/bad.xray:"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "warning: XRAY-TSC-DELTA-LARGE"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "<property name=\"rule XRAY-WALLTIME-USEC\" "
                                        "value=\"error: 2 inputs, 2 findings; first at "));
    free(text);
}

/* ---- TAP 14 ---- */

typedef struct tap_parse {
    int version, plan, points, yaml_blocks, not_ok;
    char error[200];
} tap_parse;

/* Reads TAP 14 as a harness does: version line first, test points
 * numbered from 1, YAML blocks after points, one plan that matches. */
static int tap_read(const char *text, tap_parse *t)
{
    memset(t, 0, sizeof *t);
    t->plan = -1;
    int in_yaml = 0, after_point = 0;
    size_t lineno = 0;
    for (const char *p = text; *p; lineno++) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        char line[8192];
        snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), p);
        p += n + (e != NULL);
        if (lineno == 0) {
            t->version = !strcmp(line, "TAP version 14");
            if (!t->version) {
                snprintf(t->error, sizeof t->error, "first line: %s", line);
                return 0;
            }
            continue;
        }
        if (in_yaml) {
            if (!strcmp(line, "  ...")) {
                in_yaml = 0;
                t->yaml_blocks++;
            } else if (strncmp(line, "  ", 2) != 0) {
                snprintf(t->error, sizeof t->error, "YAML line not indented: %s", line);
                return 0;
            }
            continue;
        }
        if (!strcmp(line, "  ---")) {
            if (!after_point) {
                snprintf(t->error, sizeof t->error, "YAML block not after a test point");
                return 0;
            }
            in_yaml = 1;
            after_point = 0;
            continue;
        }
        after_point = 0;
        int num, skip = 0;
        if (!strncmp(line, "not ok ", 7))
            skip = 7, t->not_ok++;
        else if (!strncmp(line, "ok ", 3))
            skip = 3;
        if (skip) {
            if (sscanf(line + skip, "%d", &num) != 1 || num != t->points + 1 ||
                !strstr(line, " - ")) {
                snprintf(t->error, sizeof t->error, "bad test point: %s", line);
                return 0;
            }
            t->points++;
            after_point = 1;
        } else if (!strncmp(line, "1..", 3)) {
            if (t->plan >= 0) {
                snprintf(t->error, sizeof t->error, "two plans");
                return 0;
            }
            t->plan = atoi(line + 3);
        } else if (line[0] != '#') {
            snprintf(t->error, sizeof t->error, "unexpected line: %s", line);
            return 0;
        }
    }
    if (in_yaml || t->plan != t->points) {
        snprintf(t->error, sizeof t->error, "plan %d, %d points", t->plan, t->points);
        return 0;
    }
    return 1;
}

static void test_tap(void)
{
    size_t len;
    char *text = make_report(TC_REPORT_TAP, &len);
    tap_parse t;
    CHECK(tap_read(text, &t), "TAP: %s\n%s", t.error, text);
    CU_ASSERT_EQUAL(t.points, 4);
    CU_ASSERT_EQUAL(t.not_ok, 4);
    CU_ASSERT_EQUAL(t.yaml_blocks, 4);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "not ok 1 - dir/bad.xray\n"));
    /* '#' escaped in the description, so that it is not a directive. */
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "not ok 3 - dir/a<&\"'\x01\xff\\#b.json\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "    - rule: \"XRAY-WALLTIME-USEC\"\n      severity: error\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "  error: \"cannot open: No such file or directory\"\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "# error XRAY-WALLTIME-USEC: 2 inputs, 2 findings;"));
    /* The reader rejects what it must. */
    CU_ASSERT(!tap_read("TAP version 14\nok 2 - x\n1..1\n", &t));
    CU_ASSERT(!tap_read("TAP version 14\nok 1 - x\n1..2\n", &t));
    CU_ASSERT(!tap_read("TAP version 13\nok 1 - x\n1..1\n", &t));
    free(text);
}

/* ---- Markdown and HTML ---- */

/* Every table row of a GFM table has the header's number of cells: pipes
 * that are not escaped with a backslash. */
static int md_pipes(const char *line, const char *end)
{
    int n = 0;
    for (const char *p = line; p < end; p++)
        n += *p == '|' && (p == line || p[-1] != '\\');
    return n;
}

static void check_md_tables(const char *text)
{
    int want = -1;
    for (const char *l = text; *l;) {
        const char *e = strchr(l, '\n');
        if (!e)
            e = l + strlen(l);
        if (*l == '|') {
            int n = md_pipes(l, e);
            if (want < 0)
                want = n;
            CHECK(n == want, "table row of %d cells, the header %d: %.*s", n, want, (int)(e - l), l);
        } else {
            want = -1;
        }
        for (const char *p = l; p < e; p++)
            CHECK((unsigned char)*p >= 0x20, "control character in %.*s", (int)(e - l), l);
        l = *e ? e + 1 : e;
    }
}

static void test_markdown(void)
{
    size_t len;
    char *text = make_report(TC_REPORT_MARKDOWN, &len);
    CU_ASSERT(!strncmp(text, "## tracecheck: failed\n\n4 inputs: 0 valid, 3 invalid, 1 unreadable; "
                             "3 errors, 3 warnings, 0 notes", 80));
    char row[300];
    snprintf(row, sizeof row, "| error | [XRAY-WALLTIME-USEC](https://example.org/tc/docs/rules/"
             "xray.md#XRAY-WALLTIME-USEC) | 2 | 2 | `dir/bad.xray:%d`, `dir/bad2.xray:%d` |\n",
             WALLTIME_OFFSET, WALLTIME_OFFSET);
    CHECK(strstr(text, row) != NULL, "no %s in\n%s", row, text);
    snprintf(row, sizeof row, "| `dir/bad.xray` | **invalid** | xray | 1 | 1 | 0 | error "
             "XRAY-WALLTIME-USEC at `dir/bad.xray:%d` |\n", WALLTIME_OFFSET);
    CHECK(strstr(text, row) != NULL, "no %s in\n%s", row, text);
    /* The control character a space, the stray byte U+FFFD, nothing else
     * changed inside the code span. */
    CHECK(strstr(text, "| `dir/a<&\"' \xef\xbf\xbd#b.json` | **invalid** | dcfg |") != NULL,
          "nasty path row missing:\n%s", text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "| `missing.xray` | **unreadable** | | | | | cannot open: "));
    check_md_tables(text);
    free(text);

    /* A summary stays short: 100 input rows, the rest counted. */
    char *big = NULL;
    FILE *f = open_memstream(&big, &len);
    tc_report_set set;
    CU_ASSERT_FATAL(tc_report_set_init(&set) == 0);
    CU_ASSERT_FATAL(tc_report_set_add(&set, TC_REPORT_MARKDOWN, f, NULL) == 0);
    tc_report_totals t = {.exit_status = 1};
    for (int i = 0; i < 150; i++) {
        char path[32];
        snprintf(path, sizeof path, "in|%d.xray", i);
        tc_report_set_begin(&set, path);
        tc_diag d = {.rule = tc_rule_find("XRAY-WALLTIME-USEC"), .severity = TC_ERROR,
                     .input = path, .offset = 9, .message = "m"};
        tc_report_set_diag(&set, &d);
        tc_summary s = {.format = TC_FORMAT_XRAY, .errors = 1};
        tc_report_set_end(&set, path, 1, &s, "");
        t.inputs++;
        t.invalid++;
        t.errors++;
    }
    tc_report_set_close(&set, &t);
    fclose(f);
    CU_ASSERT_EQUAL(count_of(big, "| **invalid** |"), 100);
    CU_ASSERT_PTR_NOT_NULL(strstr(big, "| `in\\|99.xray` |"));
    CU_ASSERT_PTR_NULL(strstr(big, "in\\|100.xray` |"));
    CU_ASSERT_PTR_NOT_NULL(strstr(big, "\n... and 50 more inputs with findings"));
    check_md_tables(big);
    free(big);
}

static void test_html(void)
{
    size_t len;
    char *text = make_report(TC_REPORT_HTML, &len);
    static const char doctype[] = "<!DOCTYPE html>\n";
    CU_ASSERT_FATAL(!strncmp(text, doctype, sizeof doctype - 1));
    char why[200] = "";
    CHECK(xml_wellformed(text + sizeof doctype - 1, why, sizeof why),
          "HTML page not well-formed XML: %s\n%s", why, text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "<title>tracecheck validate: failed</title>"));
    CU_ASSERT_EQUAL(count_of(text, "<section>"), 4);
    CU_ASSERT_EQUAL(count_of(text, "<tr id="), 4);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "<tr id=\"XRAY-WALLTIME-USEC\"><td class=\"error\">error"
                                        "</td><td><a href=\"https://example.org/tc/docs/rules/"
                                        "xray.md#XRAY-WALLTIME-USEC\">"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "bad ? &lt;tag&gt; &amp; &quot;q&quot; ]]&gt; \\ end"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "<h3>dir/a&lt;&amp;&quot;&#39;?\xef\xbf\xbd#b.json</h3>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "unreadable</span>: cannot open: No such file"));
    free(text);
}

/* --fail-on warning: the exit status of warnings only; the reports alike. */
static void test_fail_on(void)
{
    char prog[4096], cmd[8192];
    if (!tu_program(prog, sizeof prog)) {
        CHECK(0, "no %s: build it (make check-unit does)", prog);
        return;
    }
    static const char *const warns = "conformance/cases/xray/y_xray_v5_event_delta_negative.xray";
    static const struct {
        const char *args;
        int status;
    } runs[] = {
        {"", 0}, {"--fail-on error", 0}, {"--fail-on warning", 1}, {"--fail-on note", 2},
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        snprintf(cmd, sizeof cmd, "'%s' validate -q %s %s >/dev/null 2>&1", prog, runs[i].args,
                 warns);
        int st = system(cmd);
        CHECK(WIFEXITED(st) && WEXITSTATUS(st) == runs[i].status, "%s: status %d, want %d", cmd,
              WEXITSTATUS(st), runs[i].status);
    }
    /* An error stays 1 either way. */
    snprintf(cmd, sizeof cmd, "'%s' validate -q --fail-on warning "
             "conformance/cases/xray/n_xray_v5_walltime_usec_1000000.xray >/dev/null", prog);
    int st = system(cmd);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 1, "%s: status %d", cmd, WEXITSTATUS(st));
}

/* validate --show: the bytes behind the first findings, under each in the
 * text report and in each finding's details in the HTML page; at most N
 * per input, and none for a finding without a place. */
static void test_show(void)
{
    char prog[4096], cmd[8192];
    if (!tu_program(prog, sizeof prog)) {
        CHECK(0, "no %s: build it (make check-unit does)", prog);
        return;
    }
    static const char *const bad = "conformance/cases/xray/n_xray_v5_walltime_usec_1000000.xray";
    char *out = NULL;
    size_t len = 0;
    snprintf(cmd, sizeof cmd, "'%s' validate --show %s", prog, bad);
    FILE *p = popen(cmd, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    FILE *m = open_memstream(&out, &len);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0)
        fwrite(buf, 1, n, m);
    fclose(m);
    int st = pclose(p);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 1, "%s: status %d", cmd, WEXITSTATUS(st));
    const char *finding = strstr(out, ": error: XRAY-WALLTIME-USEC: ");
    const char *view = strstr(out, "> record 3, bytes 64-79 (0x40, 16 bytes): metadata record "
                                   "(WallTimeMarker)\n");
    CHECK(finding && view && finding < view, "no view under the finding:\n%s", out);
    CHECK(strstr(out, "usec                       1000000\n") != NULL, "no usec field:\n%s", out);
    free(out);

    snprintf(cmd, sizeof cmd, "'%s' validate --show=1 --report html -o '%s/show.html' %s", prog,
             tu_tmpdir(), bad);
    st = system(cmd);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 1, "%s: status %d", cmd, WEXITSTATUS(st));
    snprintf(buf, sizeof buf, "%s/show.html", tu_tmpdir());
    uint8_t *bytes = tu_read_file(buf, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(bytes);
    char *html = calloc(len + 1, 1); /* a string: the file has no NUL */
    CU_ASSERT_PTR_NOT_NULL_FATAL(html);
    memcpy(html, bytes, len);
    free(bytes);
    CHECK(strstr(html, "<details><summary>bytes</summary><pre class=\"view\">") != NULL &&
              strstr(html, "&gt; record 3, bytes 64-79") != NULL,
          "no view in the HTML page:\n%s", html);
    free(html);

    snprintf(cmd, sizeof cmd, "'%s' validate --show=0 %s >/dev/null 2>&1", prog, bad);
    st = system(cmd);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 2, "%s: status %d, want 2", cmd, WEXITSTATUS(st));
}

/* ---- text and the summary ---- */

static void test_text_rules(void)
{
    size_t len;
    /* 6 findings: not printed by default (auto), printed when asked. */
    char *text = make_report(TC_REPORT_TEXT, &len);
    CU_ASSERT_PTR_NULL(strstr(text, "rules with findings"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\ntracecheck: 4 inputs, 0 valid, 3 invalid"));
    free(text);
    text = make_report_with(TC_REPORT_TEXT, &len, 1);
    const char *head = strstr(text, "rules with findings (most severe, then most frequent first):\n");
    CHECK(head != NULL, "no rule summary in\n%s", text);
    if (head) {
        const char *a = strstr(head, "XRAY-WALLTIME-USEC"), *b = strstr(head, "TC-JSON-SYNTAX"),
                   *c = strstr(head, "XRAY-TSC-DELTA-LARGE"), *d = strstr(head, "TC-JSON-BOM");
        CU_ASSERT(a && b && c && d && a < b && b < c && c < d);
        CU_ASSERT_PTR_NOT_NULL(strstr(head, "2 inputs, 2 findings; first at dir/bad.xray:"));
        /* Summary lines are not finding lines. */
        CU_ASSERT_PTR_NULL(strstr(head, ": error: "));
    }
    free(text);
}

/* Findings held back by --max-repeats count in their rule's summary: the
 * number comes from the summary's fields, not from its message. */
static void test_tally_suppressed(void)
{
    tc_rule_tally t;
    CU_ASSERT_FATAL(tc_rule_tally_init(&t) == 0);
    tc_rule_tally_next_input(&t);
    tc_diag d = {.rule = tc_rule_find("XRAY-WALLTIME-USEC"), .severity = TC_ERROR,
                 .input = "a", .offset = 5, .message = "m"};
    tc_rule_tally_diag(&t, &d);
    tc_diag s = {.rule = tc_rule_find("TC-DIAG-SUPPRESSED"),
                 .severity = TC_NOTE,
                 .input = "a",
                 .unlocated = 1,
                 .message = "m",
                 .summarises = tc_rule_find("XRAY-WALLTIME-USEC"),
                 .suppressed = 41};
    tc_rule_tally_diag(&t, &s);
    size_t n;
    const tc_rule_stat **v = tc_rule_tally_sorted(&t, &n);
    CU_ASSERT_EQUAL_FATAL(n, 1);
    CU_ASSERT_STRING_EQUAL(v[0]->rule->id, "XRAY-WALLTIME-USEC");
    CU_ASSERT_EQUAL(v[0]->findings, 42);
    CU_ASSERT_EQUAL(v[0]->files, 1);
    CU_ASSERT_STRING_EQUAL(v[0]->loc[0], "a:5");
    free(v);
    tc_rule_tally_free(&t);
}

/* ---- -j N ---- */

static char *slurp(const char *path, size_t *n)
{
    uint8_t *p = tu_read_file(path, n);
    return (char *)p;
}

/* The text report without the time it took (its last line's end). */
static void drop_timing(char *text, size_t *n)
{
    char *t = strrchr(text, '(');
    if (t && strstr(t, " s)\n")) {
        *t = '\0';
        *n = (size_t)(t - text);
    }
}

static void test_jobs_identical(void)
{
    char prog[4096], cmd[16384];
    if (!tu_program(prog, sizeof prog)) {
        CHECK(0, "no %s: build it (make check-unit does)", prog);
        return;
    }
    static const char *const cases =
        "conformance/cases/xray conformance/cases/perf conformance/cases/dcfg "
        "conformance/cases/dcfg-trace conformance/cases/dcfg-pair conformance/cases/common "
        "conformance/cases/ovni/*/";
    static const char *const jobs[] = {"1", "4"};
    char dirs[2][600];
    for (int i = 0; i < 2; i++) {
        snprintf(dirs[i], sizeof dirs[i], "%s/jobs-%s", tu_tmpdir(), jobs[i]);
        snprintf(cmd, sizeof cmd, "'%s' validate -q --color never -j %s --report-dir '%s' %s "
                 "> '%s.stdout' 2>&1", prog, jobs[i], dirs[i], cases, dirs[i]);
        int st = system(cmd);
        /* 1: the cases include invalid ones; anything else is trouble. */
        CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 1, "%s: status %d", cmd, st);
    }
    static const char *const exts[] = {"txt", "json", "xml", "sarif", "tap", "md", "html"};
    for (size_t k = 0; k < sizeof exts / sizeof exts[0]; k++) {
        char a[700], b[700];
        snprintf(a, sizeof a, "%s/validate.%s", dirs[0], exts[k]);
        snprintf(b, sizeof b, "%s/validate.%s", dirs[1], exts[k]);
        size_t na = 0, nb = 0;
        char *ta = slurp(a, &na), *tb = slurp(b, &nb);
        CHECK(ta && tb && na > 1000, "%s or %s missing or short", a, b);
        if (ta && tb) {
            if (k == 0) {
                drop_timing(ta, &na);
                drop_timing(tb, &nb);
            }
            CHECK(na == nb && memcmp(ta, tb, na) == 0, "-j 1 and -j 4 differ: %s %s", a, b);
        }
        free(ta);
        free(tb);
    }
    /* Many inputs, each (a DCFG paired with traces included) reported once. */
    char jpath[700];
    snprintf(jpath, sizeof jpath, "%s/validate.json", dirs[1]);
    size_t n = 0;
    char *json = slurp(jpath, &n);
    cJSON *doc = json ? cJSON_Parse(json) : NULL;
    CHECK(doc != NULL, "%s does not parse", jpath);
    if (doc) {
        cJSON *inputs = get(doc, "inputs");
        int count = cJSON_GetArraySize(inputs);
        CHECK(count > 1000, "%d inputs", count);
        int dcfgs = 0, dup = 0;
        for (int i = 0; i < count && !dup; i++) {
            const char *pi = str(cJSON_GetArrayItem(inputs, i), "path");
            dcfgs += strstr(pi, "dcfg-pair/") && strstr(pi, ".dcfg.json");
            for (int j = i + 1; j < count && !dup; j++)
                if (!strcmp(pi, str(cJSON_GetArrayItem(inputs, j), "path"))) {
                    CHECK(0, "%s reported twice", pi);
                    dup = 1;
                }
        }
        CHECK(dcfgs > 10, "%d paired DCFGs", dcfgs);
        cJSON_Delete(doc);
    }
    free(json);
}

static const tu_test tests[] = {
    {"JSON per-rule summary", test_json_rules},
    {"SARIF 2.1.0 structure", test_sarif_structure},
    {"XML checker", test_xml_checker},
    {"JUnit XML", test_junit},
    {"TAP 14", test_tap},
    {"Markdown summary", test_markdown},
    {"HTML page", test_html},
    {"show", test_show},
    {"--fail-on", test_fail_on},
    {"text per-rule summary", test_text_rules},
    {"suppressed findings counted", test_tally_suppressed},
    {"-j 1 and -j 4 identical", test_jobs_identical},
    {NULL, NULL},
};

void register_validate_reports_suite(void) { tu_add_suite("validate_reports", tests); }
