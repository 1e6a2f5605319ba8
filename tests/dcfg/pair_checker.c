/* The independent checker of generated DCFG pairs: see pair_checker.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "pair_checker.h"

/* ---- reading the documents ---- */

/* An Integer of the format: a JSON number, "0x..." or decimal digits. */
static int get_int(const cJSON *v, uint64_t *out)
{
    if (cJSON_IsNumber(v)) {
        if (v->valuedouble < 0 || v->valuedouble != (double)(uint64_t)v->valuedouble)
            return 0;
        *out = (uint64_t)v->valuedouble;
        return 1;
    }
    if (!cJSON_IsString(v) || !v->valuestring[0])
        return 0;
    const char *s = v->valuestring;
    int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    char *end;
    *out = strtoull(hex ? s + 2 : s, &end, hex ? 16 : 10);
    return *end == '\0' && end != (hex ? s + 2 : s);
}

static uint64_t I(const cJSON *v, int *bad)
{
    uint64_t x = 0;
    if (!v || !get_int(v, &x))
        (*bad)++;
    return x;
}

/* The column of a table named tag, or -1. */
static int column(const cJSON *table, const char *tag)
{
    const cJSON *hdr = cJSON_GetArrayItem(table, 0);
    int i = 0;
    for (const cJSON *c = hdr ? hdr->child : NULL; c; c = c->next, i++)
        if (cJSON_IsString(c) && !strcmp(c->valuestring, tag))
            return i;
    return -1;
}

static const cJSON *cell(const cJSON *row, int col)
{
    return col < 0 ? NULL : cJSON_GetArrayItem(row, col);
}

/* Sorted (id, index) pairs for lookups by id. */
typedef struct idmap {
    uint64_t *id;
    size_t *ix, n;
} idmap;

static int cmp_pair(const void *a, const void *b, void *ids)
{
    const uint64_t *v = ids;
    uint64_t x = v[*(const size_t *)a], y = v[*(const size_t *)b];
    return x < y ? -1 : x > y;
}

/* qsort_r is a GNU extension (tests build with _GNU_SOURCE). */
static void idmap_build(idmap *m, uint64_t *ids, size_t n)
{
    m->id = ids;
    m->n = n;
    m->ix = malloc((n ? n : 1) * sizeof *m->ix);
    for (size_t i = 0; i < n; i++)
        m->ix[i] = i;
    qsort_r(m->ix, n, sizeof *m->ix, cmp_pair, ids);
}

static size_t idmap_find(const idmap *m, uint64_t id)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (m->id[m->ix[mid]] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < m->n && m->id[m->ix[lo]] == id ? m->ix[lo] : SIZE_MAX;
}

static int idmap_dups(const idmap *m)
{
    for (size_t i = 1; i < m->n; i++)
        if (m->id[m->ix[i]] == m->id[m->ix[i - 1]])
            return 1;
    return 0;
}

/* ---- the checker ---- */

typedef struct pc_proc {
    uint64_t pid, nthreads;
    uint64_t *ict; /* INSTR_COUNT_PER_THREAD */
    size_t nedges, nblocks;
    uint64_t *eid, *esrc, *edst, *ecount; /* ecount[e * nthreads + t] */
    char **etype;
    uint64_t *bid, *binstr;
    idmap edges, blocks;
    uint64_t *seen; /* counts decoded from the trace */
} proc;

static void fail(pc_checker *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(pc_checker *c, const char *fmt, ...)
{
    if (c->bad++)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->why, sizeof c->why, fmt, ap);
    va_end(ap);
}

static const char *type_name(const cJSON *types, uint64_t id, int *bad)
{
    int ci = column(types, "EDGE_TYPE_ID"), cn = column(types, "EDGE_TYPE");
    for (const cJSON *r = types->child->next; r; r = r->next)
        if (I(cell(r, ci), bad) == id)
            return cell(r, cn)->valuestring;
    return NULL;
}

static int inter_routine(const char *t)
{
    static const char *const kinds[] = {"CALL", "DIRECT_CALL", "INDIRECT_CALL", "RETURN",
                                        "SYSTEM_CALL", "SYSTEM_RETURN", "CONTEXT_CHANGE",
                                        "CONTEXT_CHANGE_RETURN", "INTERRUPT",
                                        "INTERRUPT_RETURN", "ENTRY", "EXIT"};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (!strcmp(t, kinds[i]))
            return 1;
    return 0;
}

