/* The transition table: rows, ruling 10's checks, and code lookup. */
#include <stdlib.h>
#include <string.h>

#include "dcfg_common.h"
#include "dtrc_table.h"

void tc_dtrc_table_init(tc_dtrc_table *t) { memset(t, 0, sizeof *t); }

void tc_dtrc_table_free(tc_dtrc_table *t)
{
    free(t->rows);
    free(t->ids);
    free(t->codes);
    free(t->entries);
    free(t->hash);
    memset(t, 0, sizeof *t);
}

void tc_dtrc_table_reset(tc_dtrc_table *t)
{
    t->nrows = t->nids = t->nentries = 0;
    free(t->codes);
    free(t->entries);
    free(t->hash);
    t->codes = NULL;
    t->entries = NULL;
    t->hash = NULL;
    t->hmask = 0;
    t->maxlen = 0;
    t->maxnext = 0;
    t->has_empty = 0;
}

int tc_dtrc_parse_code(const char *s, size_t n, uint32_t *pad, uint8_t *len)
{
    if (n > 32)
        return 0;
    uint32_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '0' && s[i] != '1')
            return 0;
        v |= (uint32_t)(s[i] - '0') << (31 - i);
    }
    *pad = v;
    *len = (uint8_t)n;
    return 1;
}

void tc_dtrc_code_str(uint32_t pad, unsigned len, char *buf)
{
    for (unsigned i = 0; i < len && i < 32; i++)
        buf[i] = (char)('0' + ((pad >> (31 - i)) & 1));
    buf[len < 32 ? len : 32] = '\0';
}

int tc_dtrc_table_add(tc_dtrc_table *t, uint32_t edge, uint32_t pad, uint8_t len,
                      const uint32_t *next, size_t nnext, uint32_t row)
{
    if (nnext > UINT32_MAX - t->nids ||
        !tc_dcfg_grow((void **)&t->rows, &t->caprows, t->nrows + 1, sizeof *t->rows) ||
        !tc_dcfg_grow((void **)&t->ids, &t->capids, t->nids + nnext, sizeof *t->ids))
        return 0;
    t->rows[t->nrows++] = (tc_dtrc_row){edge, pad, len, (uint32_t)t->nids, (uint32_t)nnext, row, 0};
    if (nnext)
        memcpy(t->ids + t->nids, next, nnext * sizeof *next);
    t->nids += nnext;
    return 1;
}

static int row_cmp(const void *a, const void *b)
{
    const tc_dtrc_row *x = a, *y = b;
    if (x->edge != y->edge)
        return x->edge < y->edge ? -1 : 1;
    if (x->pad != y->pad)
        return x->pad < y->pad ? -1 : 1;
    if (x->len != y->len)
        return x->len < y->len ? -1 : 1;
    return (x->row > y->row) - (x->row < y->row);
}

/* Whether a (len bits) is a prefix of b. */
static int is_prefix(const tc_dtrc_row *a, const tc_dtrc_row *b)
{
    if (a->len == 0)
        return 1;
    uint32_t mask = a->len == 32 ? UINT32_MAX : ~(UINT32_MAX >> a->len);
    return (a->pad & mask) == (b->pad & mask);
}

static uint32_t hash32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

