/* ovni metadata (stream.json, ruling 6): every OVNI-META rule with the values
 * its messages carry and where it points (line:column and JSON path), wrong
 * types that are not also reported missing, rank/nranks, require versions,
 * the forms of loom_cpus, unknown keys, parts other than threads, and what
 * tc_ovni_meta_read hands the trace checks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/ovni/ovni_meta.h"
#include "../ot.h"
#include "../suites.h"

/* Reads json as stream.json; the findings go to r, the summary to m. */
static void meta(const char *json, ot_result *r, tc_ovni_meta *m)
{
    ot_free(r);
    tc_reader rd;
    tc_reader_init_memory(&rd, json, strlen(json));
    tc_diag_sink s;
    ot_sink(&s, "stream.json", r);
    tc_ovni_meta_read(&rd, &s, m);
}

/* A thread stream's metadata with one ovni member replaced or added:
 * `member` is "key": value, or "" for none; the defaults are left out when
 * the member names them. */
static char *thread_with(const char *member)
{
    static const char *const defaults[] = {"\"part\": \"thread\"", "\"tid\": 11", "\"pid\": 10",
                                           "\"loom\": \"node\"", "\"require\": {\"ovni\": \"1.0.0\"}",
                                           "\"finished\": 1"};
    tu_bytes b = {0};
    tu_bytes_append(&b, "{\"version\": 3, \"ovni\": {", 24);
    for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++) {
        const char *colon = strchr(defaults[i], ':');
        if (*member && !strncmp(member, defaults[i], (size_t)(colon - defaults[i])))
            continue;
        if (b.len > 24)
            tu_bytes_append(&b, ", ", 2);
        tu_bytes_append(&b, defaults[i], strlen(defaults[i]));
    }
    if (*member) {
        tu_bytes_append(&b, ", ", 2);
        tu_bytes_append(&b, member, strlen(member));
    }
    tu_bytes_append(&b, "}}", 3);
    return (char *)b.p;
}

static const ot_diag *one(const ot_result *r, const char *rule, const char *needle,
                          const char *path, const char *what)
{
    CHECK(r->n == 1 && !strcmp(r->d[0].rule->id, rule), "%s: expected one %s, got%s", what, rule,
          ot_describe(r));
    const ot_diag *d = ot_find(r, rule, needle);
    CHECK(d != NULL, "%s: no %s saying \"%s\":%s", what, rule, needle ? needle : "", ot_describe(r));
    if (d && path)
        CHECK(d->path && !strcmp(d->path, path), "%s: %s at path %s, expected %s", what, rule,
              d->path ? d->path : "(none)", path);
    if (d)
        CHECK(d->line >= 1 && d->column >= 1, "%s: no line:column", what);
    return d;
}

/* ---- a valid example ---- */

static void test_spec_example(void)
{
    /* The example of the trace specification, as libovni writes it. */
    const char *json =
        "{\n    \"version\": 3,\n    \"ovni\": {\n        \"lib\": {\n"
        "            \"version\": \"1.10.0\",\n            \"commit\": \"dirty\"\n        },\n"
        "        \"part\": \"thread\",\n        \"tid\": 89719,\n        \"pid\": 89719,\n"
        "        \"loom\": \"mio.nosv-u1000\",\n        \"app_id\": 1,\n"
        "        \"require\": {\n            \"ovni\": \"1.1.0\",\n            \"nosv\": \"2.3.0\"\n"
        "        },\n        \"loom_cpus\": [\n            { \"index\": 0, \"phyid\": 0 },\n"
        "            { \"index\": 1, \"phyid\": 1 },\n            { \"index\": 2, \"phyid\": 2 },\n"
        "            { \"index\": 3, \"phyid\": 3 }\n        ],\n        \"finished\": 1\n    },\n"
        "    \"nosv\": {\n        \"can_breakdown\": false,\n        \"lib_version\": \"2.3.1\"\n    }\n}\n";
    ot_result r = {0};
    tc_ovni_meta m;
    meta(json, &r, &m);
    CHECK(r.n == 0, "spec example:%s", ot_describe(&r));
    CU_ASSERT(m.readable && m.thread);
    CU_ASSERT(m.has_tid && m.tid == 89719 && m.has_pid && m.pid == 89719);
    CU_ASSERT(m.has_loom && !strcmp(m.loom, "mio.nosv-u1000"));
    CU_ASSERT(m.has_app_id && m.app_id == 1 && !m.has_rank && !m.has_nranks);
    CHECK(m.has_cpus && m.ncpus == 4 && m.cpus[3].index == 3 && m.cpus[3].phyid == 3, "cpus %zu",
          m.ncpus);
    CU_ASSERT(m.models.known && m.models.letters['V'] && !m.models.letters['6'] &&
              !m.models.unknown_required);
    CU_ASSERT_STRING_EQUAL(m.models.names, "ovni, nosv");
    /* Where the values were, for findings about the whole trace. */
    CHECK(m.tid_at.set && m.tid_at.line == 9 && m.tid_at.column == 16 &&
              !strcmp(m.tid_at.path, "$.ovni.tid"),
          "tid at %u:%u %s", m.tid_at.line, m.tid_at.column, m.tid_at.path);
    CHECK(m.cpus_at.set && m.cpus_at.line == 17 && !strcmp(m.cpus_at.path, "$.ovni.loom_cpus"),
          "loom_cpus at %u:%u %s", m.cpus_at.line, m.cpus_at.column, m.cpus_at.path);
    tc_ovni_meta_free(&m);
    ot_free(&r);
}

/* ---- the document as a whole ---- */