/* Dominators by the textbook data-flow iteration over bit sets:
 * dom(entry) = {entry}, dom(n) = {n} + the intersection of dom(p) over the
 * predecessors p; the immediate dominator is the strict dominator that all
 * the other strict dominators dominate. */
static void check_routine(pc_checker *c, proc *p, const cJSON *rt, const cJSON *rtab,
                          uint8_t *in_routine)
{
    int bad = 0;
    const cJSON *nodes = cell(rt, column(rtab, "NODES"));
    uint64_t entry = I(cell(rt, column(rtab, "ENTRY_NODE_ID")), &bad);
    int cn = column(nodes, "NODE_ID"), ci = column(nodes, "IDOM_NODE_ID");
    size_t n = (size_t)cJSON_GetArraySize(nodes) - 1;
    uint64_t *ids = calloc(n, sizeof *ids), *idom = calloc(n, sizeof *idom);
    size_t i = 0, ent = SIZE_MAX;
    for (const cJSON *r = nodes->child->next; r; r = r->next, i++) {
        ids[i] = I(cell(r, cn), &bad);
        idom[i] = I(cell(r, ci), &bad);
        if (ids[i] == entry)
            ent = i;
        size_t b = idmap_find(&p->blocks, ids[i]);
        if (b == SIZE_MAX)
            fail(c, "routine node %llu is no basic block", (unsigned long long)ids[i]);
        else if (in_routine[b]++)
            fail(c, "block %llu in two routines", (unsigned long long)ids[i]);
    }
    if (ent == SIZE_MAX || idom[ent] != entry)
        fail(c, "routine entry %llu is not its own immediate dominator",
             (unsigned long long)entry);
    idmap local;
    idmap_build(&local, ids, n);
    size_t words = (n + 63) / 64;
    uint64_t *dom = malloc((n ? n : 1) * words * sizeof *dom);
    for (size_t k = 0; k < n; k++)
        for (size_t w = 0; w < words; w++)
            dom[k * words + w] = k == ent ? 0 : ~0ull;
    if (ent != SIZE_MAX)
        dom[ent * words + ent / 64] = 1ull << (ent % 64);
    uint64_t *tmp = malloc(words * sizeof *tmp);
    for (int changed = 1; changed && ent != SIZE_MAX;) {
        changed = 0;
        for (size_t k = 0; k < n; k++) {
            if (k == ent)
                continue;
            int any = 0;
            for (size_t e = 0; e < p->nedges; e++) {
                if (p->edst[e] != ids[k] || inter_routine(p->etype[e]))
                    continue;
                size_t s = idmap_find(&local, p->esrc[e]);
                if (s == SIZE_MAX)
                    continue;
                for (size_t w = 0; w < words; w++)
                    tmp[w] = any ? tmp[w] & dom[s * words + w] : dom[s * words + w];
                any = 1;
            }
            if (!any)
                memset(tmp, 0, words * sizeof *tmp);
            tmp[k / 64] |= 1ull << (k % 64);
            if (memcmp(tmp, dom + k * words, words * sizeof *tmp)) {
                memcpy(dom + k * words, tmp, words * sizeof *tmp);
                changed = 1;
            }
        }
    }
#define DOMS(a, b) (dom[(b) * words + (a) / 64] >> ((a) % 64) & 1) /* a dominates b */
    for (size_t k = 0; k < n && ent != SIZE_MAX; k++) {
        if (k == ent)
            continue;
        if (!DOMS(ent, k))
            fail(c, "node %llu is not reachable from its routine's entry",
                 (unsigned long long)ids[k]);
        size_t want = SIZE_MAX;
        for (size_t d = 0; d < n; d++) {
            if (d == k || !DOMS(d, k))
                continue;
            int all = 1;
            for (size_t o = 0; o < n && all; o++)
                if (o != k && DOMS(o, k))
                    all = DOMS(o, d);
            if (all)
                want = d;
        }
        c->idoms++;
        if (want == SIZE_MAX || ids[want] != idom[k])
            fail(c, "IDOM_NODE_ID of %llu is %llu, the dominators say %llu",
                 (unsigned long long)ids[k], (unsigned long long)idom[k],
                 want == SIZE_MAX ? 0ull : (unsigned long long)ids[want]);
    }
#undef DOMS
    const cJSON *loops = cell(rt, column(rtab, "LOOPS"));
    for (const cJSON *l = loops ? loops->child->next : NULL; l; l = l->next) {
        uint64_t head = I(cell(l, column(loops, "LOOP_HEAD_NODE_ID")), &bad);
        const cJSON *ln = cell(l, column(loops, "LOOP_NODE_IDS"));
        const cJSON *bs = cell(l, column(loops, "LOOP_BACK_EDGE_SOURCE_NODE_IDS"));
        int has_head = 0;
        for (const cJSON *x = ln->child; x; x = x->next) {
            uint64_t v = I(x, &bad);
            has_head |= v == head;
            if (idmap_find(&local, v) == SIZE_MAX)
                fail(c, "loop node %llu outside its routine", (unsigned long long)v);
        }
        for (const cJSON *x = bs->child; x; x = x->next) {
            uint64_t v = I(x, &bad);
            int edge = 0, in = 0;
            for (size_t e = 0; e < p->nedges; e++)
                edge |= p->esrc[e] == v && p->edst[e] == head;
            for (const cJSON *y = ln->child; y; y = y->next)
                in |= I(y, &bad) == v;
            if (!edge || !in)
                fail(c, "back edge source %llu of loop %llu: edge to head %d, in loop %d",
                     (unsigned long long)v, (unsigned long long)head, edge, in);
        }
        if (!has_head)
            fail(c, "loop %llu lacks its head", (unsigned long long)head);
        c->loops++;
    }
    if (bad)
        fail(c, "a routine has %d values that are not Integers", bad);
    free(local.ix);
    free(dom);
    free(tmp);
    free(ids);
    free(idom);
}

