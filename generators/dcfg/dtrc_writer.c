#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcfg_mutate.h"
#include "dtrc_writer.h"

const char dg_b64[64] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-";

/* A dictionary entry for the periodic characters of a spin loop's code. */
typedef struct dict_ent {
    uint32_t code;
    uint8_t len, rot;
    uint32_t reps;    /* periods in the short key's value */
    char period[40];  /* one period: len * 6 / gcd(len, 6) bits */
    uint32_t pchars;
} dict_ent;
#define DICT_MAX 64
#define DICT_OUTER 16 /* short keys in the long key's value */

typedef struct sim {
    const dg_program *pg;
    dg_proc *p;
    dg_codes *c;
    tc_rng *r;
    int sample;
    uint32_t thread;
    uint64_t budget; /* sample: edges; encode: bytes of this thread */
    uint64_t edges;  /* taken so far by this thread */
    unsigned boost;  /* spin loops run up to 2^boost times longer in long traces */
    uint32_t *stack; /* (call site, callee) pairs */
    uint32_t depth;
    /* the encoder */
    dg_out *o;
    uint64_t thread_start; /* o->total when the thread began */
    tc_bytebuf seq;
    uint64_t acc;
    unsigned nacc;
    uint32_t cur, row_left;
    int chunk_open;
    uint32_t first_edge;
    uint64_t chunk_edges, chunk_instrs, preceding, chunk_limit, max_chunk;
    dict_ent *dict;
    uint32_t ndict;
    dg_trace_stats *st;
    const dg_mutation *mu; /* process 0 of a --violate run, else NULL */
} sim;

/* An edge's id as the trace writes it (a mutation may rename one). */
static uint32_t tid(const sim *s, uint32_t e)
{
    return s->mu && s->mu->rename_edge == e ? s->mu->new_edge_id : s->p->edges[e].id;
}

/* ---- bits and characters ---- */

static inline void put_bits(sim *s, uint32_t code, unsigned len)
{
    if (!len)
        return;
    s->acc = s->acc << len | code;
    s->nacc += len;
    while (s->nacc >= 6) {
        s->nacc -= 6;
        *tc_bb_reserve(&s->seq, 1) = (uint8_t)dg_b64[(s->acc >> s->nacc) & 63];
        s->seq.len++;
    }
    s->acc &= (1ull << s->nacc) - 1;
}

static void put_str(sim *s, const char *p, size_t n) { tc_bb_append(&s->seq, p, n); }

static void put_num(sim *s, uint64_t v)
{
    char b[24];
    int n = snprintf(b, sizeof b, "%llu", (unsigned long long)v);
    put_str(s, b, (size_t)n);
}

/* Bit q of the endless repetition of a len-bit code. */
static inline uint32_t pattern_bit(uint32_t code, unsigned len, uint64_t q)
{
    return code >> (len - 1 - q % len) & 1;
}

static void put_pattern(sim *s, uint32_t code, unsigned len, uint64_t from, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        put_bits(s, pattern_bit(code, len, from + i), 1);
}