static void test_not_object(void)
{
    static const struct {
        const char *json, *needle;
    } cases[] = {
        {"[]", "holds an array"},
        {"[{\"version\": 3}]", "holds an array"},
        {"3", "holds an integer"},
        {"\"ovni\"", "holds a string"},
        {"null", "holds null"},
        {"true", "holds a boolean"},
        {"1.5", "holds a number with a fraction"},
    };
    ot_result r = {0};
    tc_ovni_meta m;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        meta(cases[i].json, &r, &m);
        one(&r, "OVNI-META-NOT-OBJECT", cases[i].needle, "$", cases[i].json);
        CU_ASSERT(!m.thread);
        tc_ovni_meta_free(&m);
    }
    /* JSON errors are the TC-JSON rules, and nothing more: the metadata
     * could not be read, so nothing is "missing". */
    static const struct {
        const char *json, *rule;
    } bad[] = {
        {"", "TC-JSON-SYNTAX"},
        {"{\"version\": 3, \"ovni\": {\"part\": \"thread\",}}", "TC-JSON-SYNTAX"},
        {"{\"version\": 3, // libovni's parser takes this\n \"ovni\": {}}", "TC-JSON-COMMENT"},
        {"{\"version\": 3, \"ovni\": {\"part\": \"x\", \"require\": {}, \"finished\": 1}} {}", "TC-JSON-TRAILING"},
        {"{\"version\": 3, \"ovni\": {\"loom\": \"\xff\"}}", "TC-JSON-ENCODING"},
        {"{\"version\": 3, \"ovni\": {\"part\": \"thread\", \"tid\": 1, \"pid\": 1", "TC-JSON-SYNTAX"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        meta(bad[i].json, &r, &m);
        CHECK(r.n == 1 && !strcmp(r.d[0].rule->id, bad[i].rule), "%s:%s", bad[i].json,
              ot_describe(&r));
        CU_ASSERT(!m.readable);
        tc_ovni_meta_free(&m);
    }
    /* A BOM is a warning; the metadata is read all the same. */
    meta("\xef\xbb\xbf{\"version\": 3, \"ovni\": {\"part\": \"x\", \"require\": {}, \"finished\": 1}}",
         &r, &m);
    OT_RULES(&r, "TC-JSON-BOM");
    CU_ASSERT(m.readable);
    tc_ovni_meta_free(&m);
    /* A duplicate key is reported, and the document read on. */
    char *j = thread_with("\"tid\": 12, \"tid\": 0");
    meta(j, &r, &m);
    OT_RULES(&r, "TC-JSON-DUPLICATE-KEY OVNI-META-ID");
    free(j);
    tc_ovni_meta_free(&m);
    ot_free(&r);
}

static void test_version(void)
{
    static const struct {
        const char *value, *needle;
    } cases[] = {
        {"3.0", "version is 3.0; the integer 3 is required"},
        {"3e0", "version is 3e0"},
        {"2", "version is 2;"},
        {"4", "version is 4;"},
        {"-3", "version is -3"},
        {"30000000000000000000000", "version is 30000000000000000000000"},
        {"\"3\"", "version is a string"},
        {"null", "version is null"},
        {"[3]", "version is an array"},
        {"{\"v\": 3}", "version is an object"},
    };
    ot_result r = {0};
    tc_ovni_meta m;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char json[512];
        snprintf(json, sizeof json,
                 "{\"version\": %s, \"ovni\": {\"part\": \"x\", \"require\": {}, \"finished\": 1}}",
                 cases[i].value);
        meta(json, &r, &m);
        const ot_diag *d = one(&r, "OVNI-META-VERSION", cases[i].needle, "$.version", cases[i].value);
        if (d)
            CHECK(d->offset == 12, "%s: at %llu", cases[i].value, (unsigned long long)d->offset);
        CU_ASSERT(m.readable);
        tc_ovni_meta_free(&m);
    }
    /* Missing: reported against the object. */
    meta("{\"ovni\": {\"part\": \"x\", \"require\": {}, \"finished\": 1}}", &r, &m);
    const ot_diag *d = one(&r, "OVNI-META-VERSION", "version is missing", "$", "no version");
    if (d)
        CU_ASSERT_EQUAL(d->offset, 0);
    tc_ovni_meta_free(&m);
    /* Anywhere in the object; other top-level keys are other models'. */
    meta("{\"nosv\": {\"x\": [1, {}]}, \"ovni\": {\"part\": \"x\", \"require\": {}, "
         "\"finished\": 1}, \"zzz\": null, \"version\": 3}",
         &r, &m);
    CHECK(r.n == 0, "version last:%s", ot_describe(&r));
    tc_ovni_meta_free(&m);
    ot_free(&r);
}

/* ---- keys: missing, wrong types ---- */

