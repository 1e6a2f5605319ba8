/* Whole ovni traces (ruling 7), as temporary directories checked through
 * tc_check_path: where streams are found, stream.json or stream.obs alone,
 * an empty trace, duplicate tids, per-process values that disagree, the
 * merging of each loom's CPU lists, libovni's directory names, first clocks
 * more than an hour apart (ruling 10); every finding
 * names the file it is about and, for metadata, where in it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../ot.h"
#include "../suites.h"

/* A thread's stream that is valid on its own: OHx on CPU 0 ... OHe. Each
 * one made runs after the last one made has ended, so that the threads of
 * a loom never share their CPU (OVNI-CPU-SHARED, ruling 13). */
static void good_obs(ob *o)
{
    static uint64_t clock = 10;
    ob_init(o, 0);
    uint8_t pl[16] = {0};
    ob_event(o, "OHx", clock, pl, 16);
    ob_event(o, "OB.", clock + 1, NULL, 0);
    ob_event(o, "OHe", clock + 2, NULL, 0);
    clock += 3;
}

static const char CPUS1[] = "\"loom_cpus\": [{\"index\": 0, \"phyid\": 0}]";

/* A thread stream at root/dir with a valid stream.obs. */
static void thread(const char *root, const char *dir, int64_t tid, int64_t pid, const char *loom,
                   const char *extra)
{
    char *json = om_thread(tid, pid, loom, extra, "");
    ob o;
    good_obs(&o);
    td_stream(root, dir, json, &o);
    ob_free(&o);
    free(json);
}

static int check_dir(const char *root, ot_result *r)
{
    static const ot_opts o = {.dump = 1};
    return ot_check_path(root, &o, r);
}

/* The finding's file is root/rel. */
static void expect_input(const ot_diag *d, const char *root, const char *rel, const char *what)
{
    if (!d)
        return;
    char *want = td_path(root, rel);
    CHECK(d->input && !strcmp(d->input, want), "%s: reported against %s, expected %s", what,
          d->input ? d->input : "(none)", want);
    free(want);
}

/* ---- finding streams ---- */

static void test_discovery(void)
{
    char *root = td_new("discovery");
    /* At the top, in libovni's layout, deep down, and beside other files. */
    thread(root, ".", 1, 100, "a", CPUS1);
    thread(root, "loom.b/proc.200/thread.2", 2, 200, "b", CPUS1);
    thread(root, "x/y/z/w/v/u/t/s/r/q/p/o", 3, 300, "c", CPUS1);
    td_write(root, "x/README", "not a stream", 12);
    td_write(root, "loom.b/proc.200/notes.txt", "", 0);
    /* Hidden directories are not searched (ovniemu's own outputs, VCS). */
    td_stream(root, ".hidden", "{", NULL);
    /* Nor are symbolic links (a loop would never end). */
    char *link = td_path(root, "x/loop");
    CU_ASSERT_EQUAL(symlink(root, link), 0);
    ot_result r = {0};
    check_dir(root, &r);
    CHECK(r.status == 0 && r.n == 0 && r.sum.format == TC_FORMAT_OVNI, "status %d:%s", r.status,
          ot_describe(&r));
    /* The streams found, in path order. */
    CU_ASSERT_EQUAL(ot_dump_lines(&r), 1 + 3 + 9);
    OT_DUMP(&r, 1, "{\"t\":\"stream\",\"path\":\".\",\"byte_order\":\"little\",\"loom\":\"a\",\"pid\":100,\"tid\":1}");
    OT_DUMP(&r, 2, "{\"t\":\"stream\",\"path\":\"loom.b/proc.200/thread.2\",\"byte_order\":\"little\",\"loom\":\"b\",\"pid\":200,\"tid\":2}");
    OT_DUMP(&r, 3, "{\"t\":\"stream\",\"path\":\"x/y/z/w/v/u/t/s/r/q/p/o\",\"byte_order\":\"little\",\"loom\":\"c\",\"pid\":300,\"tid\":3}");
    /* Bytes read: both files of every stream. */
    CHECK(r.sum.bytes > 3 * (8 + 28 + 12 + 12), "bytes %llu", (unsigned long long)r.sum.bytes);

    /* A trace directory may also be given with a trailing slash. */
    char *slash = NULL;
    if (asprintf(&slash, "%s/", root) < 0)
        abort();
    ot_result r2 = {0};
    check_dir(slash, &r2);
    CHECK(r2.status == 0 && r2.n == 0 && ot_dump_lines(&r2) == 13, "trailing slash:%s",
          ot_describe(&r2));
    free(slash);
    ot_free(&r2);
    /* The clean-up at exit follows links: leave none. */
    unlink(link);
    free(link);
    free(root);
    ot_free(&r);
}