static void read_process(pc_checker *c, proc *p, const cJSON *pd, const cJSON *types)
{
    int bad = 0;
    const cJSON *ict = cJSON_GetObjectItemCaseSensitive(pd, "INSTR_COUNT_PER_THREAD");
    p->nthreads = (uint64_t)cJSON_GetArraySize(ict);
    p->ict = calloc(p->nthreads + 1, sizeof *p->ict);
    uint64_t sum = 0, t = 0;
    for (const cJSON *x = ict->child; x; x = x->next)
        sum += p->ict[t++] = I(x, &bad);
    if (sum != I(cJSON_GetObjectItemCaseSensitive(pd, "INSTR_COUNT"), &bad))
        fail(c, "INSTR_COUNT is not the sum of INSTR_COUNT_PER_THREAD");
    /* Blocks of every image. */
    const cJSON *images = cJSON_GetObjectItemCaseSensitive(pd, "IMAGES");
    size_t nb = 0;
    for (const cJSON *im = images->child->next; im; im = im->next) {
        const cJSON *d = cell(im, column(images, "IMAGE_DATA"));
        nb += (size_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(d, "BASIC_BLOCKS")) - 1;
    }
    p->bid = calloc(nb + 1, sizeof *p->bid);
    p->binstr = calloc(nb + 1, sizeof *p->binstr);
    uint64_t *bcount = calloc(nb + 1, sizeof *bcount);
    int8_t *has_count = calloc(nb + 1, 1);
    size_t b = 0;
    for (const cJSON *im = images->child->next; im; im = im->next) {
        uint64_t isize = I(cell(im, column(images, "SIZE")), &bad);
        const cJSON *d = cell(im, column(images, "IMAGE_DATA"));
        const cJSON *bt = cJSON_GetObjectItemCaseSensitive(d, "BASIC_BLOCKS");
        int cid = column(bt, "NODE_ID"), cad = column(bt, "ADDR_OFFSET"),
            csz = column(bt, "SIZE"), cni = column(bt, "NUM_INSTRS"),
            cli = column(bt, "LAST_INSTR_OFFSET"), cco = column(bt, "COUNT");
        for (const cJSON *r = bt->child->next; r; r = r->next, b++) {
            p->bid[b] = I(cell(r, cid), &bad);
            p->binstr[b] = I(cell(r, cni), &bad);
            uint64_t addr = I(cell(r, cad), &bad), size = I(cell(r, csz), &bad);
            if (I(cell(r, cli), &bad) >= size || addr + size > isize)
                fail(c, "block %llu: range or last instruction outside",
                     (unsigned long long)p->bid[b]);
            if (cell(r, cco)) {
                has_count[b] = 1;
                bcount[b] = I(cell(r, cco), &bad);
            }
            if (p->bid[b] == c->start || p->bid[b] == c->end)
                fail(c, "block id %llu is a special node", (unsigned long long)p->bid[b]);
        }
    }
    p->nblocks = nb;
    idmap_build(&p->blocks, p->bid, nb);
    if (idmap_dups(&p->blocks))
        fail(c, "a node id is repeated");
    /* Edges. */
    const cJSON *et = cJSON_GetObjectItemCaseSensitive(pd, "EDGES");
    size_t ne = (size_t)cJSON_GetArraySize(et) - 1, e = 0;
    p->nedges = ne;
    p->eid = calloc(ne + 1, sizeof *p->eid);
    p->esrc = calloc(ne + 1, sizeof *p->esrc);
    p->edst = calloc(ne + 1, sizeof *p->edst);
    p->etype = calloc(ne + 1, sizeof *p->etype);
    p->ecount = calloc(ne * p->nthreads + 1, sizeof *p->ecount);
    p->seen = calloc(ne * p->nthreads + 1, sizeof *p->seen);
    int cid = column(et, "EDGE_ID"), cs = column(et, "SOURCE_NODE_ID"),
        cd = column(et, "TARGET_NODE_ID"), ct = column(et, "EDGE_TYPE_ID"),
        cc = column(et, "COUNT_PER_THREAD");
    uint64_t *instr = calloc(p->nthreads + 1, sizeof *instr);
    uint64_t *incoming = calloc(nb + 1, sizeof *incoming);
    for (const cJSON *r = et->child->next; r; r = r->next, e++) {
        p->eid[e] = I(cell(r, cid), &bad);
        p->esrc[e] = I(cell(r, cs), &bad);
        p->edst[e] = I(cell(r, cd), &bad);
        const char *ty = type_name(types, I(cell(r, ct), &bad), &bad);
        p->etype[e] = (char *)(ty ? ty : "?");
        if (!ty)
            fail(c, "edge %llu: unknown type id", (unsigned long long)p->eid[e]);
        if (!strcmp(p->etype[e], "ENTRY") && p->esrc[e] != c->start)
            fail(c, "ENTRY edge %llu not from START", (unsigned long long)p->eid[e]);
        if (!strcmp(p->etype[e], "EXIT") && p->edst[e] != c->end)
            fail(c, "EXIT edge %llu not to END", (unsigned long long)p->eid[e]);
        size_t s = idmap_find(&p->blocks, p->esrc[e]), d = idmap_find(&p->blocks, p->edst[e]);
        if ((s == SIZE_MAX && p->esrc[e] != c->start) || (d == SIZE_MAX && p->edst[e] != c->end))
            fail(c, "edge %llu: unknown node", (unsigned long long)p->eid[e]);
        const cJSON *cpt = cell(r, cc);
        if ((uint64_t)cJSON_GetArraySize(cpt) != p->nthreads)
            fail(c, "edge %llu: %d counts for %llu threads", (unsigned long long)p->eid[e],
                 cJSON_GetArraySize(cpt), (unsigned long long)p->nthreads);
        t = 0;
        for (const cJSON *x = cpt->child; x && t < p->nthreads; x = x->next, t++) {
            uint64_t n = I(x, &bad);
            p->ecount[e * p->nthreads + t] = n;
            instr[t] += n * (s == SIZE_MAX ? 0 : p->binstr[s]);
            if (d != SIZE_MAX)
                incoming[d] += n;
        }
    }
    idmap_build(&p->edges, p->eid, ne);
    if (idmap_dups(&p->edges))
        fail(c, "an edge id is repeated");
    for (t = 0; t < p->nthreads; t++)
        if (instr[t] != p->ict[t])
            fail(c, "thread %llu: the edges count %llu instructions, INSTR_COUNT_PER_THREAD %llu",
                 (unsigned long long)t, (unsigned long long)instr[t],
                 (unsigned long long)p->ict[t]);
    for (b = 0; b < nb; b++)
        if (has_count[b] && bcount[b] != incoming[b])
            fail(c, "block %llu: COUNT %llu, incoming edges %llu", (unsigned long long)p->bid[b],
                 (unsigned long long)bcount[b], (unsigned long long)incoming[b]);
    /* Routines: every block in exactly one; dominators; loops. */
    uint8_t *in_routine = calloc(nb + 1, 1);
    for (const cJSON *im = images->child->next; im; im = im->next) {
        const cJSON *d = cell(im, column(images, "IMAGE_DATA"));
        const cJSON *rtab = cJSON_GetObjectItemCaseSensitive(d, "ROUTINES");
        for (const cJSON *rt = rtab->child->next; rt; rt = rt->next)
            check_routine(c, p, rt, rtab, in_routine);
    }
    for (b = 0; b < nb; b++)
        if (in_routine[b] != 1)
            fail(c, "block %llu is in %u routines", (unsigned long long)p->bid[b], in_routine[b]);
    if (bad)
        fail(c, "%d values are not Integers", bad);
    free(in_routine);
    free(instr);
    free(incoming);
    free(bcount);
    free(has_count);
}

