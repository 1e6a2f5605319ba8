/* Which inputs `tracecheck validate PATH...` makes of its arguments
 * (cli/paths.c, spec/ovni/ovni.md "Layout"): a named directory with a
 * stream.json anywhere below is one ovni trace; otherwise it is searched,
 * and there a directory named "ovni", or one with loom.* subdirectories,
 * holding streams is one input; files, lone stream files included, are
 * inputs of their own.
 *
 * cli/paths.c belongs to the program, not to libtracecheck, which is what
 * the unit tests link; it is compiled in here, first, because it sets its
 * own feature macro. */
#include "../../cli/paths.c"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ot.h"
#include "../suites.h"

/* The inputs, relative to root, space-separated (static buffer). */
static const char *expand(const char *root, char **args, int nargs)
{
    static char buf[4096];
    cli_paths p = {0};
    int rc = cli_expand_paths(&p, args, nargs, TC_FORMAT_AUTO);
    CHECK(rc == 0, "cli_expand_paths returned %d", rc);
    size_t h = 0, rl = strlen(root);
    buf[0] = '\0';
    for (size_t i = 0; i < p.count && h < sizeof buf - 1; i++) {
        const char *s = p.items[i];
        if (!strncmp(s, root, rl))
            s = s[rl] == '/' ? s + rl + 1 : s[rl] ? s : ".";
        h += (size_t)snprintf(buf + h, sizeof buf - h, "%s%s", i ? " " : "", s);
    }
    cli_paths_free(&p);
    return buf;
}

static const char *expand1(const char *root, const char *rel)
{
    char *path = rel ? td_path(root, rel) : strdup(root);
    char *args[] = {path};
    const char *got = expand(root, args, 1);
    free(path);
    return got;
}

#define EXPECT_INPUTS(got, want) \
    CHECK(!strcmp((got), (want)), "inputs:\n      got      [%s]\n      expected [%s]", (got), (want))

static void stream(const char *root, const char *dir)
{
    ob o;
    ob_init(&o, 0);
    ob_event(&o, "OB.", 1, NULL, 0);
    char *json = om_thread(1, 1, "l", "", "");
    td_stream(root, dir, json, &o);
    free(json);
    ob_free(&o);
}

/* A named directory with stream.json anywhere below is one trace. */
static void test_named_trace(void)
{
    char *root = td_new("named");
    stream(root, "t1/ovni/loom.l/proc.1/thread.1");
    td_write(root, "t1/other.xray", "x", 1);
    stream(root, "t2/a/b/c/d/e/f/g/h"); /* any layout, any depth */
    td_write(root, "t3/stream.json", "{}", 2); /* even metadata alone */
    EXPECT_INPUTS(expand1(root, "t1"), "t1");
    EXPECT_INPUTS(expand1(root, "t1/ovni"), "t1/ovni");
    EXPECT_INPUTS(expand1(root, "t1/ovni/loom.l/proc.1/thread.1"), "t1/ovni/loom.l/proc.1/thread.1");
    EXPECT_INPUTS(expand1(root, "t2"), "t2");
    EXPECT_INPUTS(expand1(root, "t3"), "t3");
    /* The root holds all three: one trace. */
    EXPECT_INPUTS(expand1(root, NULL), ".");
    free(root);
}

/* A directory without streams is searched: its files, sorted, hidden ones
 * left out. */
static void test_walk_files(void)
{
    char *root = td_new("walk");
    td_write(root, "b.xray", "x", 1);
    td_write(root, "a/z.obs", "ovni", 4);
    td_write(root, "a/stream.obs", "ovni\1\0\0\0", 8); /* a lone stream file */
    td_write(root, ".hidden/x.xray", "x", 1);
    td_write(root, "a/.dot", "x", 1);
    td_mkdir(root, "e/loom.x/proc.1"); /* found by a search, loom.* but no streams: searched */
    td_write(root, "c/loom.y/notes", "n", 1);
    EXPECT_INPUTS(expand1(root, NULL), "a/stream.obs a/z.obs b.xray c/loom.y/notes");
    free(root);
}

/* In a search, "ovni" and directories with loom.* children that hold
 * streams are one input each. A named directory with a stream.json within
 * 16 levels is one trace already, so the search meets them deeper down. */
