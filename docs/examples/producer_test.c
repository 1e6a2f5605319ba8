/*
 * A producer's test with libtracecheck: a tiny producer of SiFive perf data
 * (the ITC writes a profiled program makes, written as the text message list
 * of spec/perf/perf.md) writes a trace into memory, and the test has tracecheck
 * judge it. It fails, printing every finding, when the trace is not valid;
 * then it checks that a trace broken on purpose is rejected for the expected
 * rule, so that the test itself is known to be able to fail.
 *
 * Build against an installed tracecheck:
 *
 *   cc -std=c11 producer_test.c $(pkg-config --cflags --libs tracecheck)
 *
 * or on the static library (-l: takes it over the shared one next to it):
 *
 *   cc -std=c11 producer_test.c \
 *       $(pkg-config --static --cflags --libs tracecheck | sed 's/-ltracecheck\b/-l:libtracecheck.a/')
 *
 * Exit status: 0 when both checks hold, 1 otherwise.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <tracecheck/tracecheck.h>

/* ---- the producer ------------------------------------------------------ */

/* ITC stimulus register offsets (IDTAG) of channel 6: a 32-bit and an 8-bit
 * store. */
enum { IDTAG_32 = 0x18, IDTAG_8 = 0x1b };

typedef struct producer {
    char text[4096];
    size_t len;
} producer;

static void itc_write(producer *p, unsigned idtag, unsigned long value)
{
    int n = snprintf(p->text + p->len, sizeof p->text - p->len, "0x%x 0x%lx\n", idtag, value);
    if (n > 0 && (size_t)n < sizeof p->text - p->len)
        p->len += (size_t)n;
}

/* The header: raw counts of two counters, the cycle counter (CSR 0xc00) and
 * the time, both 64 bits wide. */
static void produce_header(producer *p)
{
    itc_write(p, IDTAG_32, 0x70657266); /* the marker, 'perf' */
    itc_write(p, IDTAG_8, 0);           /* count type: raw */
    itc_write(p, IDTAG_32, 0x3);        /* counter mask: counters 0 and 1 */
    /* counter 0: OpenSBI type 0, event code 1, CSR 0xc00, top bit 63 */
    itc_write(p, IDTAG_32, 0);
    itc_write(p, IDTAG_32, 1);
    itc_write(p, IDTAG_32, 0x3fc00);
    /* counter 1: the time, not CSR-mapped, top bit 63 */
    itc_write(p, IDTAG_32, 0);
    itc_write(p, IDTAG_32, 0);
    itc_write(p, IDTAG_32, 0x3f000);
}

/* A record of the given type (2: a manual record) at an even address. */
static void produce_record(producer *p, unsigned type, unsigned long address,
                           unsigned long cycles, unsigned long time)
{
    itc_write(p, IDTAG_8, type);
    itc_write(p, IDTAG_32, address);
    itc_write(p, IDTAG_32, cycles);
    itc_write(p, IDTAG_32, time);
}

/* ---- the test ---------------------------------------------------------- */

static int failures;

static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("FAIL: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    failures++;
}

static void print_findings(const tc_result *r)
{
    for (size_t i = 0; i < tc_result_count(r); i++) {
        const tc_diag *d = tc_result_diag(r, i);
        fprintf(stderr, "  %s:%u:%u: %s: %s\n", d->input, (unsigned)d->line,
                (unsigned)d->column, d->rule->id, d->message);
    }
}

/* The producer's normal output must be valid perf data, with no warning. */
static void test_valid_trace(void)
{
    producer p = {.len = 0};
    produce_header(&p);
    for (unsigned long i = 0; i < 3; i++)
        produce_record(&p, 2, 0x80001000 + 0x10 * i, 1000 + 500 * i, 2000 + 600 * i);

    tc_options opt = TC_OPTIONS_INIT;
    if (tc_options_set(&opt, "format", "perf") || tc_options_set(&opt, "container", "text"))
        fail("tc_options_set refused a documented option");
    tc_result *r = tc_check_buffer(p.text, p.len, "producer.itc", &opt);
    if (!r) {
        fail("out of memory");
        return;
    }
    const tc_summary *s = tc_result_summary(r);
    if (tc_result_status(r) != 0 || s->warnings) {
        fail("the producer's trace is not valid (status %d, %llu errors, %llu warnings%s%s)",
             tc_result_status(r), (unsigned long long)s->errors,
             (unsigned long long)s->warnings, tc_result_status(r) == 2 ? ": " : "",
             tc_result_error(r));
        print_findings(r);
    } else if (s->format != TC_FORMAT_PERF || s->bytes != p.len) {
        fail("read %llu bytes as %s, expected %zu bytes of perf", (unsigned long long)s->bytes,
             tc_format_name(s->format), p.len);
    }
    tc_result_free(r);
}

/* A record type the format does not have must be caught, by its rule. */
static void test_broken_trace(void)
{
    producer p = {.len = 0};
    produce_header(&p);
    produce_record(&p, 4, 0x80001000, 1000, 2000);

    /* The name alone says perf data in the text container. */
    tc_result *r = tc_check_buffer(p.text, p.len, "broken.itc", NULL);
    if (!r) {
        fail("out of memory");
        return;
    }
    const tc_diag *d = tc_result_find(r, "PERF-RECORD-TYPE");
    if (tc_result_status(r) != 1 || !d) {
        fail("a record of type 4 was not reported as PERF-RECORD-TYPE (status %d)",
             tc_result_status(r));
        print_findings(r);
    } else if (d->severity != TC_ERROR || d->line != 10) {
        fail("PERF-RECORD-TYPE found with severity %d on line %u, expected an error on line 10",
             (int)d->severity, (unsigned)d->line);
    }
    tc_result_free(r);
}

int main(void)
{
    test_valid_trace();
    test_broken_trace();
    if (failures)
        return 1;
    printf("producer_test: 2 checks passed (tracecheck %s)\n", TC_VERSION_STRING);
    return 0;
}
