/*
 * One input on several threads. A format whose inputs have boundaries where
 * its parser's state is known from the header alone (XRay FDR buffers: only
 * the count of buffers crosses one) parses segments of a file at once. Each
 * segment runs from the first boundary at or after its start to the first at
 * or after the next segment's start, and keeps its findings (at most the cap
 * of each rule: the rest are counted); they are then replayed in file order
 * into the input's sink, so the report is the one a single thread writes,
 * finding for finding and count for count.
 *
 * Correct first: where two segments do not meet at the same boundary (the
 * search took a false boundary, or a framing error moved the parse), the
 * parse goes on from the last boundary the earlier one reached, on one
 * thread. A damaged file is as fast as one thread; a sound one uses every
 * thread.
 */
#ifndef TC_SPLIT_H
#define TC_SPLIT_H

#include <stdint.h>

#include "input.h"
#include "parse.h"

#define TC_SPLIT_NONE UINT64_MAX

/* One segment, as the split layer asks a format to parse it. */
typedef struct tc_split_seg {
    /* in */
    uint64_t start; /* look for the first boundary here (0: the input's start) */
    int exact;      /* start is a boundary already: no search */
    uint64_t stop;  /* stop at the first boundary at or past this (TC_SPLIT_NONE: never) */
    /* out */
    uint64_t began; /* the boundary the parse started at; TC_SPLIT_NONE: none before stop */
    uint64_t ended; /* the boundary it stopped at; TC_SPLIT_NONE: the parse is over (the
                     * input ended, or nothing after could be read) */
    uint64_t units; /* what the format numbers in its context (buffers) begun here */
    /* Formats whose state crosses boundaries (join below): in, the state to
     * start in (NULL: a segment of the parallel phase); out, what the
     * segment needs of the state before it and leaves for the one after. */
    const void *state;
    void *carry;
} tc_split_seg;

/* What a format gives to be split (formats.h, tc_format_ops.split). */
typedef struct tc_format_split {
    /* Parses seg of the input r reads, findings to ctx. A segment that does
     * not start at 0 reads the header for itself and keeps the header's
     * findings to itself (the first segment reports them). */
    void (*parse)(tc_reader *r, const tc_parse_ctx *ctx, tc_split_seg *seg);
    /* A segment numbers its units from 0: adds base to the number a finding's
     * context holds. NULL: contexts hold none. */
    void (*rebase)(char *context, size_t size, uint64_t base);
    /* NULL when nothing but what rebase renumbers crosses a boundary.
     * Otherwise called for each segment in file order (*state NULL before
     * the first), before any finding is reported: 1 when the segment's
     * findings stand given *state, which it then brings up to the end of
     * the segment; 0 when they do not (the parse goes on from the segment's
     * start on one thread, in *state, as parse's seg->state); -1 when the
     * split is given up (one thread from the start). */
    int (*join)(void **state, const tc_split_seg *seg);
    void (*free_carry)(void *carry);
    void (*free_state)(void *state);
    /* NULL, or 1 when the options ask for findings that a segment cannot
     * make alone (XRay with --binary: once per function over the whole
     * input): the input is then parsed on one thread. opt may be NULL. */
    int (*one_thread)(const tc_options *opt);
} tc_format_split;

/* The smallest segment a thread is given by default: below it, thread
 * start-up and the page cache's warm-up cost more than they save. */
#define TC_SPLIT_DEFAULT_MIN (32u << 20)

/* What a split check did, for tests and benchmarks. */
typedef struct tc_split_stats {
    unsigned segments; /* parsed at once */
    unsigned joined;   /* whose findings stand (the first one included) */
    int resumed;       /* the parse went on from a boundary on one thread */
} tc_split_stats;

/* Checks the input in (a regular file or bytes in memory, uncompressed,
 * read from its start) with s on up to threads threads, findings to ctx as
 * ctx->parse would send them. min_segment: the smallest segment (0: the
 * default); stats (may be NULL): what happened. Returns 0 when it did, -1 when it did not start (one segment,
 * input not readable at random places, no thread): the caller parses on one
 * thread then, and nothing was reported. */
int tc_split_check(tc_input *in, const tc_format_split *s, const tc_parse_ctx *ctx,
                   unsigned threads, uint64_t min_segment, tc_split_stats *stats);

/* ---- independent parts of one input (an ovni trace's streams) ---- */

/* One part: its findings to d, a sink of its own with the input's settings
 * (the part may name its own input in it). */
typedef void (*tc_split_task)(void *user, size_t i, tc_diag_sink *d);

/* Runs task for i in [0, n) on up to threads threads while this one
 * replays each part's findings into d in the order of i, as soon as the
 * part and those before it are done: the findings and counts of running
 * them in turn on d. At most a few parts per thread run ahead of the
 * replay, so memory does not grow with n. Returns 0, or -1 when it ran
 * nothing (fewer than two parts or threads, no thread, out of memory): the
 * caller runs them in turn then. */
int tc_split_each(tc_diag_sink *d, size_t n, unsigned threads, tc_split_task task, void *user);

#endif
