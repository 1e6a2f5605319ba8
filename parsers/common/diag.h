/*
 * Diagnostic sink shared by every parser. A parser reports a finding with the
 * rule id, a byte location and a printf-style message carrying the offending
 * values; the sink applies --pedantic, counts every finding, caps repeats of
 * one rule, and passes the rest to the user's callback.
 */
#ifndef TC_DIAG_H
#define TC_DIAG_H

#include <stdarg.h>
#include <stdint.h>

#include "rules.h"

#define TC_DEFAULT_MAX_REPEATS 20u

/* Writes where the parser is ("in buffer 3 of thread 2017 at offset 0x20")
 * into buf. Called only when a finding is reported, so a parser pays nothing
 * for its context on the fast path. */
typedef void (*tc_context_fn)(void *parser, char *buf, size_t size);

typedef struct tc_diag_sink {
    const char *input;
    void (*on_diag)(void *user, const tc_diag *d);
    void *user;
    unsigned max_repeats;
    int pedantic;
    tc_context_fn context_fn;
    void *context_parser;
    /* When set, decides instead of max_repeats whether a counted finding is
     * formatted and passed on (diag_order.h keeps the first by its order). */
    int (*wants)(void *user, tc_rule_id rule);
    uint64_t errors, warnings, notes;
    uint64_t first_error_offset;
    uint64_t count[TC_RULE__COUNT]; /* findings per rule, suppressed ones included */
    /* Set by tc_diag_fail: the input could not be checked to the end for a
     * reason of the machine, not of the input (out of memory). */
    char failed[200];
    /* While a view of the input is drawn (fields.h): where the parser says
     * which bytes it read as what. NULL otherwise. */
    struct tc_fields *fields;
} tc_diag_sink;

void tc_diag_init(tc_diag_sink *s, const char *input, unsigned max_repeats, int pedantic,
                  void (*on_diag)(void *, const tc_diag *), void *user);

/* Whether a rule would be reported at all (pedantic rules need --pedantic):
 * lets a parser skip checks nobody asked for. */
static inline int tc_rule_enabled(const tc_diag_sink *s, tc_rule_id r)
{
    return s->pedantic || !(tc_rules[r].flags & TC_RF_PEDANTIC);
}

void tc_report(tc_diag_sink *s, tc_rule_id rule, uint64_t offset, uint64_t length,
               const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* What a finding carries besides its message (tc_diag's related offsets and
 * named values), for the reporting variants below. Written at the report
 * site with the macros that follow, so that the values stay next to the
 * message that quotes them:
 *
 *   tc_report_ex(d, TC_RULE_XRAY_BUFFER_EXTENTS, at, 16,
 *                TC_EXTRA(TC_VALUES(TC_UINT("buffer_size", size),
 *                                   TC_UINT("remaining", left))),
 *                "BufferExtents says %llu bytes but %llu remain", size, left);
 *
 * The arrays live as long as the enclosing block, which the report is in. */
typedef struct tc_diag_extra {
    const uint64_t *related;
    size_t n_related;
    const tc_diag_value *values;
    size_t n_values;
} tc_diag_extra;

#define TC_EXTRA(...) (&(const tc_diag_extra){__VA_ARGS__})
#define TC_RELATED(...)                                                                            \
    .related = (const uint64_t[]){__VA_ARGS__},                                                    \
    .n_related = sizeof((const uint64_t[]){__VA_ARGS__}) / sizeof(uint64_t)
#define TC_VALUES(...)                                                                             \
    .values = (const tc_diag_value[]){__VA_ARGS__},                                                \
    .n_values = sizeof((const tc_diag_value[]){__VA_ARGS__}) / sizeof(tc_diag_value)
/* clang-format off */
#define TC_UINT(n, v) {.name = (n), .type = TC_VALUE_UINT, .u = (uint64_t)(v)}
#define TC_INT(n, v) {.name = (n), .type = TC_VALUE_INT, .i = (int64_t)(v)}
#define TC_STR(n, v) {.name = (n), .type = TC_VALUE_STRING, .s = (v)}
/* clang-format on */

/* tc_report and tc_report_text with what x holds (x may be NULL). */
void tc_report_ex(tc_diag_sink *s, tc_rule_id rule, uint64_t offset, uint64_t length,
                  const tc_diag_extra *x, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
void tc_report_text_ex(tc_diag_sink *s, tc_rule_id rule, uint64_t offset, uint64_t length,
                       uint32_t line, uint32_t column, const char *json_path,
                       const tc_diag_extra *x, const char *fmt, ...)
    __attribute__((format(printf, 9, 10)));

/* For text formats: line and column (1-based) and a JSON path. */
void tc_report_text(tc_diag_sink *s, tc_rule_id rule, uint64_t offset, uint64_t length,
                    uint32_t line, uint32_t column, const char *json_path,
                    const char *fmt, ...) __attribute__((format(printf, 8, 9)));

/* A finding about a file or directory as a whole (no location inside it). */
void tc_report_about(tc_diag_sink *s, tc_rule_id rule, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The check cannot go on for a reason that is not a property of the input
 * (the machine is out of memory): not a finding, but the input's outcome
 * is then "could not check" (exit status 2) with this reason. The first
 * reason is kept. */
void tc_diag_fail(tc_diag_sink *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* For findings made elsewhere (split.h: another thread's sink with the
 * same settings) and kept: counts d as if reported here, and shows it when
 * within the cap. */
void tc_diag_replay(tc_diag_sink *s, const tc_diag *d);

/* Then the rest of what that sink counted: its findings past replayed[rule]
 * of each rule (over its cap, never kept), its first error's offset and its
 * failure. */
void tc_diag_absorb(tc_diag_sink *s, const tc_diag_sink *from, const uint64_t *replayed);

/* Emits one TC-DIAG-SUPPRESSED note per rule that went over the cap. */
void tc_diag_finish(tc_diag_sink *s);

#endif
