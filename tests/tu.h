/*
 * Helpers shared by the unit suites: running one input through the library
 * while collecting every finding and the canonical dump, assertions whose
 * failure messages show what was expected and what was found, and scratch
 * files in a private temporary directory.
 */
#ifndef TC_TESTS_TU_H
#define TC_TESTS_TU_H

#include <stddef.h>
#include <stdint.h>

#include <CUnit/CUnit.h>

#include "../parsers/common/check.h"
#include "../parsers/common/input.h"
#include "tracecheck/tracecheck.h"

/* ---- suites ---- */

typedef struct tu_test {
    const char *name;
    void (*fn)(void);
} tu_test;

/* Registers a suite; tests ends with {NULL, NULL}. */
void tu_add_suite(const char *name, const tu_test *tests);

/* ---- running inputs ---- */

typedef struct tu_diag {
    const tc_rule_info *rule;
    tc_severity severity;
    uint64_t offset, length;
    int unlocated;
    char *message;
    char *context; /* NULL when the finding had none */
} tu_diag;

typedef struct tu_result {
    int status; /* what tc_check_input returned: 0, 1 or 2 */
    tc_summary sum;
    tu_diag *d;
    size_t n, cap;
    char *dump; /* canonical dump (NUL-terminated), when asked for */
    size_t dump_len;
    char err[300];
} tu_result;

typedef struct tu_opts {
    int pedantic;
    unsigned max_repeats;
    tc_format format;     /* TC_FORMAT_AUTO by default */
    tc_input_opts input;  /* window, no_mmap */
    int dump;             /* also capture the canonical dump */
    const char *binaries[TC_MAX_BINARIES]; /* --binary, in order; NULL past the last */
} tu_opts;

/* The on_diag callback that appends to a tu_result (user). */
void tu_collect(void *user, const tc_diag *d);

/* Each fills r (which it first clears); returns r->status. */
int tu_check_memory(const void *p, size_t n, const tu_opts *o, tu_result *r);
int tu_check_path(const char *path, const tu_opts *o, tu_result *r);
int tu_check_input(tc_input *in, const char *name, const tu_opts *o, tu_result *r);
void tu_result_free(tu_result *r);

/* Findings of a rule; the first one, or NULL. */
size_t tu_count(const tu_result *r, const char *rule_id);
const tu_diag *tu_find(const tu_result *r, const char *rule_id);
/* Number of findings of a severity, as delivered (suppressed ones not included). */
size_t tu_count_severity(const tu_result *r, tc_severity s);
/* "RULE@offset RULE@offset ..." of the findings, for failure messages (static buffer). */
const char *tu_describe(const tu_result *r);

/* The n-th line (0-based) of the dump, without its newline, in a static
 * buffer; "" when there is no such line. */
const char *tu_dump_line(const tu_result *r, size_t n);
/* Newlines in text[0..len), and line n (0-based) of it copied into buf
 * (cut at size - 1); shared by the dump helpers of tu.c and ot.c. */
size_t tu_text_lines(const char *text, size_t len);
const char *tu_text_line(const char *text, size_t len, size_t n, char *buf, size_t size);
size_t tu_dump_lines(const tu_result *r);

/* ---- assertions with messages ---- */

void tu_assert(int ok, const char *file, unsigned line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
#define CHECK(cond, ...) tu_assert(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

/* The findings are exactly these rule ids, in this order (space-separated;
 * "" for none). */
void tu_assert_rules(const tu_result *r, const char *expected, const char *file, unsigned line);
#define EXPECT_RULES(r, ids) tu_assert_rules((r), (ids), __FILE__, __LINE__)

/* A finding of rule whose message contains needle (NULL: any message). */
void tu_assert_message(const tu_result *r, const char *rule, const char *needle,
                       const char *file, unsigned line);
#define EXPECT_MESSAGE(r, rule, needle) tu_assert_message((r), (rule), (needle), __FILE__, __LINE__)

/* A finding of rule at this offset. */
void tu_assert_offset(const tu_result *r, const char *rule, uint64_t offset, const char *file,
                      unsigned line);
#define EXPECT_OFFSET(r, rule, off) tu_assert_offset((r), (rule), (off), __FILE__, __LINE__)

/* Line n of the dump equals text. */
void tu_assert_dump_line(const tu_result *r, size_t n, const char *text, const char *file,
                         unsigned line);
#define EXPECT_DUMP_LINE(r, n, text) tu_assert_dump_line((r), (n), (text), __FILE__, __LINE__)

/* Two runs agree: status, summary, every finding (rule, offset, length,
 * message, context) and, when dumps is set, the dump byte for byte. */
void tu_assert_same(const tu_result *ref, const tu_result *r, int dumps, const char *what);

/* ---- files ---- */

/* A private directory under $TMPDIR (or /tmp), removed at exit. */
const char *tu_tmpdir(void);
/* Writes bytes to tu_tmpdir()/name; returns the path (malloc'd). */
char *tu_write_file(const char *name, const void *p, size_t n);
/* Reads a whole file into malloc'd memory. */
uint8_t *tu_read_file(const char *path, size_t *n);

/* rc, once the reason in e (set by the call that returned rc) is written
 * into buf as the program prints it and e is freed: a call that takes a
 * tc_error, in a test that compares the text,
 *
 *   tc_error why = TC_ERROR_INIT;
 *   rc = tu_error_text(xray_generate(&p, -1, NULL, sink, NULL, &why), &why, err, sizeof err);
 */
int tu_error_text(int rc, tc_error *e, char *buf, size_t n);

/* tc_input_open, tc_check_input and tc_check_path with the reason of a
 * status 2 as text (the formatted cause chain, "" when none), for tests
 * that compare it. */
tc_input *tu_input_open(const char *path, const tc_input_opts *o, char *err, size_t errlen);
int tu_check_input_text(tc_input *in, const char *name, const tc_check_opts *c, tc_summary *out,
                        char *err, size_t errlen);
int tu_check_path_text(const char *path, const tc_check_opts *c, tc_summary *out, char *err,
                       size_t errlen);
/* Removes tu_tmpdir() and everything in it. */
void tu_cleanup_tmpdir(void);

/* The tracecheck program built with this unit binary (BUILD/san/tracecheck)
 * into out; 0 when it is not there. */
int tu_program(char *out, size_t size);

/* ---- compression, with the libraries' own APIs ---- */

typedef struct tu_bytes {
    uint8_t *p;
    size_t len, cap;
} tu_bytes;

void tu_bytes_append(tu_bytes *b, const void *p, size_t n);
void tu_bytes_free(tu_bytes *b);

/* Appends one complete member / stream / frame of the compressed data. */
void tu_gzip_member(tu_bytes *out, const void *p, size_t n);
void tu_bzip2_stream(tu_bytes *out, const void *p, size_t n);
void tu_zstd_frame(tu_bytes *out, const void *p, size_t n);

#endif
