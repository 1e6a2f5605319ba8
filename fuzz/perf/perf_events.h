/*
 * Running the SiFive perf layers in a harness and keeping what they
 * delivered: a container reader's messages and findings (tc_nexus_read,
 * tc_itc_text_read), and the perf state machine's events (headers and
 * records, flattened so that two readings compare field by field) and
 * findings, with the checks its events must pass on their own: START first
 * and once, no record before a header, even addresses, decoded values that
 * follow the count type from the record before (ruling 7).
 */
#ifndef TC_FUZZ_PERF_EVENTS_H
#define TC_FUZZ_PERF_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "../common/harness.h"
#include "../../parsers/perf/perf_msg.h"
#include "../../parsers/perf/perf_sm.h"

#define PF_MAX_KEPT 4096 /* events, messages and findings kept (more are counted) */

typedef struct pf_finding {
    int rule;
    uint64_t offset;
    uint32_t line;
    int unlocated;
} pf_finding;

/* An event, flattened so that both readings can be compared field by field. */
typedef struct pf_event {
    int kind;
    uint64_t offset, timestamp;
    int has_timestamp;
    /* HEADER, and the header in force of a RECORD */
    uint32_t count_type, mask;
    unsigned n;
    /* HEADER */
    uint32_t sbi[32], code[32], info[32];
    uint64_t evdata[32];
    unsigned width[32], csr[32], index[32];
    /* RECORD */
    unsigned type, naddr;
    uint64_t addr[2], value[32], decoded[32];
} pf_event;

/* What the perf layer delivered. */
typedef struct pf_layer {
    pf_event e[PF_MAX_KEPT];
    size_t ne;
    pf_finding f[PF_MAX_KEPT];
    size_t nf;
} pf_layer;

void pf_keep_finding(pf_layer *s, int rule, uint64_t off, uint32_t line, int unlocated);
/* The next event's slot, cleared, or NULL beyond PF_MAX_KEPT (it counts). */
pf_event *pf_new_event(pf_layer *s);

/* What a container reader delivered. */
typedef struct pf_container {
    tc_perf_msg m[PF_MAX_KEPT];
    size_t nm;
    pf_finding f[PF_MAX_KEPT];
    size_t nf;
    int wrapped;       /* the file starts mid-message */
    int wrapped_first; /* as it stood when the first message came */
} pf_container;

/* Empties s for the next reading: the counts, not the arrays (each entry is
 * written before it is read; clearing 300 KiB per input cost a twentieth of
 * an execution). */
void pf_container_reset(pf_container *s);
void pf_container_msg(pf_container *s, const tc_perf_msg *m);
void pf_container_finding(pf_container *s, int rule, uint64_t off);

/* tc_nexus_read on the n bytes at p, through windows of step bytes (0: one
 * window); tc_itc_text_read on them. */
void pf_read_nexus(pf_container *s, const uint8_t *p, size_t n, unsigned srcbits, size_t step);
void pf_read_text(pf_container *s, const uint8_t *p, size_t n);

/* The state machine under test on n messages (channel, marker, and whether
 * the container read a wrapped buffer); the sink's counters must add up. */
void pf_run_sm(pf_layer *got, const tc_perf_msg *m, size_t n, unsigned channel, uint32_t marker,
               int wrapped);

/* An event delivered to a state machine's callback (user: a pf_layer), with
 * the checks above; pf_on_parse_event is the same as a parser's event
 * callback (tc_parse_ctx). Call pf_layer_reset before a run. */
void pf_layer_reset(pf_layer *got);
void pf_on_event(void *user, const tc_perf_event *ev);
void pf_on_parse_event(void *user, const void *event);

#endif
