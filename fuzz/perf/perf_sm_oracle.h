/*
 * The perf layer (the state machine of parsers/perf/perf_sm.c) read again
 * from spec/perf/perf.md ("ITC writes", "Perf data", rulings 2 to 11 and 14, the
 * grammar, "Before the first header" and "Function entry and exit
 * records") and the recovery each rule's entry in spec/perf/rules.def
 * describes, independently of the state machine: from a sequence of ITC
 * messages it gives the events (headers field by field; records: type,
 * addresses, values as written, decoded values, offset, timestamp) and the
 * findings (rule, offset and line, in order) the messages deserve.
 *
 * Where the spec leaves recovery open it reads one defect as one finding: a
 * message that cannot be read (PERF-ITC-*) drops the header or record it
 * falls in (a record with all its words stands: only its last counter's
 * optional high part could follow) and reading resumes at the next 8-bit
 * write or marker; a counter value is judged once it is known to be
 * complete (the next word came, or the record ended); findings are located
 * at the start of what they judge (a record's type message, a header's
 * marker, a counter's or address's low word). Messages before the first
 * header are judged when it comes, each rule once at its first message, in
 * the order of those messages (unreadable ones by their PERF-ITC-* rule, the
 * others by PERF-BEFORE-HEADER or, wrapped, PERF-BEFORE-HEADER-WRAPPED);
 * without any header they give PERF-NO-HEADER alone, at the first of them.
 */
#ifndef TC_FUZZ_PERF_SM_ORACLE_H
#define TC_FUZZ_PERF_SM_ORACLE_H

#include "perf_events.h"

/* The reading of n messages into ref (channel, marker, and whether the
 * container read a wrapped buffer). Returns 1 when the call stack grew
 * deeper than the state machine tracks (its PERF-CALL-STACK findings are
 * then not compared). */
int perf_sm_oracle_read(pf_layer *ref, const tc_perf_msg *m, size_t n, unsigned channel, uint32_t marker,
             int wrapped);

/* Aborts unless the state machine's events and findings are the
 * reading's (call-stack findings left out when deep). */
void perf_sm_oracle_compare(const pf_layer *got, const pf_layer *ref, int deep);

/* The events only: headers and records, field by field. */
void perf_sm_oracle_compare_events(const pf_layer *got, const pf_layer *ref);

/* Every located finding of got lies at a perf-channel message of the n at
 * msgs (in offset order), with its line; only PERF-NO-DATA is unlocated. */
void perf_sm_oracle_check_locations(const pf_layer *got, const tc_perf_msg *msgs, size_t nmsgs,
                         unsigned channel);

/* The messages and both readings, for PERF_MESSAGES_VERBOSE=1. */
void perf_sm_oracle_print(const pf_layer *got, const pf_layer *ref, const tc_perf_msg *msgs, size_t nmsgs);

#endif