static void test_missing(void)
{
    ot_result r = {0};
    tc_ovni_meta m;
    meta("{\"version\": 3}", &r, &m);
    one(&r, "OVNI-META-MISSING", "the ovni object", "$", "no ovni");
    tc_ovni_meta_free(&m);

    /* Every stream: part, finished, require; reported against the object. */
    meta("{\"version\": 3, \"ovni\": {}}", &r, &m);
    OT_RULES(&r, "OVNI-META-MISSING OVNI-META-MISSING OVNI-META-MISSING");
    OT_MSG(&r, "OVNI-META-MISSING", "ovni.part is missing");
    OT_MSG(&r, "OVNI-META-MISSING", "ovni.finished is missing");
    OT_MSG(&r, "OVNI-META-MISSING", "ovni.require is missing");
    for (size_t i = 0; i < r.n; i++)
        CHECK(r.d[i].offset == 23 && !strcmp(r.d[i].path, "$.ovni"), "%s at %llu %s",
              r.d[i].message, (unsigned long long)r.d[i].offset, r.d[i].path);
    tc_ovni_meta_free(&m);

    /* A thread stream also needs tid, pid and loom; each says so. */
    static const char *const keys[] = {"tid", "pid", "loom"};
    for (size_t k = 0; k < 3; k++)
        for (int no_finished = 0; no_finished <= 1; no_finished++) {
            char json[512] = "{\"version\": 3, \"ovni\": {\"part\": \"thread\", \"require\": {}";
            for (size_t o = 0; o < 3; o++)
                if (o != k)
                    strcat(json, o == 2 ? ", \"loom\": \"l\"" : o ? ", \"pid\": 1" : ", \"tid\": 1");
            strcat(json, no_finished ? "}}" : ", \"finished\": 1}}");
            meta(json, &r, &m);
            char needle[96];
            snprintf(needle, sizeof needle, "ovni.%s is missing (mandatory in a thread stream)",
                     keys[k]);
            OT_MSG(&r, "OVNI-META-MISSING", needle);
            CU_ASSERT_EQUAL(r.n, (size_t)(1 + no_finished));
            if (no_finished)
                OT_MSG(&r, "OVNI-META-MISSING", "ovni.finished is missing");
            tc_ovni_meta_free(&m);
        }
    /* All of them, in a fixed order. */
    meta("{\"version\": 3, \"ovni\": {\"part\": \"thread\"}}", &r, &m);
    OT_RULES(&r, "OVNI-META-MISSING OVNI-META-MISSING OVNI-META-MISSING OVNI-META-MISSING OVNI-META-MISSING");
    CU_ASSERT(r.n == 5 && strstr(r.d[2].message, "ovni.tid is missing (mandatory in a thread stream)") &&
              strstr(r.d[4].message, "ovni.loom is missing (mandatory in a thread stream)"));
    tc_ovni_meta_free(&m);

    /* Parts other than threads need none of the thread keys, and their
     * thread keys are not checked as a thread's. */
    static const char *const parts[] = {"process", "loom", "cpu", "", "Thread"};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        char json[256];
        snprintf(json, sizeof json,
                 "{\"version\": 3, \"ovni\": {\"part\": \"%s\", \"require\": {}, \"finished\": 1}}",
                 parts[i]);
        meta(json, &r, &m);
        CHECK(r.n == 0 && !m.thread && m.readable, "part \"%s\":%s", parts[i], ot_describe(&r));
        tc_ovni_meta_free(&m);
    }
    ot_free(&r);
}

static void test_wrong_types(void)
{
    static const struct {
        const char *member, *needle, *path;
    } cases[] = {
        {"\"part\": 1", "ovni.part is an integer; a string is required", "$.ovni.part"},
        {"\"part\": null", "ovni.part is null", "$.ovni.part"},
        {"\"loom\": 5", "ovni.loom is an integer; a string is required", "$.ovni.loom"},
        {"\"loom\": [\"a\"]", "ovni.loom is an array", "$.ovni.loom"},
        {"\"tid\": \"11\"", "ovni.tid is a string; an integer is required", "$.ovni.tid"},
        {"\"tid\": 11.0", "ovni.tid is a number with a fraction or exponent", "$.ovni.tid"},
        {"\"pid\": 1e1", "ovni.pid is a number with a fraction or exponent", "$.ovni.pid"},
        {"\"pid\": {}", "ovni.pid is an object", "$.ovni.pid"},
        {"\"app_id\": true", "ovni.app_id is a boolean", "$.ovni.app_id"},
        {"\"rank\": \"0\", \"nranks\": 2", "ovni.rank is a string", "$.ovni.rank"},
        {"\"rank\": 0, \"nranks\": null", "ovni.nranks is null", "$.ovni.nranks"},
        {"\"rank\": 0.5, \"nranks\": 2", "ovni.rank is a number with a fraction", "$.ovni.rank"},
        {"\"require\": [\"ovni\"]", "ovni.require is an array", "$.ovni.require"},
        {"\"require\": \"1.0.0\"", "ovni.require is a string", "$.ovni.require"},
        {"\"loom_cpus\": {\"index\": 0, \"phyid\": 0}", "ovni.loom_cpus is an object", "$.ovni.loom_cpus"},
        {"\"loom_cpus\": 4", "ovni.loom_cpus is an integer", "$.ovni.loom_cpus"},
    };
    ot_result r = {0};
    tc_ovni_meta m;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *json = thread_with(cases[i].member);
        meta(json, &r, &m);
        /* One finding: the wrong type, never also "missing". */
        one(&r, "OVNI-META-TYPE", cases[i].needle, cases[i].path, cases[i].member);
        CU_ASSERT(m.readable);
        free(json);
        tc_ovni_meta_free(&m);
    }
    /* The ovni object itself. */
    meta("{\"version\": 3, \"ovni\": [\"part\", \"thread\"]}", &r, &m);
    one(&r, "OVNI-META-TYPE", "ovni is an array; an object is required", "$.ovni", "ovni array");
    tc_ovni_meta_free(&m);
    ot_free(&r);
}

/* ---- values ---- */

static void test_finished(void)
{
    static const struct {
        const char *value, *needle;
    } cases[] = {
        {"0", "ovni.finished is 0; the integer 1 marks a complete stream"},
        {"2", "ovni.finished is 2;"},
        {"-1", "ovni.finished is -1;"},
        {"1.0", "ovni.finished is 1.0;"},
        {"1e0", "ovni.finished is 1e0;"},
        {"18446744073709551617", "ovni.finished is 18446744073709551617;"},
        {"\"1\"", "ovni.finished is a string"},
        {"true", "ovni.finished is a boolean"},
        {"null", "ovni.finished is null"},
        {"[1]", "ovni.finished is an array"},
    };
    ot_result r = {0};
    tc_ovni_meta m;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char member[128];
        snprintf(member, sizeof member, "\"finished\": %s", cases[i].value);
        char *json = thread_with(member);
        meta(json, &r, &m);
        one(&r, "OVNI-META-FINISHED", cases[i].needle, "$.ovni.finished", member);
        free(json);
        tc_ovni_meta_free(&m);
    }
    ot_free(&r);
}

