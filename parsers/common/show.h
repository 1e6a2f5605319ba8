/*
 * The bytes behind a finding, drawn by the format's own parser (fields.h):
 * the records around an offset or a record number, each field with its
 * name, its bytes (hex for binary formats, line and columns for text) and
 * its decoded value. `tracecheck show` prints one view, `validate --show`
 * one under each finding.
 */
#ifndef TC_SHOW_H
#define TC_SHOW_H

#include <stddef.h>
#include <stdint.h>

#include "check.h"
#include "error.h"

/* Records shown before and after the records asked for, by default. */
#define TC_SHOW_CONTEXT 1

/* What one view is of: the record that holds an offset (or the records
 * that hold [at, at + len)), or a record by its number. */
typedef struct tc_show_target {
    int by_record; /* 1: record is a record number; 0: at and len are bytes */
    uint64_t at, len, record;
    char *view; /* out: the view (malloc'd text, lines ending in \n), or NULL */
} tc_show_target;

/* Draws the views of targets in the input at path (a file, or a directory
 * that is one trace), parsed as c says (format, options); file names the
 * file of a directory trace the targets are in (NULL: path itself).
 * context records are shown on each side. Returns 0, or 2 with the reason
 * in err when the input cannot be read. A target with no record (an empty
 * input, a record number past the last) gets a view that says so. */
int tc_show(const char *path, const char *file, const tc_check_opts *c, unsigned context,
            tc_show_target *targets, size_t n, tc_error *err);

#endif