static void test_missing_files(void)
{
    char *root = td_new("missing");
    ob o;
    good_obs(&o);
    char *json = om_thread(1, 1, "l", CPUS1, "");
    td_stream(root, "a", json, NULL);        /* metadata only */
    td_stream(root, "b", NULL, &o);          /* events only */
    td_stream(root, "c", json, &o);          /* both */
    td_mkdir(root, "d/stream.obs");          /* a directory is not a file */
    td_stream(root, "d", "{\"version\": 2}", NULL);
    ot_result r = {0};
    check_dir(root, &r);
    CU_ASSERT_EQUAL(r.status, 1);
    const ot_diag *d = OT_MSG(&r, "OVNI-TRACE-OBS-MISSING", "no stream.obs beside this stream.json");
    expect_input(d, root, "a/stream.json", "obs missing");
    CU_ASSERT(d && d->unlocated);
    d = OT_MSG(&r, "OVNI-TRACE-JSON-MISSING", "no stream.json beside this stream.obs");
    expect_input(d, root, "b/stream.obs", "json missing");
    CU_ASSERT_EQUAL(ot_count(&r, "OVNI-TRACE-OBS-MISSING"), 2);
    CU_ASSERT_EQUAL(ot_count(&r, "OVNI-TRACE-JSON-MISSING"), 1);
    /* The file that is there is still checked. */
    d = OT_MSG(&r, "OVNI-META-VERSION", "version is 2");
    expect_input(d, root, "d/stream.json", "metadata without events");
    CHECK(d && d->line == 1 && d->column == 13 && !strcmp(d->path, "$.version"), "version at %u:%u",
          d ? d->line : 0, d ? d->column : 0);
    /* Streams a and c are one tid of one process. */
    OT_RULESET(&r, "OVNI-TRACE-OBS-MISSING OVNI-TRACE-JSON-MISSING OVNI-META-VERSION "
                   "OVNI-META-MISSING OVNI-TRACE-OBS-MISSING OVNI-TRACE-TID-DUPLICATE");
    /* Only streams with events have a line in the dump. */
    CHECK(strstr(r.dump, "\"path\":\"b\"") && strstr(r.dump, "\"path\":\"c\"") &&
              !strstr(r.dump, "\"path\":\"a\"") && !strstr(r.dump, "\"path\":\"d\""),
          "dump:\n%s", r.dump);
    ob_free(&o);
    free(json);
    free(root);
    ot_free(&r);
}

static void test_empty_trace(void)
{
    char *root = td_new("empty");
    td_write(root, "sub/file.txt", "x", 1);
    ot_result r = {0};
    ot_opts o = {.format = TC_FORMAT_OVNI};
    ot_check_path(root, &o, &r);
    OT_RULES(&r, "OVNI-TRACE-EMPTY");
    CU_ASSERT(r.status == 1 && r.sum.format == TC_FORMAT_OVNI && r.n == 1 && r.d[0].unlocated);
    OT_MSG(&r, "OVNI-TRACE-EMPTY", root);
    /* With --format auto, a directory with no stream.json below it is no
     * trace: a usage error, as a file of no known format would be if empty. */
    CU_ASSERT_EQUAL(ot_check_path(root, NULL, &r), 2);
    CHECK(strstr(r.err, "no stream.json") != NULL, "err: %s", r.err);
    /* Named as another format, a directory is a usage error. */
    o.format = TC_FORMAT_XRAY;
    CU_ASSERT_EQUAL(ot_check_path(root, &o, &r), 2);
    CHECK(strstr(r.err, "is a directory") != NULL, "err: %s", r.err);
    /* A directory that is not there cannot be read. */
    char *gone = td_path(root, "no-such-dir");
    CU_ASSERT_EQUAL(ot_check_path(gone, NULL, &r), 2);
    free(gone);
    free(root);
    ot_free(&r);
}

