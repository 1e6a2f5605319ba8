/*
 * Test bench for the SiFive perf layer: builds sequences of ITC messages
 * (as a container would deliver them) and runs them through the perf state
 * machine, collecting every finding with its full location, every event,
 * and the canonical dump; assertions on what a run found.
 */
#ifndef TC_TESTS_PERF_TB_H
#define TC_TESTS_PERF_TB_H

#include <stddef.h>
#include <stdint.h>

#include "../../parsers/perf/perf_sm.h"

/* counter_info for a counter of `width` bits at CSR csr. */
#define TB_INFO(width, csr) ((uint32_t)(((width) - 1) << 12 | (csr)))

typedef struct tb_msgs {
    tc_perf_msg *m;
    size_t n, cap;
    uint64_t off;
    int text;          /* number lines as the text message list does */
    unsigned channel;  /* of the messages written by tb_w32 ... (default 6) */
} tb_msgs;

void tb_init(tb_msgs *b, int text);
void tb_free(tb_msgs *b);
/* One message; returns its offset. */
uint64_t tb_msg(tb_msgs *b, uint64_t idtag, uint64_t value);
uint64_t tb_w32(tb_msgs *b, uint64_t value);
uint64_t tb_w16(tb_msgs *b, uint64_t value);
uint64_t tb_w8(tb_msgs *b, uint64_t value);
/* The last message written gets a timestamp. */
void tb_timestamp(tb_msgs *b, uint64_t ts);

/* One counter definition of a header. */
typedef struct tb_counter {
    uint32_t type;
    uint64_t code; /* the code, or for type 2 the event_data */
    uint32_t info;
} tb_counter;

/* A header; defs has one entry per set bit of mask. Returns the marker's
 * offset. */
uint64_t tb_header(tb_msgs *b, unsigned count_type, uint32_t mask, const tb_counter *defs);
/* A header whose counters are OpenSBI type 0, code 0x10 + n, of one width. */
uint64_t tb_header_w(tb_msgs *b, unsigned count_type, uint32_t mask, unsigned width);
/* An address as the writers write it: the low word, then the high word when
 * the address does not fit in 32 bits. */
void tb_addr(tb_msgs *b, uint64_t addr);
/* A counter value: the low word, then bits 32-47 as a 16-bit write when
 * the value does not fit in 32 bits. */
void tb_value(tb_msgs *b, uint64_t v);
/* A record (a1 is used by entry and exit records). Returns its offset. */
uint64_t tb_record(tb_msgs *b, unsigned type, uint64_t a0, uint64_t a1, const uint64_t *v,
                   size_t n);

typedef struct tb_finding {
    const char *id;
    tc_severity severity;
    uint64_t offset, length;
    uint32_t line, column;
    int unlocated;
    int has_path;
    char message[700];
} tb_finding;

#define TB_MAX_FINDINGS 64
#define TB_MAX_EVENTS 64

typedef struct tb_run {
    tb_finding f[TB_MAX_FINDINGS];
    size_t nf;
    uint64_t errors, warnings, notes;
    tc_perf_event rec[TB_MAX_EVENTS]; /* records */
    size_t nrec;
    tc_perf_header hdr[8];            /* headers, copied */
    size_t nhdr;
    char *dump;
    size_t dump_len;
} tb_run;

typedef struct tb_opts {
    int pedantic;
    unsigned channel; /* 0: the default, 6 */
    uint32_t marker;  /* 0: the default */
    int wrapped;      /* the container read a wrapped buffer (ruling 12) */
} tb_opts;

/* Runs the messages through a fresh state machine (r is cleared first). */
void tb_run_msgs(const tb_msgs *b, const tb_opts *o, tb_run *r);
void tb_run_free(tb_run *r);

/* The findings' ids, space-separated (static buffer). */
const char *tb_ids(const tb_run *r);
/* The first finding of a rule, or NULL. */
const tb_finding *tb_find(const tb_run *r, const char *id);
size_t tb_count(const tb_run *r, const char *id);
/* Line n (0-based) of the dump (static buffer). */
const char *tb_dump_line(const tb_run *r, size_t n);

/* Assertions (tests/tu.h) on a run: its findings are exactly ids
 * (space-separated, in order; "": none); the finding of rule id is at
 * offset off and its message holds needle (NULL: not checked). */
void tb_expect_ids(const tb_run *r, const char *ids, const char *file, unsigned line);
#define TB_EXPECT_IDS(r, ids) tb_expect_ids((r), (ids), __FILE__, __LINE__)
void tb_expect_at(const tb_run *r, const char *id, uint64_t off, const char *needle,
                  const char *file, unsigned line);
#define TB_EXPECT_AT(r, id, off, needle)                                                           \
    tb_expect_at((r), (id), (off), (needle), __FILE__, __LINE__)

#endif
