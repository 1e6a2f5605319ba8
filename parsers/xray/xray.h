/*
 * LLVM XRay: Flight Data Recorder traces, versions 1 to 5, and basic-mode
 * ("naive") logs, versions 1 to 3, both byte orders. The grammar, record
 * tables and rulings are in spec/xray/xray.md; the rules are XRAY-* (XRAY-BASIC-*
 * for basic mode) in spec/xray/rules.def.
 */
#ifndef TC_XRAY_H
#define TC_XRAY_H

#include <stddef.h>
#include <stdint.h>

#include "../common/parse.h"

#define TC_XRAY_HEADER_SIZE 32
#define TC_XRAY_FUNCTION_SIZE 8
#define TC_XRAY_METADATA_SIZE 16
/* NewBuffer + WallTimeMarker + NewCPUId: the smallest version 1 buffer. */
#define TC_XRAY_MIN_V1_BUFFER 48
#define TC_XRAY_MAX_STACK 1024
/* Basic mode: every record after the header has 32 bytes. */
#define TC_XRAY_BASIC_RECORD_SIZE 32

/* Metadata record kinds (first byte >> 1 in little-endian files). */
typedef enum tc_xray_kind {
    TC_XRAY_NEW_BUFFER = 0,
    TC_XRAY_END_OF_BUFFER = 1,
    TC_XRAY_NEW_CPU = 2,
    TC_XRAY_TSC_WRAP = 3,
    TC_XRAY_WALL_TIME = 4,
    TC_XRAY_CUSTOM_EVENT = 5,
    TC_XRAY_CALL_ARG = 6,
    TC_XRAY_BUFFER_EXTENTS = 7,
    TC_XRAY_TYPED_EVENT = 8,
    TC_XRAY_PID = 9,
    TC_XRAY_KIND_COUNT = 10
} tc_xray_kind;

/* Function record actions. */
enum { TC_XRAY_ENTER = 0, TC_XRAY_EXIT = 1, TC_XRAY_TAIL_EXIT = 2, TC_XRAY_ENTER_ARGS = 3 };

/* Basic-mode record types (the u16 that starts every record). */
enum { TC_XRAY_BASIC_FUNCTION = 0, TC_XRAY_BASIC_ARG_PAYLOAD = 1 };

/* Event kinds: one per record kind, plus the header and function records. */
typedef enum tc_xray_event_kind {
    TC_XRAY_EV_HEADER = 100,
    TC_XRAY_EV_FUNCTION = 101,
    /* Basic mode: a function record (cpu, tsc, tid, pid, action, func_id as
     * written; func_id holds the file's i32) and an argument payload
     * (func_id, tid, pid, value). */
    TC_XRAY_EV_BASIC_FUNCTION = 102,
    TC_XRAY_EV_BASIC_ARG = 103,
    /* below 100: a metadata record of that tc_xray_kind */
} tc_xray_event_kind;

typedef struct tc_xray_header {
    uint16_t version, type;
    uint32_t bitfield;
    uint64_t cycle_frequency;
    uint64_t buffer_size;
    int big_endian;
} tc_xray_header;

/* One decoded record. Fields not used by a kind are 0. In basic mode
 * (header type 0) cpu, tsc, tid and pid are the record's own fields. */
typedef struct tc_xray_event {
    int kind;            /* tc_xray_kind, TC_XRAY_EV_HEADER or TC_XRAY_EV_FUNCTION */
    uint64_t offset;     /* of the record's first byte */
    const tc_xray_header *header;
    /* the state after this record */
    uint16_t cpu;
    uint64_t tsc;        /* absolute TSC reconstructed for this CPU */
    int32_t tid, pid;
    /* fields of the record */
    unsigned action;     /* function */
    uint32_t func_id;    /* function */
    uint32_t delta;      /* function: u32; v5 events: the i32 delta as written */
    uint64_t value;      /* NewCPUId/TSCWrap/v1-4 event TSC, CallArgument, BufferExtents */
    int32_t id;          /* NewBuffer thread id, PIDEntry process id, as written */
    int64_t wall_sec;    /* WallTimeMarker */
    int32_t wall_usec;
    int32_t size;        /* custom/typed event payload size as written */
    uint16_t event_type; /* typed event */
    uint16_t event_cpu;  /* version 4 custom event */
    const uint8_t *data; /* payload; NULL when it could not be held (data_len 0) */
    size_t data_len;
    /* Function records with --binary (named 1): the function's demangled
     * name, NULL when the binaries do not have it. named 0: no binary. */
    int named;
    const char *func_name;
} tc_xray_event;

/* Whether the first bytes look like an XRay header (either byte order, any
 * type): an FDR trace, or something to be reported as XRay. */
int tc_xray_sniff(const uint8_t *p, size_t n);
/* Whether they are a basic-mode header: type 0, version 1 to 3, in either
 * byte order (ruling 13). */
int tc_xray_basic_sniff(const uint8_t *p, size_t n);

/* Validates the trace read from r, reporting into ctx->diags and passing each
 * record to ctx->on_event. tc_xray_parse_any reads an FDR trace or a basic-mode
 * log, as its header says; tc_xray_parse (--format xray) reads FDR
 * traces only and reports a basic-mode header as XRAY-HEADER-BASIC-MODE;
 * tc_xray_basic_parse (--format xray-basic) reads basic-mode logs only and
 * reports an FDR header as XRAY-HEADER-TYPE. */
void tc_xray_parse_any(tc_reader *r, const tc_parse_ctx *ctx);
void tc_xray_parse(tc_reader *r, const tc_parse_ctx *ctx);
/* tc_xray_parse on several threads, buffers split among them (split.h). */
extern const struct tc_format_split tc_xray_split;
/* tc_xray_basic_parse on several threads (xray_basic_reader.c). */
extern const struct tc_format_split tc_xray_basic_split;
void tc_xray_basic_parse(tc_reader *r, const tc_parse_ctx *ctx);

/* Name of an action or metadata kind, for messages and dumps. */
const char *tc_xray_action_name(unsigned action);
const char *tc_xray_kind_name(unsigned kind);

#endif
