/*
 * tracecheck: validation of XRay (FDR traces and basic-mode logs), SiFive perf,
 * DCFG/DCFG-trace and ovni traces. This is the public C API of libtracecheck.
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

/* The formats: TC_FORMAT_XRAY, TC_FORMAT_XRAY_BASIC, TC_FORMAT_PERF,
 * TC_FORMAT_DCFG, TC_FORMAT_DCFG_TRACE, TC_FORMAT_OVNI (formats.def, one
 * line each, with their values). */
typedef enum tc_format {
    TC_FORMAT_AUTO = 0,
#define TC_FORMAT_ENTRY(id, value, descriptor) TC_FORMAT_##id = value,
#include "formats.def"
#undef TC_FORMAT_ENTRY
} tc_format;

/* One past the last format's value (the values are 1 to the number of
 * formats). */
enum {
    TC_FORMAT__COUNT = 1
#define TC_FORMAT_ENTRY(id, value, descriptor) +1
#include "formats.def"
#undef TC_FORMAT_ENTRY
};

/* Flags of a rule (tc_rule_info.flags). */
#define TC_RF_PEDANTIC   1u /* reported only when tc_options.pedantic is set */
#define TC_RF_NO_MUTATOR 2u /* no single change to a valid input breaks it alone */
/* Judged only with an input besides the trace (XRay's and perf's
 * --binary): no conformance case can hold it, the real-producer and unit
 * tests check it. */
#define TC_RF_NEEDS_INPUT 4u

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

/* The type of a named value of a finding (tc_diag_value.type). */
typedef enum tc_value_type {
    TC_VALUE_UINT = 0,   /* .u */
    TC_VALUE_INT = 1,    /* .i */
    TC_VALUE_STRING = 2, /* .s: a name of this program's (a rule id, a record's kind), never
                          * bytes of the input */
} tc_value_type;

/* A value that a finding's message quotes, by name, so that a tool reads it
 * without parsing the message: XRAY-BUFFER-EXTENTS has "buffer_size" and
 * "remaining", TC-DIAG-SUPPRESSED "suppressed", "total" and "rule". Names are
 * lower case, words joined by '_'; docs/library.md lists the rules that
 * carry values and their names. */
typedef struct tc_diag_value {
    const char *name;
    tc_value_type type;
    uint64_t u;
    int64_t i;
    const char *s;
} tc_diag_value;

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
    /* The fields below hold, as data, what the message says in words; the
     * message is unchanged. They follow the older fields so that the older
     * fields keep their places. */
    /* A TC-DIAG-SUPPRESSED summary: the rule whose findings it counts, and
     * how many of them were not shown (beyond tc_options.max_repeats).
     * NULL and 0 for every other finding. */
    const tc_rule_info *summarises;
    uint64_t suppressed;
    /* Byte offsets of the earlier things the finding refers to ("already
     * defined at line 3:5", "the first at offset 96"), in the order the
     * message names them; n_related is 0 when it names none. */
    const uint64_t *related;
    size_t n_related;
    /* The offending values the message quotes, by name; n_values is 0 for
     * the rules that do not carry them (docs/library.md). */
    const tc_diag_value *values;
    size_t n_values;
    /* The bytes behind the finding, field by field, as `tracecheck show`
     * draws them (several lines, each ending in a newline), when the
     * caller asked for it (validate --show); NULL otherwise. The library's
     * checks never set it. */
    const char *view;
} tc_diag;

/* SiFive perf data: how the file holds its ITC messages (spec/perf/perf.md,
 * "Containers"). */
typedef enum tc_perf_container {
    TC_PERF_CONTAINER_BY_NAME = 0, /* a name ending in .itc: text; anything else: Nexus */
    TC_PERF_CONTAINER_RTD,         /* Nexus messages, as a trace buffer is saved */
    TC_PERF_CONTAINER_TEXT,        /* the text message list, one IDTAG VALUE [TIMESTAMP] a line */
} tc_perf_container;

/* The most binaries tc_options holds: the object ids an FDR function record
 * keeps (4 bits of them, spec/xray/xray.md). */
#define TC_MAX_BINARIES 16

typedef struct tc_options {
    tc_format format;      /* TC_FORMAT_AUTO: detect by content */
    int pedantic;          /* also report TC_RF_PEDANTIC rules */
    unsigned max_repeats;  /* reports per rule per input before suppression; 0 = default 20 */
    int no_models;         /* ovni: skip the model layer (events of ovni's own model) */
    void (*on_diag)(void *user, const tc_diag *d);
    void *user;
    /* SiFive perf data (spec/perf/perf.md, ruling 1). These four and no_models
     * are formats' own options (perf's, ovni's), kept where this structure
     * has always had them; tc_options_set sets them by the names the formats
     * declare. */
    unsigned perf_srcbits;            /* Nexus SRC field bits, 0..8 (0: single core) */
    unsigned perf_channel;            /* ITC channel of the perf data, 0..31 (default 6) */
    uint32_t perf_marker;             /* a header's first word (default 0x70657266, 'perf') */
    tc_perf_container perf_container; /* default: by the file name */
    /* The programs a trace was recorded from (--binary, repeatable): their
     * instrumentation maps name the functions of an XRay trace and say
     * which records each can write (spec/xray/xray.md, "The program's binary").
     * The first is the main executable, object 0; the rest are shared
     * objects 1, 2, ... in the order the runtime registered them. Perf
     * data's function entry and exit records are judged against their
     * function symbols (spec/perf/perf.md, "The program's binary"). Paths
     * the caller keeps alive as long as opt is used (tc_options_set stores
     * the pointer it is given). A format that reads no binary ignores them. */
    const char *binaries[TC_MAX_BINARIES];
    unsigned n_binaries;
} tc_options;

