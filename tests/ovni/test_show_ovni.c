/* The view of `tracecheck show` of ovni streams (fields.h, show.h,
 * parsers/ovni/ovni_show.c): the stream header and each event a record,
 * numbered in file order; the event header's fields as spec/ovni/ovni.md and the
 * canonical dump name them, the payload by its layout's field names
 * (spec/ovni/models.def); a view by offset (inside a record, on its first
 * byte, in a multi-byte field, past the end), by record number, of a
 * big-endian and of a cut stream; and the findings of a parse are the same
 * with and without a view asked for; stream.json by member. Streams are
 * built by hand (tests/ot.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/common/fields.h"
#include "../../parsers/common/show.h"
#include "../ot.h"
#include "../suites.h"

/* A stream of five records (offsets in the comments):
 *   0  stream header
 *   8  OHx, cpu 0, tid 7, tag 0x1122334455667788       (28 bytes)
 *  36  VYc jumbo, typeid 1, label "ab"                  (23 bytes)
 *  59  VWC jumbo, values 5 and -1                       (32 bytes)
 *  91  XAa, a letter of no model, 2 payload bytes       (14 bytes)
 * 105  the end */
static char *sample(int be)
{
    ob o;
    ob_init(&o, be);
    uint8_t pl[16];
    ob_put32(&o, pl, 0);
    ob_put32(&o, pl + 4, 7);
    ob_put64(&o, pl + 8, 0x1122334455667788ull);
    ob_event(&o, "OHx", 100, pl, 16);
    uint8_t type[7];
    ob_put32(&o, type, 1);
    memcpy(type + 4, "ab", 3);
    ob_jumbo(&o, "VYc", 200, type, 7);
    uint8_t values[16];
    ob_put64(&o, values, 5);
    ob_put64(&o, values + 8, (uint64_t)-1);
    ob_jumbo(&o, "VWC", 300, values, 16);
    ob_event(&o, "XAa", 400, "\x01\x02", 2);
    char *path = tu_write_file(be ? "show-be.obs" : "show-le.obs", o.b.p, o.b.len);
    ob_free(&o);
    return path;
}

/* The view of one target of path, context records each side. */
static char *view(const char *path, tc_show_target t, unsigned context)
{
    tc_options opt = TC_OPTIONS_INIT;
    tc_check_opts c = {.options = &opt};
    tc_error err = TC_ERROR_INIT;
    int rc = tc_show(path, NULL, &c, context, &t, 1, &err);
    CHECK(rc == 0, "tc_show returned %d", rc);
    tc_error_free(&err);
    return t.view;
}

static void expect_view(char *got, const char *want, const char *file, unsigned line)
{
    tu_assert(got && !strcmp(got, want), file, line, "view:\n--- got\n%s--- expected\n%s",
              got ? got : "(none)\n", want);
    free(got);
}
#define EXPECT_VIEW(got, want) expect_view((got), (want), __FILE__, __LINE__)

static tc_show_target at(uint64_t offset) { return (tc_show_target){.at = offset}; }
static tc_show_target record(uint64_t n) { return (tc_show_target){.by_record = 1, .record = n}; }

/* The records of the sample, as the views draw them. */
#define REC0(mark)                                                                                  \
    mark " record 0, bytes 0-7 (0x0, 8 bytes): stream header\n"                                      \
    "  0x00000000  6f 76 6e 69                     magic                      \"ovni\"\n"            \
    "  0x00000004  01 00 00 00                     version                    1 (little-endian stream)\n"
#define REC1_HEAD(mark)                                                                             \
    mark " record 1, bytes 8-35 (0x8, 28 bytes): event OHx (ovni: the thread starts running on "     \
         "CPU index cpu (-1: the loom's virtual CPU), made by thread tid)\n"
