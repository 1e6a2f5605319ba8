/*
 * The bytes behind a finding (`tracecheck show`, `validate --show`): each
 * format's own parser says, as it parses, where each record starts and
 * ends and which fields it read from which bytes, with their names as
 * spec/ gives them and their decoded values. No second decoder draws the
 * view, so what it shows is what the parser read.
 *
 * A parser reports into the field sink of its diagnostic sink
 * (tc_diag_sink.fields), which is NULL except while a view is drawn: the
 * cost is then one test of a pointer per record. A parser that has a fast
 * path takes its general path when fields are asked for.
 *
 * Records are numbered from 0 in the order the parser reports them, per
 * input file (an ovni trace's stream files count each from 0). A view is
 * drawn in two parses (show.c): the first finds the records around the
 * offsets asked for, the second keeps those records and their fields.
 */
#ifndef TC_FIELDS_H
#define TC_FIELDS_H

#include <stddef.h>
#include <stdint.h>

struct tc_diag_sink;

/* How a record's bytes are shown: hex for the binary formats, the text
 * with lines and columns for JSON and text. */
typedef enum tc_field_look { TC_LOOK_HEX, TC_LOOK_TEXT } tc_field_look;

#define TC_FIELD_NAME_MAX 48
#define TC_FIELD_VALUE_MAX 120
/* Fields kept of one record; a record with more says how many it had. */
#define TC_FIELDS_PER_RECORD 64
/* Record ranges one parse keeps (one per finding shown). */
#define TC_FIELDS_RANGES 64

typedef struct tc_field {
    uint64_t pos, len;          /* its bytes in the input */
    uint8_t bit, bits;          /* a bit field: bits [bit, bit + bits) of them; 0 bits: bytes */
    char name[TC_FIELD_NAME_MAX];
    char value[TC_FIELD_VALUE_MAX];
} tc_field;

typedef struct tc_field_record {
    uint64_t index; /* from 0, per input */
    uint64_t pos, len;
    tc_field_look look;
    char what[TC_FIELD_VALUE_MAX]; /* "function record (Enter)" */
    tc_field *fields;
    size_t nfields, more; /* kept, and not kept (past TC_FIELDS_PER_RECORD) */
} tc_field_record;

/* A range of records to keep: [first, last] by index. */
typedef struct tc_field_range {
    uint64_t first, last;
} tc_field_range;

/* An offset looked for in the first parse: the records that hold
 * [at, at + len) (a point when len is 0), or the last before it. */
typedef struct tc_field_target {
    uint64_t at, len;
    uint64_t hit_first, hit_last; /* found: indexes; UINT64_MAX when none */
    uint64_t before;              /* the last record that starts at or before at */
} tc_field_target;

typedef struct tc_fields {
    const char *input; /* the file whose records count; NULL: any */
    /* First parse: targets to find. Second parse: ranges to keep. */
    tc_field_target *targets;
    size_t ntargets;
    tc_field_range ranges[TC_FIELDS_RANGES];
    size_t nranges;
    /* What was kept (second parse), in the order reported. */
    tc_field_record *records;
    size_t nrecords, cap;
    uint64_t count;  /* records reported so far (of input) */
    int keeping;     /* the current record is kept: its fields are wanted */
    uint64_t current_pos; /* of the current record */
    int current_open;     /* its length waits for tc_fields_record_end */
    int oom;
} tc_fields;

/* A record of the input starts: its bytes [pos, pos + len) (len may be 0
 * when not known yet: tc_fields_record_end sets it), and what it is. */
void tc_fields_record(struct tc_diag_sink *d, uint64_t pos, uint64_t len, tc_field_look look,
                      const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* The current record's length, once known. */
void tc_fields_record_end(struct tc_diag_sink *d, uint64_t end);
/* A field of the current record: bytes [pos, pos + len), bits [bit, bit +
 * bits) of them when bits is not 0, its name and its decoded value. */
void tc_fields_field(struct tc_diag_sink *d, uint64_t pos, uint64_t len, unsigned bit,
                     unsigned bits, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

/* Whether fields are wanted now: call the functions above only when so,
 * so that a parse without a view pays one test. */
#define TC_FIELDS_ON(d) ((d)->fields != NULL)
#define TC_FIELDS_WANT(d) ((d)->fields != NULL && (d)->fields->keeping)

void tc_fields_free(tc_fields *f);

#endif
