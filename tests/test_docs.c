/* The documentation derived from the catalogue: `tracecheck rules
 * --markdown` and `--json`, run from the sanitized program next to this one
 * ($(BUILD)/san/tracecheck; check-unit builds it). */
#include <cjson/cJSON.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "suites.h"
#include "tu.h"

/* The program's standard output (malloc'd), or NULL. */
static char *run(const char *args)
{
    char prog[4096], cmd[8192];
    if (!tu_program(prog, sizeof prog)) {
        CHECK(0, "no %s: build it (make check-unit does)", prog);
        return NULL;
    }
    snprintf(cmd, sizeof cmd, "'%s' %s", prog, args);
    FILE *p = popen(cmd, "r");
    if (!p)
        return NULL;
    tu_bytes b = {0};
    char chunk[4096];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, p)) > 0)
        tu_bytes_append(&b, chunk, got);
    int st = pclose(p);
    CHECK(st == 0, "%s: exit status %d", cmd, st);
    tu_bytes_append(&b, "", 1);
    return (char *)b.p;
}

/* Which rules a page lists: XRay's two formats share the XRAY family, the
 * basic-mode page has the XRAY-BASIC-* rules and the header's. */
static int is_basic(const tc_rule_info *r) { return !strncmp(r->id, "XRAY-BASIC-", 11); }

static int on_fdr_page(const tc_rule_info *r)
{
    return !strcmp(r->family, "TC") || (!strcmp(r->family, "XRAY") && !is_basic(r));
}

static int on_basic_page(const tc_rule_info *r)
{
    return !strcmp(r->family, "TC") || is_basic(r) || !strncmp(r->id, "XRAY-HEADER-", 12) ||
           !strncmp(r->id, "XRAY-BINARY-", 12);
}

static void check_markdown(const char *format, int (*on_page)(const tc_rule_info *))
{
    char args[64], path[64];
    snprintf(args, sizeof args, "rules --markdown --format %s", format);
    snprintf(path, sizeof path, "docs/rules/%s.md", format);
    char *md = run(args);
    if (!md)
        return;
    CU_ASSERT(strncmp(md, "# ", 2) == 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(md, "| id | severity | source | summary |"));
    const char *last_row = md, *last_section = md;
    for (size_t i = 0; i < tc_rule_count(); i++) {
        const tc_rule_info *r = tc_rule_at(i);
        int shown = on_page(r);
        char row[512], section[256];
        snprintf(row, sizeof row, "| [%s](#%s) | %s%s | %s | %s |\n", r->id, r->id,
                 r->severity == TC_ERROR ? "error" : r->severity == TC_WARNING ? "warning" : "note",
                 r->flags & TC_RF_PEDANTIC      ? " (--pedantic only)"
                 : r->flags & TC_RF_NEEDS_INPUT ? " (only against an input besides the trace)"
                                                : "",
                 r->reference, r->summary);
        snprintf(section, sizeof section, "\n<a id=\"%s\"></a>\n## %s\n", r->id, r->id);
        const char *at = strstr(md, row), *sec = strstr(md, section);
        if (!shown) {
            CHECK(!at && !sec, "%s listed on the %s page", r->id, format);
            continue;
        }
        /* In catalogue order, with the explanation under the heading. */
        CHECK(at && at > last_row, "%s: no row, or out of order:\n%s", r->id, row);
        CHECK(sec && sec > last_section, "%s: no section, or out of order", r->id);
        if (sec) {
            const char *next = strstr(sec + 1, "\n<a id=");
            const char *ex = strstr(sec, r->explanation);
            CHECK(ex && (!next || ex < next), "%s: explanation not in its section", r->id);
            const char *nomut = strstr(sec, "has no mutator");
            int flagged = nomut && (!next || nomut < next);
            CHECK(flagged == !!(r->flags & TC_RF_NO_MUTATOR), "%s: mutator note %d, flag %u",
                  r->id, flagged, r->flags & TC_RF_NO_MUTATOR);
            last_section = sec;
        }
        if (at)
            last_row = at;
    }
    /* What is committed under docs/ is what the catalogue gives (check-docs
     * says so too, from the source tree). */
    size_t n = 0;
    uint8_t *committed = tu_read_file(path, &n);
    if (committed) {
        CHECK(n == strlen(md) && memcmp(committed, md, n) == 0, "%s is stale: run make docs",
              path);
        free(committed);
    }
    free(md);
}

static void test_markdown(void)
{
    check_markdown("xray", on_fdr_page);
    check_markdown("xray-basic", on_basic_page);
}

static void test_json_listing(void)
{
    char *js = run("rules --json --format xray");
    if (!js)
        return;
    size_t lines = 0;
    for (char *line = strtok(js, "\n"); line; line = strtok(NULL, "\n"), lines++) {
        cJSON *o = cJSON_Parse(line);
        CHECK(o != NULL, "line %zu does not parse: %s", lines, line);
        if (!o)
            continue;
        const char *id = cJSON_GetStringValue(cJSON_GetObjectItem(o, "id"));
        const tc_rule_info *r = id ? tc_rule_find(id) : NULL;
        CHECK(r != NULL, "unknown id in: %s", line);
        if (r) {
            CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(cJSON_GetObjectItem(o, "family")), r->family);
            CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(cJSON_GetObjectItem(o, "summary")), r->summary);
            CU_ASSERT(cJSON_IsTrue(cJSON_GetObjectItem(o, "pedantic")) == !!(r->flags & TC_RF_PEDANTIC));
            CU_ASSERT(cJSON_IsTrue(cJSON_GetObjectItem(o, "mutator")) == !(r->flags & TC_RF_NO_MUTATOR));
        }
        cJSON_Delete(o);
    }
    size_t want = 0;
    for (size_t i = 0; i < tc_rule_count(); i++)
        want += on_fdr_page(tc_rule_at(i));
    CHECK(lines == want, "%zu lines, %zu rules", lines, want);
    free(js);
}

static const tu_test tests[] = {
    {"rules --markdown", test_markdown},
    {"rules --json", test_json_listing},
    {NULL, NULL},
};

void register_docs_suite(void) { tu_add_suite("docs", tests); }