static void test_ids(void)
{
    static const char *const keys[] = {"tid", "pid", "app_id"};
    static const struct {
        const char *value;
        int ok;
    } values[] = {
        {"1", 1}, {"2147483647", 1}, {"0", 0}, {"-1", 0}, {"-2147483648", 0},
        {"2147483648", 0}, {"4294967297", 0}, {"99999999999999999999", 0},
    };
    ot_result r = {0};
    tc_ovni_meta m;
    for (size_t k = 0; k < 3; k++)
        for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
            char member[128], needle[128], path[64];
            snprintf(member, sizeof member, "\"%s\": %s", keys[k], values[i].value);
            char *json = thread_with(member);
            meta(json, &r, &m);
            int64_t got = k == 0 ? m.tid : k == 1 ? m.pid : m.app_id;
            int has = k == 0 ? m.has_tid : k == 1 ? m.has_pid : m.has_app_id;
            if (values[i].ok) {
                CHECK(r.n == 0 && has && got == strtoll(values[i].value, NULL, 10), "%s:%s", member,
                      ot_describe(&r));
            } else {
                snprintf(needle, sizeof needle, "ovni.%s is %s; it must be from 1 to 2147483647",
                         keys[k], values[i].value);
                snprintf(path, sizeof path, "$.ovni.%s", keys[k]);
                one(&r, "OVNI-META-ID", needle, path, member);
                /* A bad id is present (not missing) but not used. */
                CHECK(!has, "%s: taken as %lld", member, (long long)got);
            }
            free(json);
            tc_ovni_meta_free(&m);
        }
    ot_free(&r);
}

static void test_loom(void)
{
    static const struct {
        const char *value, *needle;
    } bad[] = {
        {"\"\"", "ovni.loom is \"\"; a loom name is a directory name: not empty, no '/' and no NUL"},
        {"\"a/b\"", "ovni.loom is \"a/b\""},
        {"\"/\"", "ovni.loom is \"/\""},
        {"\"node\\/1\"", "ovni.loom is \"node/1\""},
    };
    ot_result r = {0};
    tc_ovni_meta m;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char member[128];
        snprintf(member, sizeof member, "\"loom\": %s", bad[i].value);
        char *json = thread_with(member);
        meta(json, &r, &m);
        one(&r, "OVNI-META-LOOM", bad[i].needle, "$.ovni.loom", member);
        CU_ASSERT(!m.has_loom);
        free(json);
        tc_ovni_meta_free(&m);
    }
    /* Dots, spaces, non-ASCII and a long name are fine. */
    char longname[400];
    memset(longname, 'n', 300);
    longname[300] = '\0';
    static const char *const good[] = {"mio.nosv-u1000", "a b", "n\xc3\xb3\x64o", "."};
    for (size_t i = 0; i < 5; i++) {
        char member[512];
        snprintf(member, sizeof member, "\"loom\": \"%s\"", i < 4 ? good[i] : longname);
        char *json = thread_with(member);
        meta(json, &r, &m);
        CHECK(r.n == 0 && m.has_loom && !strncmp(m.loom, i < 4 ? good[i] : longname, sizeof m.loom - 1),
              "%s:%s", member, ot_describe(&r));
        free(json);
        tc_ovni_meta_free(&m);
    }
    ot_free(&r);
}

static void test_rank(void)
{
    static const struct {
        const char *members, *needle, *path;
    } bad[] = {
        {"\"rank\": 0", "ovni.rank is given without ovni.nranks", "$.ovni.rank"},
        {"\"nranks\": 4", "ovni.nranks is given without ovni.rank", "$.ovni.nranks"},
        {"\"rank\": -1, \"nranks\": 4", "ovni.rank is -1 with ovni.nranks 4; 0 <= rank < nranks", "$.ovni.rank"},
        {"\"rank\": 4, \"nranks\": 4", "ovni.rank is 4 with ovni.nranks 4", "$.ovni.rank"},
        {"\"nranks\": 4, \"rank\": 5", "ovni.rank is 5 with ovni.nranks 4", "$.ovni.rank"},
        {"\"rank\": 0, \"nranks\": 0", "ovni.rank is 0 with ovni.nranks 0", "$.ovni.rank"},
        {"\"rank\": 0, \"nranks\": -2", "ovni.rank is 0 with ovni.nranks -2", "$.ovni.rank"},
        {"\"rank\": 99999999999999999999, \"nranks\": 4", "ovni.rank is 99999999999999999999, out of range", "$.ovni.rank"},
        {"\"rank\": 0, \"nranks\": 99999999999999999999", "ovni.nranks is 99999999999999999999, out of range", "$.ovni.nranks"},
    };
    ot_result r = {0};
    tc_ovni_meta m;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *json = thread_with(bad[i].members);
        meta(json, &r, &m);
        one(&r, "OVNI-META-RANK", bad[i].needle, bad[i].path, bad[i].members);
        free(json);
        tc_ovni_meta_free(&m);
    }
    static const char *const good[] = {"\"rank\": 0, \"nranks\": 1", "\"rank\": 3, \"nranks\": 4",
                                       "\"nranks\": 2, \"rank\": 1",
                                       "\"rank\": 9223372036854775806, \"nranks\": 9223372036854775807"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        char *json = thread_with(good[i]);
        meta(json, &r, &m);
        CHECK(r.n == 0 && m.has_rank && m.has_nranks, "%s:%s", good[i], ot_describe(&r));
        free(json);
        tc_ovni_meta_free(&m);
    }
    ot_free(&r);
}

/* Ruling 9: ovni's own model at a version libovni 1.14 (OVNI_MODEL_VERSION
 * 1.1.0) is not compatible with: another major, a higher minor. */
