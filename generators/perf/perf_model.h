/*
 * A simulated program run traced by the SiFive Trace Performance Library:
 * the configuration perfTraceInit() is given (count type, counters, the
 * collection method) and, record by record, what the library samples:
 * function entries and exits that follow a call stack, manual records or
 * timer interrupts, and hardware counters that grow as a program's do.
 */
#ifndef TC_PERF_MODEL_H
#define TC_PERF_MODEL_H

#include <stdint.h>

#include "../common/rng.h"

#define PERF_MARKER       0x70657266u
#define PERF_MAX_COUNTERS 32
#define PERF_MAX_DEPTH    48
#define PERF_MAX_FUNCS    256

enum { PERF_COUNT_RAW = 0, PERF_COUNT_DELTA = 1, PERF_COUNT_XOR = 2 };
enum { PERF_REC_ENTRY = 0, PERF_REC_EXIT = 1, PERF_REC_MANUAL = 2, PERF_REC_ISR = 3 };
/* One collection method per trace (the library's). */
enum { PERF_METHOD_CALLS = 0, PERF_METHOD_MANUAL = 1, PERF_METHOD_ISR = 2 };

typedef struct perf_counter {
    uint32_t opensbi_type; /* 0 general, 1 cache, 2 raw event */
    uint32_t code;         /* types 0 and 1 */
    uint64_t event_data;   /* type 2 */
    uint32_t csr;          /* 0 for the time counter, which has none */
    unsigned width;        /* 1..64 */
    /* the simulation */
    uint64_t value; /* now, below 2^width */
    uint32_t rate;  /* events per 1024 cycles */
    int saturate;   /* raw mode, narrow: stops short of wrapping */
} perf_counter;

typedef struct perf_config {
    unsigned count_type;
    uint32_t mask;
    perf_counter ctr[PERF_MAX_COUNTERS]; /* by mask bit */
    unsigned method;
    int rv64; /* 64-bit system: addresses above 4 GiB, event_data high words */
} perf_config;

typedef struct perf_record {
    unsigned type;
    unsigned naddr;
    uint64_t addr[2];
    uint64_t value[PERF_MAX_COUNTERS]; /* by mask bit, absolute */
} perf_record;

/* What a mutator needs of the run; -1 or 0: drawn. */
typedef struct perf_plan {
    int count_type;   /* PERF_COUNT_*, or -1 */
    int method;       /* PERF_METHOD_*, or -1 */
    int need_counter; /* a mask that is not 0 */
    int need_narrow;  /* a counter narrower than 32 bits */
    int need_rv64;    /* addresses above 4 GiB */
} perf_plan;

typedef struct perf_model {
    tc_rng *rng;
    perf_config cfg;
    unsigned nfunc;
    uint64_t func[PERF_MAX_FUNCS];
    uint32_t fsize[PERF_MAX_FUNCS];
    unsigned stack[PERF_MAX_DEPTH]; /* open calls' callees; main (func 0) is below */
    uint64_t site[PERF_MAX_DEPTH];  /* and their call sites, in the caller */
    unsigned depth;
    uint64_t cycles;   /* since the start */
    uint64_t time;     /* the time counter (also the encoder's timestamp) */
    unsigned time_div; /* cycles per time tick */
    unsigned ipc;      /* instructions per 1024 cycles */
    int unwinding;     /* calls: return to main (for a new header) */
} perf_model;

/* Draws the configuration and the program. */
void perf_model_init(perf_model *m, tc_rng *rng, const perf_plan *plan);
/* The next record. kind: -1 for the collection method's, or a record type
 * to take a sample of that kind instead (PERF_REC_MANUAL or PERF_REC_ISR). */
void perf_model_next(perf_model *m, perf_record *r, int kind);
/* An address in the function control is in, other than site: a call
 * site that no open call was entered from (for mutators). */
uint64_t perf_model_other_site(perf_model *m, uint64_t site);

static inline uint64_t perf_width_mask(unsigned width)
{
    return width >= 64 ? ~0ull : (1ull << width) - 1;
}

#endif
