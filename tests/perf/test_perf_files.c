/*
 * SiFive perf data end to end: files and buffers through the library's
 * entry points (detection by name, the container, the perf layer, the
 * options) and `tracecheck dump` on a text message list.
 */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../parsers/perf/perf_sm.h"
#include "../ot.h"
#include "../suites.h"
#include "../tu.h"

/* The example of spec/canonical-dump.md, "SiFive perf". */
static const char example[] =
    "# header: delta; counter 0 (OpenSBI type 0, code 2, 64 bits) and\n"
    "# counter 3 (OpenSBI type 2, event_data 0x100000001, 48 bits, CSR 0xc03)\n"
    "0x18 0x70657266\n0x1b 1\n0x18 0x9\n0x18 0\n0x18 2\n0x18 0x3fc00\n0x18 2\n0x18 1\n"
    "0x18 1\n0x18 0x2fc03\n"
    "# function entry: from 0x80001000 to 0x123400002000, then the two values\n"
    "0x1b 0 5000\n0x18 0x80001000\n0x18 0x2001\n0x18 0x1234\n0x18 5\n0x1a 1\n0x18 3\n"
    "# the next entry; the trace ends inside it\n"
    "0x1b 0\n0x18 0x2000\n";

static const char *const example_dump[] = {
    "{\"t\":\"header\",\"format\":\"perf\",\"dump_version\":2}",
    "{\"t\":\"perf_header\",\"offset\":\"138\",\"count_type\":1,\"count_type_name\":\"delta\","
    "\"mask\":9,\"counters\":2}",
    "{\"t\":\"counter\",\"index\":0,\"opensbi_type\":0,\"code\":2,\"counter_info\":261120,"
    "\"csr\":3072,\"width\":64}",
    "{\"t\":\"counter\",\"index\":3,\"opensbi_type\":2,\"event_data\":\"4294967297\","
    "\"counter_info\":195587,\"csr\":3075,\"width\":48}",
    "{\"t\":\"record\",\"offset\":\"304\",\"type\":0,\"type_name\":\"entry\",\"addresses\":"
    "[\"2147487744\",\"20014547607552\"],\"values\":[\"4294967301\",\"3\"],\"decoded\":"
    "[\"4294967301\",\"3\"],\"timestamp\":\"5000\"}",
};

/* A valid list: a raw header without counters, one manual record. */
static const char small[] = "0x18 0x70657266\n0x1b 0x0\n0x18 0x0\n0x1b 0x2\n0x18 0x80001000\n";

static int validate_buffer(const char *text, size_t n, const char *name, tc_options *opt,
                           ot_result *r)
{
    ot_free(r);
    opt->on_diag = ot_collect;
    opt->user = r;
    opt->max_repeats = 1000;
    r->status = tc_validate_buffer(text, n, name, opt, &r->sum);
    return r->status;
}

static void test_buffer_by_name(void)
{
    tc_options opt = TC_OPTIONS_INIT;
    ot_result r = {0};
    validate_buffer(small, strlen(small), "trace.itc", &opt, &r);
    OT_RULES(&r, "");
    CHECK(r.status == 0 && r.sum.format == TC_FORMAT_PERF, "valid perf data: status %d format %s",
          r.status, tc_format_name(r.sum.format));

    /* Detection by content never picks perf data. */
    validate_buffer(small, strlen(small), "trace.txt", &opt, &r);
    OT_RULES(&r, "TC-FORMAT-UNKNOWN");

    /* An empty list named as one: perf data without messages (ruling 11). */
    validate_buffer("", 0, "empty.itc", &opt, &r);
    OT_RULES(&r, "PERF-NO-DATA");
    CHECK(r.status == 0 && r.sum.format == TC_FORMAT_PERF, "a warning only");
    ot_free(&r);
}

static void test_text_error_location(void)
{
    static const char text[] = "0x18 0x70657266\n0x1b 0x0\n0x18 0x0\n# a comment\n0x1b 0x7\n";
    tc_options opt = TC_OPTIONS_INIT;
    ot_result r = {0};
    validate_buffer(text, strlen(text), "bad.itc", &opt, &r);
    OT_RULES(&r, "PERF-RECORD-TYPE");
    const ot_diag *d = OT_MSG(&r, "PERF-RECORD-TYPE", "is 7");
    CHECK(d && d->line == 5 && d->column == 1 && d->offset == 46 && d->path == NULL,
          "line %u column %u offset %llu", d ? d->line : 0, d ? d->column : 0,
          d ? (unsigned long long)d->offset : 0ull);
    CHECK(r.status == 1, "an error");
    ot_free(&r);
}

static void test_options(void)
{
    /* Channel 3 (IDTAG 0x0c, 0x0e, 0x0f) and another marker, in a file whose
     * name says nothing: --format perf --container text. */
    static const char text[] = "0x0c 0x12345678\n0x0f 0\n0x0c 0\n0x0f 3\n0x0c 0x4000\n"
                               "0x18 0x70657266\n"; /* channel 6: skipped */
    tc_options opt = TC_OPTIONS_INIT;
    ot_result r = {0};
    opt.format = TC_FORMAT_PERF;
    opt.perf_container = TC_PERF_CONTAINER_TEXT;
    opt.perf_channel = 3;
    opt.perf_marker = 0x12345678;
    validate_buffer(text, strlen(text), "data.txt", &opt, &r);
    OT_RULES(&r, "");
    opt.perf_channel = 6;
    opt.perf_marker = TC_PERF_DEFAULT_MARKER;
    validate_buffer(text, strlen(text), "data.txt", &opt, &r);
    OT_RULES(&r, "PERF-HEADER-TRUNCATED");
    /* Out-of-range options through the library: the input cannot be checked. */
    opt.perf_channel = 32;
    validate_buffer(text, strlen(text), "data.txt", &opt, &r);
    CHECK(r.status == 2, "status %d", r.status);
    ot_free(&r);
}

