/*
 * Scratch copies of a case's input. Some tools write into the trace they read
 * (ovniemu puts its outputs in the trace directory; libovni's readers open
 * stream.obs read-write): they get a copy in a fresh temporary directory, so
 * that the cases are never touched, and the copy goes when the case is done
 * (even when the tool crashed or was killed).
 */
#ifndef TC_CONF_SCRATCH_H
#define TC_CONF_SCRATCH_H

#include "../../parsers/common/error.h"
#include <stddef.h>

/* Makes $TMPDIR/tracecheck-conformance.XXXXXX (/tmp without TMPDIR) and
 * copies src, a file or a directory tree, into it under src's own name.
 * Returns 0 with *dir (the temporary directory) and *copy (the copy's path),
 * or -1 with the reason in err (nothing is left behind). */
int tc_scratch_copy(const char *src, char **dir, char **copy, tc_error *err);

/* Copies from, a file or a directory tree, to the new path to (regular
 * files and directories; anything else, which a case never holds, is left
 * out). 0, or -1 with the reason in err. */
int tc_scratch_copy_tree(const char *from, const char *to, tc_error *err);

/* Removes a tree, whatever the tool left in it (read-only directories too). */
void tc_scratch_remove(const char *path);

#endif