static void test_require_version(void)
{
    static const struct {
        const char *version;
        int compatible;
    } cases[] = {
        {"1.1.0", 1}, {"1.0.0", 1}, {"1.1.99", 1}, {"1.0.7", 1}, {"01.001.0", 1}, {"1.2.0", 0},
        {"1.10.0", 0}, {"2.0.0", 0}, {"0.1.0", 0}, {"0.9.9", 0}, {"2147483647.0.0", 0},
    };
    ot_result r = {0};
    tc_ovni_meta m;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char member[256];
        snprintf(member, sizeof member, "\"require\": {\"nosv\": \"2.6.0\", \"ovni\": \"%s\"}",
                 cases[i].version);
        char *json = thread_with(member);
        meta(json, &r, &m);
        if (cases[i].compatible) {
            CHECK(r.n == 0, "%s:%s", member, ot_describe(&r));
        } else {
            char needle[256];
            snprintf(needle, sizeof needle, "ovni.require.ovni is \"%s\", but the ovni model is "
                     "1.1.0 here: a compatible version has major 1 and minor 1 or lower; the "
                     "events of the ovni model in this stream are not judged",
                     cases[i].version);
            one(&r, "OVNI-REQUIRE-VERSION", needle, "$.ovni.require.ovni", member);
        }
        CHECK(m.models.incompatible['O'] == !cases[i].compatible, "%s: incompatible %d", member,
              m.models.incompatible['O']);
        CU_ASSERT(m.models.letters['O'] && m.models.letters['V'] && !m.models.incompatible['V']);
        free(json);
        tc_ovni_meta_free(&m);
    }
    /* Ruling 15: every model of ovniemu 1.14.0 is checked at that
     * emulator's version, as ovni's own is. */
    static const struct {
        const char *name, *good, *bad, *needle;
        char letter;
    } others[] = {
        {"nosv", "2.7.0", "1.0.0", "ovni.require.nosv is \"1.0.0\", but the nosv model is 2.7.0 "
         "here: a compatible version has major 2 and minor 7 or lower; the events of the nosv "
         "model in this stream are not judged", 'V'},
        {"nosv", "2.0.9", "2.8.0", "ovni.require.nosv is \"2.8.0\", but the nosv model is 2.7.0", 'V'},
        {"nanos6", "1.1.0", "1.2.0", "ovni.require.nanos6 is \"1.2.0\", but the nanos6 model is 1.1.0 "
         "here: a compatible version has major 1 and minor 1 or lower", '6'},
        {"nodes", "1.0.5", "1.1.0", "ovni.require.nodes is \"1.1.0\", but the nodes model is 1.0.0 "
         "here: a compatible version has major 1 and minor 0 or lower", 'D'},
        {"tampi", "1.0.0", "0.1.0", "ovni.require.tampi is \"0.1.0\", but the tampi model is 1.0.0", 'T'},
        {"mpi", "1.0.0", "2.0.0", "ovni.require.mpi is \"2.0.0\", but the mpi model is 1.0.0", 'M'},
        {"openmp", "1.2.1", "1.3.0", "ovni.require.openmp is \"1.3.0\", but the openmp model is 1.2.1 "
         "here: a compatible version has major 1 and minor 2 or lower", 'P'},
        {"kernel", "1.0.0", "99.0.0", "ovni.require.kernel is \"99.0.0\", but the kernel model is "
         "1.0.0 here: a compatible version has major 1 and minor 0 or lower; the events of the "
         "kernel model in this stream are not judged", 'K'},
    };
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        for (int bad = 0; bad <= 1; bad++) {
            char member[256], path[64];
            snprintf(member, sizeof member, "\"require\": {\"ovni\": \"1.1.0\", \"%s\": \"%s\"}",
                     others[i].name, bad ? others[i].bad : others[i].good);
            snprintf(path, sizeof path, "$.ovni.require.%s", others[i].name);
            char *json = thread_with(member);
            meta(json, &r, &m);
            if (bad)
                one(&r, "OVNI-REQUIRE-VERSION", others[i].needle, path, member);
            else
                CHECK(r.n == 0, "%s:%s", member, ot_describe(&r));
            unsigned char l = (unsigned char)others[i].letter;
            CHECK(m.models.letters[l] && m.models.incompatible[l] == bad && !m.models.incompatible['O'],
                  "%s: letter %c incompatible %d", member, others[i].letter, m.models.incompatible[l]);
            free(json);
            tc_ovni_meta_free(&m);
        }
    /* Models tracecheck does not know: any version is taken. */
    char *json = thread_with("\"require\": {\"ovni\": \"1.1.0\", \"futuremodel\": \"99.0.0\"}");
    meta(json, &r, &m);
    CHECK(r.n == 0 && m.models.unknown_required, "unknown model's version:%s", ot_describe(&r));
    free(json);
    tc_ovni_meta_free(&m);
    /* A version that is no version: OVNI-META-REQUIRE alone (compatibility
     * cannot be told). */
    json = thread_with("\"require\": {\"ovni\": \"2.0\"}");
    meta(json, &r, &m);
    one(&r, "OVNI-META-REQUIRE", "ovni.require.ovni is \"2.0\"", "$.ovni.require.ovni", "2.0");
    CU_ASSERT(!m.models.incompatible['O']);
    free(json);
    tc_ovni_meta_free(&m);
    /* The parse itself. */
    int64_t v[3];
    CU_ASSERT(tc_ovni_version_parse("007.0.2147483647", 16, v) == NULL && v[0] == 7 &&
              v[1] == 0 && v[2] == 2147483647);
    CU_ASSERT(tc_ovni_version_parse("1.1.0x", 5, v) == NULL && v[2] == 0); /* n bytes only */
    CU_ASSERT(tc_ovni_version_parse("1.1.0", 5, v) == NULL);
    const int64_t have[3] = {1, 1, 0}, same_major[3] = {1, 0, 9}, minor_up[3] = {1, 2, 0};
    CU_ASSERT(tc_ovni_version_compatible(have, have) && tc_ovni_version_compatible(same_major, have) &&
              !tc_ovni_version_compatible(minor_up, have) && !tc_ovni_version_compatible(have, same_major));
    ot_free(&r);
}

