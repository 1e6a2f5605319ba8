/* Allocation for the generators: they build what they were asked to build or
 * stop, so running out of memory ends the program with a message. (The
 * parsers never do this: they report and carry on.) */
#ifndef TC_GEN_XALLOC_H
#define TC_GEN_XALLOC_H

#include <stddef.h>

void *tc_gen_xmalloc(size_t n);
void *tc_gen_xcalloc(size_t n, size_t size);

#endif