static void free_proc(proc *p)
{
    free(p->ict);
    free(p->eid);
    free(p->esrc);
    free(p->edst);
    free(p->etype);
    free(p->ecount);
    free(p->seen);
    free(p->bid);
    free(p->binstr);
    free(p->edges.ix);
    free(p->blocks.ix);
}

/* ---- the trace ---- */

typedef struct bits {
    char *p;
    size_t n, cap;
} bits;

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-";

/* Expands s[0..n) (repeats, dictionary references) into bits, as doc
 * §3.7.1 says, materialising everything: the tests keep traces small. */
static int expand(pc_checker *c, const cJSON *dict, const char *s, size_t n, bits *out, int depth)
{
    if (depth > 20) {
        fail(c, "dictionary nesting deeper than 20");
        return 0;
    }
    for (size_t i = 0; i < n;) {
        if (s[i] == '(') {
            size_t j = i + 1;
            uint64_t m = 0;
            while (j < n && s[j] >= '0' && s[j] <= '9')
                m = m * 10 + (uint64_t)(s[j++] - '0');
            if (j == i + 1 || j >= n || s[j] != '*') {
                fail(c, "bad repeat at %zu", i);
                return 0;
            }
            size_t k = ++j;
            for (int d = 0; k < n && (s[k] != ')' || d); k++)
                d += s[k] == '(' ? 1 : s[k] == ')' ? -1 : 0;
            if (k >= n) {
                fail(c, "unclosed repeat");
                return 0;
            }
            for (uint64_t r = 0; r < m; r++)
                if (!expand(c, dict, s + j, k - j, out, depth + 1))
                    return 0;
            i = k + 1;
        } else if (s[i] == '<') {
            const char *e = memchr(s + i, '>', n - i);
            char key[64];
            if (!e || (size_t)(e - s - i - 1) >= sizeof key) {
                fail(c, "bad reference");
                return 0;
            }
            memcpy(key, s + i + 1, (size_t)(e - s - i - 1));
            key[e - s - i - 1] = '\0';
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(dict, key);
            if (!cJSON_IsString(v)) {
                fail(c, "no dictionary key %s", key);
                return 0;
            }
            if (!expand(c, dict, v->valuestring, strlen(v->valuestring), out, depth + 1))
                return 0;
            i = (size_t)(e - s) + 1;
        } else {
            const char *q = memchr(b64, s[i], 64);
            if (!q || !s[i]) {
                fail(c, "not a Base64 character: %c", s[i]);
                return 0;
            }
            if (out->n + 6 > out->cap) {
                out->cap = out->cap ? out->cap * 2 : 4096;
                out->p = realloc(out->p, out->cap);
            }
            for (int b = 5; b >= 0; b--)
                out->p[out->n++] = (char)('0' + ((q - b64) >> b & 1));
            i++;
        }
    }
    return 1;
}

