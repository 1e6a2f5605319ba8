#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>

static void *checked(void *p)
{
    if (!p) {
        fputs("tracecheck: out of memory\n", stderr);
        abort();
    }
    return p;
}

void *tc_gen_xmalloc(size_t n) { return checked(malloc(n ? n : 1)); }

void *tc_gen_xcalloc(size_t n, size_t size) { return checked(calloc(n ? n : 1, size ? size : 1)); }