static void test_require(void)
{
    static const struct {
        const char *value, *needle;
    } bad[] = {
        {"\"1.0\"", "ovni.require.nosv is \"1.0\": it is not three numbers separated by dots; "
                    "a version MAJOR.MINOR.PATCH is required"},
        {"\"1.0.0.0\"", "is \"1.0.0.0\""},
        {"\"1\"", "is \"1\""},
        {"\"\"", "is \"\""},
        {"\"a.b.c\"", "is \"a.b.c\""},
        {"\"1..0\"", "is \"1..0\""},
        {"\"1.0.\"", "is \"1.0.\""},
        {"\".1.0\"", "is \".1.0\""},
        {"\"1.0.x\"", "is \"1.0.x\""},
        {"\" 1.0.0\"", "is \" 1.0.0\""},
        {"\"1.0.0 \"", "is \"1.0.0 \""},
        {"\"v1.0.0\"", "is \"v1.0.0\""},
        {"\"-1.0.0\"", "is \"-1.0.0\""},
        /* What libovni's version_parse also takes: white space and signs before
         * a number (strtol), repeated and leading dots (strtok), anything
         * after a patch number's '.' or '-'. */
        {"\"1. 0.0\"", "is \"1. 0.0\""},
        {"\"+1.0.0\"", "is \"+1.0.0\""},
        {"\"1.-0.0\"", "is \"1.-0.0\""},
        {"\"..1.0.0\"", "is \"..1.0.0\""},
        {"\"1.0.0-rc1\"", "is \"1.0.0-rc1\""},
        {"\"1.0.-3\"", "is \"1.0.-3\""},
        /* What it refuses: a number beyond its int, 64 characters or more. */
        {"\"2147483648.0.0\"", "is \"2147483648.0.0\": a number is above 2147483647"},
        {"\"1.99999999999999999999.0\"", "a number is above 2147483647"},
        {"\"0000000000000000000000000000001.000000000000000000000000000000.0\"",
         "it is longer than the 63 characters libovni reads"},
        {"1", "ovni.require.nosv is an integer; a version string \"MAJOR.MINOR.PATCH\" is required"},
        {"null", "ovni.require.nosv is null"},
        {"{\"v\": \"1.0.0\"}", "ovni.require.nosv is an object"},
        {"[1, 0, 0]", "ovni.require.nosv is an array"},
    };
    ot_result r = {0};
    tc_ovni_meta m;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char member[256];
        snprintf(member, sizeof member, "\"require\": {\"ovni\": \"1.0.0\", \"nosv\": %s}", bad[i].value);
        char *json = thread_with(member);
        meta(json, &r, &m);
        one(&r, "OVNI-META-REQUIRE", bad[i].needle, "$.ovni.require.nosv", member);
        free(json);
        tc_ovni_meta_free(&m);
    }
    /* Good versions (in form, and compatible with the models' own, ruling
     * 15); models tracecheck does not know are allowed at any version. */
    char *json = thread_with("\"require\": {\"ovni\": \"1.1.0\", \"nanos6\": \"1.0.2147483647\", "
                             "\"kernel\": \"1.0.0\", \"openmp\": \"01.2.3\", \"futuremodel\": \"2147483647.0.0\"}");
    meta(json, &r, &m);
    CHECK(r.n == 0, "good require:%s", ot_describe(&r));
    CU_ASSERT(m.models.known && m.models.letters['O'] && m.models.letters['6'] &&
              m.models.letters['K'] && m.models.letters['P'] && !m.models.letters['V'] &&
              m.models.unknown_required);
    CU_ASSERT_STRING_EQUAL(m.models.names, "ovni, nanos6, kernel, openmp, futuremodel");
    CU_ASSERT(!m.models.incompatible['O'] && !m.models.incompatible['6'] &&
              !m.models.incompatible['K'] && !m.models.incompatible['P']);
    free(json);
    tc_ovni_meta_free(&m);
    /* The same forms of known models' versions that ovniemu 1.14.0's do not
     * provide: well formed, and incompatible (rulings 15 and 16). */
    json = thread_with("\"require\": {\"ovni\": \"1.1.0\", \"nanos6\": \"2147483647.0.10\", "
                       "\"kernel\": \"0.0.0\"}");
    meta(json, &r, &m);
    OT_RULES(&r, "OVNI-REQUIRE-VERSION OVNI-REQUIRE-VERSION");
    OT_MSG(&r, "OVNI-REQUIRE-VERSION", "ovni.require.nanos6 is \"2147483647.0.10\", but the nanos6 "
           "model is 1.1.0 here");
    OT_MSG(&r, "OVNI-REQUIRE-VERSION", "ovni.require.kernel is \"0.0.0\", but the kernel model is "
           "1.0.0 here");
    CU_ASSERT(m.models.incompatible['6'] && m.models.incompatible['K'] && !m.models.incompatible['O']);
    free(json);
    tc_ovni_meta_free(&m);
    /* 63 characters: the longest version libovni reads (2.7.0). */
    json = thread_with("\"require\": {\"nosv\": "
                       "\"000000000000000000000000000002.000000000000000000000000000007.0\"}");
    meta(json, &r, &m);
    CHECK(r.n == 0 && !m.models.incompatible['V'], "63 characters:%s", ot_describe(&r));
    free(json);
    tc_ovni_meta_free(&m);
    /* Empty: valid (ovni's own model is always enabled). */
    json = thread_with("\"require\": {}");
    meta(json, &r, &m);
    CHECK(r.n == 0 && m.models.known && !m.models.unknown_required, "empty require:%s",
          ot_describe(&r));
    free(json);
    tc_ovni_meta_free(&m);
    /* The model names and letters tracecheck knows (spec/ovni/ovni.md). */
    static const struct {
        const char *name;
        char letter;
    } models[] = {{"ovni", 'O'}, {"nanos6", '6'}, {"nosv", 'V'}, {"kernel", 'K'}, {"openmp", 'P'},
                  {"tampi", 'T'}, {"mpi", 'M'}, {"nodes", 'D'}, {"Nosv", 0}, {"", 0}, {"ompss", 0}};
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
        CHECK(tc_ovni_model_letter(models[i].name) == models[i].letter, "%s: letter %c",
              models[i].name, tc_ovni_model_letter(models[i].name));
    ot_free(&r);
}

