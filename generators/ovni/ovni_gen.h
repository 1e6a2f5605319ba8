/*
 * Writing a whole ovni trace: the plan, then each stream in turn (metadata,
 * then events as they are made, in chunks), optionally with one mutation.
 * Deterministic: the same parameters give the same bytes. Each stream has
 * its own choices (derived from the seed and its index), so a mutation of
 * one stream leaves the others as they are in the valid trace.
 *
 * The trace goes to a directory, in libovni's layout
 * DIR/loom.NAME/proc.PID/thread.TID/{stream.json,stream.obs}, or to memory.
 */
#ifndef TC_OVNI_GEN_H
#define TC_OVNI_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "../../parsers/common/error.h"
#include "../common/generator.h"
#include "ovni_events.h"
#include "ovni_plan.h"

/* One event as written, in a stream held in memory. */
typedef struct ovni_mem_event {
    uint64_t offset;     /* of its first byte in the stream's obs bytes */
    ovni_ev ev;          /* ev.payload is NULL here: see ovni_mem_payload */
    uint64_t payload_at; /* a copy of its payload (ev.len bytes) in the stream's pool */
} ovni_mem_event;

/* A stream held in memory: its two files and the events written. */
typedef struct ovni_mem_stream {
    char rel[200];         /* its directory relative to the trace */
    int has_json, has_obs; /* which files it has */
    tc_bytebuf json, obs;  /* stream.json text and stream.obs bytes */
    tc_bytebuf pool;       /* the payloads of the events, copied as they were made */
    ovni_mem_event *events;
    size_t nevents, cap;
    /* What its metadata says (as planned): */
    char loom[48];
    int64_t pid, tid;
    int big_endian;
} ovni_mem_stream;

typedef struct ovni_mem_trace {
    ovni_mem_stream *streams;
    size_t n, cap;
} ovni_mem_trace;

/* An event's payload (normal) or jumbo data, as the model made it (not
 * read back from the stream's bytes). */
const uint8_t *ovni_mem_payload(const ovni_mem_stream *s, const ovni_mem_event *e);
void ovni_mem_trace_free(ovni_mem_trace *t);

/* Where the trace goes: a directory (created if missing; it must be empty),
 * or memory when dir is NULL. */
typedef struct ovni_sink {
    const char *dir;
    ovni_mem_trace *mem;
} ovni_sink;

typedef struct ovni_gen_stats {
    uint64_t bytes;   /* of every file written */
    uint64_t streams; /* stream directories */
    uint64_t events;
} ovni_gen_stats;

/* violate: a rule to break, or -1 for a valid trace. choices: NULL to seed
 * from p->seed, or every decision from it (a fuzzer's bytes). Returns 0, or
 * -1 with the reason in err. */
int ovni_generate(const ovni_gen_params *p, int violate, tc_rng *choices, ovni_sink sink,
                  ovni_gen_stats *stats, tc_error *err);

/* The generator of ovni traces as `tracecheck gen` drives it (ovni_generator.c). */
extern const tc_generator ovni_generator;

#endif
