/*
 * Running one input through detection and its format's parser: the glue
 * behind tc_validate_file, `tracecheck validate` and `tracecheck dump`.
 */
#ifndef TC_CHECK_H
#define TC_CHECK_H

#include <stdio.h>

#include "diag.h"
#include "input.h"
#include "tracecheck/tracecheck.h"

typedef struct tc_check_opts {
    const tc_options *options;
    tc_input_opts input;
    FILE *dump; /* when set, the canonical dump of the input is written there */
    /* Called now and then with the bytes read so far (progress display). */
    void (*progress)(void *user, uint64_t bytes);
    void *progress_user;
} tc_check_opts;

/* Validates an opened input. Returns 0, 1 or 2 as tc_validate_file. */
int tc_check_input(tc_input *in, const char *name, const tc_check_opts *c, tc_summary *out,
                   char *err, size_t errlen);

/* Opens path and validates it. */
int tc_check_path(const char *path, const tc_check_opts *c, tc_summary *out, char *err,
                  size_t errlen);

#endif