typedef struct trow {
    uint64_t cur;
    const char *code;
    const cJSON *next;
} trow;

static int cmp_trow(const void *a, const void *b)
{
    uint64_t x = ((const trow *)a)->cur, y = ((const trow *)b)->cur;
    return x < y ? -1 : x > y;
}

static void check_table(pc_checker *c, trow *rows, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && rows[j].cur == rows[i].cur)
            j++;
        for (size_t a = i; a < j; a++) {
            size_t la = strlen(rows[a].code);
            c->codes_long += la > 1;
            if (la > 32 || strspn(rows[a].code, "01") != la || (la == 0 && j - i > 1))
                fail(c, "edge %llu: bad code '%s'", (unsigned long long)rows[a].cur,
                     rows[a].code);
            for (size_t b = i; b < j; b++)
                if (a != b && !strncmp(rows[a].code, rows[b].code, la))
                    fail(c, "edge %llu: code '%s' is a prefix of '%s'",
                         (unsigned long long)rows[a].cur, rows[a].code, rows[b].code);
        }
        i = j;
    }
}

static void check_trace(pc_checker *c, const cJSON *tr)
{
    int bad = 0;
    const cJSON *ps = cJSON_GetObjectItemCaseSensitive(tr, "PROCESSES");
    const char *want[] = {"MAJOR_VERSION", "MINOR_VERSION", "PROCESSES"};
    const cJSON *k = tr->child;
    for (int i = 0; i < 3; i++, k = k ? k->next : NULL)
        if (!k || strcmp(k->string, want[i]))
            fail(c, "trace key %d is not %s", i, want[i]);
    for (const cJSON *pr = ps->child->next; pr; pr = pr->next) {
        uint64_t pid = I(cell(pr, column(ps, "PROCESS_ID")), &bad);
        proc *p = NULL;
        for (size_t i = 0; i < c->np; i++)
            if (c->p[i].pid == pid)
                p = &c->p[i];
        if (!p) {
            fail(c, "trace process %llu is not in the DCFG", (unsigned long long)pid);
            continue;
        }
        const cJSON *dict = cell(pr, column(ps, "STRING_DICTIONARY"));
        const cJSON *tt = cell(pr, column(ps, "TRANSITION_TABLE"));
        size_t nr = (size_t)cJSON_GetArraySize(tt) - 1, i = 0;
        trow *rows = calloc(nr + 1, sizeof *rows);
        for (const cJSON *r = tt->child->next; r; r = r->next, i++) {
            rows[i].cur = I(cell(r, 0), &bad);
            rows[i].code = cell(r, 1)->valuestring;
            rows[i].next = cell(r, 2);
            c->multi += cJSON_GetArraySize(rows[i].next) > 1;
            if (idmap_find(&p->edges, rows[i].cur) == SIZE_MAX)
                fail(c, "table edge %llu unknown", (unsigned long long)rows[i].cur);
        }
        c->rows += nr;
        qsort(rows, nr, sizeof *rows, cmp_trow);
        check_table(c, rows, nr);
        const cJSON *td = cell(pr, column(ps, "THREAD_DATA"));
        bits bs = {0};
        for (const cJSON *th = td->child->next; th; th = th->next) {
            uint64_t t = I(cell(th, 0), &bad), prev_end = 0, total = 0;
            if (t >= p->nthreads) {
                fail(c, "thread %llu of %llu", (unsigned long long)t,
                     (unsigned long long)p->nthreads);
                continue;
            }
            const cJSON *data = cell(th, 1);
            for (const cJSON *ch = data->child->next; ch; ch = ch->next) {
                uint64_t pre = I(cell(ch, 0), &bad), ic = I(cell(ch, 1), &bad),
                         ec = I(cell(ch, 2), &bad), cur = I(cell(ch, 3), &bad);
                const char *seq = cell(ch, 4)->valuestring;
                if (pre < prev_end)
                    fail(c, "chunk at %llu before the end of the last (%llu)",
                         (unsigned long long)pre, (unsigned long long)prev_end);
                bs.n = 0;
                if (!expand(c, dict, seq, strlen(seq), &bs, 0))
                    break;
                size_t pos = 0;
                uint64_t got = 0, instrs = 0, last_dst = UINT64_MAX;
                size_t e = idmap_find(&p->edges, cur);
                for (;;) {
                    if (e == SIZE_MAX) {
                        fail(c, "chunk edge %llu unknown", (unsigned long long)cur);
                        break;
                    }
                    if (last_dst != UINT64_MAX && p->esrc[e] != last_dst)
                        fail(c, "edge %llu does not start where the last ended",
                             (unsigned long long)cur);
                    size_t s = idmap_find(&p->blocks, p->esrc[e]);
                    instrs += s == SIZE_MAX ? 0 : p->binstr[s];
                    p->seen[e * p->nthreads + t]++;
                    last_dst = p->edst[e];
                    if (++got == ec)
                        break;
                    /* The rows of the current edge; the one whose code the
                     * bits start with. */
                    trow key = {.cur = cur}, *r = bsearch(&key, rows, nr, sizeof *rows, cmp_trow);
                    while (r && r > rows && r[-1].cur == cur)
                        r--;
                    const trow *hit = NULL;
                    for (; r && r < rows + nr && r->cur == cur && !hit; r++) {
                        size_t l = strlen(r->code);
                        if (pos + l <= bs.n && !strncmp(bs.p + pos, r->code, l))
                            hit = r;
                    }
                    if (!hit) {
                        fail(c, "no code of edge %llu matches at bit %zu", (unsigned long long)cur,
                             pos);
                        break;
                    }
                    pos += strlen(hit->code);
                    const cJSON *x = hit->next->child;
                    for (; x; x = x->next) {
                        cur = I(x, &bad);
                        e = idmap_find(&p->edges, cur);
                        if (x->next) {
                            /* Not the last of the row: counted now. */
                            if (e == SIZE_MAX || p->esrc[e] != last_dst)
                                fail(c, "row edge %llu does not join", (unsigned long long)cur);
                            if (e == SIZE_MAX)
                                break;
                            size_t s2 = idmap_find(&p->blocks, p->esrc[e]);
                            instrs += s2 == SIZE_MAX ? 0 : p->binstr[s2];
                            p->seen[e * p->nthreads + t]++;
                            last_dst = p->edst[e];
                            if (++got == ec) {
                                fail(c, "a row runs past EDGE_COUNT");
                                break;
                            }
                        }
                    }
                    if (got == ec)
                        break;
                }
                if (bs.n - pos >= 6)
                    fail(c, "%zu bits left after the chunk's edges", bs.n - pos);
                if (instrs != ic)
                    fail(c, "chunk INSTR_COUNT %llu, its edges %llu", (unsigned long long)ic,
                         (unsigned long long)instrs);
                c->decoded += got;
                prev_end = pre + ic;
                total += ic;
            }
            if (total != p->ict[t])
                fail(c, "thread %llu: chunks count %llu instructions, the DCFG %llu",
                     (unsigned long long)t, (unsigned long long)total,
                     (unsigned long long)p->ict[t]);
        }
        free(bs.p);
        free(rows);
        for (size_t e = 0; e < p->nedges * p->nthreads; e++)
            if (p->seen[e] != p->ecount[e])
                fail(c, "edge %llu thread %llu: the trace takes it %llu times, the DCFG says %llu",
                     (unsigned long long)p->eid[e / p->nthreads],
                     (unsigned long long)(e % p->nthreads), (unsigned long long)p->seen[e],
                     (unsigned long long)p->ecount[e]);
    }
    if (bad)
        fail(c, "%d trace values are not Integers", bad);
}

