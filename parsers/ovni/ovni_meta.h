/* ovni metadata (stream.json): what the checks of one stream and of the
 * whole trace need from it, with where each value was. */
#ifndef TC_OVNI_META_H
#define TC_OVNI_META_H

#include <stddef.h>
#include <stdint.h>

#include "../common/diag.h"
#include "../common/reader.h"

/* Where a value was, to report against it later. */
typedef struct tc_ovni_loc {
    int set;
    uint64_t offset;
    uint32_t line, column;
    char path[48];
} tc_ovni_loc;

typedef struct tc_ovni_cpu {
    int64_t index, phyid;
} tc_ovni_cpu;

/* The models a stream may emit events of. */
typedef struct tc_ovni_models {
    int known;            /* ovni.require was read */
    uint8_t letters[128]; /* [letter] set: a known model the stream requires */
    int unknown_required; /* it requires a model tracecheck does not know */
    uint8_t incompatible[128]; /* [letter] set: required at a version tracecheck does not know
                                  (ruling 9): the model layer does not judge its events */
    char names[128];      /* the required names, for messages */
} tc_ovni_models;

/* A mark type of ovni.mark (libovni's ovni_mark_type and ovni_mark_label):
 * what the checks across streams compare. */
typedef struct tc_ovni_mark_label {
    int64_t value;
    char label[64];      /* cut to fit; compared whole by hash */
    uint64_t hash;
} tc_ovni_mark_label;

typedef struct tc_ovni_mark_decl {
    int32_t type;        /* 0 to 99 */
    int stack;           /* chan_type "stack" (else "single") */
    char title[64];
    uint64_t title_hash;
    tc_ovni_mark_label *labels;
    size_t nlabels;
} tc_ovni_mark_decl;

/* A hardware counter of nosv.hwc. */
typedef struct tc_ovni_hwc_name {
    char name[48];
    uint64_t hash;
} tc_ovni_hwc_name;

#define TC_OVNI_META_MARK_TYPES 100

typedef struct tc_ovni_meta {
    int readable;         /* the JSON was read to its end */
    int thread;           /* ovni.part is "thread" */
    int has_tid, has_pid, has_app_id, has_rank, has_nranks, has_loom, has_cpus;
    int64_t tid, pid, app_id, rank, nranks;
    char loom[256];
    tc_ovni_loc tid_at, pid_at, loom_at, app_id_at, rank_at, nranks_at, cpus_at;
    tc_ovni_cpu *cpus;
    size_t ncpus;
    tc_ovni_models models;
    /* ovni.mark (ruling 13): the kind of each type this stream declares
     * (0 none, 1 single, 2 stack) and the declarations; nosv.hwc's counters. */
    uint8_t mark_kind[TC_OVNI_META_MARK_TYPES];
    tc_ovni_mark_decl *marks;
    size_t nmarks;
    tc_ovni_loc marks_at;
    tc_ovni_hwc_name *hwc;
    size_t hwc_counters;
    tc_ovni_loc hwc_at;
} tc_ovni_meta;

/* Reads and checks stream.json from r. Always fills m (what could be read). */
void tc_ovni_meta_read(tc_reader *r, tc_diag_sink *d, tc_ovni_meta *m);
void tc_ovni_meta_free(tc_ovni_meta *m);

/* Reports against a stored location (a finding about the whole trace). */
void tc_ovni_report_at(tc_diag_sink *d, const tc_ovni_loc *at, tc_rule_id rule, const char *fmt,
                       ...) __attribute__((format(printf, 4, 5)));

/* The model letter of a model name, 0 if unknown. */
char tc_ovni_model_letter(const char *name);

/* A hash of text, for comparing declarations across streams. */
uint64_t tc_ovni_text_hash(const char *s, size_t n);

/* A version as libovni's version_parse reads it, in the form ruling 6 asks
 * for: MAJOR.MINOR.PATCH, decimal, each at most INT_MAX, fewer than 64
 * characters. Returns NULL and fills v, or why the text is not one. */
const char *tc_ovni_version_parse(const char *s, size_t n, int64_t v[3]);
/* libovni's version_is_compatible: the same major, a minor no higher. */
int tc_ovni_version_compatible(const int64_t want[3], const int64_t have[3]);
/* Whether the stream may emit events of model letter m; -1: cannot tell. */
int tc_ovni_model_allowed(const tc_ovni_models *models, char m);

#endif