#define REC1_FIELDS                                                                                 \
    "  0x00000008  0f                              flags (bits 4-7)           0 (a normal event)\n"  \
    "  0x00000008  0f                              size_code (bits 0-3)       15 (16 payload bytes)\n" \
    "  0x00000009  4f                              model                      'O' (ovni)\n"          \
    "  0x0000000a  48                              category                   'H'\n"                 \
    "  0x0000000b  78                              value                      'x'\n"                 \
    "  0x0000000c  64 00 00 00 00 00 00 00         clock                      100 ns (absolute)\n"   \
    "  0x00000014  00 00 00 00                     cpu                        0\n"                   \
    "  0x00000018  07 00 00 00                     tid                        7\n"                   \
    "  0x0000001c  88 77 66 55 44 33 22 11         tag                        1234605616436508552\n"
#define REC2_HEAD(mark)                                                                             \
    mark " record 2, bytes 36-58 (0x24, 23 bytes): jumbo event VYc (nosv: a task type of the "      \
         "process is made, with its label)\n"
#define REC2_FIELDS                                                                                 \
    "  0x00000024  13                              flags (bits 4-7)           16 (jumbo)\n"          \
    "  0x00000024  13                              size_code (bits 0-3)       3 (a 4-byte jumbo size)\n" \
    "  0x00000025  56                              model                      'V' (nosv)\n"          \
    "  0x00000026  59                              category                   'Y'\n"                 \
    "  0x00000027  63                              value                      'c'\n"                 \
    "  0x00000028  c8 00 00 00 00 00 00 00         clock                      200 ns (absolute)\n"   \
    "  0x00000030  07 00 00 00                     jumbo_size                 7 bytes\n"             \
    "  0x00000034  01 00 00 00                     typeid                     1\n"                   \
    "  0x00000038  61 62 00                        label                      \"ab\" (2 bytes and a NUL)\n"
#define REC3_HEAD(mark)                                                                             \
    mark " record 3, bytes 59-90 (0x3b, 32 bytes): jumbo event VWC (nosv: the hardware counters' "  \
         "values, one per counter that nosv.hwc declares)\n"
#define REC3_FIELDS                                                                                 \
    "  0x0000003b  13                              flags (bits 4-7)           16 (jumbo)\n"          \
    "  0x0000003b  13                              size_code (bits 0-3)       3 (a 4-byte jumbo size)\n" \
    "  0x0000003c  56                              model                      'V' (nosv)\n"          \
    "  0x0000003d  57                              category                   'W'\n"                 \
    "  0x0000003e  43                              value                      'C'\n"                 \
    "  0x0000003f  2c 01 00 00 00 00 00 00         clock                      300 ns (absolute)\n"   \
    "  0x00000047  10 00 00 00                     jumbo_size                 16 bytes\n"            \
    "  0x0000004b  05 00 00 00 00 00 00 00         values[0]                  5\n"                   \
    "  0x00000053  ff ff ff ff ff ff ff ff         values[1]                  -1\n"
#define REC4_HEAD(mark)                                                                             \
    mark " record 4, bytes 91-104 (0x5b, 14 bytes): event XAa (no model tracecheck knows)\n"
#define REC4_FIELDS                                                                                 \
    "  0x0000005b  01                              flags (bits 4-7)           0 (a normal event)\n"  \
    "  0x0000005b  01                              size_code (bits 0-3)       1 (2 payload bytes)\n" \
    "  0x0000005c  58                              model                      'X' (no model tracecheck knows)\n" \
    "  0x0000005d  41                              category                   'A'\n"                 \
    "  0x0000005e  61                              value                      'a'\n"                 \
    "  0x0000005f  90 01 00 00 00 00 00 00         clock                      400 ns (absolute)\n"   \
    "  0x00000067  01 02                           payload                    2 bytes (no layout: an event tracecheck does not know)\n"

/* A byte inside a record, in a multi-byte field (the clock of VYc): that
 * record alone with no context, marked. */
static void test_at_inside_field(void)
{
    char *path = sample(0);
    EXPECT_VIEW(view(path, at(0x2b), 0), REC2_HEAD(">") REC2_FIELDS);
    /* In the string of its payload. */
    EXPECT_VIEW(view(path, at(0x39), 0), REC2_HEAD(">") REC2_FIELDS);
    free(path);
}

