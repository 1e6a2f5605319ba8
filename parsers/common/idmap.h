/*
 * A map from 32-bit ids to pointers: open addressing with linear probing
 * and backward-shift deletion (no tombstones), so that memory follows the
 * entries alive, not those ever added.
 */
#ifndef TC_IDMAP_H
#define TC_IDMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct tc_idmap {
    uint32_t *keys;
    void **values; /* NULL: the slot is free */
    size_t mask;   /* capacity - 1; 0 before the first insertion */
    size_t n;
} tc_idmap;

void tc_idmap_free(tc_idmap *m);
void *tc_idmap_get(const tc_idmap *m, uint32_t key);
/* Adds or replaces (value not NULL). Returns 0, or -1 when out of memory. */
int tc_idmap_put(tc_idmap *m, uint32_t key, void *value);
/* Removes key; returns its value, or NULL when it had none. */
void *tc_idmap_remove(tc_idmap *m, uint32_t key);
/* Calls fn for every value (in no particular order). */
void tc_idmap_each(const tc_idmap *m, void (*fn)(void *value, void *user), void *user);

#endif