/* ---- Nexus ---- */

/* A variable field: 6 bits a byte, least significant first; its last byte
 * ends the field (MSEO 1) or the message (3). */
static void nexus_field(tu_bytes *b, uint64_t v, int last)
{
    do {
        uint8_t byte = (uint8_t)((v & 63) << 2);
        v >>= 6;
        if (!v)
            byte |= last ? 3 : 1;
        tu_bytes_append(b, &byte, 1);
    } while (v);
}

/* A Data Acquisition message (TCODE 7, no SRC) and its offset. */
static uint64_t nexus_da(tu_bytes *b, uint64_t idtag, uint64_t value)
{
    uint64_t at = b->len;
    uint8_t tcode = 7 << 2;
    tu_bytes_append(b, &tcode, 1);
    nexus_field(b, idtag, 0);
    nexus_field(b, value, 1);
    return at;
}

static void test_rtd_file(void)
{
    tu_bytes b = {0};
    uint8_t idle = 0xff;
    nexus_da(&b, 0x18, 0x70657266);
    nexus_da(&b, 0x1b, 0);
    tu_bytes_append(&b, &idle, 1);
    nexus_da(&b, 0x18, 0x1);     /* mask: counter 0 */
    nexus_da(&b, 0x18, 0);       /* OpenSBI type 0 */
    nexus_da(&b, 0x18, 0x10);    /* code */
    nexus_da(&b, 0x18, 0x1fc00); /* counter_info: 32 bits, CSR 0xc00 */
    nexus_da(&b, 0x14, 0xabc);   /* channel 5: skipped */
    uint64_t rec = nexus_da(&b, 0x1b, 3);
    nexus_da(&b, 0x18, 0x80000000);
    nexus_da(&b, 0x18, 0x1234);
    nexus_da(&b, 0x1b, 3);
    nexus_da(&b, 0x18, 0x80000010);
    uint64_t low = nexus_da(&b, 0x18, 0xffffffff);
    nexus_da(&b, 0x1a, 0x1); /* 0x1ffffffff: over the counter's 32 bits */
    char *path = tu_write_file("t.rtd", b.p, b.len);
    ot_result r = {0};
    ot_opts o = {.dump = 1};
    ot_check_path(path, &o, &r);
    OT_RULES(&r, "PERF-COUNTER-WIDTH");
    OT_AT(&r, "PERF-COUNTER-WIDTH", low);
    OT_MSG(&r, "PERF-COUNTER-WIDTH", "is 0x1ffffffff");
    CHECK(r.status == 1 && r.sum.format == TC_FORMAT_PERF, "status %d", r.status);
    char want[200];
    snprintf(want, sizeof want,
             "{\"t\":\"record\",\"offset\":\"%llu\",\"type\":3,\"type_name\":\"isr\","
             "\"addresses\":[\"2147483648\"],\"values\":[\"4660\"],\"decoded\":[\"4660\"]}",
             (unsigned long long)rec);
    OT_DUMP(&r, 3, want);
    ot_free(&r);
    free(path);
    tu_bytes_free(&b);
}

static void test_compressed_name(void)
{
    tu_bytes z = {0};
    tu_gzip_member(&z, small, strlen(small));
    char *path = tu_write_file("small.itc.gz", z.p, z.len);
    tc_summary sum;
    char err[200] = "";
    int st = tc_validate_file(path, NULL, &sum, err, sizeof err);
    CHECK(st == 0 && sum.format == TC_FORMAT_PERF && sum.errors == 0 && sum.warnings == 0,
          "status %d format %s: %s", st, tc_format_name(sum.format), err);
    free(path);
    tu_bytes_free(&z);
}

/* ---- tracecheck dump ---- */

static void test_dump_program(void)
{
    char prog[4096], cmd[8400];
    if (!tu_program(prog, sizeof prog)) {
        CHECK(0, "no %s: build it (make check-unit does)", prog);
        return;
    }
    char *path = tu_write_file("example.itc", example, strlen(example));
    snprintf(cmd, sizeof cmd, "'%s' dump '%s' 2>/dev/null", prog, path);
    FILE *p = popen(cmd, "r");
    CHECK(p != NULL, "popen");
    if (!p) {
        free(path);
        return;
    }
    tu_bytes out = {0};
    char chunk[4096];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, p)) > 0)
        tu_bytes_append(&out, chunk, got);
    int st = pclose(p);
    CHECK(st == 0, "exit status %d (a warning only)", st);
    size_t n = sizeof example_dump / sizeof example_dump[0];
    CHECK(tu_text_lines((const char *)out.p, out.len) == n, "%zu lines",
          tu_text_lines((const char *)out.p, out.len));
    char line[4096];
    for (size_t i = 0; i < n; i++) {
        tu_text_line((const char *)out.p, out.len, i, line, sizeof line);
        CHECK(strcmp(line, example_dump[i]) == 0, "line %zu:\n  got  %s\n  want %s", i, line,
              example_dump[i]);
    }
    free(path);
    tu_bytes_free(&out);
}

static const tu_test tests[] = {
    {"buffer by name", test_buffer_by_name},
    {"text error location", test_text_error_location},
    {"options", test_options},
    {"rtd file", test_rtd_file},
    {"compressed name", test_compressed_name},
    {"dump program", test_dump_program},
    {NULL, NULL},
};

void register_perf_files_suite(void)
{
    tu_add_suite("perf_files", tests);
}