/* A record's first byte: that record, the records on each side unmarked. */
static void test_at_first_byte(void)
{
    char *path = sample(0);
    EXPECT_VIEW(view(path, at(36), 1),
                REC1_HEAD(" ") REC1_FIELDS REC2_HEAD(">") REC2_FIELDS REC3_HEAD(" ") REC3_FIELDS);
    /* The last byte of record 1 is its, not record 2's. */
    EXPECT_VIEW(view(path, at(35), 0), REC1_HEAD(">") REC1_FIELDS);
    /* The stream header is record 0. */
    EXPECT_VIEW(view(path, at(0), 1), REC0(">") REC1_HEAD(" ") REC1_FIELDS);
    free(path);
}

/* By record number, with its neighbours; the first and the last. */
static void test_by_record(void)
{
    char *path = sample(0);
    EXPECT_VIEW(view(path, record(3), 0), REC3_HEAD(">") REC3_FIELDS);
    EXPECT_VIEW(view(path, record(4), 1), REC3_HEAD(" ") REC3_FIELDS REC4_HEAD(">") REC4_FIELDS);
    EXPECT_VIEW(view(path, record(0), 0), REC0(">"));
    EXPECT_VIEW(view(path, record(9), 1), "  (the input has 5 records: no record 9)\n");
    free(path);
}

/* Past the end: the last record, which starts before the offset. */
static void test_past_the_end(void)
{
    char *path = sample(0);
    EXPECT_VIEW(view(path, at(105), 0),
                "  (no record holds byte 105; record 4 is the last that starts before it)\n"
                REC4_HEAD(">") REC4_FIELDS);
    EXPECT_VIEW(view(path, at(5000), 1),
                "  (no record holds byte 5000; record 4 is the last that starts before it)\n"
                REC3_HEAD(" ") REC3_FIELDS REC4_HEAD(">") REC4_FIELDS);
    free(path);
}

/* A big-endian stream: its version says so and its fields read in its
 * order. */
static void test_big_endian(void)
{
    char *path = sample(1);
    EXPECT_VIEW(view(path, record(1), 1),
                "  record 0, bytes 0-7 (0x0, 8 bytes): stream header\n"
                "  0x00000000  6f 76 6e 69                     magic                      \"ovni\"\n"
                "  0x00000004  00 00 00 01                     version                    1 (big-endian stream)\n"
                REC1_HEAD(">")
                "  0x00000008  0f                              flags (bits 4-7)           0 (a normal event)\n"
                "  0x00000008  0f                              size_code (bits 0-3)       15 (16 payload bytes)\n"
                "  0x00000009  4f                              model                      'O' (ovni)\n"
                "  0x0000000a  48                              category                   'H'\n"
                "  0x0000000b  78                              value                      'x'\n"
                "  0x0000000c  00 00 00 00 00 00 00 64         clock                      100 ns (absolute)\n"
                "  0x00000014  00 00 00 00                     cpu                        0\n"
                "  0x00000018  00 00 00 07                     tid                        7\n"
                "  0x0000001c  11 22 33 44 55 66 77 88         tag                        1234605616436508552\n"
                REC2_HEAD(" ")
                "  0x00000024  13                              flags (bits 4-7)           16 (jumbo)\n"
                "  0x00000024  13                              size_code (bits 0-3)       3 (a 4-byte jumbo size)\n"
                "  0x00000025  56                              model                      'V' (nosv)\n"
                "  0x00000026  59                              category                   'Y'\n"
                "  0x00000027  63                              value                      'c'\n"
                "  0x00000028  00 00 00 00 00 00 00 c8         clock                      200 ns (absolute)\n"
                "  0x00000030  00 00 00 07                     jumbo_size                 7 bytes\n"
                "  0x00000034  00 00 00 01                     typeid                     1\n"
                "  0x00000038  61 62 00                        label                      \"ab\" (2 bytes and a NUL)\n");
    free(path);
}

