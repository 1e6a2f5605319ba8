/* A growable byte array; allocation failure aborts (generators only). */
#ifndef TC_BYTEBUF_H
#define TC_BYTEBUF_H

#include <stddef.h>
#include <stdint.h>

typedef struct tc_bytebuf {
    uint8_t *p;
    size_t len, cap;
} tc_bytebuf;

/* Room for n more bytes; returns where they go (len is not changed). */
uint8_t *tc_bb_reserve(tc_bytebuf *b, size_t n);
/* Appends n bytes (zeroed when src is NULL); returns where they went. */
uint8_t *tc_bb_append(tc_bytebuf *b, const void *src, size_t n);
void tc_bb_free(tc_bytebuf *b);

#endif