static void test_loom_cpus(void)
{
    static const struct {
        const char *value, *rules, *needle, *path;
    } bad[] = {
        {"[]", "OVNI-META-LOOM-CPUS", "ovni.loom_cpus is empty; a loom has at least one CPU", "$.ovni.loom_cpus"},
        {"[1]", "OVNI-META-LOOM-CPUS", "a CPU of ovni.loom_cpus is an integer", "$.ovni.loom_cpus[0]"},
        {"[{\"index\": 0, \"phyid\": 0}, null]", "OVNI-META-LOOM-CPUS", "is null", "$.ovni.loom_cpus[1]"},
        {"[[0, 0]]", "OVNI-META-LOOM-CPUS", "is an array", "$.ovni.loom_cpus[0]"},
        {"[{\"index\": 0}]", "OVNI-META-LOOM-CPUS", "a CPU of ovni.loom_cpus lacks its phyid", "$.ovni.loom_cpus[0]"},
        {"[{\"phyid\": 0}]", "OVNI-META-LOOM-CPUS", "lacks its index", "$.ovni.loom_cpus[0]"},
        {"[{}]", "OVNI-META-LOOM-CPUS", "lacks its index", "$.ovni.loom_cpus[0]"},
        {"[{\"index\": -1, \"phyid\": 0}]", "OVNI-META-LOOM-CPUS", "a CPU's index is -1; an integer >= 0 is required", "$.ovni.loom_cpus[0].index"},
        {"[{\"index\": 0, \"phyid\": -5}]", "OVNI-META-LOOM-CPUS", "a CPU's phyid is -5", "$.ovni.loom_cpus[0].phyid"},
        {"[{\"index\": 0.0, \"phyid\": 0}]", "OVNI-META-LOOM-CPUS", "a CPU's index is 0.0", "$.ovni.loom_cpus[0].index"},
        {"[{\"index\": \"0\", \"phyid\": 0}]", "OVNI-META-LOOM-CPUS", "a CPU's index is a string", "$.ovni.loom_cpus[0].index"},
        {"[{\"index\": 0, \"phyid\": 9223372036854775808}]", "OVNI-META-LOOM-CPUS", "a CPU's phyid is 9223372036854775808", "$.ovni.loom_cpus[0].phyid"},
        {"[{\"index\": 0, \"phyid\": 0}, {\"index\": -1, \"phyid\": -1}]", "OVNI-META-LOOM-CPUS OVNI-META-LOOM-CPUS", "a CPU's phyid is -1", "$.ovni.loom_cpus[1].phyid"},
    };
    ot_result r = {0};
    tc_ovni_meta m;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char member[256];
        snprintf(member, sizeof member, "\"loom_cpus\": %s", bad[i].value);
        char *json = thread_with(member);
        meta(json, &r, &m);
        OT_RULES(&r, bad[i].rules);
        const ot_diag *d = OT_MSG(&r, "OVNI-META-LOOM-CPUS", bad[i].needle);
        if (d)
            CHECK(!strcmp(d->path, bad[i].path), "%s: at %s, expected %s", member, d->path, bad[i].path);
        /* A malformed list is not used (and so not merged into the loom). */
        CHECK(!m.has_cpus && m.cpus_at.set, "%s: has_cpus %d", member, m.has_cpus);
        free(json);
        tc_ovni_meta_free(&m);
    }
    /* Forms that are fine: any order, extra keys, phyids above N, big ones. */
    static const char *const good[] = {
        "[{\"index\": 0, \"phyid\": 0}]",
        "[{\"phyid\": 7, \"index\": 0, \"numa\": 1}, {\"index\": 1, \"phyid\": 3, \"x\": [null]}]",
        "[{\"index\": 1, \"phyid\": 2147483648}, {\"index\": 0, \"phyid\": 9223372036854775807}]",
    };
    static const size_t counts[] = {1, 2, 2};
    for (size_t i = 0; i < 3; i++) {
        char member[256];
        snprintf(member, sizeof member, "\"loom_cpus\": %s", good[i]);
        char *json = thread_with(member);
        meta(json, &r, &m);
        CHECK(r.n == 0 && m.has_cpus && m.ncpus == counts[i], "%s:%s (%zu cpus)", member,
              ot_describe(&r), m.ncpus);
        free(json);
        tc_ovni_meta_free(&m);
    }
    char *json = thread_with("\"loom_cpus\": [{\"phyid\": 7, \"index\": 0}, {\"index\": 1, \"phyid\": 3}]");
    meta(json, &r, &m);
    CU_ASSERT(m.ncpus == 2 && m.cpus[0].index == 0 && m.cpus[0].phyid == 7 &&
              m.cpus[1].index == 1 && m.cpus[1].phyid == 3);
    free(json);
    tc_ovni_meta_free(&m);
    /* Many CPUs: the list grows. */
    tu_bytes b = {0};
    tu_bytes_append(&b, "\"loom_cpus\": [", 14);
    for (int i = 0; i < 1000; i++) {
        char c[64];
        int n = snprintf(c, sizeof c, "%s{\"index\": %d, \"phyid\": %d}", i ? ", " : "", i, 2 * i);
        tu_bytes_append(&b, c, (size_t)n);
    }
    tu_bytes_append(&b, "]", 2);
    json = thread_with((const char *)b.p);
    meta(json, &r, &m);
    CHECK(r.n == 0 && m.ncpus == 1000 && m.cpus[999].phyid == 1998, "1000 cpus: %zu", m.ncpus);
    free(json);
    tu_bytes_free(&b);
    tc_ovni_meta_free(&m);
    /* loom_cpus twice (a duplicate key, reported, the document read on): the
     * second list replaces the first, however long it is. */
    b.len = 0;
    const char *twice = "\"loom_cpus\": [{\"index\": 5, \"phyid\": 5}], \"loom_cpus\": [";
    tu_bytes_append(&b, twice, strlen(twice));
    for (int i = 0; i < 40; i++) {
        char c[64];
        int n = snprintf(c, sizeof c, "%s{\"index\": %d, \"phyid\": %d}", i ? ", " : "", i, i);
        tu_bytes_append(&b, c, (size_t)n);
    }
    tu_bytes_append(&b, "]", 2);
    json = thread_with((const char *)b.p);
    meta(json, &r, &m);
    OT_RULES(&r, "TC-JSON-DUPLICATE-KEY");
    CHECK(m.has_cpus && m.ncpus == 40 && m.cpus[0].index == 0 && m.cpus[39].phyid == 39,
          "duplicate loom_cpus: %zu cpus", m.ncpus);
    free(json);
    tu_bytes_free(&b);
    tc_ovni_meta_free(&m);
    ot_free(&r);
}

