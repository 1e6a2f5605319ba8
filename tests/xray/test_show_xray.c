/* tracecheck show and validate --show (parsers/common/show.h): the records
 * around an offset or a record number, drawn by the format's own parser,
 * here XRay's (FDR, both byte orders, and basic mode). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/common/fields.h"
#include "../../parsers/common/show.h"
#include "../suites.h"
#include "../tu.h"
#include "xb.h"

/* The view of one target of the file at path (format auto). */
static char *view_of(const char *path, tc_show_target t, unsigned context)
{
    tc_options opt = TC_OPTIONS_INIT;
    tc_check_opts c = {.options = &opt};
    tc_error err = TC_ERROR_INIT;
    char why[300];
    int rc = tu_error_text(tc_show(path, NULL, &c, context, &t, 1, &err), &err, why, sizeof why);
    CHECK(rc == 0, "tc_show %s: status %d (%s)", path, rc, why);
    return t.view;
}

static void expect_line(const char *view, const char *line)
{
    CHECK(view && strstr(view, line) != NULL, "the view lacks the line\n%s\nit is:\n%s", line,
          view ? view : "(none)");
}

static void expect_no_line(const char *view, const char *line)
{
    CHECK(view && strstr(view, line) == NULL, "the view has\n%s\nit is:\n%s", line,
          view ? view : "(none)");
}

/* A v5 FDR trace: header (0-31), BufferExtents (32), NewBuffer (48),
 * WallTimeMarker (64), PIDEntry (80), NewCPUId (96), Entry at 112, Exit at
 * 120. */
static char *fdr_file(int be, const char *name)
{
    xb x;
    xb_init(&x, 5, be);
    xb_header(&x, 4096);
    size_t at = xb_begin(&x);
    xb_preamble(&x, 7, 42, 3, 1000);
    xb_fn(&x, 0, 513, 10);
    xb_fn(&x, 1, 513, 20);
    (void)at;
    xb_end(&x, 0);
    char *path = tu_write_file(name, xb_data(&x), xb_len(&x));
    xb_free(&x);
    return path;
}

static void test_fdr_at_offset(void)
{
    char *path = fdr_file(0, "show-le.xray");
    /* Inside the Entry record's delta: the Entry is marked, one record on
     * each side. */
    char *v = view_of(path, (tc_show_target){.at = 117}, 1);
    expect_line(v, "> record 6, bytes 112-119 (0x70, 8 bytes): function record (Entry)\n");
    expect_line(v, "  0x00000070  10 20 00 00                     func (bits 4-31)           513\n");
    expect_line(v, "  0x00000070  10 20 00 00                     action (bits 1-3)          0 (Entry)\n");
    expect_line(v, "  0x00000074  0a 00 00 00                     delta                      10\n");
    expect_line(v, "  record 5, bytes 96-111 (0x60, 16 bytes): metadata record (NewCPUId)\n");
    expect_line(v, "  0x00000061  03 00                           cpu                        3\n");
    expect_line(v, "  record 7, bytes 120-127 (0x78, 8 bytes): function record (Exit)\n");
    expect_no_line(v, "record 4,");
    free(v);
    /* The header's first byte, no context. */
    v = view_of(path, (tc_show_target){.at = 0}, 0);
    expect_line(v, "> record 0, bytes 0-31 (0x0, 32 bytes): file header (Flight Data Recorder, little-endian)\n");
    expect_line(v, "  0x00000000  05 00                           version                    5\n");
    expect_line(v, "  0x00000010  00 10 00 00 00 00 00 00         buffer_size                4096\n");
    expect_no_line(v, "record 1,");
    free(v);
    /* A span over two records marks both. */
    v = view_of(path, (tc_show_target){.at = 60, .len = 10}, 0);
    expect_line(v, "> record 2, bytes 48-63 (0x30, 16 bytes): metadata record (NewBuffer)\n");
    expect_line(v, "  0x00000031  07 00 00 00                     tid                        7\n");
    expect_line(v, "> record 3, bytes 64-79 (0x40, 16 bytes): metadata record (WallTimeMarker)\n");
    free(v);
    free(path);
}

static void test_fdr_big_endian_bits(void)
{
    char *path = fdr_file(1, "show-be.xray");
    char *v = view_of(path, (tc_show_target){.by_record = 1, .record = 7}, 0);
    /* MSB first: the record type is bit 31, the action bits 28-30. */
    expect_line(v, "> record 7, bytes 120-127 (0x78, 8 bytes): function record (Exit)\n");
    expect_line(v, "  0x00000078  10 00 02 01                     record type (bit 31)       0 (function record)\n");
    expect_line(v, "  0x00000078  10 00 02 01                     action (bits 28-30)        1 (Exit)\n");
    expect_line(v, "  0x00000078  10 00 02 01                     func (bits 0-27)           513\n");
    free(v);
    free(path);
}

static void test_past_the_end(void)
{
    char *path = fdr_file(0, "show-end.xray");
    char *v = view_of(path, (tc_show_target){.at = 100000}, 0);
    expect_line(v, "  (no record holds byte 100000; record 7 is the last that starts before it)\n");
    expect_line(v, "> record 7, bytes 120-127");
    free(v);
    v = view_of(path, (tc_show_target){.by_record = 1, .record = 8}, 1);
    expect_line(v, "  (the input has 8 records: no record 8)\n");
    free(v);
    free(path);
}

