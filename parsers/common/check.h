/*
 * Running one input through detection and its format's parser: the glue
 * behind tc_validate_file, `tracecheck validate`, `tracecheck dump` and the
 * conformance runner. Every input takes the same path whatever its format:
 * a file, a directory that is one trace, or an input checked against its
 * companion (formats.h).
 */
#ifndef TC_CHECK_H
#define TC_CHECK_H

#include <stdio.h>

#include "diag.h"
#include "formats.h"
#include "input.h"
#include "tracecheck/tracecheck.h"

typedef struct tc_check_opts {
    const tc_options *options;
    tc_input_opts input;
    FILE *dump; /* when set, the canonical dump of the input is written there */
    /* Called now and then with the bytes read so far (progress display), and
     * the input's size when it is known before reading (a plain file or
     * bytes in memory; else 0). */
    void (*progress)(void *user, uint64_t bytes, uint64_t total);
    void *progress_user;
    /* Threads one input may be parsed on (split.h), when its format splits
     * and no dump is asked for; 0 or 1: one. */
    unsigned threads;
    uint64_t split_min; /* the smallest segment a thread takes; 0: the default */
    /* When set, the parser says which bytes it read as which fields
     * (fields.h): the input is then parsed on one thread, on the parser's
     * general path. */
    struct tc_fields *fields;
} tc_check_opts;

/* Validates an opened input. Returns 0, 1 or 2 as tc_validate_file. */
int tc_check_input(tc_input *in, const char *name, const tc_check_opts *c, tc_summary *out,
                   tc_error *err);

/* Opens path and validates it: a file, "-", or a directory that is one
 * trace of a format that has them. */
int tc_check_path(const char *path, const tc_check_opts *c, tc_summary *out, tc_error *err);

/* The format the input at path is, as tc_check_path decides it (c's format
 * when it names one); TC_FORMAT_AUTO when none, or when it cannot be read. */
tc_format tc_detect_path(const char *path, const tc_check_opts *c);

/* ---- companions (formats.h, tc_format_companion) ---- */

/* A companion input, loaded for the inputs checked against it. */
typedef struct tc_companion {
    const tc_format_ops *pairing; /* the format whose companion it is */
    const char *path;
    void *model; /* NULL: not loaded, or too broken to check against */
} tc_companion;

/* The format that pairs the input at path with a companion found by its
 * name (tc_format_companion.find), when the input is of that format (c's
 * format, else as detected): the companion's path in out. NULL when none. */
const tc_format_ops *tc_companion_find(const char *path, const tc_check_opts *c, char *out,
                                       size_t outlen);

/* Checks comp->path as an input of its own of the companion's format
 * (whatever c's format says: by content and name it must be of that format
 * or of none) and keeps its model in comp->model. Returns 0, 1 or 2 as
 * tc_check_path; 2 also when the input is of another format (the reason in
 * err). Every function here that takes an err sets its root cause on status
 * 2 (err may be NULL). */
int tc_companion_load(tc_companion *comp, const tc_check_opts *c, tc_summary *out, tc_error *err);
void tc_companion_free(tc_companion *comp);

/* Checks path as tc_check_path does, with the checks against comp when it
 * is a file of comp->pairing's format and comp has a model; *paired (may
 * be NULL) says whether they ran. */
int tc_check_paired(const char *path, const tc_companion *comp, const tc_check_opts *c,
                    tc_summary *out, int *paired, tc_error *err);

/* The companion at companion, then the input at path against it, as
 * `tracecheck validate --pair COMPANION PATH` does; the summary is left
 * out. Returns the worse status of the two. */
int tc_check_pair(const tc_format_ops *pairing, const char *companion, const char *path,
                  const tc_check_opts *c, tc_error *err);

#endif
