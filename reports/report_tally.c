/* The per-rule summary of a run (docs/reports.md, "Per-rule summary"): for
 * each rule, how many inputs broke it, how many findings it had, and where
 * the first few are, so that the author of a tracer sees at a glance which
 * rules their traces break. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

int tc_rule_tally_init(tc_rule_tally *t)
{
    size_t n = tc_rule_count();
    t->input = 0;
    t->stats = calloc(n ? n : 1, sizeof *t->stats);
    if (!t->stats)
        return -1;
    for (size_t i = 0; i < n; i++)
        t->stats[i].rule = tc_rule_at(i);
    return 0;
}

void tc_rule_tally_next_input(tc_rule_tally *t) { t->input++; }

void tc_report_location(const tc_diag *d, char *buf, size_t size)
{
    if (d->unlocated)
        snprintf(buf, size, "%s", d->input);
    else if (d->line)
        snprintf(buf, size, "%s:%" PRIu32 ":%" PRIu32, d->input, d->line, d->column);
    else
        snprintf(buf, size, "%s:%" PRIu64, d->input, d->offset);
}

static tc_rule_stat *stat_of(tc_rule_tally *t, const tc_rule_info *r)
{
    size_t n = tc_rule_count();
    const tc_rule_info *first = tc_rule_at(0);
    /* The catalogue is one array; a pointer from elsewhere is looked up. */
    if (r >= first && r < first + n)
        return &t->stats[r - first];
    for (size_t i = 0; r && i < n; i++)
        if (!strcmp(t->stats[i].rule->id, r->id))
            return &t->stats[i];
    return NULL;
}

void tc_rule_tally_diag(tc_rule_tally *t, const tc_diag *d)
{
    if (!t->stats || !d->rule)
        return;
    if (d->summarises || !strcmp(d->rule->id, "TC-DIAG-SUPPRESSED")) {
        /* Not a property of the trace but of the report: the findings it
         * stands for are added to their rule. */
        tc_rule_stat *s = d->summarises ? stat_of(t, d->summarises) : NULL;
        if (s)
            s->findings += d->suppressed;
        return;
    }
    tc_rule_stat *s = stat_of(t, d->rule);
    if (!s)
        return;
    s->findings++;
    if (s->last_input != t->input) {
        s->last_input = t->input;
        s->files++;
    }
    if (s->nloc < TC_TALLY_LOCATIONS) {
        char loc[4200];
        tc_report_location(d, loc, sizeof loc);
        if ((s->loc[s->nloc] = strdup(loc)) != NULL)
            s->nloc++;
    }
}

static int by_weight(const void *a, const void *b)
{
    const tc_rule_stat *x = *(const tc_rule_stat *const *)a, *y = *(const tc_rule_stat *const *)b;
    if (x->rule->severity != y->rule->severity)
        return x->rule->severity > y->rule->severity ? -1 : 1;
    if (x->findings != y->findings)
        return x->findings > y->findings ? -1 : 1;
    return strcmp(x->rule->id, y->rule->id);
}

const tc_rule_stat **tc_rule_tally_sorted(const tc_rule_tally *t, size_t *n)
{
    size_t count = tc_rule_count(), k = 0;
    *n = 0;
    if (!t || !t->stats)
        return NULL;
    const tc_rule_stat **v = malloc((count ? count : 1) * sizeof *v);
    if (!v)
        return NULL;
    for (size_t i = 0; i < count; i++)
        if (t->stats[i].findings)
            v[k++] = &t->stats[i];
    if (!k) {
        free(v);
        return NULL;
    }
    qsort(v, k, sizeof *v, by_weight);
    *n = k;
    return v;
}

void tc_rule_tally_free(tc_rule_tally *t)
{
    size_t n = tc_rule_count();
    for (size_t i = 0; t->stats && i < n; i++)
        for (size_t j = 0; j < t->stats[i].nloc; j++)
            free(t->stats[i].loc[j]);
    free(t->stats);
    t->stats = NULL;
}
