/*
 * The ITC store sequence exactly as the SiFive Trace Performance Library
 * writes it (Doc, "Performance Data Format"; spec/perf/perf.md): a header from
 * perfTraceOn(), then one record per sample, each store an 8-, 16- or
 * 32-bit write to the perf channel's stimulus register. A header or record
 * is built as a unit of tagged writes, so mutators can find and change a
 * word before the container encodes it.
 */
#ifndef TC_PERF_WRITE_H
#define TC_PERF_WRITE_H

#include "perf_model.h"

/* IDTAG & 3: the store's width. 1 is never a store (mutators use it). */
enum { PERF_W32 = 0, PERF_W_BAD = 1, PERF_W16 = 2, PERF_W8 = 3 };

/* What each write is, for mutators. */
enum {
    PERF_T_MARKER,
    PERF_T_COUNT_TYPE,
    PERF_T_MASK,
    PERF_T_SBI_TYPE,
    PERF_T_CODE,
    PERF_T_EVENT_LO,
    PERF_T_EVENT_HI,
    PERF_T_INFO,
    PERF_T_REC_TYPE,
    PERF_T_ADDR_LO,
    PERF_T_ADDR_HI,
    PERF_T_CNT_LO,
    PERF_T_CNT_HI,
    PERF_T_EXTRA /* put in by a mutator */
};

typedef struct perf_wr {
    uint8_t code; /* PERF_W* */
    uint8_t tag;  /* PERF_T_* */
    uint8_t ctr;  /* counter (mask bit) of PERF_T_CNT_* and header words */
    uint64_t value;
} perf_wr;

#define PERF_UNIT_MAX 256 /* a record is at most 69 writes, a header 131 */

typedef struct perf_unit {
    perf_wr w[PERF_UNIT_MAX];
    unsigned n;
} perf_unit;

/* The library's state between records. */
typedef struct perf_writer {
    const perf_config *cfg;
    uint64_t last[PERF_MAX_COUNTERS]; /* the values of the record before; 0 after a header */
} perf_writer;

void perf_writer_init(perf_writer *w, const perf_config *cfg);
/* Appends the header's writes; the running values start again from 0. */
void perf_write_header(perf_writer *w, perf_unit *u);
/* Appends a record's writes: counter values as the count type says (raw,
 * delta or XOR delta from the record before), addresses always plain. */
void perf_write_record(perf_writer *w, const perf_record *r, perf_unit *u);

/* The value the library writes for counter b of r (raw, delta or XOR). */
uint64_t perf_written_value(const perf_writer *w, const perf_record *r, unsigned b);

/* Unit editing for mutators. */
void perf_unit_insert(perf_unit *u, unsigned at, unsigned code, unsigned tag, uint64_t value);
void perf_unit_remove(perf_unit *u, unsigned at, unsigned count);
static inline void perf_unit_put(perf_unit *u, unsigned code, unsigned tag, uint64_t value)
{
    perf_unit_insert(u, u->n, code, tag, value);
}

#endif
