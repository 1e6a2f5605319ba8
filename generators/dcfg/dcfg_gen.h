/*
 * Writing a DCFG and its DCFG-trace from a seed: a program model
 * (dcfg_prog.h), its threads run and encoded as the trace streams out
 * (dtrc_writer.h), then the DCFG with the counts of that run
 * (dcfg_writer.h). Deterministic: the same parameters give the same bytes.
 * Memory is bounded by the model (which grows slowly with the size, or is
 * made as large as dcfg_size asks) and one chunk of the trace, whatever
 * the size.
 *
 * Files: PREFIX.dcfg.json and PREFIX.trace.json, or two buffers in memory.
 */
#ifndef TC_DCFG_GEN_H
#define TC_DCFG_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "../../parsers/common/error.h"
#include "../common/bytebuf.h"
#include "../common/generator.h"
#include "../common/rng.h"

typedef struct dcfg_gen_params {
    uint64_t seed;
    uint64_t size;    /* about how many bytes of trace */
    unsigned procs;   /* 0: drawn (1 to 3; 1 below 8 KiB) */
    unsigned threads; /* per process; 0: drawn (1 to 4; 1 at size 0) */
    uint64_t dcfg_size; /* 0, or about how many bytes of DCFG: the model is
                         * made that large (most routines never called) */
} dcfg_gen_params;

#define DCFG_GEN_MAX_PROCS 64
#define DCFG_GEN_MAX_THREADS 256

typedef struct dcfg_mem {
    tc_bytebuf dcfg, trace;
} dcfg_mem;
void dcfg_mem_free(dcfg_mem *m);

/* Where the two documents go: PREFIX.dcfg.json and PREFIX.trace.json, or
 * memory when prefix is NULL. */
typedef struct dcfg_sink {
    const char *prefix;
    dcfg_mem *mem;
} dcfg_sink;

typedef struct dcfg_gen_stats {
    uint64_t dcfg_bytes, trace_bytes;
    uint64_t processes, threads, blocks, edges; /* edges: of the DCFGs */
    uint64_t traversed;                         /* edges the threads took */
    uint64_t chunks, repeats, dict_refs, multi_rows;
} dcfg_gen_stats;

/* violate: a rule to break, or -1 for a valid pair. choices: NULL to seed
 * from p->seed, or every decision from it (a fuzzer's bytes). Returns 0,
 * or -1 with the reason in err. */
int dcfg_generate(const dcfg_gen_params *p, int violate, tc_rng *choices, dcfg_sink sink,
                  dcfg_gen_stats *stats, tc_error *err);

/* The file names for a prefix (malloc'd; NULL when out of memory). */
char *dcfg_gen_path(const char *prefix, int trace);

/* The generator of DCFGs with their DCFG-traces as `tracecheck gen` drives it (dcfg_generator.c). */
extern const tc_generator dcfg_generator;

#endif
