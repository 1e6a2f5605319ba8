/*
 * The DCFG-trace sequence decoder (parsers/dcfg/dtrc_seq.h, dtrc_table.h,
 * dtrc_decode.h) judged by a naive reading written from the format document
 * (§3.5, §3.7) and rulings 1, 10 and 11, for dtrc_sequence (whose comment
 * gives the input's layout and what is checked):
 *
 *  - the table: conflicts among an edge's codes, rows kept and dropped,
 *    codes read back from their text;
 *  - the dictionary: which entries are tainted, which reported, the bits
 *    each stands for;
 *  - the sequence: whether it compiles (the same error at the same
 *    character), the bits it stands for;
 *  - decoding: against a decoder that materialises the expansion and reads
 *    it bit by bit; the decoder's fast paths against its plain path; the
 *    same input twice; skipping, capped skipping and budgets against a run
 *    with skipping and a large budget.
 */
#ifndef TC_FUZZ_DTRC_NAIVE_ORACLE_H
#define TC_FUZZ_DTRC_NAIVE_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#define MAX_ROWS 15
#define MAX_DICT 15
#define NEDGES 16
/* The naive decoder materialises expansions up to this many characters. */
#define MAX_EXPAND 65536
#define BIG_BUDGET (1ull << 22)

typedef struct dtrc_naive_oracle_row {
    uint32_t edge, pad;
    uint8_t len;
    uint32_t next[3];
    size_t nnext;
} dtrc_naive_oracle_row;

typedef struct dtrc_naive_oracle_entry {
    const char *key, *val;
    size_t klen, vlen;
} dtrc_naive_oracle_entry;

typedef struct dtrc_naive_oracle_input {
    dtrc_naive_oracle_row rows[MAX_ROWS];
    size_t nrows;
    dtrc_naive_oracle_entry dict[MAX_DICT];
    size_t ndict;
    uint32_t first;
    uint64_t count;
    int no_skip;
    uint64_t skip_after; /* with no_skip: tc_dtrc_decode_capped's cap, or 0 */
    uint64_t budget;
    const char *seq;
    size_t seqlen;
} dtrc_naive_oracle_input;

/* Checks the decoder on one input; aborts where it and the naive reading
 * disagree. */
void dtrc_naive_oracle_check(const dtrc_naive_oracle_input *in);

#endif