int pc_check_pair(const dcfg_mem *m, pc_checker *c)
{
    memset(c, 0, sizeof *c);
    cJSON *d = cJSON_ParseWithLength((const char *)m->dcfg.p, m->dcfg.len);
    cJSON *t = cJSON_ParseWithLength((const char *)m->trace.p, m->trace.len);
    if (!d || !t) {
        fail(c, "not JSON (%s)", d ? "trace" : "DCFG");
        cJSON_Delete(d);
        cJSON_Delete(t);
        return 0;
    }
    int bad = 0;
    const cJSON *sp = cJSON_GetObjectItemCaseSensitive(d, "SPECIAL_NODES");
    for (const cJSON *r = sp->child->next; r; r = r->next) {
        const char *name = cell(r, 1)->valuestring;
        *(strcmp(name, "START") ? &c->end : &c->start) = I(cell(r, 0), &bad);
    }
    const cJSON *types = cJSON_GetObjectItemCaseSensitive(d, "EDGE_TYPES");
    const cJSON *ps = cJSON_GetObjectItemCaseSensitive(d, "PROCESSES");
    c->np = (size_t)cJSON_GetArraySize(ps) - 1;
    c->p = calloc(c->np + 1, sizeof *c->p);
    size_t i = 0;
    for (const cJSON *pr = ps->child->next; pr; pr = pr->next, i++) {
        c->p[i].pid = I(cell(pr, 0), &bad);
        read_process(c, &c->p[i], cell(pr, 1), types);
    }
    check_trace(c, t);
    for (i = 0; i < c->np; i++)
        free_proc(&c->p[i]);
    free(c->p);
    cJSON_Delete(d);
    cJSON_Delete(t);
    return c->bad == 0;
}
