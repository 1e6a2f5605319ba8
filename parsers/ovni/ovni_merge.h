/* The merge of a loom's streams by clock, as ovniemu's player takes them
 * (src/emu/player.c): the lowest clock first, ties by the streams' path
 * order. A stream in the merge starts with a tc_ovni_head: its next event
 * and its place in path order; the heap holds pointers to those heads. */
#ifndef TC_OVNI_MERGE_H
#define TC_OVNI_MERGE_H

#include <stddef.h>

#include "ovni.h"

typedef struct tc_ovni_head {
    tc_ovni_event ev; /* the stream's next event */
    size_t index;     /* the stream's place in path order */
} tc_ovni_head;

/* Whether a comes before b in the merge. */
static inline int tc_ovni_before(const tc_ovni_head *a, const tc_ovni_head *b)
{
    if (a->ev.clock != b->ev.clock)
        return a->ev.clock < b->ev.clock;
    return a->index < b->index;
}

/* Restores the heap order of the n heads at h below place i. */
static inline void tc_ovni_sift_down(tc_ovni_head **h, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < n && tc_ovni_before(h[l], h[m]))
            m = l;
        if (l + 1 < n && tc_ovni_before(h[l + 1], h[m]))
            m = l + 1;
        if (m == i)
            return;
        tc_ovni_head *t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

/* Orders n heads as a heap. */
static inline void tc_ovni_heapify(tc_ovni_head **h, size_t n)
{
    for (size_t i = n / 2; i-- > 0;)
        tc_ovni_sift_down(h, n, i);
}

#endif
