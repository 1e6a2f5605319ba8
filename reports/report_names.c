/* The set of input paths seen by a writer, as a small hash table: a
 * directory of traces can hold many thousands of inputs. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report_writers.h"

static size_t hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3u;
    return (size_t)h;
}

static int grow(tc_report_names *t)
{
    size_t n = t->nslots ? t->nslots * 2 : 64;
    size_t *slots = calloc(n, sizeof *slots);
    if (!slots)
        return -1;
    for (size_t i = 0; i < t->count; i++) {
        size_t h = hash(t->names[i]) & (n - 1);
        while (slots[h])
            h = (h + 1) & (n - 1);
        slots[h] = i + 1;
    }
    free(t->slots);
    t->slots = slots;
    t->nslots = n;
    return 0;
}

long tc_report_names_add(tc_report_names *t, const char *name, int *added)
{
    *added = 0;
    if ((t->count + 1) * 2 > t->nslots && grow(t) != 0)
        return -1;
    size_t h = hash(name) & (t->nslots - 1);
    for (; t->slots[h]; h = (h + 1) & (t->nslots - 1))
        if (!strcmp(t->names[t->slots[h] - 1], name))
            return (long)(t->slots[h] - 1);
    if (t->count == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 32;
        char **names = realloc(t->names, cap * sizeof *names);
        if (!names)
            return -1;
        t->names = names;
        t->cap = cap;
    }
    if (!(t->names[t->count] = strdup(name)))
        return -1;
    t->slots[h] = ++t->count;
    *added = 1;
    return (long)(t->count - 1);
}

void tc_report_names_free(tc_report_names *t)
{
    for (size_t i = 0; i < t->count; i++)
        free(t->names[i]);
    free(t->names);
    free(t->slots);
    memset(t, 0, sizeof *t);
}
