/*
 * A set of 32-bit ids as sorted, disjoint ranges: ids given out in order
 * (task ids, body ids) take one range however many there are, so memory
 * follows the gaps between them rather than their number. Past a limit of
 * ranges the set stops growing and says so (tc_idset_full): it then holds
 * fewer ids than were added, never more.
 */
#ifndef TC_IDSET_H
#define TC_IDSET_H

#include <stddef.h>
#include <stdint.h>

typedef struct tc_idset {
    uint32_t *lo, *hi; /* range i is [lo[i], hi[i]] */
    size_t n, cap;
    size_t limit;      /* most ranges kept; 0: TC_IDSET_DEFAULT_LIMIT */
    int full;          /* an id was not added: the limit, or out of memory */
} tc_idset;

#define TC_IDSET_DEFAULT_LIMIT (1u << 20)

void tc_idset_free(tc_idset *s);
int tc_idset_has(const tc_idset *s, uint32_t id);
void tc_idset_add(tc_idset *s, uint32_t id);
void tc_idset_remove(tc_idset *s, uint32_t id);

#endif