/* ---- across streams ---- */

static void test_duplicate_tids(void)
{
    char *root = td_new("tids");
    thread(root, "p1/t5", 5, 1, "l", CPUS1);
    thread(root, "p1/t5-again", 5, 1, "l", "");
    thread(root, "p1/t5-third", 5, 1, "l", "");
    thread(root, "p2/t5", 5, 2, "l", "");   /* another process: fine */
    thread(root, "other/t5", 5, 1, "m", CPUS1); /* pid 1 of another loom: another process */
    ot_result r = {0};
    check_dir(root, &r);
    OT_RULES(&r, "OVNI-TRACE-TID-DUPLICATE OVNI-TRACE-TID-DUPLICATE");
    /* Each repeat is reported in its own stream.json, at its tid. */
    char *first = td_path(root, "p1/t5/stream.json");
    char *second = td_path(root, "p1/t5-again/stream.json");
    char needle[1024];
    snprintf(needle, sizeof needle, "thread 5 of process 1 also has the stream %s", first);
    const ot_diag *d = OT_MSG(&r, "OVNI-TRACE-TID-DUPLICATE", needle);
    expect_input(d, root, "p1/t5-again/stream.json", "duplicate tid");
    if (d)
        CHECK(d->line == 1 && !strcmp(d->path, "$.ovni.tid") && d->column == 50,
              "duplicate at %u:%u %s", d->line, d->column, d->path);
    snprintf(needle, sizeof needle, "also has the stream %s", second);
    d = OT_MSG(&r, "OVNI-TRACE-TID-DUPLICATE", needle);
    expect_input(d, root, "p1/t5-third/stream.json", "third");
    free(first);
    free(second);
    free(root);
    ot_free(&r);
}

static void test_process_values(void)
{
    char *root = td_new("process");
    thread(root, "a", 1, 7, "l", "\"app_id\": 3, \"rank\": 0, \"nranks\": 2, \"loom_cpus\": [{\"index\": 0, \"phyid\": 0}]");
    thread(root, "b", 2, 7, "l", "\"app_id\": 4, \"rank\": 1, \"nranks\": 2");
    thread(root, "c", 3, 7, "l", "\"nranks\": 3, \"rank\": 0");
    thread(root, "d", 4, 7, "l", ""); /* gives none: agrees with anything */
    thread(root, "e", 5, 8, "l", "\"app_id\": 9, \"rank\": 1, \"nranks\": 2"); /* another process */
    ot_result r = {0};
    check_dir(root, &r);
    OT_RULESET(&r, "OVNI-TRACE-PROCESS OVNI-TRACE-PROCESS OVNI-TRACE-PROCESS");
    char *a = td_path(root, "a/stream.json");
    char needle[1024];
    snprintf(needle, sizeof needle, "process 7 of loom \"l\" has app_id 4 here but 3 in %s", a);
    const ot_diag *d = OT_MSG(&r, "OVNI-TRACE-PROCESS", needle);
    expect_input(d, root, "b/stream.json", "app_id");
    if (d)
        CU_ASSERT_STRING_EQUAL(d->path, "$.ovni.app_id");
    snprintf(needle, sizeof needle, "has rank 1 here but 0 in %s", a);
    d = OT_MSG(&r, "OVNI-TRACE-PROCESS", needle);
    expect_input(d, root, "b/stream.json", "rank");
    if (d)
        CU_ASSERT_STRING_EQUAL(d->path, "$.ovni.rank");
    snprintf(needle, sizeof needle, "has nranks 3 here but 2 in %s", a);
    d = OT_MSG(&r, "OVNI-TRACE-PROCESS", needle);
    expect_input(d, root, "c/stream.json", "nranks");
    free(a);
    free(root);
    ot_free(&r);
}

