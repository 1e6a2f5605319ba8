#include <stdlib.h>
#include <string.h>

#include "idset.h"

void tc_idset_free(tc_idset *s)
{
    free(s->lo);
    free(s->hi);
    s->lo = s->hi = NULL;
    s->n = s->cap = 0;
}

/* The first range whose hi is >= id (n when none). */
static size_t find(const tc_idset *s, uint32_t id)
{
    size_t a = 0, b = s->n;
    /* The common case: ids arrive in order, at the last range. */
    if (b && s->hi[b - 1] < id)
        return b;
    while (a < b) {
        size_t m = a + (b - a) / 2;
        if (s->hi[m] < id)
            a = m + 1;
        else
            b = m;
    }
    return a;
}

int tc_idset_has(const tc_idset *s, uint32_t id)
{
    size_t i = find(s, id);
    return i < s->n && s->lo[i] <= id;
}

static int insert_at(tc_idset *s, size_t i, uint32_t id)
{
    size_t limit = s->limit ? s->limit : TC_IDSET_DEFAULT_LIMIT;
    if (s->n >= limit) {
        s->full = 1;
        return -1;
    }
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 8;
        uint32_t *lo = realloc(s->lo, cap * sizeof *lo);
        if (lo)
            s->lo = lo;
        uint32_t *hi = lo ? realloc(s->hi, cap * sizeof *hi) : NULL;
        if (!hi) {
            s->full = 1;
            return -1;
        }
        s->hi = hi;
        s->cap = cap;
    }
    memmove(s->lo + i + 1, s->lo + i, (s->n - i) * sizeof *s->lo);
    memmove(s->hi + i + 1, s->hi + i, (s->n - i) * sizeof *s->hi);
    s->lo[i] = s->hi[i] = id;
    s->n++;
    return 0;
}

static void erase_at(tc_idset *s, size_t i)
{
    memmove(s->lo + i, s->lo + i + 1, (s->n - i - 1) * sizeof *s->lo);
    memmove(s->hi + i, s->hi + i + 1, (s->n - i - 1) * sizeof *s->hi);
    s->n--;
}

void tc_idset_add(tc_idset *s, uint32_t id)
{
    size_t i = find(s, id);
    if (i < s->n && s->lo[i] <= id)
        return;
    /* Joins the range before (it ends at id - 1), the one at i (it starts
     * at id + 1), or both. */
    int before = i > 0 && s->hi[i - 1] == id - 1;
    int after = i < s->n && id != UINT32_MAX && s->lo[i] == id + 1;
    if (before && after) {
        s->hi[i - 1] = s->hi[i];
        erase_at(s, i);
    } else if (before) {
        s->hi[i - 1] = id;
    } else if (after) {
        s->lo[i] = id;
    } else {
        insert_at(s, i, id);
    }
}

void tc_idset_remove(tc_idset *s, uint32_t id)
{
    size_t i = find(s, id);
    if (i >= s->n || s->lo[i] > id)
        return;
    if (s->lo[i] == s->hi[i]) {
        erase_at(s, i);
    } else if (s->lo[i] == id) {
        s->lo[i]++;
    } else if (s->hi[i] == id) {
        s->hi[i]--;
    } else {
        /* Split [lo, hi] into [lo, id-1] and [id+1, hi]. */
        uint32_t hi = s->hi[i];
        s->hi[i] = id - 1;
        if (insert_at(s, i + 1, id + 1) == 0)
            s->hi[i + 1] = hi;
    }
}
