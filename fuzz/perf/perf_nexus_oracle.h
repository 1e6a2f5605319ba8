/*
 * A Nexus .rtd read the slow, obvious way from spec/perf/perf.md "Nexus",
 * independently of parsers/perf/nexus.c: the file is sliced into messages
 * first (the start search, idle bytes, the 64-byte limit and the skip to
 * the end of an over-long message), then each Data Acquisition message
 * becomes an array of bits and a list of field boundaries, from which SRC,
 * IDTAG, DQDATA and TIMESTAMP are read. It gives the messages, the
 * findings (rule and offset, in order) and whether the file is a wrapped
 * buffer.
 */
#ifndef TC_FUZZ_PERF_NEXUS_ORACLE_H
#define TC_FUZZ_PERF_NEXUS_ORACLE_H

#include "perf_events.h"

/* The obvious reading of the n bytes at b (SRC fields of srcbits). */
void pno_read(pf_container *s, const uint8_t *b, size_t n, unsigned srcbits);

/* Aborts unless two readings delivered the same messages (offset, length,
 * SRC, IDTAG, DQDATA, TIMESTAMP, line), wrap and findings. */
void pno_compare(const pf_container *a, const pf_container *b, const char *what);

#endif