static void test_walk_traces(void)
{
    char *root = td_new("deep");
    const char *deep = "d1/d2/d3/d4/d5/d6/d7/d8/d9/d10/d11/d12/d13/d14";
    char rel[512];
    snprintf(rel, sizeof rel, "%s/ovni/loom.l/proc.1/thread.1", deep);
    stream(root, rel);
    snprintf(rel, sizeof rel, "%s/run2/loom.m/proc.1/thread.1", deep);
    stream(root, rel);
    snprintf(rel, sizeof rel, "%s/run3/streams/a/b/thread.1", deep); /* neither form */
    stream(root, rel);
    snprintf(rel, sizeof rel, "%s/zz.obs", deep);
    td_write(root, rel, "ovni", 4);
    char want[1024];
    snprintf(want, sizeof want,
             "%s/ovni %s/run2 %s/run3/streams/a/b/thread.1/stream.json %s/run3/streams/a/b/thread.1/stream.obs %s/zz.obs",
             deep, deep, deep, deep, deep);
    EXPECT_INPUTS(expand1(root, NULL), want);
    free(root);
}

/* Files and "-" are inputs as given; so are names that fail later. */
static void test_files_as_given(void)
{
    char *root = td_new("files");
    stream(root, "s");
    char *json = td_path(root, "s/stream.json"), *obs = td_path(root, "s/stream.obs");
    char *gone = td_path(root, "missing");
    char dash[] = "-";
    char *args[] = {obs, json, dash, gone};
    EXPECT_INPUTS(expand(root, args, 4), "s/stream.obs s/stream.json - missing");
    free(json);
    free(obs);
    free(gone);
    free(root);
}

/* Each input of a search is then valid on its own: a lone stream.obs is
 * checked as a stream (with no metadata). */
static void test_inputs_check(void)
{
    char *root = td_new("check");
    td_write(root, "x/stream.obs", "ovni\1\0\0\0", 8);
    cli_paths p = {0};
    char *args[] = {root};
    CU_ASSERT_EQUAL(cli_expand_paths(&p, args, 1, TC_FORMAT_AUTO), 0);
    CU_ASSERT_EQUAL(p.count, 1);
    ot_result r = {0};
    if (p.count == 1) {
        ot_check_path(p.items[0], NULL, &r);
        CHECK(r.sum.format == TC_FORMAT_OVNI && r.status == 0, "lone stream.obs:%s", ot_describe(&r));
        OT_RULES(&r, "OVNI-STREAM-NO-EVENTS");
    }
    cli_paths_free(&p);
    ot_free(&r);
    free(root);
}

/* A named directory with libovni's layout but no stream is one (empty)
 * trace, so OVNI-TRACE-EMPTY is reported; a named directory in which a
 * search finds nothing is an error, not a silent success. */
static void test_empty_named(void)
{
    char *root = td_new("empty");
    td_mkdir(root, "t/loom.a/proc.1");
    td_mkdir(root, "bare/sub");
    char *layout = td_path(root, "t"), *b1 = td_path(root, "bare");

    cli_paths p = {0};
    char *args[] = {layout};
    CU_ASSERT_EQUAL(cli_expand_paths(&p, args, 1, TC_FORMAT_AUTO), 0);
    CU_ASSERT_EQUAL(p.count, 1);
    ot_result r = {0};
    if (p.count == 1) {
        ot_check_path(p.items[0], NULL, &r);
        CHECK(r.sum.format == TC_FORMAT_OVNI && r.status == 1, "empty trace:%s", ot_describe(&r));
        OT_RULES(&r, "OVNI-TRACE-EMPTY");
    }
    cli_paths_free(&p);
    ot_free(&r);

    char *bargs[] = {b1};
    CU_ASSERT_NOT_EQUAL(cli_expand_paths(&p, bargs, 1, TC_FORMAT_AUTO), 0); /* nothing found */
    CU_ASSERT_EQUAL(p.count, 0);
    cli_paths_free(&p);
    CU_ASSERT_EQUAL(cli_expand_paths(&p, bargs, 1, TC_FORMAT_OVNI), 0); /* --format ovni: one trace */
    CU_ASSERT_EQUAL(p.count, 1);
    cli_paths_free(&p);
    free(layout);
    free(b1);
    free(root);
}

static const tu_test tests[] = {
    {"an empty trace, and a directory with nothing in it", test_empty_named},
    {"a named directory with streams is one trace", test_named_trace},
    {"a search: files, sorted, hidden left out", test_walk_files},
    {"a search: ovni/ and loom.* directories", test_walk_traces},
    {"files and - as given", test_files_as_given},
    {"a lone stream.obs from a search", test_inputs_check},
    {NULL, NULL},
};

void register_ovni_paths_suite(void) { tu_add_suite("ovni_paths", tests); }
