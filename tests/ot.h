/*
 * Helpers of the JSON and ovni suites (test_json*.c, test_ovni_*.c):
 *
 * - findings collected whole (file, line:column and JSON path too, which
 *   tu_result leaves out), from files, memory or trace directories;
 * - the JSON tokenizer run to its end, every token kept;
 * - a byte builder for ovni binary streams in either byte order, written from
 *   ovni's trace specification v3 and spec/ovni/ovni.md alone (not from the ovni
 *   generator), so that the tests check the parsers against the spec
 *   independently;
 * - metadata text and temporary trace directories.
 */
#ifndef TC_TESTS_OT_H
#define TC_TESTS_OT_H

#include <stddef.h>
#include <stdint.h>

#include "../parsers/common/json.h"
#include "tu.h"

/* ---- findings ---- */

typedef struct ot_diag {
    const tc_rule_info *rule;
    tc_severity severity;
    char *input; /* the file (or name) the finding is about */
    uint64_t offset, length;
    uint32_t line, column;
    char *path; /* JSON path, or NULL */
    char *message;
    int unlocated;
} ot_diag;

typedef struct ot_result {
    int status;
    tc_summary sum;
    ot_diag *d;
    size_t n, cap;
    char *dump;
    size_t dump_len;
    char err[512];
} ot_result;

typedef struct ot_opts {
    tc_format format; /* TC_FORMAT_AUTO by default */
    int no_models;
    int dump;
    unsigned max_repeats; /* 0: 1000, so that counts are exact */
    tc_input_opts input;
} ot_opts;

void ot_collect(void *user, const tc_diag *d);
void ot_free(ot_result *r);
/* A diag sink that collects into r. */
void ot_sink(tc_diag_sink *s, const char *input, ot_result *r);

/* tc_check_path: a file or a directory (an ovni trace). */
int ot_check_path(const char *path, const ot_opts *o, ot_result *r);
/* tc_check_input over bytes in memory (named "mem"). */
int ot_check_memory(const void *p, size_t n, const ot_opts *o, ot_result *r);

size_t ot_count(const ot_result *r, const char *rule);
/* The first finding of rule (whose message contains needle, when given). */
const ot_diag *ot_find(const ot_result *r, const char *rule, const char *needle);
const char *ot_describe(const ot_result *r); /* static buffer */
size_t ot_dump_lines(const ot_result *r);
const char *ot_dump_line(const ot_result *r, size_t n); /* static buffer; "" past the end */

/* The findings are exactly these rule ids in this order ("" for none). */
void ot_assert_rules(const ot_result *r, const char *expected, const char *file, unsigned line);
#define OT_RULES(r, ids) ot_assert_rules((r), (ids), __FILE__, __LINE__)
/* The same, in any order (both sides sorted). */
void ot_assert_ruleset(const ot_result *r, const char *expected, const char *file, unsigned line);
#define OT_RULESET(r, ids) ot_assert_ruleset((r), (ids), __FILE__, __LINE__)
/* A finding of rule whose message contains needle; returns it or NULL. */
const ot_diag *ot_assert_msg(const ot_result *r, const char *rule, const char *needle,
                             const char *file, unsigned line);
#define OT_MSG(r, rule, needle) ot_assert_msg((r), (rule), (needle), __FILE__, __LINE__)
/* A finding of rule at this byte offset. */
void ot_assert_at(const ot_result *r, const char *rule, uint64_t offset, const char *file,
                  unsigned line);
#define OT_AT(r, rule, off) ot_assert_at((r), (rule), (off), __FILE__, __LINE__)
void ot_assert_dump_line(const ot_result *r, size_t n, const char *text, const char *file,
                         unsigned line);
#define OT_DUMP(r, n, text) ot_assert_dump_line((r), (n), (text), __FILE__, __LINE__)
/* Same status, summary and findings (every field); dumps too when asked. */
void ot_assert_same(const ot_result *ref, const ot_result *r, int dumps, const char *what);

/* ---- the JSON tokenizer, run to its end ---- */

