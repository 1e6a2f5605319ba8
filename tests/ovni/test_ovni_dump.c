/* The canonical dump of ovni (spec/canonical-dump.md, spec/ovni/ovni.md): a lone
 * stream, and a trace whose events of all streams are merged by clock, equal
 * clocks ordered by stream path (byte order) then by position, streams
 * whose clocks decrease kept in their own order; jumbo events, big-endian
 * streams; and the findings are the same with and without the dump. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ot.h"
#include "../suites.h"

static const ot_opts DUMP = {.dump = 1};

/* A stream of events "MCV@clock" (no payload). */
static void events(ob *o, int be, const char *const *mcv, const uint64_t *clocks, size_t n)
{
    ob_init(o, be);
    for (size_t i = 0; i < n; i++)
        ob_event(o, mcv[i], clocks[i], NULL, 0);
}

/* The (stream, clock, mcv) of each event line, "a:1:XAa b:5:XBb ...". */
static const char *event_order(const ot_result *r)
{
    static char buf[4096];
    size_t h = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < ot_dump_lines(r) && h < sizeof buf - 64; i++) {
        const char *line = ot_dump_line(r, i);
        if (strncmp(line, "{\"t\":\"event\"", 12))
            continue;
        char stream[256] = "", clock[32] = "", mcv[8] = "";
        const char *p = strstr(line, "\"stream\":\""), *c = strstr(line, "\"clock\":\""),
                   *m = strstr(line, "\"mcv\":\"");
        if (p)
            sscanf(p + 10, "%255[^\"]", stream);
        if (c)
            sscanf(c + 9, "%31[^\"]", clock);
        if (m)
            sscanf(m + 7, "%7[^\"]", mcv);
        h += (size_t)snprintf(buf + h, sizeof buf - h, "%s%s:%s:%s", h ? " " : "", stream, clock, mcv);
    }
    return buf;
}

static void process_stream(const char *root, const char *dir, const ob *o)
{
    /* It requires a model tracecheck does not know: its X events are not
     * judged. */
    td_stream(root, dir, "{\"version\": 3, \"ovni\": {\"part\": \"p\", \"require\": {\"xmodel\": \"1.0.0\"}, "
              "\"finished\": 1}}", o);
}

/* ---- merging ---- */

static void test_merge_by_clock(void)
{
    char *root = td_new("merge");
    ob a, b, c;
    events(&a, 0, (const char *const[]){"XAa", "XAb", "XAc", "XAd"}, (const uint64_t[]){1, 5, 5, 9}, 4);
    events(&b, 1, (const char *const[]){"XBa", "XBb", "XBc"}, (const uint64_t[]){5, 5, 7}, 3);
    events(&c, 0, (const char *const[]){"XCa"}, (const uint64_t[]){0}, 1);
    process_stream(root, "b", &b);
    process_stream(root, "a", &a);
    process_stream(root, "c", &c);
    ot_result r = {0};
    ot_check_path(root, &DUMP, &r);
    CHECK(r.status == 0 && r.n == 0, "merge:%s", ot_describe(&r));
    OT_DUMP(&r, 0, "{\"t\":\"header\",\"format\":\"ovni\",\"dump_version\":2}");
    OT_DUMP(&r, 1, "{\"t\":\"stream\",\"path\":\"a\",\"byte_order\":\"little\"}");
    OT_DUMP(&r, 2, "{\"t\":\"stream\",\"path\":\"b\",\"byte_order\":\"big\"}");
    OT_DUMP(&r, 3, "{\"t\":\"stream\",\"path\":\"c\",\"byte_order\":\"little\"}");
    /* Equal clocks: stream a before stream b, each in its own order. */
    const char *want = "c:0:XCa a:1:XAa a:5:XAb a:5:XAc b:5:XBa b:5:XBb b:7:XBc a:9:XAd";
    CHECK(!strcmp(event_order(&r), want), "order:\n      got      %s\n      expected %s",
          event_order(&r), want);
    OT_DUMP(&r, 4, "{\"t\":\"event\",\"stream\":\"c\",\"clock\":\"0\",\"mcv\":\"XCa\",\"flags\":0,\"size_code\":0,\"payload\":\"\"}");
    CU_ASSERT_EQUAL(ot_dump_lines(&r), 4 + 8);
    ob_free(&a);
    ob_free(&b);
    ob_free(&c);
    free(root);
    ot_free(&r);
}

