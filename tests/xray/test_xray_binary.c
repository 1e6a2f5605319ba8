/*
 * XRay traces against the program's binary (--binary; parsers/xray/
 * xray_map.c, xray_binary.c): what cannot be read is said once with the
 * reason, and a trace against a real clang-built program (make check
 * builds build/producers/clang-N/xray_app; skipped, and said so, when none
 * is there) has its ids checked and its functions named.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/xray/xray_map.h"
#include "../suites.h"
#include "../tu.h"
#include "xb.h"

/* ---- what cannot be read ---- */

static void test_not_elf(void)
{
    char *path = tu_write_file("not-elf", "hello\n", 6);
    char why[256] = "";
    CU_ASSERT_PTR_NULL(tc_xray_map_load(path, why, sizeof why));
    CHECK(!strcmp(why, "not an ELF file"), "reason: %s", why);
    tc_options o = TC_OPTIONS_INIT;
    CU_ASSERT_EQUAL(tc_options_set(&o, "binary", path), -1);
    CU_ASSERT_EQUAL(o.n_binaries, 0);
    free(path);
}

static void test_no_map(void)
{
    char why[256] = "";
    CU_ASSERT_PTR_NULL(tc_xray_map_load("/bin/true", why, sizeof why));
    CHECK(strstr(why, "no xray_instr_map section") != NULL, "reason: %s", why);
    CU_ASSERT_PTR_NULL(tc_xray_map_load("/nonexistent/prog", why, sizeof why));
    CHECK(strstr(why, "No such file") != NULL, "reason: %s", why);
}

/* A binary that cannot be read, set behind tc_options_set's back: the
 * input's check fails (status 2) with the reason, not a finding. */
static void test_unreadable_at_check(void)
{
    xb x;
    xb_init(&x, 5, 0);
    xb_header(&x, 4096);
    xb_simple_buffer(&x, 1, 0, 1000);
    tu_opts o = {.binaries = {"/bin/true"}};
    tu_result r = {0};
    CU_ASSERT_EQUAL(tu_check_memory(xb_data(&x), xb_len(&x), &o, &r), 2);
    CHECK(strstr(r.err, "--binary /bin/true: no xray_instr_map") != NULL, "error: %s", r.err);
    tu_result_free(&r);
    xb_free(&x);
}

/* ---- a real program ---- */

/* The first clang-built producer that make check left, or NULL. */
static const char *producer(void)
{
    static const char *const versions[] = {"22", "19", "16", "15", "14", "13"};
    static char path[128];
    for (size_t i = 0; i < sizeof versions / sizeof versions[0]; i++) {
        snprintf(path, sizeof path, "build/producers/clang-%s/xray_app", versions[i]);
        FILE *f = fopen(path, "rb");
        if (f) {
            fclose(f);
            return path;
        }
    }
    fprintf(stderr, "\n  xray_binary: SKIPPED: no build/producers/clang-N/xray_app "
                    "(make check-producers builds them)\n");
    return NULL;
}

static uint32_t id_of(const tc_xray_map *m, const char *name)
{
    for (size_t i = 0; i < m->nfunctions; i++)
        if (m->functions[i].name && !strcmp(m->functions[i].name, name))
            return (uint32_t)(i + 1);
    return 0;
}

static void test_real_map(void)
{
    const char *path = producer();
    if (!path)
        return;
    char why[256];
    tc_xray_map *m = tc_xray_map_load(path, why, sizeof why);
    CHECK(m != NULL, "%s: %s", path, why);
    if (!m)
        return;
    /* The program's functions (xray_fdr_app.cc), named, with their sleds:
     * leaf and walk log their argument, event writes custom events. */
    uint32_t walk = id_of(m, "walk(long)"), event = id_of(m, "event(long)");
    CHECK(walk && event && id_of(m, "leaf(long)") && id_of(m, "work(long)") &&
              id_of(m, "tail(long)"),
          "%s: the program's functions are not all named", path);
    if (walk && event) {
        CU_ASSERT(m->functions[walk - 1].kinds & 1u << TC_XRAY_SLED_LOG_ARGS);
        CU_ASSERT(m->functions[event - 1].kinds & 1u << TC_XRAY_SLED_CUSTOM_EVENT);
        CU_ASSERT(!(m->functions[event - 1].kinds & 1u << TC_XRAY_SLED_LOG_ARGS));
    }
    CU_ASSERT(m->groups == m->nfunctions);
    for (size_t i = 0; i < m->nsleds; i++)
        CU_ASSERT(m->sleds[i].id >= 1 && m->sleds[i].id <= m->nfunctions);
    tc_xray_map_free(m);
}

