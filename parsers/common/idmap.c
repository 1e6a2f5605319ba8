#include <stdlib.h>

#include "idmap.h"

/* Ids are often consecutive: a multiplicative hash spreads them. */
static size_t slot_of(uint32_t key, size_t mask)
{
    return (size_t)((key * 2654435761u) ^ (key >> 16)) & mask;
}

void tc_idmap_free(tc_idmap *m)
{
    free(m->keys);
    free(m->values);
    m->keys = NULL;
    m->values = NULL;
    m->mask = m->n = 0;
}

void *tc_idmap_get(const tc_idmap *m, uint32_t key)
{
    if (!m->n)
        return NULL;
    for (size_t i = slot_of(key, m->mask);; i = (i + 1) & m->mask) {
        if (!m->values[i])
            return NULL;
        if (m->keys[i] == key)
            return m->values[i];
    }
}

static int grow(tc_idmap *m)
{
    size_t cap = m->mask ? (m->mask + 1) * 2 : 16;
    uint32_t *keys = malloc(cap * sizeof *keys);
    void **values = calloc(cap, sizeof *values);
    if (!keys || !values) {
        free(keys);
        free(values);
        return -1;
    }
    for (size_t j = 0; m->mask && j <= m->mask; j++) {
        if (!m->values[j])
            continue;
        size_t i = slot_of(m->keys[j], cap - 1);
        while (values[i])
            i = (i + 1) & (cap - 1);
        keys[i] = m->keys[j];
        values[i] = m->values[j];
    }
    free(m->keys);
    free(m->values);
    m->keys = keys;
    m->values = values;
    m->mask = cap - 1;
    return 0;
}

int tc_idmap_put(tc_idmap *m, uint32_t key, void *value)
{
    /* At most half full: probes stay short. */
    if ((m->n + 1) * 2 > (m->mask ? m->mask + 1 : 0) && grow(m) != 0)
        return -1;
    size_t i = slot_of(key, m->mask);
    while (m->values[i] && m->keys[i] != key)
        i = (i + 1) & m->mask;
    if (!m->values[i])
        m->n++;
    m->keys[i] = key;
    m->values[i] = value;
    return 0;
}

void *tc_idmap_remove(tc_idmap *m, uint32_t key)
{
    if (!m->n)
        return NULL;
    size_t i = slot_of(key, m->mask);
    while (m->values[i] && m->keys[i] != key)
        i = (i + 1) & m->mask;
    void *value = m->values[i];
    if (!value)
        return NULL;
    /* Backward shift: move later entries of the run into the hole when
     * their home slot is not between the hole and them. */
    size_t hole = i;
    for (size_t j = (i + 1) & m->mask; m->values[j]; j = (j + 1) & m->mask) {
        size_t home = slot_of(m->keys[j], m->mask);
        int keep = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
        if (keep)
            continue;
        m->keys[hole] = m->keys[j];
        m->values[hole] = m->values[j];
        hole = j;
    }
    m->values[hole] = NULL;
    m->n--;
    return value;
}

void tc_idmap_each(const tc_idmap *m, void (*fn)(void *value, void *user), void *user)
{
    for (size_t i = 0; m->n && i <= m->mask; i++)
        if (m->values[i])
            fn(m->values[i], user);
}
