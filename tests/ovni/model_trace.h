/*
 * Whole ovni trace directories for the model layer's suites
 * (test_ovni_model_threads.c, test_ovni_model_tasks_marks.c): a trace of up
 * to MT_MAXS thread streams of loom l, each with its metadata's parts and
 * its events, written into a new directory and checked (tests/ot.h); the
 * events of the models with their payloads laid out by hand from
 * spec/ovni/models.def; and the expectation that a trace gives exactly
 * some findings, the first where and with the message expected.
 */
#ifndef TC_TESTS_OVNI_MODEL_TRACE_H
#define TC_TESTS_OVNI_MODEL_TRACE_H

#include <stdint.h>

#include "../ot.h"

#define MT_MAXS 4

/* A thread stream of a trace: its metadata's parts and its events. */
typedef struct mt_stream {
    int64_t tid, pid;
    char require[192];
    char extra[512]; /* more members of the ovni object, or "" */
    char top[256];   /* more members of the top-level object, or "" */
    ob o;
} mt_stream;

typedef struct mt_trace {
    mt_stream s[MT_MAXS];
    int n;
    char *root;
    ot_result r; /* the findings of the last mt_run */
} mt_trace;

/* ---- traces ---- */

void mt_init(mt_trace *t);
/* A thread of loom l, requiring ovni and nosv; the first thread of a trace
 * gives loom l's CPUs: index 0 (phyid 0) and 1 (phyid 1). */
mt_stream *mt_thread(mt_trace *t, int64_t tid, int64_t pid);
/* Writes the trace into a new directory and checks it (into t->r). */
void mt_run(mt_trace *t);
void mt_free(mt_trace *t);
/* root/DIR/name of stream i, malloc'd. */
char *mt_file_of(const mt_trace *t, int i, const char *name);

/* ---- events (each returns its offset) ---- */

uint64_t mt_e0(mt_stream *s, const char *mcv, uint64_t clock);
uint64_t mt_e32(mt_stream *s, const char *mcv, uint64_t clock, uint32_t a);
uint64_t mt_e32x2(mt_stream *s, const char *mcv, uint64_t clock, uint32_t a, uint32_t b);
/* OHx: i32 cpu, i32 tid, u64 tag. */
uint64_t mt_ohx(mt_stream *s, uint64_t clock, int32_t cpu);
/* OM[, OM], OM=: i64 value, i32 type. */
uint64_t mt_mark(mt_stream *s, const char *mcv, uint64_t clock, int64_t value, int32_t type);
/* A type made (VYc, 6Yc, POc): jumbo, u32 typeid, the label and its NUL. */
uint64_t mt_type_made(mt_stream *s, const char *mcv, uint64_t clock, uint32_t id,
                      const char *label);
/* VWC with n counter values. */
uint64_t mt_counters(mt_stream *s, uint64_t clock, unsigned n);

/* ---- expectations ---- */

/* Runs the trace: it gives exactly the findings `rules` (space-separated
 * ids), in order; the first is in the file `name` of stream `in`, at
 * offset `at` (-1: not checked) and its message says `needle` (NULL: not
 * checked). No rules: the trace is valid. */
void mt_expect_at(mt_trace *t, const char *what, const char *rules, int in, const char *name,
                  int64_t at, const char *needle, const char *file, unsigned line);
#define MT_EXPECT(t, what, rules, in, at, needle)                                                  \
    mt_expect_at((t), (what), (rules), (in), "stream.obs", (at), (needle), __FILE__, __LINE__)
#define MT_EXPECT_JSON(t, what, rules, in, needle)                                                 \
    mt_expect_at((t), (what), (rules), (in), "stream.json", -1, (needle), __FILE__, __LINE__)
#define MT_VALID(t, what) mt_expect_at((t), (what), "", 0, NULL, -1, NULL, __FILE__, __LINE__)

/* A message that names the stream.obs of stream i: fmt with its path for
 * the %s ("...of PATH"), malloc'd. */
char *mt_needle_with_path(const mt_trace *t, int i, const char *fmt);

#endif