static void test_basic_mode(void)
{
    /* A version 3 basic-mode log: header, then one Enter record. */
    uint8_t b[64] = {3, 0, 0, 0, 3, 0, 0, 0, 0x00, 0xca, 0x9a, 0x3b};
    uint8_t *r = b + 32;
    r[2] = 5;                 /* cpu */
    r[3] = 0;                 /* Enter */
    r[4] = 9;                 /* function 9 */
    r[8] = 0x10;              /* TSC 16 */
    r[16] = 0x2a;             /* tid 42 */
    r[20] = 0x2b;             /* pid 43 */
    r[24] = 1;                /* nonzero padding */
    char *path = tu_write_file("show-basic.xray", b, sizeof b);
    char *v = view_of(path, (tc_show_target){.at = 50}, 1);
    expect_line(v, "  record 0, bytes 0-31 (0x0, 32 bytes): file header (basic mode, little-endian)\n");
    expect_line(v, "> record 1, bytes 32-63 (0x20, 32 bytes): function record (Enter)\n");
    expect_line(v, "  0x00000022  05                              cpu                        5\n");
    expect_line(v, "  0x00000024  09 00 00 00                     func                       9\n");
    expect_line(v, "  0x00000030  2a 00 00 00                     tid                        42\n");
    expect_line(v, "  0x00000034  2b 00 00 00                     pid                        43\n");
    expect_line(v, "  0x00000038  01 00 00 00 00 00 00 00         padding                    not zero\n");
    free(v);
    free(path);
}

/* SiFive perf data: a text list's lines with their columns, and what the
 * perf state machine reads each write as. */
static void test_perf_text(void)
{
    static const char list[] = "# a list\n"
                               "0x18 0x1234\n"
                               "0x1b   2 77\n";
    char *path = tu_write_file("show.itc", list, sizeof list - 1);
    char *v = view_of(path, (tc_show_target){.at = 22}, 1);
    expect_line(v, "  record 0, line 2, bytes 9-19 (0x9, 11 bytes): ITC message (line 2)\n");
    expect_line(v, "  2:1-4          0x18                              IDTAG                      "
                   "0x18: channel 6, 32-bit write\n");
    expect_line(v, "  2:6-11         0x1234                            VALUE                      "
                   "0x1234 (4660)\n");
    expect_line(v, "> record 1, line 3, bytes 21-31 (0x15, 11 bytes): ITC message (line 3)\n");
    expect_line(v, "  3:8-8          2                                 VALUE                      "
                   "0x2 (2)\n");
    expect_line(v, "  3:10-11        77                                TIMESTAMP                  77\n");
    expect_line(v, "read as                    before the first header\n");
    free(v);
    free(path);
}

/* Asking for fields changes nothing that is reported: the same findings
 * and dump with and without them. */
static void test_same_findings(void)
{
    xb x;
    xb_init(&x, 5, 0);
    xb_header(&x, 4096);
    xb_begin(&x);
    xb_preamble(&x, 7, 42, 3, 1000);
    xb_fn(&x, 1, 77, 10); /* an exit with no entry */
    xb_arg(&x, 5);        /* a CallArgument out of place */
    xb_end(&x, 0);
    char *path = tu_write_file("show-findings.xray", xb_data(&x), xb_len(&x));
    xb_free(&x);
    tu_result plain = {0}, viewed = {0};
    tu_opts o = {.dump = 1};
    tu_check_path(path, &o, &plain);
    CHECK(plain.n > 0, "the trace has findings");
    tc_fields f = {0};
    f.ranges[f.nranges++] = (tc_field_range){0, UINT64_MAX - 1};
    tc_options opt = TC_OPTIONS_INIT;
    opt.on_diag = tu_collect;
    opt.user = &viewed;
    viewed.status = -1;
    tc_check_opts c = {.options = &opt, .fields = &f};
    tc_summary sum;
    viewed.status = tc_check_path(path, &c, &sum, NULL);
    viewed.sum = sum;
    CU_ASSERT_EQUAL(viewed.status, plain.status);
    CHECK(viewed.n == plain.n, "findings %zu with fields, %zu without", viewed.n, plain.n);
    for (size_t i = 0; i < viewed.n && i < plain.n; i++)
        CHECK(viewed.d[i].offset == plain.d[i].offset &&
                  strcmp(viewed.d[i].message, plain.d[i].message) == 0,
              "finding %zu differs: %s / %s", i, viewed.d[i].message, plain.d[i].message);
    /* header, BufferExtents, NewBuffer, WallTimeMarker, PIDEntry, NewCPUId,
     * Exit, CallArgument */
    CHECK(f.nrecords == 8, "records kept: %zu", f.nrecords);
    tc_fields_free(&f);
    tu_result_free(&plain);
    tu_result_free(&viewed);
    free(path);
}

void register_show_suite(void)
{
    static const tu_test tests[] = {
        {"fdr_at_offset", test_fdr_at_offset},
        {"fdr_big_endian_bits", test_fdr_big_endian_bits},
        {"past_the_end", test_past_the_end},
        {"basic_mode", test_basic_mode},
        {"perf_text", test_perf_text},
        {"same_findings", test_same_findings},
        {NULL, NULL},
    };
    tu_add_suite("show", tests);
}