/* Path order is byte order of the whole relative path: "n.x/s" sorts before
 * "n/s" ('.' is 0x2e, '/' 0x2f), though a walk of the directories meets n
 * first. Stream lines and clock ties follow byte order. */
static void test_path_byte_order(void)
{
    char *root = td_new("order");
    static const char *const dirs[] = {"n/s", "n.x/s", "n-y/s", "n/s/deeper", "N/s", "n0"};
    for (size_t i = 0; i < 6; i++) {
        ob o;
        char mcv[4] = {'X', 'a', (char)('a' + i), 0};
        events(&o, 0, (const char *const[]){mcv}, (const uint64_t[]){42}, 1);
        process_stream(root, dirs[i], &o);
        ob_free(&o);
    }
    ot_result r = {0};
    ot_check_path(root, &DUMP, &r);
    CHECK(r.status == 0 && r.n == 0, "order:%s", ot_describe(&r));
    /* Sorted with strcmp: N/s n-y/s n.x/s n/s n/s/deeper n0 */
    static const char *const sorted[] = {"N/s", "n-y/s", "n.x/s", "n/s", "n/s/deeper", "n0"};
    static const char mcv_of[] = {'e', 'c', 'b', 'a', 'd', 'f'};
    char want[1024] = "";
    for (size_t i = 0; i < 6; i++) {
        char line[256];
        snprintf(line, sizeof line, "{\"t\":\"stream\",\"path\":\"%s\",\"byte_order\":\"little\"}",
                 sorted[i]);
        OT_DUMP(&r, 1 + i, line);
        size_t h = strlen(want);
        snprintf(want + h, sizeof want - h, "%s%s:42:Xa%c", i ? " " : "", sorted[i], mcv_of[i]);
    }
    CHECK(!strcmp(event_order(&r), want), "ties by path:\n      got      %s\n      expected %s",
          event_order(&r), want);
    free(root);
    ot_free(&r);
}

/* A stream whose clocks decrease keeps its order: the merge takes the
 * streams' events in turn, never reorders one stream. */
static void test_decreasing_clocks(void)
{
    char *root = td_new("decrease");
    ob a, b;
    events(&a, 0, (const char *const[]){"XAa", "XAb", "XAc"}, (const uint64_t[]){10, 3, 20}, 3);
    events(&b, 0, (const char *const[]){"XBa", "XBb"}, (const uint64_t[]){5, 6}, 2);
    process_stream(root, "a", &a);
    process_stream(root, "b", &b);
    ot_result r = {0};
    ot_check_path(root, &DUMP, &r);
    OT_RULES(&r, "OVNI-CLOCK-DECREASE");
    const char *want = "b:5:XBa b:6:XBb a:10:XAa a:3:XAb a:20:XAc";
    CHECK(!strcmp(event_order(&r), want), "decreasing:\n      got      %s\n      expected %s",
          event_order(&r), want);
    ob_free(&a);
    ob_free(&b);
    free(root);
    ot_free(&r);
}

/* ---- lines ---- */

