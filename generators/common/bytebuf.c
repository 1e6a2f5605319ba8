#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytebuf.h"

uint8_t *tc_bb_reserve(tc_bytebuf *b, size_t n)
{
    /* An empty buffer gets memory even for n == 0: the pointer returned must
     * not be NULL + 0, which is undefined behaviour. */
    if (b->cap - b->len < n || !b->p) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap - b->len < n)
            cap *= 2;
        uint8_t *p = realloc(b->p, cap);
        if (!p) {
            fputs("tracecheck: out of memory\n", stderr);
            abort();
        }
        b->p = p;
        b->cap = cap;
    }
    return b->p + b->len;
}

uint8_t *tc_bb_append(tc_bytebuf *b, const void *src, size_t n)
{
    uint8_t *dst = tc_bb_reserve(b, n);
    if (n) {
        if (src)
            memcpy(dst, src, n);
        else
            memset(dst, 0, n);
    }
    b->len += n;
    return dst;
}

void tc_bb_free(tc_bytebuf *b)
{
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}
