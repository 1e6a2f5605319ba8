/*
 * tracecheck: validation of XRay FDR, SiFive perf, DCFG/DCFG-trace and ovni
 * traces. This is the public C API of libtracecheck.
 *
 *   tc_options opt = TC_OPTIONS_INIT;
 *   opt.on_diag = print_it;            // optional: every finding as it is made
 *   tc_summary sum;
 *   int status = tc_validate_file("trace.xray", &opt, &sum);
 *   // status: 0 valid (warnings allowed), 1 at least one error, 2 I/O error
 *
 * The library keeps no global mutable state: calls on different inputs may
 * run in parallel threads.
 */
#ifndef TRACECHECK_TRACECHECK_H
#define TRACECHECK_TRACECHECK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TC_VERSION_STRING "0.1.0"

typedef enum tc_severity { TC_NOTE = 0, TC_WARNING = 1, TC_ERROR = 2 } tc_severity;

typedef enum tc_format {
    TC_FORMAT_AUTO = 0,
    TC_FORMAT_XRAY,
    TC_FORMAT_PERF,
    TC_FORMAT_DCFG,
    TC_FORMAT_DCFG_TRACE,
    TC_FORMAT_OVNI,
    TC_FORMAT__COUNT
} tc_format;

/* Flags of a rule (tc_rule_info.flags). */
#define TC_RF_PEDANTIC   1u /* reported only when tc_options.pedantic is set */
#define TC_RF_NO_MUTATOR 2u /* no single change to a valid input breaks it alone */

/* One entry of the rule catalogue (spec/rules.def). */
typedef struct tc_rule_info {
    const char *id;          /* "XRAY-WALLTIME-USEC" */
    const char *family;      /* "TC", "XRAY", "PERF", "DCFG", "DTRC", "OVNI" */
    tc_severity severity;
    unsigned flags;          /* TC_RF_* */
    const char *reference;   /* spec section or ruling */
    const char *summary;     /* one line */
    const char *explanation; /* a paragraph */
} tc_rule_info;

size_t tc_rule_count(void);
const tc_rule_info *tc_rule_at(size_t index);
const tc_rule_info *tc_rule_find(const char *id); /* NULL if unknown */

/* One finding. Every pointer is valid only during the callback. */
typedef struct tc_diag {
    const tc_rule_info *rule;
    tc_severity severity;
    const char *input;     /* the input's name as given */
    uint64_t offset;       /* byte offset in the (decompressed) input */
    uint64_t length;       /* bytes covered by the finding, 0 for a point */
    uint32_t line, column; /* 1-based, text formats only; 0 otherwise */
    const char *json_path; /* JSON formats only; NULL otherwise */
    const char *message;   /* concrete, with the offending values */
    const char *context;   /* where it happened ("in buffer 3 of thread 2017 ..."), or NULL */
    int unlocated;         /* about the input as a whole: offset and length mean nothing */
} tc_diag;

/* SiFive perf data: how the file holds its ITC messages (spec/perf.md,
 * "Containers"). */
typedef enum tc_perf_container {
    TC_PERF_CONTAINER_BY_NAME = 0, /* a name ending in .itc: text; anything else: Nexus */
    TC_PERF_CONTAINER_RTD,         /* Nexus messages, as a trace buffer is saved */
    TC_PERF_CONTAINER_TEXT,        /* the text message list, one IDTAG VALUE [TIMESTAMP] a line */
} tc_perf_container;

typedef struct tc_options {
    tc_format format;      /* TC_FORMAT_AUTO: detect by content */
    int pedantic;          /* also report TC_RF_PEDANTIC rules */
    unsigned max_repeats;  /* reports per rule per input before suppression; 0 = default 20 */
    int no_models;         /* ovni: skip the model layer (events of ovni's own model) */
    void (*on_diag)(void *user, const tc_diag *d);
    void *user;
    /* SiFive perf data (spec/perf.md, ruling 1) */
    unsigned perf_srcbits;            /* Nexus SRC field bits, 0..8 (0: single core) */
    unsigned perf_channel;            /* ITC channel of the perf data, 0..31 (default 6) */
    uint32_t perf_marker;             /* a header's first word (default 0x70657266, 'perf') */
    tc_perf_container perf_container; /* default: by the file name */
} tc_options;

#define TC_OPTIONS_INIT                                                                           \
    { TC_FORMAT_AUTO, 0, 0, 0, NULL, NULL, 0, 6, 0x70657266u, TC_PERF_CONTAINER_BY_NAME }

typedef struct tc_summary {
    tc_format format;      /* the format detected or forced */
    uint64_t bytes;        /* bytes read (after decompression) */
    uint64_t errors, warnings, notes;
} tc_summary;

/* Validate one input: a file, "-" for standard input, or a directory holding
 * an ovni trace. Returns 0 when no error-severity
 * finding was made, 1 when one was, 2 when the input could not be read (the
 * reason is in errbuf when given). */
int tc_validate_file(const char *path, const tc_options *opt, tc_summary *out,
                     char *errbuf, size_t errlen);
int tc_validate_buffer(const void *data, size_t size, const char *name,
                       const tc_options *opt, tc_summary *out);

const char *tc_format_name(tc_format f);      /* "xray", ... */
tc_format tc_format_from_name(const char *s); /* TC_FORMAT__COUNT if unknown */

#ifdef __cplusplus
}
#endif
#endif