/* Keys of newer libovni versions and of other models are allowed. */
static void test_unknown_keys(void)
{
    const char *json =
        "{\"version\": 3, \"ovni\": {\"part\": \"thread\", \"tid\": 1, \"pid\": 1, \"loom\": \"l\", "
        "\"require\": {\"ovni\": \"1.0.0\"}, \"finished\": 1, \"lib\": {\"version\": \"1.14.0\", "
        "\"commit\": \"x\"}, \"future\": [1, {\"a\": null}], \"a_very_long_key_name_that_goes_on_and_on\": 2}, "
        "\"nosv\": {\"can_breakdown\": false}, \"nanos6\": [], \"x\": \"y\"}";
    ot_result r = {0};
    tc_ovni_meta m;
    meta(json, &r, &m);
    CHECK(r.n == 0 && m.thread && m.has_tid, "unknown keys:%s", ot_describe(&r));
    tc_ovni_meta_free(&m);
    /* A key that only starts like a known one is not it. */
    meta("{\"version\": 3, \"ovni\": {\"part\": \"x\", \"require\": {}, \"finished\": 1, "
         "\"tidx\": \"a\", \"pid_\": [], \"loom \": 1, \"finishedx\": 0}}",
         &r, &m);
    CHECK(r.n == 0, "near-miss keys:%s", ot_describe(&r));
    tc_ovni_meta_free(&m);
    ot_free(&r);
}

/* A lone stream.json given to tracecheck: detected and checked by content,
 * findings with line:column and path. */
static void test_lone_file(void)
{
    const char *json = "{\"version\": 3,\n \"ovni\": {\"part\": \"thread\", \"tid\": 0, \"pid\": 1,\n"
                       "  \"require\": {}, \"finished\": 1}}\n";
    char *path = tu_write_file("stream.json", json, strlen(json));
    ot_result r = {0};
    ot_check_path(path, NULL, &r);
    CU_ASSERT_EQUAL(r.sum.format, TC_FORMAT_OVNI);
    CU_ASSERT_EQUAL(r.status, 1);
    OT_RULESET(&r, "OVNI-META-ID OVNI-META-MISSING");
    const ot_diag *d = OT_MSG(&r, "OVNI-META-ID", "ovni.tid is 0");
    if (d)
        CHECK(d->line == 2 && d->column == 36 && !strcmp(d->path, "$.ovni.tid") &&
                  !strcmp(d->input, path),
              "tid at %s:%u:%u %s", d->input, d->line, d->column, d->path);
    free(path);
    /* Named as ovni, metadata whose first key is another model's is still
     * metadata: it is JSON, not a binary stream. */
    const char *other = "{\"nosv\": {\"can_breakdown\": false}, \"version\": 3, \"ovni\": {\"part\": "
                        "\"x\", \"require\": {}, \"finished\": 1}}";
    ot_opts o = {.format = TC_FORMAT_OVNI};
    ot_check_memory(other, strlen(other), &o, &r);
    CHECK(r.status == 0 && r.n == 0, "metadata starting with another model:%s", ot_describe(&r));
    ot_check_memory("  {\"ovni\": {}}", 14, &o, &r);
    OT_RULESET(&r, "OVNI-META-VERSION OVNI-META-MISSING OVNI-META-MISSING OVNI-META-MISSING");
    ot_free(&r);
}

static const tu_test tests[] = {
    {"the specification's example", test_spec_example},
    {"not an object; JSON errors", test_not_object},
    {"version", test_version},
    {"missing keys, thread and other parts", test_missing},
    {"wrong types are not also missing", test_wrong_types},
    {"finished", test_finished},
    {"tid, pid, app_id", test_ids},
    {"loom", test_loom},
    {"rank and nranks", test_rank},
    {"require", test_require},
    {"require: the versions of known models (rulings 9, 15)", test_require_version},
    {"loom_cpus forms", test_loom_cpus},
    {"unknown keys", test_unknown_keys},
    {"a lone stream.json", test_lone_file},
    {NULL, NULL},
};

void register_ovni_meta_suite(void) { tu_add_suite("ovni_meta", tests); }
