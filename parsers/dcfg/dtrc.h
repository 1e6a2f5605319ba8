/*
 * Intel DCFG-trace (spec/dcfg/dcfg.md, "DCFG-trace"): the strict streaming
 * reader, its canonical dump, and pairing with a DCFG. Memory holds one
 * process's transition table and dictionary at a time, never the chunks.
 */
#ifndef TC_DTRC_H
#define TC_DTRC_H

#include <stddef.h>
#include <stdint.h>

#include "../common/jsonl.h"
#include "../common/parse.h"
#include "dcfg_model.h"

/* Edge ids per dump line: a chunk's edges go out in lines of at most this
 * many, so that no line grows with the chunk. */
#define TC_DTRC_DUMP_PIECE 1024

/* Edges of one chunk the dump prints at most (spec/canonical-dump.md): a
 * chunk's repeats can stand for 2^64 - 1 edges, which no dump could print
 * in any time. A chunk with more has a "truncated" line after its edges. */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
/* Fuzz builds: the same logic with a cap that keeps every input fast. */
#define TC_DTRC_DUMP_MAX_EDGES (UINT64_C(1) << 16)
#else
#define TC_DTRC_DUMP_MAX_EDGES (UINT64_C(1) << 24)
#endif

enum {
    TC_DTRC_EV_HEADER = 1,
    TC_DTRC_EV_PROCESS,
    TC_DTRC_EV_CHUNK,
    TC_DTRC_EV_EDGES,
    TC_DTRC_EV_TRUNCATED
};

/* What ctx->on_event receives (see spec/canonical-dump.md). */
typedef struct tc_dtrc_event {
    int kind;
    int has_version;
    uint64_t major, minor;          /* HEADER */
    uint64_t pid;                   /* PROCESS, CHUNK */
    uint64_t thread;                /* CHUNK */
    uint64_t preceding, instrs, edge_count; /* CHUNK, TRUNCATED */
    uint64_t index;                 /* EDGES: position of ids[0] in the chunk;
                                       TRUNCATED: of the first edge not printed */
    const uint32_t *ids;            /* EDGES */
    size_t nids;
} tc_dtrc_event;

/* The registry's entry: validates (and dumps) a DCFG-trace. */
void tc_dtrc_parse(tc_reader *r, const tc_parse_ctx *ctx);
/* The same with the pairing checks of ruling 13 against m (may be NULL). */
void tc_dtrc_parse_paired(tc_reader *r, const tc_parse_ctx *ctx, const tc_dcfg_model *m);
typedef struct tc_dtrc_opts {
    const tc_dcfg_model *model; /* pair with it (NULL: no pairing) */
    const char *dcfg_name;      /* its name in pairing messages (NULL: none) */
    uint64_t dump_cap;          /* edges dumped per chunk (0: TC_DTRC_DUMP_MAX_EDGES) */
} tc_dtrc_opts;
/* The same with every option. */
void tc_dtrc_parse_opts(tc_reader *r, const tc_parse_ctx *ctx, const tc_dtrc_opts *o);

void tc_dtrc_dump(tc_jsonl *w, const void *event);

#endif
