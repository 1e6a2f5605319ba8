/* The harness kit's comparisons of findings: two runs against each other,
 * and a run against what an oracle expects (harness.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* ---- comparisons of two runs ---- */

static int str_eq(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

int hx_finding_eq(const hx_finding *a, const hx_finding *b)
{
    return a->rule == b->rule && a->severity == b->severity && a->offset == b->offset &&
           a->length == b->length && a->line == b->line && a->column == b->column &&
           a->unlocated == b->unlocated && str_eq(a->path, b->path) &&
           str_eq(a->message, b->message) && str_eq(a->context, b->context);
}

long hx_first_difference(const hx_findings *a, const hx_findings *b)
{
    size_t n = a->n < b->n ? a->n : b->n;
    for (size_t i = 0; i < n; i++)
        if (!hx_finding_eq(&a->v[i], &b->v[i]))
            return (long)i;
    return a->n == b->n ? -1 : (long)n;
}

void hx_print_finding(FILE *f, const char *label, const hx_finding *d)
{
    fprintf(f, "  %s: %s at %" PRIu64 "+%" PRIu64, label, tc_rules[d->rule].id, d->offset,
            d->length);
    if (d->line || d->path)
        fprintf(f, " (%" PRIu32 ":%" PRIu32 " %s)", d->line, d->column, d->path ? d->path : "-");
    fprintf(f, "%s: %s%s%s\n", d->unlocated ? " (unlocated)" : "",
            d->message ? d->message : "(no message)", d->context ? " -- " : "",
            d->context ? d->context : "");
}

void hx_print_difference(FILE *f, const hx_findings *a, const char *la, const hx_findings *b,
                         const char *lb, long from)
{
    fprintf(f, "findings differ from #%ld (%s has %zu, %s has %zu):\n", from, la, a->n, lb,
            b->n);
    for (size_t i = (size_t)from; i < (size_t)from + 3; i++) {
        if (i < a->n)
            hx_print_finding(f, la, &a->v[i]);
        if (i < b->n)
            hx_print_finding(f, lb, &b->v[i]);
    }
}

void hx_assert_same(const hx_findings *a, const char *la, const hx_findings *b, const char *lb)
{
    long d = hx_first_difference(a, b);
    if (d >= 0) {
        hx_print_difference(stderr, a, la, b, lb, d);
        FUZZ_FAIL("%s and %s report differently", la, lb);
    }
    FUZZ_ASSERT_MSG(a->errors == b->errors && a->warnings == b->warnings && a->notes == b->notes,
                    "%s and %s: counters %" PRIu64 "/%" PRIu64 "/%" PRIu64 " vs %" PRIu64
                    "/%" PRIu64 "/%" PRIu64, la, lb, a->errors, a->warnings, a->notes,
                    b->errors, b->warnings, b->notes);
}

int hx_pedantic_rule(tc_rule_id r) { return (tc_rules[r].flags & TC_RF_PEDANTIC) != 0; }

void hx_assert_without(const hx_findings *all, const hx_findings *some, const char *what,
                       int (*dropped)(tc_rule_id))
{
    size_t j = 0;
    uint64_t sev[3] = {0};
    for (size_t i = 0; i < all->n; i++) {
        const hx_finding *d = &all->v[i];
        if (dropped(d->rule)) {
            sev[d->severity]++;
            continue;
        }
        if (j < some->n && hx_finding_eq(d, &some->v[j])) {
            j++;
            continue;
        }
        hx_print_finding(stderr, "expected", d);
        if (j < some->n)
            hx_print_finding(stderr, what, &some->v[j]);
        FUZZ_FAIL("%s: finding %zu is not %s at %" PRIu64, what, j, tc_rules[d->rule].id,
                  d->offset);
    }
    FUZZ_ASSERT_MSG(j == some->n, "%s: %zu findings more than expected", what, some->n - j);
    FUZZ_ASSERT_MSG(some->errors + sev[TC_ERROR] == all->errors &&
                        some->warnings + sev[TC_WARNING] == all->warnings &&
                        some->notes + sev[TC_NOTE] == all->notes,
                    "%s: the counters do not add up", what);
}

void hx_assert_capped(const hx_findings *all, const hx_findings *capped, unsigned cap)
{
    uint64_t seen[TC_RULE__COUNT] = {0};
    size_t j = 0;
    for (size_t i = 0; i < all->n; i++) {
        const hx_finding *d = &all->v[i];
        if (++seen[d->rule] > cap)
            continue;
        FUZZ_ASSERT_MSG(j < capped->n && hx_finding_eq(&capped->v[j], d),
                        "with the repeat cap, finding %zu is not %s at %" PRIu64, j,
                        tc_rules[d->rule].id, d->offset);
        j++;
    }
    for (int r = 0; r < TC_RULE__COUNT; r++) {
        if (seen[r] <= cap)
            continue;
        const hx_finding *s = j < capped->n ? &capped->v[j] : NULL;
        FUZZ_ASSERT_MSG(s && s->rule == TC_RULE_DIAG_SUPPRESSED && s->unlocated &&
                            strstr(s->message, tc_rules[r].id),
                        "no suppression note for %s (%" PRIu64 " findings)", tc_rules[r].id,
                        seen[r]);
        j++;
    }
    FUZZ_ASSERT_MSG(j == capped->n, "the capped run has %zu findings, expected %zu", capped->n, j);
    FUZZ_ASSERT_MSG(capped->errors == all->errors && capped->warnings == all->warnings &&
                        capped->notes == all->notes,
                    "the repeat cap changes the counters");
}

/* ---- what an oracle expects ---- */

void hx_expect_add_at(hx_expect *x, const hx_want *w)
{
    if (x->n == x->cap) {
        x->cap = x->cap ? 2 * x->cap : 32;
        x->v = realloc(x->v, x->cap * sizeof *x->v);
        FUZZ_CHECK_ALLOC(x->v);
    }
    x->v[x->n++] = *w;
}

void hx_expect_add(hx_expect *x, tc_rule_id rule, uint64_t offset, uint64_t length)
{
    const hx_want w = {rule, offset, length, 0, 0};
    hx_expect_add_at(x, &w);
}

void hx_expect_free(hx_expect *x)
{
    free(x->v);
    memset(x, 0, sizeof *x);
}

int hx_every_rule(tc_rule_id r)
{
    (void)r;
    return 1;
}

static int want_eq(const hx_finding *d, const hx_want *w, unsigned cmp)
{
    return d->rule == w->rule && d->offset == w->offset &&
           (!(cmp & HX_CMP_LENGTH) || d->length == w->length) &&
           (!(cmp & HX_CMP_LINE) || (d->line == w->line && d->unlocated == w->unlocated));
}

void hx_assert_expected(const hx_findings *f, const hx_expect *x, int (*judged)(tc_rule_id),
                        unsigned cmp, const char *what)
{
    static uint64_t seen[TC_RULE__COUNT], total[TC_RULE__COUNT];
    memset(seen, 0, sizeof seen);
    memset(total, 0, sizeof total);
    size_t j = 0;
    for (size_t i = 0; i < f->n; i++) {
        const hx_finding *d = &f->v[i];
        if (d->rule == TC_RULE_DIAG_SUPPRESSED || !judged(d->rule))
            continue;
        /* The next expected finding still under the cap. */
        while (j < x->n && (!judged(x->v[j].rule) || seen[x->v[j].rule] >= f->max_repeats)) {
            if (judged(x->v[j].rule))
                total[x->v[j].rule]++;
            j++;
        }
        if (j < x->n && want_eq(d, &x->v[j], cmp)) {
            seen[d->rule]++;
            total[d->rule]++;
            j++;
            continue;
        }
        hx_print_finding(stderr, "parser", d);
        if (j < x->n)
            fprintf(stderr, "  expected: %s at %" PRIu64 "+%" PRIu64 " line %" PRIu32 "\n",
                    tc_rules[x->v[j].rule].id, x->v[j].offset, x->v[j].length, x->v[j].line);
        else
            fprintf(stderr, "  expected: no more findings\n");
        FUZZ_FAIL("%s: finding %zu is not the one expected", what, i);
    }
    for (; j < x->n; j++) {
        const hx_want *w = &x->v[j];
        if (!judged(w->rule))
            continue;
        FUZZ_ASSERT_MSG(seen[w->rule] >= f->max_repeats,
                        "%s: %s at %" PRIu64 "+%" PRIu64 " was not reported", what,
                        tc_rules[w->rule].id, w->offset, w->length);
        total[w->rule]++;
    }
    for (int r = 0; r < TC_RULE__COUNT; r++)
        if (r != TC_RULE_DIAG_SUPPRESSED && judged((tc_rule_id)r))
            FUZZ_ASSERT_MSG(f->count[r] == total[r], "%s: %s reported %" PRIu64 " times, %" PRIu64
                            " expected", what, tc_rules[r].id, f->count[r], total[r]);
}