/* An invalid stream: undefined flag bits, a clock that goes back, a
 * payload that does not match its layout, then an event cut by the end.
 * Its view still draws, and the findings are the same whether a view is
 * asked for or not. */
static void test_invalid_stream(void)
{
    ob o;
    ob_init(&o, 0);
    ob_event_raw(&o, 0x20, "XAa", 50, NULL, 0);        /*  8: flags 0x20 */
    ob_event(&o, "XAb", 40, NULL, 0);                    /* 20: its clock goes back */
    ob_event(&o, "VTx", 60, "\x05\x00\x00\x00", 4);      /* 32: VTx has 8 payload bytes */
    ob_event_raw(&o, 0x0f, "XAc", 70, "\x01\x02\x03", 3); /* 48: 16 announced, 3 there */
    char *path = tu_write_file("show-invalid.obs", o.b.p, o.b.len);
    ob_free(&o);

    EXPECT_VIEW(view(path, at(60), 0),
                "> record 4, bytes 48-62 (0x30, 15 bytes): event XAc (no model tracecheck knows), cut by the end of the stream\n"
                "  0x00000030  0f                              flags (bits 4-7)           0 (a normal event)\n"
                "  0x00000030  0f                              size_code (bits 0-3)       15 (16 payload bytes)\n"
                "  0x00000031  58                              model                      'X' (no model tracecheck knows)\n"
                "  0x00000032  41                              category                   'A'\n"
                "  0x00000033  63                              value                      'c'\n"
                "  0x00000034  46 00 00 00 00 00 00 00         clock                      70 ns (absolute)\n"
                "  0x0000003c  01 02 03                        payload                    3 of its 16 bytes: the stream ends\n");
    EXPECT_VIEW(view(path, record(1), 0),
                "> record 1, bytes 8-19 (0x8, 12 bytes): event XAa (no model tracecheck knows)\n"
                "  0x00000008  20                              flags (bits 4-7)           32 (bits that are not defined)\n"
                "  0x00000008  20                              size_code (bits 0-3)       0 (no payload)\n"
                "  0x00000009  58                              model                      'X' (no model tracecheck knows)\n"
                "  0x0000000a  41                              category                   'A'\n"
                "  0x0000000b  61                              value                      'a'\n"
                "  0x0000000c  32 00 00 00 00 00 00 00         clock                      50 ns (absolute)\n");
    EXPECT_VIEW(view(path, record(3), 0),
                "> record 3, bytes 32-47 (0x20, 16 bytes): event VTx (nosv: the thread starts running a body of the task (bodyid 0 unless the task is parallel))\n"
                "  0x00000020  03                              flags (bits 4-7)           0 (a normal event)\n"
                "  0x00000020  03                              size_code (bits 0-3)       3 (4 payload bytes)\n"
                "  0x00000021  56                              model                      'V' (nosv)\n"
                "  0x00000022  54                              category                   'T'\n"
                "  0x00000023  78                              value                      'x'\n"
                "  0x00000024  3c 00 00 00 00 00 00 00         clock                      60 ns (absolute)\n"
                "  0x0000002c  05 00 00 00                     payload                    4 bytes (carries a 4-byte payload; its layout is u32 taskid, u32 bodyid (8 bytes))\n");

    /* The same findings with a view's fields asked for as without. */
    tc_options opt = TC_OPTIONS_INIT;
    opt.format = TC_FORMAT_OVNI;
    opt.max_repeats = 1000;
    ot_result plain = {0}, drawn = {0};
    tc_error err = TC_ERROR_INIT;
    opt.on_diag = ot_collect;
    opt.user = &plain;
    tc_check_opts c = {.options = &opt};
    plain.status = tc_check_path(path, &c, &plain.sum, &err);
    tc_fields f = {0};
    f.ranges[f.nranges++] = (tc_field_range){0, 100};
    opt.user = &drawn;
    c.fields = &f;
    drawn.status = tc_check_path(path, &c, &drawn.sum, &err);
    tc_error_free(&err);
    OT_RULES(&plain, "OVNI-EVENT-FLAGS OVNI-CLOCK-DECREASE OVNI-EVENT-TRUNCATED");
    CHECK(f.count == 5 && f.nrecords == 5, "records: %llu reported, %zu kept",
          (unsigned long long)f.count, f.nrecords);
    ot_assert_same(&plain, &drawn, 0, "with a view");
    tc_fields_free(&f);
    ot_free(&plain);
    ot_free(&drawn);
    free(path);
}

