/*
 * SiFive perf data, the perf layer (spec/perf/perf.md, "ITC writes", "Perf data"
 * and rulings 2-11): a state machine fed the container's ITC messages one
 * at a time, which reads the perf channel's writes as headers and records,
 * reports the PERF-* rules of that layer, and passes each header and each
 * complete record on as a tc_perf_event.
 *
 * Memory is fixed whatever the input: a header has at most 32 counters (one
 * per mask bit), the call stack keeps its top TC_PERF_STACK frames, and
 * the messages before the first header are counted, their first and last
 * kept, until a header (or the end of the trace) decides how they are
 * judged (ruling 14).
 */
#ifndef TC_PERF_SM_H
#define TC_PERF_SM_H

#include <stdint.h>

#include "../common/diag.h"
#include "perf_msg.h"

#define TC_PERF_DEFAULT_CHANNEL 6u
#define TC_PERF_DEFAULT_MARKER 0x70657266u /* 'perf' */
#define TC_PERF_MAX_CHANNEL 31u
#define TC_PERF_MAX_COUNTERS 32
/* Call-stack frames held for the PERF-CALL-STACK checks; deeper frames are
 * counted, not held, and are not checked when control returns to them. */
#define TC_PERF_STACK 1024

/* An open call, as its function entry record gives it: the function
 * entered and the call site in its caller (spec/perf/perf.md, "Function entry
 * and exit records"). */
typedef struct tc_perf_frame {
    uint64_t fn;
    uint64_t site;
} tc_perf_frame;

/* IDTAG & 3: the width of the stimulus-register store. */
enum { TC_PERF_W32 = 0, TC_PERF_W_BAD = 1, TC_PERF_W16 = 2, TC_PERF_W8 = 3 };

enum { TC_PERF_RAW = 0, TC_PERF_DELTA = 1, TC_PERF_DELTA_XOR = 2 };
enum {
    TC_PERF_FUNC_ENTRY = 0,
    TC_PERF_FUNC_EXIT = 1,
    TC_PERF_MANUAL = 2,
    TC_PERF_ISR = 3,
};

/* One counter definition of a header. */
typedef struct tc_perf_counter {
    uint8_t index;          /* its mask bit */
    uint8_t width;          /* counter_info bits 12-17, plus 1: 1..64 */
    uint16_t csr;           /* counter_info bits 0-11 */
    uint32_t opensbi_type;  /* 0..2 */
    uint32_t code;          /* OpenSBI types 0 and 1 */
    uint64_t event_data;    /* OpenSBI type 2: (high word << 32) | low word */
    uint32_t counter_info;
} tc_perf_counter;

/* A header: the configuration records are read with. */
typedef struct tc_perf_header {
    uint64_t offset;        /* of the marker's message */
    uint64_t timestamp;     /* of the marker's message, when it has one */
    int has_timestamp;
    uint32_t count_type;    /* TC_PERF_RAW .. TC_PERF_DELTA_XOR */
    uint32_t mask;
    unsigned n_counters;    /* set bits of mask */
    tc_perf_counter counters[TC_PERF_MAX_COUNTERS]; /* from the lowest mask bit up */
} tc_perf_header;

/* What the state machine passes on: the start of the trace (before any
 * other event), a complete header, or a complete record. */
typedef enum tc_perf_event_kind {
    TC_PERF_EV_START = 1,
    TC_PERF_EV_HEADER = 2,
    TC_PERF_EV_RECORD = 3,
} tc_perf_event_kind;

typedef struct tc_perf_event {
    tc_perf_event_kind kind;
    const tc_perf_header *header; /* HEADER, RECORD: the header in force */
    /* RECORD */
    uint64_t offset;              /* of the record-type message */
    uint64_t timestamp;           /* of the record-type message, when it has one */
    int has_timestamp;
    unsigned type;                /* TC_PERF_FUNC_ENTRY .. TC_PERF_ISR */
    unsigned n_addresses;         /* 1 or 2 */
    uint64_t address[2];          /* as written: (high << 32) | (low & ~1) */
    uint64_t value[TC_PERF_MAX_COUNTERS];   /* as written: (high16 << 32) | low */
    uint64_t decoded[TC_PERF_MAX_COUNTERS]; /* absolute, per the count type (ruling 7) */
    uint64_t end;                 /* past its last message */
    uint32_t line;                /* text message list: of the record-type message; else 0 */
    /* With --binary (named 1): each address as name+offset in the
     * program's functions, NULL when no function holds it. named 0: no
     * binary, and the dump is as it is without one. */
    int named;
    const char *names[2];
} tc_perf_event;

typedef void (*tc_perf_event_fn)(void *user, const tc_perf_event *ev);