static unsigned gcd6(unsigned len)
{
    unsigned a = len, b = 6;
    while (b) {
        unsigned t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* One period of the characters of the repeated code, starting at bit rot of
 * the code: period bits = len * 6 / gcd(len, 6). */
static uint32_t period_chars(uint32_t code, unsigned len, unsigned rot, char *out)
{
    uint32_t bits = len * 6 / gcd6(len), n = 0;
    for (uint32_t i = 0; i < bits; i += 6) {
        unsigned v = 0;
        for (unsigned j = 0; j < 6; j++)
            v = v << 1 | pattern_bit(code, len, rot + i + j);
        out[n++] = dg_b64[v];
    }
    out[n] = '\0';
    return n;
}

static void dict_key(char *out, size_t n, const dict_ent *d, int outer)
{
    snprintf(out, n, "%c%ux%x%s%u", outer ? 'L' : 's', d->len, d->code, outer ? "-" : "r",
             d->rot);
}

static const dict_ent *dict_find(const sim *s, uint32_t code, unsigned len, unsigned rot)
{
    for (uint32_t i = 0; i < s->ndict; i++)
        if (s->dict[i].code == code && s->dict[i].len == len && s->dict[i].rot == rot)
            return &s->dict[i];
    return NULL;
}

/* R more repetitions of a code. Once the pending bits make a whole
 * character, the characters repeat with a period of a few characters:
 * those are written out, as one repeat, or through the dictionary. */
static void put_periodic(sim *s, uint32_t code, unsigned len, uint64_t reps)
{
    uint64_t total = (uint64_t)len * reps;
    uint64_t per = len * 6 / gcd6(len);
    uint64_t lead = s->nacc ? 6 - s->nacc : 0;
    if (total < lead + 3 * per) {
        for (uint64_t i = 0; i < reps; i++)
            put_bits(s, code, len);
        return;
    }
    put_pattern(s, code, len, 0, lead);
    unsigned rot = (unsigned)(lead % len);
    char chars[40];
    uint32_t pchars = period_chars(code, len, rot, chars);
    uint64_t q = (total - lead) / per;
    uint64_t rest = total - lead - q * per;
    /* Written out half of the time, and always when long: a compressed
     * run of millions of edges in a few characters would make the trace
     * slow to check for little gain. */
    unsigned how = (unsigned)tc_rng_below(s->r, 4);
    if (q > 4096)
        how = 0;
    const dict_ent *d = how == 3 ? dict_find(s, code, len, rot) : NULL;
    if (d) {
        char key[32];
        uint64_t outer = q / ((uint64_t)d->reps * DICT_OUTER);
        q -= outer * d->reps * DICT_OUTER;
        uint64_t inner = q / d->reps;
        q -= inner * d->reps;
        if (outer) {
            dict_key(key, sizeof key, d, 1);
            if (outer > 1) {
                put_str(s, "(", 1);
                put_num(s, outer);
                put_str(s, "*", 1);
            }
            put_str(s, "<", 1);
            put_str(s, key, strlen(key));
            put_str(s, ">", 1);
            if (outer > 1)
                put_str(s, ")", 1);
            s->st->dict_refs++;
        }
        if (inner) {
            dict_key(key, sizeof key, d, 0);
            put_str(s, "<", 1);
            put_str(s, key, strlen(key));
            put_str(s, ">", 1);
            for (uint64_t i = 1; i < inner; i++) {
                put_str(s, "<", 1);
                put_str(s, key, strlen(key));
                put_str(s, ">", 1);
            }
            s->st->dict_refs++;
        }
        for (uint64_t i = 0; i < q; i++)
            put_str(s, chars, pchars);
    } else if (how == 2 && q >= 2) {
        put_str(s, "(", 1);
        put_num(s, q);
        put_str(s, "*", 1);
        put_str(s, chars, pchars);
        put_str(s, ")", 1);
        s->st->repeats++;
    } else {
        uint8_t *dst = tc_bb_reserve(&s->seq, q * pchars);
        for (uint64_t i = 0; i < q; i++)
            memcpy(dst + i * pchars, chars, pchars);
        s->seq.len += q * pchars;
    }
    put_pattern(s, code, len, lead, rest);
}

/* ---- chunks ---- */

static void new_chunk_limit(sim *s)
{
    s->chunk_limit = 8 + tc_rng_below(s->r, s->max_chunk);
}

static void open_chunk(sim *s, uint32_t e)
{
    s->chunk_open = 1;
    s->first_edge = e;
    s->chunk_edges = 1;
    s->chunk_instrs = dg_instrs(s->p, s->p->edges[e].src);
    s->cur = e;
    s->row_left = 0;
    s->seq.len = 0;
    s->acc = 0;
    s->nacc = 0;
}

static void close_chunk(sim *s)
{
    if (!s->chunk_open)
        return;
    if (s->nacc)
        put_bits(s, 0, 6 - s->nacc); /* the last character's unused bits */
    dg_out *o = s->o;
    dg_puts(o, ",\n   [");
    dg_int_r(o, s->preceding, s->r, 0);
    dg_putc(o, ',');
    dg_int_r(o, s->chunk_instrs, s->r, 0);
    dg_putc(o, ',');
    dg_int_r(o, s->chunk_edges, s->r, 0);
    dg_putc(o, ',');
    dg_int_r(o, tid(s, s->first_edge), s->r, 0);
    dg_puts(o, ",\"");
    dg_put(o, s->seq.p, s->seq.len);
    dg_puts(o, "\"]");
    s->preceding += s->chunk_instrs;
    s->chunk_open = 0;
    s->st->chunks++;
    new_chunk_limit(s);
}

static int over_budget(const sim *s)
{
    if (s->sample)
        return s->edges >= s->budget;
    return s->o->total - s->thread_start + s->seq.len >= s->budget;
}

/* Edge e, out k of the current edge's target, is taken. */
static inline void take(sim *s, uint32_t e, uint32_t k)
{
    s->edges++;
    if (s->sample) {
        if (s->cur != DG_NONE)
            s->c->freq[s->c->pair_base[s->cur] + k]++;
        s->cur = e;
        return;
    }
    dg_proc *p = s->p;
    p->counts[(size_t)e * p->nthreads + s->thread]++;
    if (!s->chunk_open) {
        open_chunk(s, e);
        return;
    }
    s->chunk_edges++;
    s->chunk_instrs += dg_instrs(p, p->edges[e].src);
    if (s->row_left) {
        s->row_left--;
    } else {
        const dg_row *row = &s->c->rows[s->c->pair_base[s->cur] + k];
        put_bits(s, row->code, row->len);
        s->row_left = row->n - 1;
        s->st->multi_rows += row->n > 1;
    }
    s->cur = e;
    if (!s->row_left && s->seq.len >= s->chunk_limit)
        close_chunk(s);
}

/* The spin loop's self edge e (out 0) taken reps more times in a row. */
static void take_run(sim *s, uint32_t e, uint64_t reps)
{
    dg_proc *p = s->p;
    s->edges += reps;
    if (s->sample) {
        s->c->freq[s->c->pair_base[e]] += reps;
        return;
    }
    p->counts[(size_t)e * p->nthreads + s->thread] += reps;
    const dg_row *row = &s->c->rows[s->c->pair_base[e]];
    uint32_t ninstr = dg_instrs(p, p->edges[e].src);
    while (reps) {
        if (!s->chunk_open) {
            open_chunk(s, e);
            reps--;
            continue;
        }
        uint64_t room = s->chunk_limit > s->seq.len ? s->chunk_limit - s->seq.len : 0;
        uint64_t n = room * 6 / row->len + 1;
        if (n > reps)
            n = reps;
        put_periodic(s, row->code, row->len, n);
        s->chunk_edges += n;
        s->chunk_instrs += n * ninstr;
        reps -= n;
        if (s->seq.len >= s->chunk_limit)
            close_chunk(s);
    }
}

/* ---- running a thread ---- */

static uint32_t weighted(sim *s, const dg_block *k)
{
    const uint32_t *wt = s->p->wt + k->out;
    uint32_t x = (uint32_t)tc_rng_below(s->r, wt[k->nout - 1]);
    uint32_t i = 0;
    while (wt[i] <= x)
        i++;
    return i;
}

static void run_thread(sim *s)
{
    dg_proc *p = s->p;
    uint32_t root = p->root_of_thread[s->thread];
    uint32_t e = p->entry_edge[root];
    s->cur = DG_NONE;
    s->depth = 0;
    s->edges = 0;
    take(s, e, 0);
    uint32_t v = p->edges[e].dst;
    for (;;) {
        const dg_block *b = &p->blocks[v];
        uint32_t k = 0;
        switch (b->term) {
        case DG_T_JUMP: break;
        case DG_T_COND:
            if (b->loop != DG_LOOP_NONE) {
                uint32_t cont = b->loop == DG_LOOP_OUT0 ? 0 : 1;
                if (over_budget(s))
                    k = 1 - cont;
                else if (b->loop == DG_LOOP_BUDGET)
                    k = cont;
                else
                    k = tc_rng_below(s->r, 65536) < b->prob ? 0 : 1;
            } else {
                k = tc_rng_below(s->r, 65536) < b->prob ? 0 : 1;
            }
            break;
        case DG_T_SWITCH: k = weighted(s, b); break;
        case DG_T_CALL:
            k = weighted(s, b);
            s->stack[2 * s->depth] = b->callsite;
            s->stack[2 * s->depth + 1] = k;
            s->depth++;
            break;
        case DG_T_RET:
            if (s->depth) {
                s->depth--;
                const dg_callsite *cs = &p->callsites[s->stack[2 * s->depth]];
                uint32_t a = p->cs_ret_at[cs->ret_at + s->stack[2 * s->depth + 1]];
                k = p->edges[p->cs_ret[a + b->exit_ord]].k;
            }
            break;
        case DG_T_SELF: {
            /* Runs n times: n - 1 self edges, then out. */
            uint64_t n = 1;
            if (!over_budget(s)) {
                unsigned cls = (unsigned)tc_rng_below(s->r, (uint64_t)b->prob + 1 + s->boost);
                n = 1 + tc_rng_below(s->r, 1ull << cls);
            }
            if (n >= 2) {
                uint32_t self = p->outs[b->out];
                take(s, self, 0);
                if (n > 2)
                    take_run(s, self, n - 2);
            }
            k = 1;
            break;
        }
        }
        e = p->outs[b->out + k];
        take(s, e, k);
        v = p->edges[e].dst;
        if (v == DG_END)
            break;
    }
    if (!s->sample)
        close_chunk(s);
}

/* ---- the dictionary ---- */

static void build_dict(sim *s)
{
    dg_proc *p = s->p;
    s->ndict = 0;
    for (uint32_t i = 0; i < p->nblocks && s->ndict < DICT_MAX; i++) {
        if (p->blocks[i].term != DG_T_SELF)
            continue;
        uint32_t self = p->outs[p->blocks[i].out];
        if (s->c->pair_base[self] == DG_NONE)
            continue; /* in a routine no thread enters */
        const dg_row *row = &s->c->rows[s->c->pair_base[self]];
        if (row->len > 4)
            continue;
        for (unsigned rot = 0; rot < row->len && s->ndict < DICT_MAX; rot++) {
            if (dict_find(s, row->code, row->len, rot))
                continue;
            dict_ent *d = &s->dict[s->ndict++];
            d->code = row->code;
            d->len = row->len;
            d->rot = (uint8_t)rot;
            d->pchars = period_chars(row->code, row->len, rot, d->period);
            d->reps = 1 + (uint32_t)tc_rng_below(s->r, 4);
        }
    }
}

static void write_dict(sim *s)
{
    dg_out *o = s->o;
    dg_putc(o, '{');
    char key[32];
    for (uint32_t i = 0; i < s->ndict; i++) {
        const dict_ent *d = &s->dict[i];
        dict_key(key, sizeof key, d, 0);
        dg_puts(o, i ? ",\n  \"" : "\n  \"");
        dg_puts(o, key);
        dg_puts(o, "\":\"");
        for (uint32_t k = 0; k < d->reps; k++)
            dg_put(o, d->period, d->pchars);
        /* The long key: a repeat of the short one, a nested reference. */
        dg_puts(o, "\",\n  \"");
        dict_key(key, sizeof key, d, 1);
        dg_puts(o, key);
        dg_puts(o, "\":\"(");
        dg_int(o, DICT_OUTER, DG_INT_NUMBER);
        dg_puts(o, "*<");
        dict_key(key, sizeof key, d, 0);
        dg_puts(o, key);
        dg_puts(o, ">)\"");
    }
    dg_putc(o, '}');
}

/* ---- the transition table ---- */

static void write_table(sim *s)
{
    dg_out *o = s->o;
    dg_proc *p = s->p;
    dg_puts(o, "[[\"CURRENT_EDGE_ID\",\"TRANSITION_CODE\",\"NEXT_EDGE_IDS\"]");
    for (uint32_t e = 0; e < p->nedges; e++) {
        uint32_t base = s->c->pair_base[e];
        if (base == DG_NONE)
            continue;
        uint32_t n = p->blocks[p->edges[e].dst].nout;
        if (s->mu && s->mu->skip_cur == e)
            continue;
        for (uint32_t i = 0; i < n; i++) {
            const dg_row *row = &s->c->rows[base + i];
            /* A mutation keeps only the last code of each edge: the first
             * decision that takes another has no code to match. */
            if (s->mu && s->mu->skip_coded && row->len && i + 1 < n)
                continue;
            dg_puts(o, ",\n  [");
            dg_int_r(o, tid(s, e), s->r, 0);
            dg_puts(o, ",\"");
            for (unsigned b = row->len; b-- > 0;)
                dg_putc(o, (char)('0' + (row->code >> b & 1)));
            dg_puts(o, "\",[");
            for (uint32_t j = 0; j < row->n; j++) {
                if (j)
                    dg_putc(o, ',');
                dg_int_r(o, tid(s, s->c->row_edges[row->at + j]), s->r, 0);
            }
            dg_puts(o, "]]");
        }
    }
    if (s->mu && s->mu->extra_chunk == 1) {
        /* The row the added chunk decodes with (dg_mutation). */
        dg_puts(o, ",\n  [");
        dg_int(o, p->edges[s->mu->join_from].id, DG_INT_NUMBER);
        dg_puts(o, ",\"\",[");
        dg_int(o, p->edges[s->mu->join_to].id, DG_INT_NUMBER);
        dg_puts(o, "]]");
    }
    dg_putc(o, ']');
}

/* The chunk a mutation adds after thread 0's last: two edges that do not
 * join (decoded with the row write_table added), or one edge whose
 * INSTR_COUNT is one too many. */
static void extra_chunk(sim *s)
{
    const dg_proc *p = s->p;
    uint32_t a = s->mu->extra_chunk == 1 ? s->mu->join_from : p->entry_edge[p->root_of_thread[0]];
    uint64_t instrs = dg_instrs(p, p->edges[a].src);
    if (s->mu->extra_chunk == 1)
        instrs += dg_instrs(p, p->edges[s->mu->join_to].src);
    else
        instrs++;
    dg_puts(s->o, ",\n   [");
    dg_int(s->o, s->preceding, DG_INT_NUMBER);
    dg_putc(s->o, ',');
    dg_int(s->o, instrs, DG_INT_NUMBER);
    dg_puts(s->o, s->mu->extra_chunk == 1 ? ",2," : ",1,");
    dg_int(s->o, p->edges[a].id, DG_INT_NUMBER);
    dg_puts(s->o, ",\"\"]");
}

/* ---- the document ---- */

void dg_write_trace(dg_program *pg, uint64_t size, tc_rng *rng, dg_out *o, dg_trace_stats *st,
                    struct dg_mutation *mu)
{
    (void)mu;
    dg_trace_stats dummy;
    if (!st)
        st = &dummy;
    memset(st, 0, sizeof *st);
    dg_puts(o, "{\"MAJOR_VERSION\":1,\"MINOR_VERSION\":0,\"PROCESSES\":[\n"
               " [\"PROCESS_ID\",\"STRING_DICTIONARY\",\"TRANSITION_TABLE\",\"THREAD_DATA\"]");
    uint32_t threads_left = 0;
    for (uint32_t pi = 0; pi < pg->nprocs; pi++)
        threads_left += pg->procs[pi].nthreads;
    for (uint32_t pi = 0; pi < pg->nprocs; pi++) {
        dg_proc *p = &pg->procs[pi];
        dg_codes codes;
        /* Rows of several edges in most processes, of one in some. */
        dg_codes_init(&codes, p, tc_rng_chance(rng, 1, 5) ? 1 : 2 + (uint32_t)tc_rng_below(rng, 7));
        sim s = {.pg = pg, .p = p, .c = &codes, .r = rng, .o = o, .st = st};
        s.stack = calloc(2 * (size_t)p->nroutines + 2, sizeof *s.stack);
        s.dict = calloc(DICT_MAX, sizeof *s.dict);
        if (!s.stack || !s.dict) {
            fputs("tracecheck: out of memory\n", stderr);
            abort();
        }
        uint64_t per_thread = size / threads_left;
        /* The sample run: frequencies for the codes. */
        s.sample = 1;
        s.boost = 0;
        for (uint32_t t = 0; t < p->nthreads; t++) {
            s.thread = t;
            s.budget = 500 + (per_thread < 20000 ? per_thread : 20000);
            run_thread(&s);
        }
        dg_codes_build(&codes, p);
        s.mu = pi == 0 ? mu : NULL;
        build_dict(&s);
        s.sample = 0;
        dg_puts(o, ",\n [");
        dg_int_r(o, s.mu && s.mu->pid_unknown ? 2000000000u : p->pid, rng, 0);
        dg_puts(o, ",\n  ");
        write_dict(&s);
        dg_puts(o, ",\n  ");
        write_table(&s);
        dg_puts(o, ",\n  [[\"THREAD_ID\",\"TRACE_DATA\"]");
        /* Threads in any order (doc §3.6). */
        uint32_t *order = calloc(p->nthreads, sizeof *order);
        if (!order)
            abort();
        for (uint32_t t = 0; t < p->nthreads; t++)
            order[t] = t;
        for (uint32_t t = p->nthreads; t > 1; t--) {
            uint32_t j = (uint32_t)tc_rng_below(rng, t), x = order[t - 1];
            order[t - 1] = order[j];
            order[j] = x;
        }
        for (uint32_t i = 0; i < p->nthreads; i++) {
            s.thread = order[i];
            /* What is left of the size, shared among the threads left (the
             * tables and the chunks' rows count too). */
            uint64_t left = size > o->total ? size - o->total : 0;
            per_thread = left / threads_left;
            s.budget = --threads_left ? per_thread / 2 + tc_rng_below(rng, per_thread + 1) : left;
            s.max_chunk = s.budget / 4 < 64 ? 64 : s.budget / 4 > (1u << 20) ? (1u << 20)
                                                                             : s.budget / 4;
            new_chunk_limit(&s);
            s.boost = 0;
            for (uint64_t b = s.budget >> 16; b && s.boost < 8; b >>= 2)
                s.boost++;
            s.preceding = 0;
            dg_puts(o, ",\n  [");
            dg_int_r(o, s.mu && s.mu->thread_unknown && s.thread == 0 ? p->nthreads : s.thread,
                     rng, 0);
            dg_puts(o, ",[[\"PRECEDING_INSTR_COUNT\",\"INSTR_COUNT\",\"EDGE_COUNT\","
                       "\"FIRST_EDGE_ID\",\"EDGE_ID_SEQUENCE\"]");
            s.thread_start = o->total;
            run_thread(&s);
            st->edges += s.edges;
            if (s.mu && s.mu->extra_chunk && s.thread == 0)
                extra_chunk(&s);
            dg_puts(o, "]]");
        }
        dg_puts(o, "]]");
        free(order);
        free(s.stack);
        free(s.dict);
        tc_bb_free(&s.seq);
        dg_codes_free(&codes);
    }
    dg_puts(o, "\n]}\n");
}