static void test_lines(void)
{
    char *root = td_new("lines");
    ob o;
    ob_init(&o, 1);
    uint8_t pl[16];
    for (int i = 0; i < 16; i++)
        pl[i] = (uint8_t)i;
    ob_event(&o, "OHx", 1, pl, 16);
    ob_jumbo(&o, "VYc", 2, "\x01\x00\x00\x00testtype1", 14);
    ob_jumbo(&o, "VYd", 3, NULL, 0);
    ob_event_raw(&o, 0x13 | 0x40, "XFf", 4, "\x00\x00\x00\x02" "ab", 6); /* flags 0x50, jumbo */
    ob_event(&o, "OHe", 5, NULL, 0);
    ob_event(&o, "OHe", 6, "\xff\xfe", 2); /* cut: no line */
    o.b.len -= 1;
    /* A loom name that needs escaping in the dump: lo"om. */
    char *json = om_thread(7, 6, "lo\\\"om", "\"loom_cpus\": [{\"index\": 0, \"phyid\": 0}]", "");
    td_stream(root, "t", json, &o);
    ot_result r = {0};
    ot_check_path(root, &DUMP, &r);
    /* The OHx payload, read big-endian, names CPU index 0x00010203 of a loom
     * with one CPU (ruling 13). */
    OT_RULESET(&r, "OVNI-CPU-UNKNOWN OVNI-EVENT-FLAGS OVNI-MODEL-NOT-REQUIRED "
                   "OVNI-MODEL-NOT-REQUIRED OVNI-MODEL-NOT-REQUIRED OVNI-EVENT-TRUNCATED");
    OT_MSG(&r, "OVNI-CPU-UNKNOWN", "OHx names CPU index 66051, but loom lo\"om has CPUs 0 to 0 "
                                   "(and -1, its virtual CPU)");
    OT_AT(&r, "OVNI-CPU-UNKNOWN", 8);
    OT_DUMP(&r, 1, "{\"t\":\"stream\",\"path\":\"t\",\"byte_order\":\"big\",\"loom\":\"lo\\\"om\",\"pid\":6,\"tid\":7}");
    OT_DUMP(&r, 2, "{\"t\":\"event\",\"stream\":\"t\",\"clock\":\"1\",\"mcv\":\"OHx\",\"flags\":0,\"size_code\":15,\"payload\":\"000102030405060708090a0b0c0d0e0f\",\"model\":\"ovni\",\"fields\":{\"cpu\":66051,\"tid\":67438087,\"tag\":\"579005069656919567\"}}");
    OT_DUMP(&r, 3, "{\"t\":\"event\",\"stream\":\"t\",\"clock\":\"2\",\"mcv\":\"VYc\",\"flags\":16,\"size_code\":3,\"jumbo_size\":14,\"payload\":\"0100000074657374747970653100\",\"model\":\"nosv\",\"fields\":{\"typeid\":16777216,\"label\":\"testtype1\"}}");
    OT_DUMP(&r, 4, "{\"t\":\"event\",\"stream\":\"t\",\"clock\":\"3\",\"mcv\":\"VYd\",\"flags\":16,\"size_code\":3,\"jumbo_size\":0,\"payload\":\"\",\"model\":\"nosv\"}");
    OT_DUMP(&r, 5, "{\"t\":\"event\",\"stream\":\"t\",\"clock\":\"4\",\"mcv\":\"XFf\",\"flags\":80,\"size_code\":3,\"jumbo_size\":2,\"payload\":\"6162\"}");
    OT_DUMP(&r, 6, "{\"t\":\"event\",\"stream\":\"t\",\"clock\":\"5\",\"mcv\":\"OHe\",\"flags\":0,\"size_code\":0,\"payload\":\"\",\"model\":\"ovni\"}");
    CU_ASSERT_EQUAL(ot_dump_lines(&r), 7);
    free(json);
    ob_free(&o);

    /* Streams without thread metadata: path and byte order only. */
    ob_init(&o, 0);
    ob_event(&o, "XAa", 1, NULL, 0);
    process_stream(root, "p", &o);
    td_stream(root, "q", NULL, &o);
    td_stream(root, "u", "{\"version\": 3, \"ovni\": {\"part\": \"thread\", \"tid\": 1,", &o);
    ot_check_path(root, &DUMP, &r);
    OT_DUMP(&r, 1, "{\"t\":\"stream\",\"path\":\"p\",\"byte_order\":\"little\"}");
    OT_DUMP(&r, 2, "{\"t\":\"stream\",\"path\":\"q\",\"byte_order\":\"little\"}");
    OT_DUMP(&r, 4, "{\"t\":\"stream\",\"path\":\"u\",\"byte_order\":\"little\"}");
    ob_free(&o);
    free(root);
    ot_free(&r);
}

/* A lone stream is the stream ".", dumped in file order. */
static void test_lone_stream(void)
{
    ob o;
    ob_init(&o, 0);
    ob_event(&o, "XAa", 9, NULL, 0);
    ob_event(&o, "XAb", 3, "\x01\x02", 2);
    ob_jumbo(&o, "XJj", 4, "z", 1);
    char *path = tu_write_file("lone.obs", o.b.p, o.b.len);
    ot_result r = {0};
    ot_check_path(path, &DUMP, &r);
    OT_RULES(&r, "OVNI-CLOCK-DECREASE");
    OT_DUMP(&r, 0, "{\"t\":\"header\",\"format\":\"ovni\",\"dump_version\":2}");
    OT_DUMP(&r, 1, "{\"t\":\"stream\",\"path\":\".\",\"byte_order\":\"little\"}");
    OT_DUMP(&r, 2, "{\"t\":\"event\",\"stream\":\".\",\"clock\":\"9\",\"mcv\":\"XAa\",\"flags\":0,\"size_code\":0,\"payload\":\"\"}");
    OT_DUMP(&r, 3, "{\"t\":\"event\",\"stream\":\".\",\"clock\":\"3\",\"mcv\":\"XAb\",\"flags\":0,\"size_code\":1,\"payload\":\"0102\"}");
    OT_DUMP(&r, 4, "{\"t\":\"event\",\"stream\":\".\",\"clock\":\"4\",\"mcv\":\"XJj\",\"flags\":16,\"size_code\":3,\"jumbo_size\":1,\"payload\":\"7a\"}");
    CU_ASSERT_EQUAL(ot_dump_lines(&r), 5);
    /* A trace whose only stream is its own directory: also ".". */
    char *root = td_new("lone");
    process_stream(root, ".", &o);
    ot_check_path(root, &DUMP, &r);
    OT_DUMP(&r, 1, "{\"t\":\"stream\",\"path\":\".\",\"byte_order\":\"little\"}");
    OT_DUMP(&r, 2, "{\"t\":\"event\",\"stream\":\".\",\"clock\":\"9\",\"mcv\":\"XAa\",\"flags\":0,\"size_code\":0,\"payload\":\"\"}");
    free(root);
    free(path);
    ob_free(&o);
    ot_free(&r);
}