static void test_loom_cpus(void)
{
    static const struct {
        const char *name;
        const char *cpus[3]; /* the loom_cpus of up to three threads of one loom, NULL: none */
        const char *rules;
        const char *needle;
        int thread; /* whose stream.json the finding is in, -1 unlocated */
    } cases[] = {
        {"one list", {"[{\"index\": 0, \"phyid\": 0}, {\"index\": 1, \"phyid\": 1}]", NULL, NULL}, "", NULL, 0},
        {"split lists", {"[{\"index\": 0, \"phyid\": 10}, {\"index\": 1, \"phyid\": 11}]",
                         "[{\"index\": 2, \"phyid\": 12}, {\"index\": 1, \"phyid\": 11}]", NULL}, "", NULL, 0},
        {"same list twice", {"[{\"index\": 0, \"phyid\": 4}]", "[{\"index\": 0, \"phyid\": 4}]", NULL}, "", NULL, 0},
        {"sparse phyids", {"[{\"index\": 1, \"phyid\": 100}, {\"index\": 0, \"phyid\": 7}]", NULL, NULL}, "", NULL, 0},
        {"phyid with two indexes", {"[{\"index\": 0, \"phyid\": 10}]", "[{\"index\": 1, \"phyid\": 10}]", NULL},
         "OVNI-TRACE-CPU-PHYID", "loom \"l\": CPU phyid 10 has index 1 here and 0 in ", 1},
        {"phyid twice in one list", {"[{\"index\": 0, \"phyid\": 3}, {\"index\": 1, \"phyid\": 3}, {\"index\": 2, \"phyid\": 4}]", NULL, NULL},
         "OVNI-TRACE-CPU-PHYID OVNI-TRACE-CPU-INDEX", "CPU phyid 3 has index 1 here and 0 in ", 0},
        {"index gap", {"[{\"index\": 0, \"phyid\": 0}, {\"index\": 2, \"phyid\": 2}]", NULL, NULL},
         "OVNI-TRACE-CPU-INDEX", "loom \"l\" has 2 CPUs, so indexes 0 to 1, but index 1 is missing (the next is 2)", 0},
        {"no index 0", {"[{\"index\": 1, \"phyid\": 0}]", NULL, NULL},
         "OVNI-TRACE-CPU-INDEX", "index 0 is missing (the next is 1)", 0},
        {"gap across lists", {"[{\"index\": 0, \"phyid\": 0}]", "[{\"index\": 5, \"phyid\": 1}]", NULL},
         "OVNI-TRACE-CPU-INDEX", "index 1 is missing (the next is 5)", 1},
        {"index twice", {"[{\"index\": 0, \"phyid\": 0}, {\"index\": 0, \"phyid\": 1}]", NULL, NULL},
         "OVNI-TRACE-CPU-INDEX", "loom \"l\": index 0 is given to CPU phyids 0 and 1", 0},
        {"index twice across lists", {"[{\"index\": 0, \"phyid\": 0}, {\"index\": 1, \"phyid\": 1}]", "[{\"index\": 1, \"phyid\": 2}]", NULL},
         "OVNI-TRACE-CPU-INDEX", "index 1 is given to CPU phyids 1 and 2", 1},
        {"no CPUs", {NULL, NULL, NULL}, "OVNI-TRACE-LOOM-NO-CPUS", "no thread of loom \"l\" gives ovni.loom_cpus (3 threads)", -1},
        /* A list that was given but is malformed was reported already: the
         * loom is not also said to have none. */
        {"malformed: empty", {"[]", NULL, NULL}, "OVNI-META-LOOM-CPUS", NULL, 0},
        {"malformed: negative", {"[{\"index\": 0, \"phyid\": -1}]", NULL, NULL}, "OVNI-META-LOOM-CPUS", NULL, 0},
        {"malformed: wrong type", {"\"0-3\"", NULL, NULL}, "OVNI-META-TYPE", NULL, 0},
        {"malformed and good", {"[{\"index\": 0}]", "[{\"index\": 0, \"phyid\": 0}]", NULL}, "OVNI-META-LOOM-CPUS", NULL, 0},
    };
    ot_result r = {0};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *root = td_new("cpus");
        for (int t = 0; t < 3; t++) {
            char dir[32], extra[512] = "";
            snprintf(dir, sizeof dir, "t%d", t);
            if (cases[i].cpus[t])
                snprintf(extra, sizeof extra, "\"loom_cpus\": %s", cases[i].cpus[t]);
            thread(root, dir, 10 + t, 1, "l", extra);
        }
        /* Another loom, complete, whose CPUs never mix with these. */
        thread(root, "z", 99, 2, "other", "\"loom_cpus\": [{\"index\": 0, \"phyid\": 10}, {\"index\": 1, \"phyid\": 100}]");
        check_dir(root, &r);
        OT_RULES(&r, cases[i].rules);
        if (cases[i].needle) {
            const ot_diag *d = NULL;
            for (size_t k = 0; k < r.n && !d; k++)
                if (strstr(r.d[k].message, cases[i].needle))
                    d = &r.d[k];
            CHECK(d != NULL, "%s: no finding says \"%s\":%s", cases[i].name, cases[i].needle,
                  ot_describe(&r));
            char rel[64];
            snprintf(rel, sizeof rel, "t%d/stream.json", cases[i].thread < 0 ? 0 : cases[i].thread);
            expect_input(d, root, rel, cases[i].name);
            if (d && cases[i].thread >= 0)
                CHECK(d->path && !strcmp(d->path, "$.ovni.loom_cpus") && d->line == 1,
                      "%s: at %s", cases[i].name, d->path ? d->path : "(no path)");
            if (d && cases[i].thread < 0)
                CU_ASSERT(d->unlocated);
        }
        free(root);
    }
    /* Only the loom without CPUs is reported. */
    char *root = td_new("cpus");
    thread(root, "a", 1, 1, "with", CPUS1);
    thread(root, "b", 2, 2, "without", "");
    check_dir(root, &r);
    OT_RULES(&r, "OVNI-TRACE-LOOM-NO-CPUS");
    OT_MSG(&r, "OVNI-TRACE-LOOM-NO-CPUS", "loom \"without\" gives ovni.loom_cpus (1 thread)");
    expect_input(r.n ? &r.d[0] : NULL, root, "b/stream.json", "loom without CPUs");
    free(root);
    ot_free(&r);
}