/* A stream cut inside its header, and inside an event's header. */
static void test_cut_headers(void)
{
    char *path = tu_write_file("show-cut.obs", "ovni\x01\x00", 6);
    EXPECT_VIEW(view(path, record(0), 0),
                "> record 0, bytes 0-5 (0x0, 6 bytes): stream header (cut)\n"
                "  0x00000000  6f 76 6e 69                     magic                      \"ovni\"\n"
                "  0x00000004  01 00                           version                    2 of its 4 bytes\n");
    free(path);
    ob o;
    ob_init(&o, 0);
    ob_event(&o, "XAa", 1, NULL, 0);
    ob_raw(&o, "\x00XA", 3);
    path = tu_write_file("show-cut2.obs", o.b.p, o.b.len);
    ob_free(&o);
    EXPECT_VIEW(view(path, at(21), 0),
                "> record 2, bytes 20-22 (0x14, 3 bytes): event (cut: 3 of its 12-byte header)\n"
                "  0x00000014  00 58 41                        header                     3 of 12 bytes: the stream ends\n");
    free(path);
}


/* stream.json: a record per top-level member, by line and column; its
 * value a field named by its key, the ovni object's members each a field. */
static void test_metadata(void)
{
    static const char doc[] = "{\"version\": 3,\n"
                              " \"ovni\": {\"part\": \"thread\", \"tid\": 5, \"require\": {\"ovni\": \"1.0.0\"}},\n"
                              " \"x\": [1, 2]}\n";
    char *path = tu_write_file("stream.json", doc, sizeof doc - 1);
    EXPECT_VIEW(view(path, record(1), 1),
                "  record 0, line 1, bytes 1-12 (0x1, 12 bytes): metadata member \"version\"\n"
                "  1:13-13        3                                 version                    3\n"
                "> record 1, line 2, bytes 16-81 (0x10, 66 bytes): metadata member \"ovni\"\n"
                "  2:19-26        \"thread\"                          ovni.part                  \"thread\"\n"
                "  2:36-36        5                                 ovni.tid                   5\n"
                "  2:50-66        {\"ovni\": \"1.0.0\"}                 ovni.require               an object\n"
                "  record 2, line 3, bytes 85-95 (0x55, 11 bytes): metadata member \"x\"\n"
                "  3:7-12         [1, 2]                            x                          an array\n");
    /* A byte of the value of ovni.tid. */
    EXPECT_VIEW(view(path, at(50), 0),
                "> record 1, line 2, bytes 16-81 (0x10, 66 bytes): metadata member \"ovni\"\n"
                "  2:19-26        \"thread\"                          ovni.part                  \"thread\"\n"
                "  2:36-36        5                                 ovni.tid                   5\n"
                "  2:50-66        {\"ovni\": \"1.0.0\"}                 ovni.require               an object\n");
    free(path);
}

static const tu_test tests[] = {
    {"at a byte inside a field", test_at_inside_field},
    {"at a record's first byte", test_at_first_byte},
    {"by record number", test_by_record},
    {"past the end", test_past_the_end},
    {"a big-endian stream", test_big_endian},
    {"an invalid stream, and the same findings", test_invalid_stream},
    {"cut headers", test_cut_headers},
    {"stream.json", test_metadata},
    {NULL, NULL},
};

void register_show_ovni_suite(void) { tu_add_suite("show_ovni", tests); }