int tc_dtrc_table_finish(tc_dtrc_table *t,
                         void (*problem)(void *user, int kind, const tc_dtrc_row *row,
                                         const tc_dtrc_row *other),
                         void *user)
{
    if (t->nrows)
        qsort(t->rows, t->nrows, sizeof *t->rows, row_cmp);
    /* Checks per edge; rows in conflict are reported and dropped. The row
     * at fault is the later one in the table, which the author will look
     * at second. */
    for (size_t lo = 0; lo < t->nrows;) {
        size_t hi = lo;
        while (hi < t->nrows && t->rows[hi].edge == t->rows[lo].edge)
            hi++;
        long empty = -1;
        for (size_t i = lo; i < hi; i++)
            if (t->rows[i].len == 0 && empty < 0)
                empty = (long)i;
        if (empty >= 0 && hi - lo > 1) {
            /* The empty code must be the edge's only code: its other rows are
             * what is wrong, whichever came first. */
            for (size_t i = lo; i < hi; i++)
                if ((long)i != empty) {
                    t->rows[i].dropped = 1;
                    if (problem)
                        problem(user, TC_DTRC_T_EMPTY, &t->rows[i], &t->rows[empty]);
                }
        } else {
            size_t keep = lo; /* the last row kept, to compare the next one with */
            for (size_t i = lo + 1; i < hi; i++) {
                tc_dtrc_row *a = &t->rows[keep], *b = &t->rows[i];
                int kind = a->pad == b->pad ? TC_DTRC_T_DUPLICATE
                           : is_prefix(a, b)  ? TC_DTRC_T_PREFIX
                                              : 0;
                if (!kind) {
                    keep = i;
                    continue;
                }
                tc_dtrc_row *fault = a->row > b->row ? a : b, *other = fault == a ? b : a;
                if (kind == TC_DTRC_T_PREFIX)
                    fault = b, other = a; /* the longer code is the unreachable one */
                fault->dropped = 1;
                if (problem)
                    problem(user, kind, fault, other);
                if (fault == a)
                    keep = i;
            }
        }
        lo = hi;
    }
    /* The decoding structure from the rows kept. */
    /* Entries are counted against the last row kept, not the row before:
     * that one may be a dropped row of the same edge after another edge. */
    size_t nkept = 0, nent = 0;
    const tc_dtrc_row *last = NULL;
    for (size_t i = 0; i < t->nrows; i++)
        if (!t->rows[i].dropped) {
            nkept++;
            if (!last || t->rows[i].edge != last->edge)
                nent++;
            last = &t->rows[i];
        }
    t->codes = malloc((nkept ? nkept : 1) * sizeof *t->codes);
    t->entries = malloc((nent ? nent : 1) * sizeof *t->entries);
    size_t hsize = 16;
    while (hsize < 2 * nent + 2)
        hsize *= 2;
    t->hash = calloc(hsize, sizeof *t->hash);
    if (!t->codes || !t->entries || !t->hash)
        return 0;
    t->hmask = hsize - 1;
    size_t nc = 0;
    t->nentries = 0;
    for (size_t i = 0; i < t->nrows; i++) {
        const tc_dtrc_row *r = &t->rows[i];
        if (r->dropped)
            continue;
        tc_dtrc_entry *e = t->nentries ? &t->entries[t->nentries - 1] : NULL;
        if (!e || e->edge != r->edge) {
            e = &t->entries[t->nentries++];
            *e = (tc_dtrc_entry){r->edge, (uint32_t)nc, 0, 0};
            size_t h = hash32(r->edge) & t->hmask;
            while (t->hash[h])
                h = (h + 1) & t->hmask;
            t->hash[h] = (uint32_t)t->nentries;
        }
        t->codes[nc++] = (tc_dtrc_code){r->pad, r->len, r->next, r->nnext, 0};
        e->ncodes++;
        if (r->len > e->maxlen)
            e->maxlen = r->len;
        if (r->len > t->maxlen)
            t->maxlen = r->len;
        if (r->len == 0)
            t->has_empty = 1;
        if (r->nnext > t->maxnext)
            t->maxnext = r->nnext;
    }
    for (size_t k = 0; k < t->nentries; k++)
        for (uint32_t i = 0; i < t->entries[k].ncodes; i++) {
            tc_dtrc_code *c = &t->codes[t->entries[k].first + i];
            const tc_dtrc_entry *e =
                c->nnext ? tc_dtrc_table_find(t, t->ids[c->next + c->nnext - 1])
                         : &t->entries[k]; /* no edge: the current one stays */
            c->to = e ? (uint32_t)(e - t->entries) + 1 : 0;
        }
    return 1;
}

const tc_dtrc_entry *tc_dtrc_table_find(const tc_dtrc_table *t, uint32_t edge)
{
    if (!t->hash)
        return NULL;
    size_t h = hash32(edge) & t->hmask;
    uint32_t v;
    while ((v = t->hash[h]) != 0) {
        if (t->entries[v - 1].edge == edge)
            return &t->entries[v - 1];
        h = (h + 1) & t->hmask;
    }
    return NULL;
}

const tc_dtrc_code *tc_dtrc_table_match(const tc_dtrc_table *t, const tc_dtrc_entry *e,
                                        uint32_t bits, unsigned avail)
{
    const tc_dtrc_code *c = t->codes + e->first;
    /* The last code whose padded value is <= bits. */
    size_t lo = 0, hi = e->ncodes;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (c[mid].pad <= bits)
            lo = mid;
        else
            hi = mid;
    }
    const tc_dtrc_code *m = &c[lo];
    if (m->pad > bits || m->len > avail)
        return NULL;
    uint32_t mask = m->len == 0 ? 0 : m->len == 32 ? UINT32_MAX : ~(UINT32_MAX >> m->len);
    return (bits & mask) == m->pad ? m : NULL;
}

int tc_dtrc_table_prefix(const tc_dtrc_table *t, const tc_dtrc_entry *e, uint32_t bits,
                         unsigned avail)
{
    uint32_t mask = avail == 0 ? 0 : avail >= 32 ? UINT32_MAX : ~(UINT32_MAX >> avail);
    for (uint32_t i = 0; i < e->ncodes; i++) {
        const tc_dtrc_code *c = &t->codes[e->first + i];
        if (c->len > avail && (c->pad & mask) == (bits & mask))
            return 1;
    }
    return 0;
}
