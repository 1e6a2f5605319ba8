/*
 * The harness kit: what every fuzz harness needs, once. One header; the
 * parts are in files of their own:
 *
 *  - finding capture (harness_findings.c): a tc_diag sink that keeps a copy
 *    of every finding (rule, severity, location, JSON path, message,
 *    context) and counts;
 *  - checks of one run (harness_checks.c): findings well formed (family,
 *    catalogue severity, one line of UTF-8) and located in the input;
 *  - comparisons (harness_compare.c): two runs equal, one run the other's
 *    less some rules (--pedantic, the model layer), one run the other's
 *    under the repeat cap, a run against the findings an oracle expects;
 *  - inputs (harness_inputs.c): the bytes a parser sees of a compressed
 *    input, and the same bytes through every input path the library has
 *    (the memory reader, read() and mmap windows of a file, a gzip stream,
 *    a stepped reader);
 *  - a seeded random source (harness_random.c), seeded from the input, for
 *    the choices a harness makes (paths, windows, options): every
 *    combination gets its turn over a corpus and a failure replays the same
 *    way; window sizes that put window ends everywhere;
 *  - the library's calls that take more than one call (harness_library.c):
 *    a format's parser through the registry, an error chain's text.
 *
 * The harnesses call the library's parsers and generators directly, each
 * including the headers it needs; the assertions are fuzz_helpers.h's.
 * Oracles that judge a format independently of its parser live in files of
 * their own (each format folder's _oracle.c files).
 */
#ifndef TC_FUZZ_HARNESS_H
#define TC_FUZZ_HARNESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "../../parsers/common/diag.h"
#include "../../parsers/common/error.h"
#include "../../parsers/common/parse.h"
#include "../../parsers/common/reader.h"
#include "../../parsers/common/rules.h"
#include "fuzz_helpers.h"

/* ---- finding capture ---- */

typedef struct hx_finding {
    tc_rule_id rule;
    tc_severity severity;
    uint64_t offset, length;
    uint32_t line, column;
    int unlocated;
    char *path;    /* JSON path, or NULL */
    char *message;
    char *context; /* NULL when the parser gave none */
} hx_finding;

/* The findings' texts, copied into blocks that never move: a few
 * allocations per run instead of three per finding (under ASan each
 * allocation records a stack, which cost more than the parse). */
typedef struct hx_text_block hx_text_block;

typedef struct hx_findings {
    hx_finding *v;
    size_t n, cap;
    hx_text_block *text; /* the newest block, linked to the older ones */
    unsigned max_repeats;             /* the sink's repeat cap (UINT32_MAX: none) */
    uint64_t errors, warnings, notes; /* the sink's counters */
    uint64_t count[TC_RULE__COUNT];   /* the sink's per-rule counts, suppressed ones included */
} hx_findings;

/* A tc_diag callback (user: an hx_findings) that keeps a copy of every
 * finding and counts it per rule (hx_sink_finish replaces the counts with
 * the sink's, which include the suppressed findings). */
void hx_collect(void *user, const tc_diag *d);

/* A sink that collects into out (zeroed first). max_repeats 0: no cap;
 * with a cap (TC_DEFAULT_MAX_REPEATS is tracecheck validate's) each rule's
 * findings beyond it are counted, not delivered (nor formatted: the cheap
 * way to run a parser that reports much), and one TC-DIAG-SUPPRESSED note
 * per such rule follows at the end. */
void hx_sink_init(tc_diag_sink *s, hx_findings *out, int pedantic, unsigned max_repeats);
/* Finishes the sink (suppression notes) and copies its counters. */
void hx_sink_finish(tc_diag_sink *s, hx_findings *out);
void hx_findings_free(hx_findings *f);
/* Takes finding i out (counters and per-rule counts too). */
void hx_findings_drop(hx_findings *f, size_t i);

/* ---- checks of one run ---- */

/* Counters match what was delivered (under the repeat cap: each rule's
 * first max_repeats, then one TC-DIAG-SUPPRESSED note per rule over it);
 * each finding has one of the families given (space-separated, e.g. "OVNI
 * TC"), the catalogue's severity, a message of one non-empty line of UTF-8,
 * and a JSON path (when it has one) of UTF-8 text starting with $. */
void hx_check_well_formed(const hx_findings *f, const char *families);

/* Where findings of a binary format may lie: located (never "unlocated"),
 * no line, column or JSON path, offset and offset + length inside the n
 * bytes, except for the rules past_end accepts (findings about a record the
 * input cuts short may cover it whole). past_end may be NULL. */
void hx_check_binary_locations(const hx_findings *f, size_t n, int (*past_end)(tc_rule_id));

