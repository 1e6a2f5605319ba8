/* One allocation per finding kept: its arrays first (they need the
 * alignment malloc gives), then its strings. */
#include <stdlib.h>
#include <string.h>

#include "diag_copy.h"

static size_t str_size(const char *s)
{
    return s ? strlen(s) + 1 : 0;
}

static const char *put(char **p, const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    memcpy(*p, s, n);
    const char *copy = *p;
    *p += n;
    return copy;
}

int tc_diag_copy(tc_diag *out, const tc_diag *d, void **block)
{
    size_t n_related = d->related ? d->n_related : 0;
    size_t n_values = d->values ? d->n_values : 0;
    size_t arrays = n_related * sizeof *d->related + n_values * sizeof *d->values;
    size_t size = arrays + str_size(d->input) + str_size(d->json_path) + str_size(d->message) +
                  str_size(d->context) + str_size(d->view);
    for (size_t i = 0; i < n_values; i++)
        size += str_size(d->values[i].name) + str_size(d->values[i].s);
    char *b = malloc(size ? size : 1);
    if (!b)
        return -1;
    tc_diag c = *d;
    uint64_t *related = (uint64_t *)(void *)b;
    tc_diag_value *values = (tc_diag_value *)(void *)(b + n_related * sizeof *d->related);
    char *p = b + arrays;
    if (n_related)
        memcpy(related, d->related, n_related * sizeof *related);
    c.related = n_related ? related : NULL;
    c.n_related = n_related;
    for (size_t i = 0; i < n_values; i++) {
        values[i] = d->values[i];
        values[i].name = put(&p, d->values[i].name);
        values[i].s = put(&p, d->values[i].s);
    }
    c.values = n_values ? values : NULL;
    c.n_values = n_values;
    c.input = put(&p, d->input);
    c.json_path = put(&p, d->json_path);
    c.message = put(&p, d->message);
    c.context = put(&p, d->context);
    c.view = put(&p, d->view);
    *out = c;
    *block = b;
    return 0;
}