typedef struct jt_tok {
    tc_json_kind kind;
    uint64_t offset;
    uint32_t line, column;
    char *text; /* KEY, STRING, NUMBER: a copy (NULs kept; len says) */
    size_t len;
    int integer, negative, fits;
    int64_t i64;
    uint64_t u64;
    char *path;
    unsigned depth;
} jt_tok;

typedef struct jt_run {
    jt_tok *t;
    size_t n, cap;
    int end; /* what the last tc_json_next returned: 0 complete, -1 error */
    ot_result diags;
} jt_run;

void jt_run_reader(tc_reader *r, jt_run *out);
void jt_run_mem(const void *p, size_t n, jt_run *out);
void jt_run_str(const char *s, jt_run *out);
void jt_free(jt_run *j);
/* "{ K:a N:1 }"-style summary of the tokens (static buffer), for messages. */
const char *jt_describe(const jt_run *j);
/* The one finding's rule id, "" when none, "A B" when several. */
const char *jt_rules(const jt_run *j);

/* The y/n documents shared by the JSON suites (tests/json_cases.c):
 * `rules` is the findings expected ("" for none), `end` what the tokenizer
 * ends with (0 complete, -1 error), `at` the offset of the first finding (or
 * -1 when not checked). */
typedef struct jt_case {
    const char *name;
    const char *doc;
    size_t len;
    const char *rules;
    int end;
    long long at;
} jt_case;
extern const jt_case jt_cases[];
extern const size_t jt_ncases;

/* ---- ovni binary streams ---- */

typedef struct ob {
    tu_bytes b;
    int be;
} ob;

/* A stream with its 8-byte header ("ovni", version 1 in the order be). */
void ob_init(ob *o, int be);
/* An empty buffer: write the header yourself (ob_raw). */
void ob_init_raw(ob *o, int be);
void ob_free(ob *o);
void ob_raw(ob *o, const void *p, size_t n);
void ob_u32(ob *o, uint32_t v);
void ob_u64(ob *o, uint64_t v);
/* An event with byte 0 as given (flags | size code) and n payload bytes. */
void ob_event_raw(ob *o, uint8_t byte0, const char *mcv, uint64_t clock, const void *payload,
                  size_t n);
/* A normal event: n payload bytes (0 or 2..16), size code n ? n - 1 : 0. */
void ob_event(ob *o, const char *mcv, uint64_t clock, const void *payload, size_t n);
/* A jumbo event (byte 0 = byte0, normally 0x13) declaring `declared` bytes
 * of which the n at data are written. */
void ob_jumbo_raw(ob *o, uint8_t byte0, const char *mcv, uint64_t clock, uint32_t declared,
                  const void *data, size_t n);
void ob_jumbo(ob *o, const char *mcv, uint64_t clock, const void *data, uint32_t n);
/* Payload fields in the stream's byte order, into p. */
void ob_put32(const ob *o, uint8_t *p, uint32_t v);
void ob_put64(const ob *o, uint8_t *p, uint64_t v);

/* ---- metadata and trace directories ---- */

/* A thread stream's metadata (malloc'd): version 3, part "thread", tid, pid,
 * loom, require {"ovni": "1.0.0"} and finished 1, then `extra` (members of
 * the ovni object, e.g. "\"app_id\": 1", or "") and `top` (members of the
 * top-level object, or ""). */
char *om_thread(int64_t tid, int64_t pid, const char *loom, const char *extra, const char *top);

/* A new empty directory under tu_tmpdir() (malloc'd path). */
char *td_new(const char *tag);
/* Writes root/rel, creating the directories on the way. */
void td_write(const char *root, const char *rel, const void *p, size_t n);
void td_mkdir(const char *root, const char *rel);
/* A stream in root/dir: stream.json (unless json is NULL) and stream.obs
 * (unless obs is NULL). */
void td_stream(const char *root, const char *dir, const char *json, const ob *obs);
/* root/rel, malloc'd. */
char *td_path(const char *root, const char *rel);

#endif