/* Where findings of a JSON document may lie: offset (and offset + length,
 * or a point at the very end that covers the missing byte) inside the n
 * bytes at p, at the line:column that offset has, with a JSON path.
 * Unlocated findings pass when allow_unlocated. */
void hx_check_text_locations(const hx_findings *f, const uint8_t *p, size_t n,
                             int allow_unlocated);

/* Line and column (1-based, column in bytes) of offset in a JSON text, as
 * RFC 8259 text is read: lines end at LF; a UTF-8 byte order mark at the
 * start is not part of line 1's columns. Computed from the bytes alone. */
void hx_line_column(const uint8_t *p, size_t n, uint64_t offset, uint32_t *line,
                    uint32_t *column);

/* The same, for offsets asked in increasing order: each call goes on from
 * where the one before stopped (an offset before it starts again). Zero the
 * cursor before the first call. */
typedef struct hx_lines {
    uint64_t at, start; /* the offset reached, and where its line starts */
    uint32_t line;
} hx_lines;
void hx_line_column_next(hx_lines *c, const uint8_t *p, size_t n, uint64_t offset,
                         uint32_t *line, uint32_t *column);

/* Whether s is one line of UTF-8 text (RFC 3629): no byte below 0x20. */
int hx_clean_text(const char *s);
/* Whether the rule's family is one of families (space-separated). */
int hx_family_in(tc_rule_id rule, const char *families);
/* Whether s starts with prefix (a rule id with its family and group,
 * "PERF-NEXUS-"): a loop of the kit's own, asked per finding. strncmp is
 * intercepted for libFuzzer's value profile, which costs a tenth of an
 * execution when a harness asks it for every finding; the kit is not
 * traced (fuzz/coverage.ignore). */
int hx_starts_with(const char *s, const char *prefix);

/* ---- comparisons of two runs ---- */

int hx_finding_eq(const hx_finding *a, const hx_finding *b);
/* Index of the first finding that differs, or -1 when all are equal. */
long hx_first_difference(const hx_findings *a, const hx_findings *b);
void hx_print_finding(FILE *f, const char *label, const hx_finding *d);
void hx_print_difference(FILE *f, const hx_findings *a, const char *la, const hx_findings *b,
                         const char *lb, long from);

/* Aborts unless a and b hold the same findings and counters. */
void hx_assert_same(const hx_findings *a, const char *la, const hx_findings *b, const char *lb);

/* Aborts unless some holds exactly all's findings less those of the rules
 * dropped() accepts, in order, and the counters agree (errors, warnings and
 * notes of the dropped findings taken off). what names the option. */
void hx_assert_without(const hx_findings *all, const hx_findings *some, const char *what,
                       int (*dropped)(tc_rule_id));
/* dropped() for --pedantic: the pedantic rules. */
int hx_pedantic_rule(tc_rule_id r);

/* Aborts unless capped is all under a repeat cap of cap: each rule's first
 * cap findings in order, then one unlocated TC-DIAG-SUPPRESSED note naming
 * each rule over the cap; the counters count everything. */
void hx_assert_capped(const hx_findings *all, const hx_findings *capped, unsigned cap);

/* ---- what an oracle expects ---- */

/* The findings an oracle works out for an input, in the order the parser
 * must report them. */
typedef struct hx_want {
    tc_rule_id rule;
    uint64_t offset, length;
    uint32_t line;
    int unlocated;
} hx_want;

typedef struct hx_expect {
    hx_want *v;
    size_t n, cap;
} hx_expect;

void hx_expect_add(hx_expect *x, tc_rule_id rule, uint64_t offset, uint64_t length);
void hx_expect_add_at(hx_expect *x, const hx_want *w);
void hx_expect_free(hx_expect *x);

/* What is compared of each finding. */
enum { HX_CMP_LENGTH = 1, HX_CMP_LINE = 2 };

/* Aborts unless the findings of the rules judged() accepts are exactly the
 * expected ones, rule and offset (and length, line and unlocated as cmp
 * says), in order; under the run's repeat cap, each rule's first
 * max_repeats, with each judged rule counted as often as expected. */
void hx_assert_expected(const hx_findings *f, const hx_expect *x, int (*judged)(tc_rule_id),
                        unsigned cmp, const char *what);
/* judged() for every rule. */
int hx_every_rule(tc_rule_id r);

/* ---- decompression ---- */

/* Decompressed inputs larger than this are skipped: a few bytes of bzip2 can
 * expand to gigabytes, which measures the decompressor, not the parser. */
#define HX_DECOMPRESSED_LIMIT (1u << 20)

/* The bytes a parser sees: the input, or for a compressed one its
 * decompressed bytes (through the library's input layer, as `tracecheck
 * validate` reads one). */
