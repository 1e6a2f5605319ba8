/*
 * What a generated SiFive perf trace must read back as, for perf_roundtrip:
 * read through the public entry (tc_check_input with the perf format and
 * the container, as `tracecheck dump` reads it) with no finding of any
 * severity; its canonical dump (read by cJSON) the header line, then per
 * generated header its perf_header line (count type, mask, counters) and
 * one counter line per mask bit (OpenSBI type, code or event_data,
 * counter_info, CSR, width), and per generated record a record line with
 * the model's type and addresses, the values the writer wrote and, decoded,
 * the model's absolute counter values (ruling 7).
 */
#ifndef TC_FUZZ_PERF_MODEL_ORACLE_H
#define TC_FUZZ_PERF_MODEL_ORACLE_H

#include "../../generators/perf/perf_model.h"

/* What was generated, in order: headers (all of one configuration) and
 * records. */
typedef struct pmo_item {
    int is_header;
    perf_record rec;                     /* absolute values, by mask bit */
    uint64_t written[PERF_MAX_COUNTERS]; /* as the writer wrote them, by mask bit */
} pmo_item;

/* Checks the n bytes at p (container PERF_RTD with srcbits, or PERF_TEXT)
 * against items; returns the dump without offsets and timestamps, a line
 * each (malloc'd), for the comparison of the two containers. */
char *pmo_check(const uint8_t *p, size_t n, int container, unsigned srcbits,
                const perf_config *cfg, const pmo_item *items, size_t nitems);

#endif