static void test_dir_names(void)
{
    static const struct {
        const char *dir;
        const char *needle; /* NULL: no warning */
    } cases[] = {
        {"ovni/loom.node/proc.7/thread.70", NULL},
        {"loom.node/proc.7/thread.70", NULL},
        {"ovni/loom.node/proc.7/thread.71", "directory thread.71 holds the stream of thread 70"},
        {"ovni/loom.node/proc.8/thread.70", "directory proc.8 holds a thread of process 7"},
        {"ovni/loom.nodes/proc.7/thread.70", "directory loom.nodes holds a thread of loom \"node\""},
        {"loom.node.x/proc.7/thread.70", "directory loom.node.x holds a thread of loom \"node\""},
        {"thread.1", "directory thread.1 holds the stream of thread 70"},
        {"proc.1/t", "directory proc.1 holds a thread of process 7"},
        {"thread.70x", NULL},
        {"thread.", NULL},
        {"thread.-70", NULL},
        {"x/loom.node/thread.70", NULL}, /* loom.node is not where libovni puts a proc */
        {"loom/proc/thread", NULL},
        {"prefix-loom.a/proc.7/thread.70", NULL},
    };
    ot_result r = {0};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *root = td_new("names");
        thread(root, cases[i].dir, 70, 7, "node", CPUS1);
        check_dir(root, &r);
        if (!cases[i].needle) {
            CHECK(r.n == 0 && r.status == 0, "%s:%s", cases[i].dir, ot_describe(&r));
        } else {
            OT_RULES(&r, "OVNI-TRACE-DIR-NAME");
            const ot_diag *d = OT_MSG(&r, "OVNI-TRACE-DIR-NAME", cases[i].needle);
            /* A warning about the stream's directory. */
            expect_input(d, root, cases[i].dir, cases[i].dir);
            CU_ASSERT(r.status == 0 && d && d->severity == TC_WARNING && d->unlocated);
        }
        free(root);
    }
    /* All three wrong: three warnings. */
    char *root = td_new("names");
    thread(root, "loom.a/proc.1/thread.2", 70, 7, "node", CPUS1);
    check_dir(root, &r);
    OT_RULES(&r, "OVNI-TRACE-DIR-NAME OVNI-TRACE-DIR-NAME OVNI-TRACE-DIR-NAME");
    free(root);
    /* Streams of other parts are not threads: no names to compare. */
    root = td_new("names");
    ob o;
    good_obs(&o);
    td_stream(root, "loom.x/proc.1/thread.2",
              "{\"version\": 3, \"ovni\": {\"part\": \"process\", \"require\": {}, \"finished\": 1, "
              "\"tid\": 5, \"pid\": 6, \"loom\": \"y\"}}",
              &o);
    check_dir(root, &r);
    CHECK(r.n == 0, "process part:%s", ot_describe(&r));
    ob_free(&o);
    free(root);
    ot_free(&r);
}