#define TC_OPTIONS_INIT                                                                           \
    { TC_FORMAT_AUTO, 0, 0, 0, NULL, NULL, 0, 6, 0x70657266u, TC_PERF_CONTAINER_BY_NAME, {NULL}, 0 }

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

/*
 * Options by name, as the program's options are spelled (without the
 * dashes), so that a test names the format and the perf container of a
 * buffer in one line each:
 *
 *   format        auto, xray, xray-basic, perf, dcfg, dcfg-trace, ovni
 *   container     perf: rtd or text (default: by the name, .itc is text)
 *   srcbits       perf .rtd: Nexus SRC field bits, 0 to 8
 *   perf-channel  perf: ITC channel, 0 to 31
 *   perf-marker   perf: a header's first 32-bit word (decimal or 0x...)
 *   pedantic      0 or 1
 *   no-models     ovni: 0 or 1
 *   max-repeats   findings per rule reported before the rest are only
 *                 counted, 1 to 4294967295
 *   binary        xray, xray-basic, perf: a program the trace was recorded
 *                 from (an ELF file: XRay needs its instrumentation map,
 *                 perf its function symbols, checked when a trace is read);
 *                 each call adds one, the main executable first
 *                 (tc_options.binaries); -1 for a file that is not ELF
 *
 * Returns 0, or -1 when the key is unknown or the value out of range (opt
 * is then unchanged).
 */
int tc_options_set(tc_options *opt, const char *key, const char *value);

/*
 * Results to iterate over: the findings of one input, copied so that they
 * outlive the call. For tests of a producer or a reader:
 *
 *   tc_options opt = TC_OPTIONS_INIT;
 *   tc_options_set(&opt, "format", "ovni");
 *   tc_result *r = tc_check_buffer(bytes, size, "stream.obs", &opt);
 *   for (size_t i = 0; i < tc_result_count(r); i++) {
 *       const tc_diag *d = tc_result_diag(r, i);
 *       printf("%s: %s\n", d->rule->id, d->message);
 *   }
 *   int status = tc_result_status(r);   // 0, 1 or 2 as tc_validate_file
 *   tc_result_free(r);
 *
 * A result is immutable once returned: threads may read it at once.
 */
typedef struct tc_result tc_result;

/* Validate bytes in memory (gzip, bzip2 and zstd are decompressed). name
 * stands for the file the bytes would be in: it appears in the findings and,
 * like a file's name, tells perf data ("trace.rtd", "trace.itc") and DCFG
 * from DCFG-trace ("x.trace.json") when opt->format is TC_FORMAT_AUTO; NULL
 * means "<memory>". opt may be NULL (defaults); when opt->on_diag is set it
 * is called too, as with tc_validate_buffer. Returns NULL only when out of
 * memory. */
tc_result *tc_check_buffer(const void *data, size_t size, const char *name,
                           const tc_options *opt);

/* Validate a file, "-" for standard input, or a directory holding an ovni
 * trace, as tc_validate_file. Returns NULL only when out of memory. */
tc_result *tc_check_file(const char *path, const tc_options *opt);

/* 0 no error-severity finding, 1 at least one, 2 the input could not be
 * read or checked (tc_result_error says why). */
int tc_result_status(const tc_result *r);

/* Why the status is 2; "" otherwise. */
const char *tc_result_error(const tc_result *r);

/* The format detected or forced, bytes read, and the findings counted by
 * severity: every finding, also those beyond max_repeats that
 * tc_result_count leaves out. */
const tc_summary *tc_result_summary(const tc_result *r);

/* The findings reported, in order: at most max_repeats per rule, then one
 * TC-DIAG-SUPPRESSED note per rule that had more. */
size_t tc_result_count(const tc_result *r);

/* Finding i (0-based), NULL when i >= tc_result_count(r). Its strings
 * (input, json_path, message, context) live as long as the result. */
const tc_diag *tc_result_diag(const tc_result *r, size_t i);

/* The first finding of a rule ("OVNI-STREAM-MAGIC"), or NULL. */
const tc_diag *tc_result_find(const tc_result *r, const char *rule_id);

/* Frees a result and every finding in it. NULL is allowed. */
void tc_result_free(tc_result *r);

#ifdef __cplusplus
}
#endif
#endif
