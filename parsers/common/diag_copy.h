/*
 * A finding copied out of the callback, for those that keep findings after
 * it returns (tc_result, `validate -j N`): every string and array a tc_diag
 * points to lives only during the call.
 */
#ifndef TC_DIAG_COPY_H
#define TC_DIAG_COPY_H

#include "tracecheck/tracecheck.h"

/* Copies d into *out; everything it points to (its strings, related
 * offsets, named values and their strings) goes into one allocation,
 * returned in *block for free(). Returns 0, or -1 when out of memory (*out
 * and *block are then untouched). */
int tc_diag_copy(tc_diag *out, const tc_diag *d, void **block);

#endif
