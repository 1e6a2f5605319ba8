/*
 * The TRANSITION_TABLE of a DCFG-trace process (Doc §3.5, ruling 10),
 * checked and turned into a decoding structure: per CURRENT_EDGE_ID its
 * codes sorted by their value padded to 32 bits. Codes of one edge are
 * prefix-free once checked, so the code matching the next bits is the last
 * one whose padded value is not above them (a binary search), and memory is
 * proportional to the table. No JSON here: the reader adds rows and gets
 * problems back through a callback.
 */
#ifndef TC_DTRC_TABLE_H
#define TC_DTRC_TABLE_H

#include <stddef.h>
#include <stdint.h>

enum tc_dtrc_table_problem {
    TC_DTRC_T_DUPLICATE = 1, /* same edge, same code once padded to 32 bits */
    TC_DTRC_T_PREFIX,        /* a code is a proper prefix of another of its edge */
    TC_DTRC_T_EMPTY,         /* an empty code next to other codes of its edge */
};

typedef struct tc_dtrc_code {
    uint32_t pad;   /* the code's bits, left-aligned in 32 bits */
    uint8_t len;    /* 0..32 */
    uint32_t next;  /* first of its NEXT_EDGE_IDS in ids[] */
    uint32_t nnext;
    /* The entry of the edge it leads to (its last NEXT_EDGE_ID) + 1, 0 when
     * that edge has no row: set once the table is built, so that decoding
     * needs no lookup per code. */
    uint32_t to;
} tc_dtrc_code;

typedef struct tc_dtrc_entry {
    uint32_t edge;
    uint32_t first, ncodes; /* in codes[] */
    uint8_t maxlen;         /* longest code */
} tc_dtrc_entry;

/* A row as read, kept until tc_dtrc_table_finish. */
typedef struct tc_dtrc_row {
    uint32_t edge, pad;
    uint8_t len;
    uint32_t next, nnext; /* in ids[] */
    uint32_t row;         /* index of the row in the table, for messages */
    int dropped;
} tc_dtrc_row;

typedef struct tc_dtrc_table {
    tc_dtrc_row *rows;
    size_t nrows, caprows;
    uint32_t *ids;
    size_t nids, capids;
    tc_dtrc_code *codes;
    tc_dtrc_entry *entries;
    size_t nentries;
    uint32_t *hash; /* open addressing: entry index + 1, 0 empty */
    size_t hmask;
    uint8_t maxlen; /* longest code of the table */
    uint32_t maxnext; /* longest NEXT_EDGE_IDS */
    int has_empty;  /* some edge has the empty code */
} tc_dtrc_table;

void tc_dtrc_table_init(tc_dtrc_table *t);
void tc_dtrc_table_free(tc_dtrc_table *t);
/* Empties the table for the next process, keeping the buffers. */
void tc_dtrc_table_reset(tc_dtrc_table *t);

/* Parses a TRANSITION_CODE: only '0'/'1', at most 32. Returns 1 and the
 * padded value and length, or 0. */
int tc_dtrc_parse_code(const char *s, size_t n, uint32_t *pad, uint8_t *len);

/* Adds a row; next[0..nnext) are its NEXT_EDGE_IDS. Returns 0 when out of
 * memory. */
int tc_dtrc_table_add(tc_dtrc_table *t, uint32_t edge, uint32_t pad, uint8_t len,
                      const uint32_t *next, size_t nnext, uint32_t row);

/* Sorts and checks the rows; each problem goes to problem(user, kind, row,
 * other) with the row at fault and the row it conflicts with; the row at
 * fault is left out of the decoding structure. Returns 0 when out of
 * memory. */
int tc_dtrc_table_finish(tc_dtrc_table *t,
                         void (*problem)(void *user, int kind, const tc_dtrc_row *row,
                                         const tc_dtrc_row *other),
                         void *user);

const tc_dtrc_entry *tc_dtrc_table_find(const tc_dtrc_table *t, uint32_t edge);

/* The code of e matching the first `avail` bits of `bits` (left-aligned,
 * zeros after avail), or NULL. */
const tc_dtrc_code *tc_dtrc_table_match(const tc_dtrc_table *t, const tc_dtrc_entry *e,
                                        uint32_t bits, unsigned avail);

/* Whether the first avail bits are a proper prefix of some code of e: the
 * bits ran out rather than matching nothing. */
int tc_dtrc_table_prefix(const tc_dtrc_table *t, const tc_dtrc_entry *e, uint32_t bits,
                         unsigned avail);

/* "0101" into buf (at least 33 bytes). */
void tc_dtrc_code_str(uint32_t pad, unsigned len, char *buf);

#endif
