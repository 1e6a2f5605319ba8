/*
 * SiFive perf data, the container layer (spec/perf/perf.md, "Containers"): a
 * Nexus .rtd file or a text message list, each read into the same sequence
 * of ITC messages for the perf parser.
 */
#ifndef TC_PERF_MSG_H
#define TC_PERF_MSG_H

#include <stddef.h>
#include <stdint.h>

#include "../common/diag.h"
#include "../common/reader.h"

/* One ITC write as the container holds it. */
typedef struct tc_perf_msg {
    uint64_t offset;   /* of the message's first byte, or of the line's */
    uint32_t length;   /* bytes of the message, or of the line (its end of line excluded) */
    uint32_t line;     /* text message list: 1-based line number; Nexus: 0 */
    uint32_t src;      /* Nexus SRC field (0 without --srcbits); text: 0 */
    uint64_t idtag;    /* channel idtag / 4, write width code idtag & 3 */
    uint64_t value;    /* DQDATA, right-justified */
    uint64_t timestamp;
    int has_timestamp;
} tc_perf_msg;

/* Called with each message, in order. The message is valid only during
 * the call. */
typedef void (*tc_perf_msg_fn)(void *user, const tc_perf_msg *m);

/* Called with messages m[0..n), in order; valid only during the call. */
typedef void (*tc_perf_batch_fn)(void *user, const tc_perf_msg *m, size_t n);

#define TC_NEXUS_MAX_MESSAGE 64 /* bytes */
#define TC_NEXUS_TCODE_DATA_ACQ 7
#define TC_NEXUS_MAX_SRCBITS 8

/* Reads a Nexus byte stream to its end: Data Acquisition messages go to
 * fn, every other message is skipped by its framing; framing findings
 * (PERF-NEXUS-*) go to d. srcbits: 0..TC_NEXUS_MAX_SRCBITS. When the file
 * starts in the middle of a message (a wrapped buffer, PERF-NEXUS-MID-START)
 * *wrapped is set to 1 before the first message is delivered (wrapped may
 * be NULL). Returns the number of Data Acquisition messages delivered. */
uint64_t tc_nexus_read(tc_reader *r, tc_diag_sink *d, unsigned srcbits, tc_perf_msg_fn fn,
                       void *user, int *wrapped);

/* The same, the messages handed to fn a batch at a time (one call for
 * many messages): a batch is handed over before any finding of the Nexus
 * layer that follows its messages, so that findings keep their order. Not
 * for a view (fields.h), whose records follow each message. */
uint64_t tc_nexus_read_batch(tc_reader *r, tc_diag_sink *d, unsigned srcbits,
                             tc_perf_batch_fn fn, void *user, int *wrapped);

/* Reads a text message list to its end (PERF-TEXT-SYNTAX for bad lines).
 * Returns the number of messages delivered. */
uint64_t tc_itc_text_read(tc_reader *r, tc_diag_sink *d, tc_perf_msg_fn fn, void *user);

#endif