/* Jumbo data above 64 MiB: null, whatever the input path. */
static void test_huge_payload(void)
{
    size_t n = (64u << 20) + 1;
    uint8_t *data = calloc(1, n);
    if (!data)
        return;
    ob o;
    ob_init(&o, 0);
    ob_jumbo(&o, "XJj", 1, data, (uint32_t)n);
    ob_event(&o, "XAa", 2, NULL, 0);
    free(data);
    char *root = td_new("huge");
    process_stream(root, "s", &o);
    ot_result r = {0};
    ot_check_path(root, &DUMP, &r);
    OT_RULES(&r, "OVNI-JUMBO-LARGE");
    OT_DUMP(&r, 2, "{\"t\":\"event\",\"stream\":\"s\",\"clock\":\"1\",\"mcv\":\"XJj\",\"flags\":16,\"size_code\":3,\"jumbo_size\":67108865,\"payload\":null}");
    OT_DUMP(&r, 3, "{\"t\":\"event\",\"stream\":\"s\",\"clock\":\"2\",\"mcv\":\"XAa\",\"flags\":0,\"size_code\":0,\"payload\":\"\"}");
    free(root);
    ob_free(&o);
    ot_free(&r);
}

/* The dump does not change what is found: same findings, same order. */
static void test_findings_with_and_without_dump(void)
{
    char *root = td_new("same");
    ob a, b;
    events(&a, 0, (const char *const[]){"XAa", "OHe", "XAc"}, (const uint64_t[]){10, 3, 20}, 3);
    ob_init(&b, 1);
    ob_jumbo_raw(&b, 0x10, "XJj", 5, 100, "short", 5);
    td_stream(root, "loom.l/proc.1/thread.2", "{\"version\": 3, \"ovni\": {\"part\": \"thread\", "
              "\"tid\": 3, \"pid\": 1, \"loom\": \"l\", \"require\": {\"ovni\": \"1\"}, \"finished\": 0}}", &a);
    td_stream(root, "loom.l/proc.1/thread.3", NULL, &b);
    td_stream(root, "x", "[]", NULL);
    ot_result with = {0}, without = {0};
    ot_opts o = {.dump = 0};
    ot_check_path(root, &o, &without);
    ot_check_path(root, &DUMP, &with);
    CHECK(without.n >= 8, "findings:%s", ot_describe(&without));
    ot_assert_same(&without, &with, 0, "with and without the dump");
    /* And every window size gives the same dump. */
    for (size_t w = 1; w <= 32; w += 5) {
        ot_result r = {0};
        ot_opts ow = DUMP;
        ow.input.window = w;
        ow.input.no_mmap = 1;
        ot_check_path(root, &ow, &r);
        char what[64];
        snprintf(what, sizeof what, "trace, window %zu", w);
        ot_assert_same(&with, &r, 1, what);
        ot_free(&r);
    }
    ob_free(&a);
    ob_free(&b);
    free(root);
    ot_free(&with);
    ot_free(&without);
}

static const tu_test tests[] = {
    {"merge by clock, ties by path then position", test_merge_by_clock},
    {"path order is byte order", test_path_byte_order},
    {"streams whose clocks decrease", test_decreasing_clocks},
    {"stream and event lines", test_lines},
    {"a lone stream", test_lone_stream},
    {"payloads above 64 MiB", test_huge_payload},
    {"findings the same with and without the dump", test_findings_with_and_without_dump},
    {NULL, NULL},
};

void register_ovni_dump_suite(void) { tu_add_suite("ovni_dump", tests); }