/* Where the machine is between two messages. */
typedef enum tc_perf_state {
    TC_PERF_S_BEFORE,      /* no header yet */
    TC_PERF_S_WAIT_HEADER, /* a header was abandoned: everything waits for the next */
    TC_PERF_S_HEADER,      /* inside a header (hstep says where) */
    TC_PERF_S_RECORD_START,/* a record type or the marker may come */
    TC_PERF_S_RECORD,      /* inside a record: an address or counter word is due */
    TC_PERF_S_SKIP,        /* skipping to the next 8-bit write or marker */
} tc_perf_state;

typedef struct tc_perf_sm {
    tc_diag_sink *d;
    tc_perf_event_fn on_event;
    void *user;
    unsigned channel;
    uint32_t marker;

    tc_perf_state state;
    uint64_t perf_messages;   /* of the perf channel, readable or not */
    uint64_t headers;         /* markers that started a header */

    /* Perf-channel messages before the first header (ruling 14). Whether
     * they are perf data is known only later: when a header comes they are
     * reported there (PERF-BEFORE-HEADER, or PERF-BEFORE-HEADER-WRAPPED in
     * a wrapped buffer, with PERF-ITC-* for those that cannot be read);
     * when none ever comes they are not judged (PERF-NO-HEADER). */
    uint64_t pre_count;              /* all of them */
    tc_perf_msg pre_first, pre_last;
    uint64_t before_count;           /* those that can be read */
    tc_perf_msg before_first, before_last;
    uint64_t pre_bad_count[2];       /* those that cannot: width code 1, value too wide */
    tc_perf_msg pre_bad_first[2];
    /* Set by the container before the first message when the file is read
     * as a wrapped buffer (PERF-NEXUS-MID-START, ruling 12). */
    int wrapped;

    /* The header being read, and the one in force. */
    tc_perf_header hdr;       /* being read */
    tc_perf_header cfg;       /* in force when have_cfg */
    int have_cfg;
    int hstep;                /* field due in the header */
    unsigned hcounter;        /* counter whose definition is being read */
    unsigned hbits_left;      /* mask bits not yet given a counter */
    tc_perf_msg hdr_first;    /* its marker's message */
    uint64_t hdr_end;         /* end offset of its last message */

    /* The record being read. */
    tc_perf_event rec;
    tc_perf_msg rec_first;    /* its record-type message */
    uint64_t rec_end;         /* end offset of its last message */
    unsigned addr_done;       /* addresses complete */
    int addr_high_due;        /* the address's low word had bit 0 set */
    uint32_t addr_low;
    tc_perf_msg addr_msg;     /* the address's low word */
    unsigned ctr_done;        /* counter values complete */
    int ctr_pending;          /* a counter's low word was read; a 16-bit high part may follow */
    tc_perf_msg ctr_msg;      /* that low word */
    int last_word_marker;     /* the last message read in this record was a 32-bit marker value */
    tc_perf_msg marker_msg;   /* that message */
    int pending_complete;     /* a record whose words are all read waits for a possible high part */

    /* Running values per counter of the header in force (ruling 7). */
    uint64_t run[TC_PERF_MAX_COUNTERS];
    int run_valid[TC_PERF_MAX_COUNTERS]; /* raw: the last value fitted its width */
    int rec_fits[TC_PERF_MAX_COUNTERS];  /* the current record's value fits its width */

    /* PERF-MIXED-RECORDS: the first record's kind (-1: none yet). */
    int first_kind;
    uint64_t first_kind_offset;
    uint32_t first_kind_line;
    int mixed_reported;

    /* Open calls (entry/exit records), a ring of the top TC_PERF_STACK. */
    tc_perf_frame stack[TC_PERF_STACK];
    uint64_t depth;           /* frames, held or not */
    unsigned known;           /* frames held at the top */
} tc_perf_sm;

/* channel: 0..31; marker: the header's first word. on_event may be NULL
 * (validation only). Sends TC_PERF_EV_START when on_event is set. */
void tc_perf_sm_init(tc_perf_sm *s, tc_diag_sink *d, unsigned channel, uint32_t marker,
                     tc_perf_event_fn on_event, void *user);

/* One container message, in trace order. */
void tc_perf_sm_feed(tc_perf_sm *s, const tc_perf_msg *m);

/* Messages m[0..n), in trace order: the same as feeding each in turn. */
void tc_perf_sm_feed_many(tc_perf_sm *s, const tc_perf_msg *m, size_t n);

/* The end of the trace: PERF-RECORD-TRUNCATED, PERF-HEADER-TRUNCATED,
 * PERF-NO-HEADER and PERF-NO-DATA are decided here. */
void tc_perf_sm_finish(tc_perf_sm *s);

/* What the machine reads message m as, before it is fed (tracecheck show):
 * "due: the low word of address 1 of the function entry record". */
void tc_perf_sm_due(const tc_perf_sm *s, const tc_perf_msg *m, char *buf, size_t size);

/* Names for messages and the dump. */
const char *tc_perf_count_type_name(uint32_t t);  /* "raw", "delta", "delta_xor" */
const char *tc_perf_record_type_name(unsigned t); /* "entry", "exit", "manual", "isr" */

#endif
