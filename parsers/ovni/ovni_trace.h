/* Whole ovni traces: the streams of a directory, each checked, then the
 * checks across streams (ruling 7). */
#ifndef TC_OVNI_TRACE_H
#define TC_OVNI_TRACE_H

#include <stdio.h>

#include "../common/diag.h"
#include "../common/input.h"
#include "ovni.h"

typedef struct tc_ovni_opts {
    int no_models;         /* skip the model layer */
    tc_input_opts input;   /* how stream files are read */
    FILE *dump;            /* when set: the canonical dump of the trace */
    unsigned threads;      /* streams checked at once (split.h); 0 or 1: one */
} tc_ovni_opts;

/* Checks the trace in dir. Findings carry the path of the file they are
 * about (the sink's input is set per file). Returns the bytes read, or
 * (uint64_t)-1 with err set when the directory cannot be read. */
uint64_t tc_ovni_check_trace(const char *dir, tc_diag_sink *d, const tc_ovni_opts *o,
                             tc_error *err);

/* Whether dir holds a stream.json anywhere below (to depth 16). */
int tc_ovni_is_trace_dir(const char *dir);

/* Whether dir has libovni's layout: it is named "ovni" or holds loom.*
 * directories. Such a directory is a trace even with no stream in it. */
int tc_ovni_has_layout(const char *dir);

#endif
