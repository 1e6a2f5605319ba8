/*
 * The two containers of SiFive perf data as a producer writes them
 * (spec/perf/perf.md, "Containers"): Nexus Data Acquisition messages as a trace
 * encoder emits them for ITC stores, mixed with the other traffic a real
 * .rtd holds (other TCODEs, other ITC channels, idle bytes), or the text
 * message list. Output is buffered and flushed in chunks, so a trace of
 * any size is written in constant memory.
 */
#ifndef TC_PERF_NEXUS_WRITE_H
#define TC_PERF_NEXUS_WRITE_H

#include <stdio.h>

#include "../common/bytebuf.h"
#include "../common/rng.h"

#define PERF_CHANNEL             6 /* the library's default ITC channel */
#define NX_TCODE_OWNERSHIP       2
#define NX_TCODE_DIRECT_BRANCH   3
#define NX_TCODE_INDIRECT_BRANCH 4
#define NX_TCODE_DATA_ACQ        7
#define NX_TCODE_ERROR           8
#define NX_TCODE_SYNC            9
#define NX_TCODE_RESOURCE_FULL   27
#define NX_TCODE_ICT             35
#define NX_MAX_MESSAGE           64

/* ---- one Nexus message ---- */

/* A message being built: MDO bits packed 6 per byte, least significant
 * first; each variable field ends on a byte with MSEO 1, the last one on
 * MSEO 3. Room for a mutator's over-long field, never for more. */
typedef struct nx_msg {
    uint8_t b[NX_MAX_MESSAGE + 16];
    unsigned bits; /* MDO bits used so far */
} nx_msg;

void nx_begin(nx_msg *m, unsigned tcode);
/* A fixed field of n bits (0 to 64). */
void nx_fixed(nx_msg *m, uint64_t v, unsigned n);
/* A variable field holding hi:lo (hi: bits 64 and up, 0 for a normal
 * field) in the fewest bytes that hold it, at least one. */
void nx_var_wide(nx_msg *m, uint64_t lo, uint64_t hi);
static inline void nx_var(nx_msg *m, uint64_t v)
{
    nx_var_wide(m, v, 0);
}
/* Marks the last byte as the message's end (MSEO 3); returns the length. */
unsigned nx_end(nx_msg *m);

/* ---- the output ---- */

enum { PERF_RTD = 0, PERF_TEXT = 1 };

typedef struct perf_out {
    int container;    /* PERF_RTD or PERF_TEXT */
    unsigned srcbits; /* Nexus SRC width, 0 on a single core */
    FILE *file;       /* where flushes go, or NULL ... */
    tc_bytebuf *mem;  /* ... to append to memory */
    tc_bytebuf buf;
    uint64_t total;     /* bytes produced, flushed or not */
    int failed;         /* a write to file failed */
    tc_rng rng;         /* the traffic's own choices */
    int quiet;          /* no traffic between perf writes (tests) */
    uint64_t now;       /* the encoder's time: the trace's timestamp counter */
    uint64_t last_full; /* the last full timestamp written */
    unsigned ts_every;  /* timestamp one Data Acquisition message in ts_every, 0 never */
    int crlf;           /* text: CR LF line ends */
    uint64_t lines;
} perf_out;

void perf_out_init(perf_out *o, int container, unsigned srcbits, uint64_t seed, FILE *file,
                   tc_bytebuf *mem);
/* One store to the perf channel's register: IDTAG channel*4 + code
 * (0 32-bit, 2 16-bit, 3 8-bit; what a mutator writes otherwise), DQDATA
 * value. Other traffic now and then comes before it. */
void perf_out_write(perf_out *o, unsigned code, uint64_t value);
/* One message of other traffic (another TCODE or ITC channel), a text
 * comment or another channel's line. */
void perf_out_traffic(perf_out *o);
/* A Sync message with a full timestamp (a text container: a comment). */
void perf_out_sync(perf_out *o);
/* A Data Acquisition message (or text line) of any IDTAG. */
void perf_out_da(perf_out *o, uint64_t idtag, uint64_t value, int with_timestamp);
/* A text comment line (text container only). */
void perf_out_comment(perf_out *o, const char *text);
/* Bytes exactly as given. */
void perf_out_raw(perf_out *o, const void *p, size_t n);
/* Writes out what is buffered; returns 0, or -1 when a write failed. */
int perf_out_flush(perf_out *o);
void perf_out_free(perf_out *o);

#endif