typedef struct hx_plain {
    const uint8_t *p;
    size_t n;
    uint8_t *owned;
    int compressed;
    int failed; /* decompression failed: only a prefix is known */
} hx_plain;

/* Returns 0 when the decompressed bytes exceed limit (pl is then empty). */
int hx_plain_get(hx_plain *pl, const uint8_t *data, size_t size, size_t limit);
void hx_plain_free(hx_plain *pl);
/* Whether the input carries a compression magic number. */
int hx_compressed(const uint8_t *data, size_t size);

/* ---- window replays ---- */

typedef enum hx_path {
    HX_RAW,     /* the plain memory reader: no decompression */
    HX_MEMORY,  /* the input layer in memory: decompressed as validate does */
    HX_READ,    /* a file (memfd) opened by path, read() with a window */
    HX_MMAP,    /* the same through sliding mmap windows */
    HX_GZIP,    /* gzip-compressed here (stored blocks), decompressed in windows */
    HX_STEPPED, /* the memory reader handing out at most window bytes at a time */
    HX_PATH_COUNT
} hx_path;

typedef struct hx_source {
    hx_path path;
    size_t window;
    int fd;
    void *in;       /* tc_input *, when the path has one */
    uint8_t *owned; /* the gzip copy */
    tc_reader r;
    tc_stepped_memory sm;
    tc_reader *reader;
} hx_source;

/* Opens the bytes on a path with a window (0: the library's default).
 * Returns 0 when this system lacks the path (no memfd). */
int hx_open(hx_source *s, hx_path path, const uint8_t *data, size_t size, size_t window);
tc_reader *hx_reader(hx_source *s);
void hx_close(hx_source *s);
const char *hx_path_name(hx_path path);

/* ---- the seeded random source ---- */

typedef struct hx_rng {
    uint64_t s;
} hx_rng;

/* Seeded from an FNV-1a hash of the input. */
void hx_rng_init(hx_rng *r, const uint8_t *data, size_t size);

uint64_t hx_rng_next(hx_rng *r);
/* 0 .. n-1 (0 when n is 0). */
size_t hx_rng_below(hx_rng *r, size_t n);
/* Picks an element of a constant array. */
#define HX_PICK(r, arr) ((arr)[hx_rng_below((r), sizeof(arr) / sizeof((arr)[0]))])

/* A window size for the path: odd sizes from 1 byte to 4 KiB for the
 * streaming paths (window ends everywhere in a record), page-scale ones for
 * mmap (a window costs two system calls). */
size_t hx_pick_window(hx_rng *r, hx_path path);

/* FNV-1a, 32 bits, of n bytes. */
uint32_t hx_hash32(const uint8_t *p, size_t n);

/* ---- the library's calls that take more than one call ---- */

/* The format's parser over r, as tc_check_input runs it: the registry's
 * entry for the format (aborts when the registry lacks it). */
void hx_parse(tc_format format, tc_reader *r, const tc_parse_ctx *ctx);

/* The text of the library's error chain e (error.h) in err, as the
 * harnesses print it; e is freed. */
void hx_error_text(tc_error *e, char *err, size_t errlen);

/* ---- structure-aware mutators (fuzz/common/mutator.h) in a harness ---- */

/* Defines libFuzzer's LLVMFuzzerCustomMutator and LLVMFuzzerCustomCrossOver
 * with a mutator's two functions. Only in the harness that wants them: the
 * engine uses them wherever they are linked. LLVMFuzzerMutate is weak: the
 * regression driver has none (and never mutates). */
#define HX_CUSTOM_MUTATOR(mutate, cross_over)                                                \
    FUZZ_EXTERN_C size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size)       \
        __attribute__((weak));                                                               \
    FUZZ_EXTERN_C size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, \
                                                 unsigned int seed);                         \
    size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,              \
                                   unsigned int seed)                                        \
    {                                                                                        \
        return mutate(data, size, max_size, seed, LLVMFuzzerMutate);                         \
    }                                                                                        \
    FUZZ_EXTERN_C size_t LLVMFuzzerCustomCrossOver(const uint8_t *a, size_t na,              \
                                                   const uint8_t *b, size_t nb, uint8_t *out, \
                                                   size_t max_out, unsigned int seed);       \
    size_t LLVMFuzzerCustomCrossOver(const uint8_t *a, size_t na, const uint8_t *b,          \
                                     size_t nb, uint8_t *out, size_t max_out,                \
                                     unsigned int seed)                                      \
    {                                                                                        \
        return cross_over(a, na, b, nb, out, max_out, seed);                                 \
    }

#ifdef __cplusplus
}
#endif
#endif