/* Findings of each stream's files: the file and where in it. */
static void test_stream_findings_located(void)
{
    char *root = td_new("located");
    char *json = om_thread(1, 1, "l", "\"loom_cpus\": [{\"index\": 0, \"phyid\": 0}]",
                           "\"nosv\": {\"x\": 1}");
    ob o;
    ob_init(&o, 1); /* big-endian */
    uint8_t pl[16] = {0};
    ob_event(&o, "OHx", 5, pl, 16);
    ob_event(&o, "VTx", 4, NULL, 0); /* decreases; nosv is not required */
    ob_event(&o, "OHe", 6, NULL, 0);
    td_stream(root, "loom.l/proc.1/thread.1", json, &o);
    free(json);
    /* The same events, once thread 1 has ended (they share CPU 0). */
    ob o2;
    ob_init(&o2, 1);
    ob_event(&o2, "OHx", 15, pl, 16);
    ob_event(&o2, "VTx", 14, NULL, 0);
    ob_event(&o2, "OHe", 16, NULL, 0);
    td_stream(root, "loom.l/proc.1/thread.2",
              "{\"version\": 3,\n \"ovni\": {\"part\": \"thread\", \"tid\": 2, \"pid\": 1, \"loom\": \"l\",\n"
              "  \"require\": {\"ovni\": \"1.0\"}, \"finished\": 1}}",
              &o2);
    ob_free(&o2);
    ot_result r = {0};
    check_dir(root, &r);
    OT_RULES(&r, "OVNI-CLOCK-DECREASE OVNI-MODEL-NOT-REQUIRED OVNI-META-REQUIRE "
                 "OVNI-CLOCK-DECREASE OVNI-MODEL-NOT-REQUIRED");
    if (r.n == 5) {
        expect_input(&r.d[0], root, "loom.l/proc.1/thread.1/stream.obs", "decrease");
        CU_ASSERT_EQUAL(r.d[0].offset, 8 + 28 + 4);
        expect_input(&r.d[2], root, "loom.l/proc.1/thread.2/stream.json", "require");
        CHECK(r.d[2].line == 3 && r.d[2].column == 23 && !strcmp(r.d[2].path, "$.ovni.require.ovni"),
              "require at %u:%u %s", r.d[2].line, r.d[2].column, r.d[2].path);
        expect_input(&r.d[4], root, "loom.l/proc.1/thread.2/stream.obs", "model");
    }
    /* --no-models: the model layer's findings go, the others stay. */
    ot_opts nm = {.no_models = 1};
    ot_check_path(root, &nm, &r);
    OT_RULES(&r, "OVNI-CLOCK-DECREASE OVNI-META-REQUIRE OVNI-CLOCK-DECREASE");
    ob_free(&o);
    free(root);
    ot_free(&r);
}

/* ---- the clock gate (ruling 10) ---- */

#define HOUR 3600000000000ull
#define T0 5000000000000ull

/* A thread of its own loom at root/dir whose first event has clock c (no
 * event at all when c is 0). */
static void timed(const char *root, const char *dir, int64_t tid, uint64_t c)
{
    char loom[32];
    snprintf(loom, sizeof loom, "l%lld", (long long)tid);
    char *json = om_thread(tid, tid, loom, CPUS1, "");
    ob o;
    ob_init(&o, 0);
    if (c) {
        uint8_t pl[16] = {0};
        ob_event(&o, "OHx", c, pl, 16);
        ob_event(&o, "OHe", c + 1, NULL, 0);
    }
    td_stream(root, dir, json, &o);
    ob_free(&o);
    free(json);
}

