/*
 * Decoding a chunk's edges (Doc §3.7.2, ruling 11) from a compiled sequence
 * and the transition table, lazily, with a bounded explicit stack:
 *
 * - bits are pulled a character (6 bits) at a time into a 64-bit window and
 *   each step matches one code of the current edge against it; with
 *   character tables (dtrc_fast.h) a whole character is decoded per step
 *   instead, while its codes are fine and the end of the chunk is not near;
 * - decoding stops as soon as EDGE_COUNT edges are known, and the bits left
 *   over are counted, not walked;
 * - a repeat whose iterations come back to the same decoder state (current
 *   edge and unconsumed bits) is periodic: its remaining periods are added
 *   arithmetically (Brent's cycle detection per repeat frame), and so are
 *   cycles of edges whose only code is empty (zero bits per edge);
 * - a work budget bounds what no period shortens (dictionary entries that
 *   double each other): past it, the edge count is checked against what the
 *   bits can hold and the rest is reported as not checked.
 *
 * Skipping is off when every edge must be seen (the canonical dump), or
 * only until a number of edges have been seen (the dump's cap per chunk).
 */
#ifndef TC_DTRC_DECODE_H
#define TC_DTRC_DECODE_H

#include "dtrc_fast.h"
#include "dtrc_seq.h"
#include "dtrc_table.h"

/* Work units (characters pulled, operations entered, codes matched) one
 * chunk may take. Real chunks cost about one unit per code (hundreds of
 * thousands to millions; periodic repeats are skipped, not walked), so 2^26
 * leaves them tens of times below it, while a chunk that reaches it ends
 * well within a conformance case's 10 s even under sanitizers: the
 * doubling dictionary of conformance case dcfg-trace/y_dtrc_seq_budget
 * (about 6 units per character) takes 0.3 s of CPU with -O2 and 1.4 s
 * with ASan+UBSan (2^30 took 4.5 s and 22 s). */
#define TC_DTRC_DEFAULT_BUDGET (1ull << 26)

typedef struct tc_dtrc_decode_in {
    const tc_dtrc_table *table;
    const tc_dtrc_dict *dict;
    const tc_dtrc_prog *prog;
    uint32_t first_edge;
    uint64_t edge_count;
    /* Called with every edge of the chunk in order, FIRST_EDGE_ID included,
     * except those of skipped periods; returns the edge's weight (the
     * instructions of its source node when paired, else 0), which is
     * summed, skipped periods included. May be NULL. */
    uint64_t (*on_edge)(void *user, uint32_t edge);
    void *user;
    int no_skip;     /* every edge must reach on_edge */
    uint64_t budget; /* 0: TC_DTRC_DEFAULT_BUDGET */
} tc_dtrc_decode_in;


/* Weights per row instead of per edge, for tc_dtrc_decode_rows. A code's
 * edges and their weights depend on its row alone, the edge before them
 * being the row's CURRENT_EDGE_ID, so a row is checked once: rows[] holds
 * one tc_dtrc_rowinfo per code of the table, zeroed, and row_check fills a
 * code's on its first use. A row found fine adds its weight in one step;
 * the edges of any other row (and the first edge, and a row cut short by
 * EDGE_COUNT) go one by one to edge_at with the edge before them and the
 * number of edges handed on before them (skipped periods not counted). */
enum { TC_DTRC_ROW_UNKNOWN = 0, TC_DTRC_ROW_FINE, TC_DTRC_ROW_EDGEWISE };

typedef struct tc_dtrc_rowinfo {
    uint64_t weight; /* the sum of its edges' weights, with TC_DTRC_ROW_FINE */
    int state;       /* TC_DTRC_ROW_* */
} tc_dtrc_rowinfo;

typedef struct tc_dtrc_rows {
    tc_dtrc_rowinfo *rows;
    void (*row_check)(void *user, uint32_t current, const tc_dtrc_code *c, tc_dtrc_rowinfo *out);
    uint64_t (*edge_at)(void *user, uint32_t prev, uint32_t edge, uint64_t index);
    /* Character-at-a-time tables of in->table (NULL: code at a time); used
     * when weights are per row or not wanted (in->on_edge NULL). */
    tc_dtrc_fast *fast;
} tc_dtrc_rows;

typedef struct tc_dtrc_decode_out {
    int code;                /* TC_DTRC_OK or a TC_DTRC_E_* of decoding */
    uint64_t edges;          /* edges decoded, the first included */
    uint32_t edge;           /* the current edge when decoding stopped */
    tc_dtrc_bits consumed;   /* bits used by the codes matched */
    tc_dtrc_bits total;      /* bits of the whole sequence */
    tc_dtrc_bits leftover;   /* LEFTOVER: total - consumed */
    char bits[40];           /* NO_CODE, SHORT: the bits that match nothing */
    tc_dtrc_bits weight;     /* the sum of on_edge's weights */
    uint64_t skipped;        /* edges added arithmetically */
} tc_dtrc_decode_out;

/* Returns out->code. */
int tc_dtrc_decode(const tc_dtrc_decode_in *in, tc_dtrc_decode_out *out);
/* The same where, with in->no_skip, only the first skip_after edges must
 * reach on_edge and periods may be skipped after them (0: never). The dump
 * prints at most that many edges of a chunk and still checks the rest in
 * bounded time. */
int tc_dtrc_decode_capped(const tc_dtrc_decode_in *in, uint64_t skip_after,
                          tc_dtrc_decode_out *out);

/* tc_dtrc_decode_capped with weights per row (when rows->rows is set,
 * in->on_edge is not called; in->user is passed to rows' callbacks) and/or
 * character-at-a-time decoding (rows->fast). rows may be NULL. */
int tc_dtrc_decode_rows(const tc_dtrc_decode_in *in, const tc_dtrc_rows *rows,
                        uint64_t skip_after, tc_dtrc_decode_out *out);

#endif