static void test_real_trace(void)
{
    const char *path = producer();
    if (!path)
        return;
    char why[256];
    tc_xray_map *m = tc_xray_map_load(path, why, sizeof why);
    if (!m)
        return;
    uint32_t walk = id_of(m, "walk(long)"), event = id_of(m, "event(long)");
    uint32_t unknown = (uint32_t)m->nfunctions + 500;
    tc_xray_map_free(m);
    xb x;
    xb_init(&x, 5, 0);
    xb_header(&x, 4096);
    xb_begin(&x);
    xb_preamble(&x, 1, 4242, 0, 1000);
    xb_fn(&x, XB_ENTER_ARGS, walk, 10); /* walk logs its argument: fine */
    xb_arg(&x, 3);
    xb_fn(&x, XB_EXIT, walk, 10);
    size_t first_unknown = xb_len(&x);
    xb_fn(&x, XB_ENTER, unknown, 10); /* not in the map: once */
    xb_fn(&x, XB_EXIT, unknown, 10);
    xb_fn(&x, XB_ENTER, unknown, 10);
    xb_fn(&x, XB_EXIT, unknown, 10);
    size_t first_args = xb_len(&x);
    xb_fn(&x, XB_ENTER_ARGS, event, 10); /* event has no argument-logging sled */
    xb_arg(&x, 1);
    xb_fn(&x, XB_EXIT, event, 10);
    xb_fn(&x, XB_ENTER_ARGS, event, 10);
    xb_arg(&x, 1);
    xb_fn(&x, XB_EXIT, event, 10);
    size_t other_object = xb_len(&x);
    xb_fn(&x, XB_ENTER, 1u << 24 | 3, 10); /* object 1: no binary given */
    xb_fn(&x, XB_EXIT, 1u << 24 | 3, 10);
    xb_end(&x, 0);

    tu_opts o = {.binaries = {path}, .dump = 1};
    tu_result r = {0};
    CU_ASSERT_EQUAL(tu_check_memory(xb_data(&x), xb_len(&x), &o, &r), 1);
    EXPECT_RULES(&r, "XRAY-BINARY-NO-FUNCTION XRAY-BINARY-NO-SLED XRAY-BINARY-NO-OBJECT");
    EXPECT_OFFSET(&r, "XRAY-BINARY-NO-FUNCTION", first_unknown);
    EXPECT_OFFSET(&r, "XRAY-BINARY-NO-SLED", first_args);
    EXPECT_OFFSET(&r, "XRAY-BINARY-NO-OBJECT", other_object);
    char text[160];
    snprintf(text, sizeof text, "function id %u is not in %s's instrumentation map (9 functions)",
             unknown, path);
    EXPECT_MESSAGE(&r, "XRAY-BINARY-NO-FUNCTION", text);
    snprintf(text, sizeof text, "EnterArg record of function %u (event(long)), which has no "
                                "argument-logging entry sled", event);
    EXPECT_MESSAGE(&r, "XRAY-BINARY-NO-SLED", text);
    EXPECT_MESSAGE(&r, "XRAY-BINARY-NO-OBJECT", "function 3 of object 1");
    /* The dump names the function after its id, null when no map has it. */
    char line[160];
    snprintf(line, sizeof line, "{\"t\":\"function\",\"action\":\"enter_args\",\"func\":%u,"
                                "\"name\":\"walk(long)\",\"delta\":10,\"cpu\":0,\"tsc\":\"1010\"}",
             walk);
    EXPECT_DUMP_LINE(&r, 6, line);
    snprintf(line, sizeof line, "{\"t\":\"function\",\"action\":\"enter\",\"func\":%u,"
                                "\"name\":null,\"delta\":10,\"cpu\":0,\"tsc\":\"1030\"}",
             unknown);
    EXPECT_DUMP_LINE(&r, 9, line);

    /* Without --binary: none of it, and the dump as it always was. */
    tu_opts plain = {.dump = 1};
    tu_result p = {0};
    CU_ASSERT_EQUAL(tu_check_memory(xb_data(&x), xb_len(&x), &plain, &p), 0);
    EXPECT_RULES(&p, "");
    CHECK(!strstr(p.dump, "\"name\""), "a name in the dump without --binary");
    tu_result_free(&p);
    tu_result_free(&r);
    xb_free(&x);
}

void register_xray_binary_suite(void)
{
    static const tu_test tests[] = {
        {"a file that is not ELF", test_not_elf},
        {"an ELF file without an instrumentation map", test_no_map},
        {"an unreadable binary fails the check", test_unreadable_at_check},
        {"a clang-built program's map", test_real_map},
        {"a trace against a clang-built program", test_real_trace},
        {NULL, NULL},
    };
    tu_add_suite("xray_binary", tests);
}