static void test_clock_gate(void)
{
    ot_result r = {0};
    /* One hour exactly is not more than one hour. */
    char *root = td_new("gate");
    timed(root, "a", 1, T0);
    timed(root, "b", 2, T0 + HOUR);
    timed(root, "c", 3, T0 + HOUR + 1);
    check_dir(root, &r);
    OT_RULES(&r, "OVNI-CLOCK-GATE");
    CU_ASSERT(r.status == 0 && r.n == 1 && r.d[0].severity == TC_WARNING);
    if (r.n == 1) {
        expect_input(&r.d[0], root, "c/stream.obs", "gate");
        CU_ASSERT(r.d[0].offset == 12 && r.d[0].length == 8);
    }
    OT_MSG(&r, "OVNI-CLOCK-GATE", "stream c starts at clock 8600000000001, 3600000000001 ns "
           "(1.00 h) after stream a, which starts at 5000000000000: more than one hour apart, so "
           "the nodes' clock offsets were not applied (run ovnisync to set them)");
    /* Without the model layer all the same. */
    ot_opts nm = {.no_models = 1};
    ot_check_path(root, &nm, &r);
    OT_RULES(&r, "OVNI-CLOCK-GATE");
    free(root);
    /* Against the first stream in path order, as ovniemu compares, not
     * pairwise: b and c are 1.5 h apart, but each is within 2 h of a. */
    root = td_new("gate-order");
    timed(root, "a", 1, T0 + 2 * HOUR);
    timed(root, "b", 2, T0 + 2 * HOUR - HOUR / 2);
    timed(root, "c", 3, T0);
    timed(root, "d", 4, T0 + 4 * HOUR);
    check_dir(root, &r);
    OT_RULES(&r, "OVNI-CLOCK-GATE OVNI-CLOCK-GATE");
    OT_MSG(&r, "OVNI-CLOCK-GATE", "stream c starts at clock 5000000000000, 7200000000000 ns "
           "(2.00 h) before stream a");
    OT_MSG(&r, "OVNI-CLOCK-GATE", "stream d starts at clock 19400000000000, 7200000000000 ns "
           "(2.00 h) after stream a");
    free(root);
    /* Streams without events, without stream.json, or starting at a clock
     * of 2^63 or more neither set the reference nor are compared. */
    root = td_new("gate-skip");
    timed(root, "a", 1, 0);
    timed(root, "b", 2, 1ull << 63);
    timed(root, "c", 3, T0);
    timed(root, "d", 4, T0 + 30 * HOUR);
    char *json = td_path(root, "d/stream.json");
    CU_ASSERT_EQUAL(unlink(json), 0);
    free(json);
    timed(root, "e", 5, T0 + HOUR);
    check_dir(root, &r);
    OT_RULESET(&r, "OVNI-STREAM-NO-EVENTS OVNI-CLOCK-RANGE OVNI-CLOCK-RANGE "
                   "OVNI-TRACE-JSON-MISSING");
    free(root);
    /* The stream in the trace directory itself comes first for ovniemu (its
     * path is ""), before "-x" ('-' sorts before '.'). */
    root = td_new("gate-root");
    timed(root, ".", 1, T0);
    timed(root, "-x", 2, T0 + 2 * HOUR);
    timed(root, "z", 3, T0 + 2 * HOUR);
    check_dir(root, &r);
    OT_RULES(&r, "OVNI-CLOCK-GATE OVNI-CLOCK-GATE");
    OT_MSG(&r, "OVNI-CLOCK-GATE", "stream -x starts at clock 12200000000000, 7200000000000 ns "
           "(2.00 h) after stream ., which");
    OT_MSG(&r, "OVNI-CLOCK-GATE", "stream z starts");
    free(root);
    ot_free(&r);
}

static const tu_test tests[] = {
    {"streams at any depth", test_discovery},
    {"stream.json or stream.obs alone", test_missing_files},
    {"an empty trace", test_empty_trace},
    {"duplicate tids", test_duplicate_tids},
    {"per-process values", test_process_values},
    {"loom CPU merging", test_loom_cpus},
    {"directory names", test_dir_names},
    {"stream findings: file and location", test_stream_findings_located},
    {"first clocks more than an hour apart (ruling 10)", test_clock_gate},
    {NULL, NULL},
};

void register_ovni_trace_suite(void) { tu_add_suite("ovni_trace", tests); }
