#include <stdlib.h>
#include <string.h>

#include "diag_copy.h"
#include "diag_order.h"

typedef struct kept {
    uint64_t key, seq;
    tc_diag d;
    void *block;
} kept;

/* A rule's kept findings: a max-heap on (key, seq), so that the last by
 * order is the one a better finding evicts. */
typedef struct rule_heap {
    kept *v;
    size_t n;
} rule_heap;

struct tc_diag_order {
    tc_diag_sink sink;
    uint64_t key, seq;
    unsigned cap;
    rule_heap rules[TC_RULE__COUNT];
    int oom;
};

static int after(const kept *a, const kept *b)
{
    return a->key != b->key ? a->key > b->key : a->seq > b->seq;
}

static void sift_up(kept *v, size_t i)
{
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!after(&v[i], &v[p]))
            return;
        kept t = v[i];
        v[i] = v[p];
        v[p] = t;
        i = p;
    }
}

static void sift_down(kept *v, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < n && after(&v[l], &v[m]))
            m = l;
        if (l + 1 < n && after(&v[l + 1], &v[m]))
            m = l + 1;
        if (m == i)
            return;
        kept t = v[i];
        v[i] = v[m];
        v[m] = t;
        i = m;
    }
}

/* Whether a finding of rule with the current key would be kept: counted
 * findings beyond the cap are not even formatted. */
static int wants(void *user, tc_rule_id rule)
{
    tc_diag_order *o = user;
    rule_heap *h = &o->rules[rule];
    if (h->n < o->cap)
        return 1;
    kept probe = {.key = o->key, .seq = o->seq};
    return after(&h->v[0], &probe);
}

/* Adds k (owning its block) to its rule's heap, evicting the last. */
static void add(tc_diag_order *o, kept k)
{
    rule_heap *h = &o->rules[k.d.rule - tc_rules];
    if (!h->v && !(h->v = malloc(o->cap * sizeof *h->v))) {
        o->oom = 1;
        free(k.block);
        return;
    }
    if (h->n < o->cap) {
        h->v[h->n] = k;
        sift_up(h->v, h->n++);
    } else if (after(&h->v[0], &k)) {
        free(h->v[0].block);
        h->v[0] = k;
        sift_down(h->v, h->n, 0);
    } else {
        free(k.block);
    }
}

static void keep(void *user, const tc_diag *d)
{
    tc_diag_order *o = user;
    kept k = {.key = o->key, .seq = o->seq++};
    if (tc_diag_copy(&k.d, d, &k.block) != 0) {
        o->oom = 1;
        return;
    }
    add(o, k);
}

tc_diag_order *tc_diag_order_new(const tc_diag_sink *like)
{
    tc_diag_order *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->cap = like->max_repeats ? like->max_repeats : TC_DEFAULT_MAX_REPEATS;
    tc_diag_init(&o->sink, like->input, o->cap, like->pedantic, keep, o);
    o->sink.wants = wants;
    return o;
}

void tc_diag_order_free(tc_diag_order *o)
{
    if (!o)
        return;
    for (int r = 0; r < TC_RULE__COUNT; r++) {
        for (size_t i = 0; i < o->rules[r].n; i++)
            free(o->rules[r].v[i].block);
        free(o->rules[r].v);
    }
    free(o);
}

tc_diag_sink *tc_diag_order_sink(tc_diag_order *o) { return &o->sink; }

void tc_diag_order_key(tc_diag_order *o, uint64_t key)
{
    o->key = key;
}

void tc_diag_order_merge(tc_diag_order *o, tc_diag_order *from)
{
    uint64_t none[TC_RULE__COUNT] = {0};
    tc_diag_absorb(&o->sink, &from->sink, none);
    for (int r = 0; r < TC_RULE__COUNT; r++) {
        rule_heap *h = &from->rules[r];
        for (size_t i = 0; i < h->n; i++)
            add(o, h->v[i]);
        h->n = 0;
    }
    o->oom |= from->oom;
    tc_diag_order_free(from);
}

static int by_order(const void *a, const void *b)
{
    const kept *x = *(kept *const *)a, *y = *(kept *const *)b;
    return after(x, y) - after(y, x);
}

void tc_diag_order_replay(tc_diag_order *o, tc_diag_sink *to)
{
    size_t n = 0;
    for (int r = 0; r < TC_RULE__COUNT; r++)
        n += o->rules[r].n;
    kept **all = malloc((n ? n : 1) * sizeof *all);
    uint64_t replayed[TC_RULE__COUNT] = {0};
    if (!all) {
        o->oom = 1;
    } else {
        size_t k = 0;
        for (int r = 0; r < TC_RULE__COUNT; r++)
            for (size_t i = 0; i < o->rules[r].n; i++)
                all[k++] = &o->rules[r].v[i];
        qsort(all, n, sizeof *all, by_order);
        for (size_t i = 0; i < n; i++) {
            replayed[all[i]->d.rule - tc_rules]++;
            tc_diag_replay(to, &all[i]->d);
        }
        free(all);
    }
    tc_diag_absorb(to, &o->sink, replayed);
    if (o->oom)
        tc_diag_fail(to, "out of memory for the findings of the input");
    for (int r = 0; r < TC_RULE__COUNT; r++) {
        for (size_t i = 0; i < o->rules[r].n; i++)
            free(o->rules[r].v[i].block);
        o->rules[r].n = 0;
    }
    /* Counted and replayed: o starts again from nothing. */
    tc_diag_init(&o->sink, o->sink.input, o->cap, o->sink.pedantic, keep, o);
    o->sink.wants = wants;
}
