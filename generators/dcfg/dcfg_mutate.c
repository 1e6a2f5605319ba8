#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcfg_mutate.h"

void dg_mutation_init(dg_mutation *mu)
{
    memset(mu, 0, sizeof *mu);
    mu->skip_cur = mu->rename_edge = mu->join_from = mu->join_to = DG_NONE;
    mu->long_counts = mu->last_off_block = mu->count_block = mu->add_block_image = DG_NONE;
    mu->omit_count_block = DG_NONE;
    mu->node_routine = mu->idom_block = mu->exit_routine = mu->move_routine = DG_NONE;
    mu->move_to = mu->loop = mu->loop_add_id = mu->loop_drop = DG_NONE;
    mu->loop_back_id = mu->loop_parent_id = DG_NONE;
}

/* ---- editing text ---- */

static char *find(tc_bytebuf *b, const char *needle, size_t from)
{
    size_t n = strlen(needle);
    for (size_t i = from; i + n <= b->len; i++)
        if (b->p[i] == (uint8_t)needle[0] && !memcmp(b->p + i, needle, n))
            return (char *)b->p + i;
    return NULL;
}

/* Replaces len bytes at pos with text. */
static void splice(tc_bytebuf *b, size_t pos, size_t len, const char *text, size_t n)
{
    size_t tail = b->len - pos - len;
    tc_bb_reserve(b, n > len ? n - len : 0);
    memmove(b->p + pos + n, b->p + pos + len, tail);
    memcpy(b->p + pos, text, n);
    b->len = pos + n + tail;
}

/* The first `from` becomes `to`; 0 when there is none. */
static int replace(dcfg_mctx *m, tc_bytebuf *b, const char *from, const char *to)
{
    char *at = find(b, from, 0);
    if (!at) {
        snprintf(m->why, sizeof m->why, "no '%.60s' in the document", from);
        return 0;
    }
    splice(b, (size_t)(at - (char *)b->p), strlen(from), to, strlen(to));
    return 1;
}

static int insert_after(dcfg_mctx *m, tc_bytebuf *b, const char *after, const char *text)
{
    char *at = find(b, after, 0);
    if (!at) {
        snprintf(m->why, sizeof m->why, "no '%.60s' in the document", after);
        return 0;
    }
    splice(b, (size_t)(at - (char *)b->p) + strlen(after), 0, text, strlen(text));
    return 1;
}

/* ---- spots in the model ---- */

/* An EXIT edge of process 0: never a current edge, so rows for it are
 * never used in decoding. */
static uint32_t exit_edge(const dg_program *pg)
{
    const dg_proc *p = &pg->procs[0];
    for (uint32_t e = 0; e < p->nedges; e++)
        if (p->edges[e].type == DG_EXIT)
            return e;
    return DG_NONE;
}

/* A table moved aside under an unknown key, a new one in its place. */
static int swap_symbols(dcfg_mctx *m, const char *table)
{
    char text[300];
    snprintf(text, sizeof text, "\"SYMBOLS\":%s,\"SYMBOLS_ASIDE\":", table);
    return replace(m, m->dcfg, "\"SYMBOLS\":", text);
}

/* A dictionary entry of process 0 that no sequence refers to. */
static int add_entry(dcfg_mctx *m, const char *entry)
{
    char *at = find(m->trace, "\n  {", 0);
    if (!at) {
        snprintf(m->why, sizeof m->why, "no dictionary");
        return 0;
    }
    size_t pos = (size_t)(at - (char *)m->trace->p) + 4;
    char text[2400];
    snprintf(text, sizeof text, "%s%s", entry, m->trace->p[pos] == '}' ? "" : ",");
    splice(m->trace, pos, 0, text, strlen(text));
    return 1;
}

/* Rows of the transition table for process 0's EXIT edge (never current). */
static int add_rows(dcfg_mctx *m, const char *fmt)
{
    uint32_t x = exit_edge(m->pg);
    if (x == DG_NONE) {
        snprintf(m->why, sizeof m->why, "no EXIT edge");
        return 0;
    }
    unsigned id = m->pg->procs[0].edges[x].id;
    char text[300];
    snprintf(text, sizeof text, fmt, id, id, id, id);
    return insert_after(m, m->trace, "[\"CURRENT_EDGE_ID\",\"TRANSITION_CODE\",\"NEXT_EDGE_IDS\"]",
                        text);
}

/* The span of the n-th line starting with `start` (a chunk "\n   [" or a
 * thread "\n  [" row), without its leading comma and newline. */
static int nth_line(tc_bytebuf *b, const char *start, size_t *pos, size_t *len)
{
    char *at = find(b, start, 0);
    if (!at)
        return 0;
    size_t s = (size_t)(at - (char *)b->p) + 1, e = s;
    while (e < b->len && b->p[e] != '\n')
        e++;
    *pos = s;
    *len = e - s;
    return 1;
}

/* ---- DCFG mutators ---- */

static int e_version_major(dcfg_mctx *m)
{
    return replace(m, m->dcfg, "{\"MAJOR_VERSION\":1,", "{\"MAJOR_VERSION\":2,");
}
static int e_version_zero(dcfg_mctx *m)
{
    return replace(m, m->dcfg, "{\"MAJOR_VERSION\":1,", "{\"MAJOR_VERSION\":0,");
}
static int e_version_missing(dcfg_mctx *m)
{
    return replace(m, m->dcfg, "{\"MAJOR_VERSION\":1,\n \"MINOR_VERSION\":0",
                   "{\"MINOR_VERSION\":0");
}
static int e_top_object(dcfg_mctx *m)
{
    splice(m->dcfg, 0, 0, "[", 1);
    splice(m->dcfg, m->dcfg->len, 0, "]", 1);
    return 1;
}
static int e_integer(dcfg_mctx *m)
{
    return replace(m, m->dcfg, "\"MINOR_VERSION\":0", "\"MINOR_VERSION\":0.5");
}
static int e_id_range(dcfg_mctx *m)
{
    return insert_after(m, m->dcfg, "[\"FILE_NAME_ID\",\"FILE_NAME\"]", ",\n  [0,\"/lib/zero\"]");
}
static int e_id_duplicate(dcfg_mctx *m)
{
    char text[80];
    snprintf(text, sizeof text, ",\n  [%u,\"/lib/again\"]", m->pg->file_id[1]);
    return insert_after(m, m->dcfg, "[\"FILE_NAME_ID\",\"FILE_NAME\"]", text);
}
static int e_table_tag(dcfg_mctx *m) { return replace(m, m->dcfg, "\"LINE_NUM\"", "\"Line_Num\""); }
static int e_type(dcfg_mctx *m)
{
    return insert_after(m, m->dcfg, "[\"FILE_NAME_ID\",\"FILE_NAME\"]", ",\n  [2147483000,5]");
}
static int e_table_shape(dcfg_mctx *m)
{
    return insert_after(m, m->dcfg, "[\"FILE_NAME_ID\",\"FILE_NAME\"]",
                        ",\n  {\"FILE_NAME_ID\":7}");
}
static int e_table_header(dcfg_mctx *m) { return swap_symbols(m, "[]"); }
static int e_column_missing(dcfg_mctx *m)
{
    return swap_symbols(m, "[[\"NAME\",\"ADDR_OFFSET\"],[\"x\",\"0x0\"]]");
}
static int e_column_duplicate(dcfg_mctx *m)
{
    return swap_symbols(m, "[[\"NAME\",\"ADDR_OFFSET\",\"SIZE\",\"NAME\"],[\"x\",\"0x0\",1]]");
}
static int e_row_long(dcfg_mctx *m)
{
    return swap_symbols(m, "[[\"NAME\",\"ADDR_OFFSET\",\"SIZE\"],[\"x\",\"0x0\",1,1]]");
}
static int e_row_short(dcfg_mctx *m)
{
    return swap_symbols(m, "[[\"NAME\",\"ADDR_OFFSET\",\"SIZE\"],[\"x\",\"0x0\"]]");
}
static int e_range_image(dcfg_mctx *m)
{
    return swap_symbols(m, "[[\"NAME\",\"ADDR_OFFSET\",\"SIZE\"],[\"x\",\"0x0\",4294967295]]");
}
static int e_edge_type_name(dcfg_mctx *m)
{
    return replace(m, m->dcfg, "\"UNKNOWN\"]", "\"UNKNOWN_KIND\"]");
}
static int e_special_name(dcfg_mctx *m)
{
    return insert_after(m, m->dcfg, "\"SPECIAL_NODES\":[[\"NODE_ID\",\"NODE_NAME\"]",
                        ",[2147483000,\"BEGIN\"]");
}
/* A block of process 0 whose id no other process uses (special nodes are
 * the document's, blocks each process's) also a special node. A reader
 * takes the edges into that id for edges into the special node, so the
 * block seems never entered: its COUNT (optional) is left out (plan). */
static uint32_t special_victim(const dg_program *pg)
{
    const dg_proc *p = &pg->procs[0];
    for (uint32_t b = 0; b < p->nblocks; b++) {
        int shared = 0;
        for (uint32_t i = 1; i < pg->nprocs && !shared; i++) {
            /* A process's block ids grow with its block indices. */
            const dg_proc *q = &pg->procs[i];
            uint32_t lo = 0, hi = q->nblocks;
            while (lo < hi) {
                uint32_t mid = lo + (hi - lo) / 2;
                if (q->blocks[mid].id < p->blocks[b].id)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            shared = lo < q->nblocks && q->blocks[lo].id == p->blocks[b].id;
        }
        if (!shared)
            return b;
    }
    return DG_NONE;
}
static int p_node_id_special(const dg_program *pg, dg_mutation *mu)
{
    mu->omit_count_block = special_victim(pg);
    return mu->omit_count_block != DG_NONE;
}
static int e_node_id_special(dcfg_mctx *m)
{
    char text[80];
    snprintf(text, sizeof text, ",[%u,\"UNKNOWN\"]",
             m->pg->procs[0].blocks[special_victim(m->pg)].id);
    return insert_after(m, m->dcfg, "\"SPECIAL_NODES\":[[\"NODE_ID\",\"NODE_NAME\"]", text);
}
static int e_file_name_ref(dcfg_mctx *m)
{
    return replace(m, m->dcfg, "\"FILE_NAME_ID\":", "\"FILE_NAME_ID\":2147483000,\"FILE_ASIDE\":");
}
static int e_instr_count_sum(dcfg_mctx *m)
{
    return replace(m, m->dcfg, "\"INSTR_COUNT\":", "\"INSTR_COUNT\":1,\"COUNT_ASIDE\":");
}
/* The ENTRY row of EDGE_TYPES taken out: the ENTRY edges name a type
 * that is not there (they leave START, in no routine). */
static int e_edge_type_ref(dcfg_mctx *m)
{
    char *at = find(m->dcfg, "\"ENTRY\"]", 0);
    if (!at) {
        snprintf(m->why, sizeof m->why, "no ENTRY type");
        return 0;
    }
    size_t end = (size_t)(at - (char *)m->dcfg->p) + 8, s = end;
    while (s > 0 && !(m->dcfg->p[s] == '[' && m->dcfg->p[s - 1] == ' '))
        s--;
    while (s > 0 && m->dcfg->p[s] != ',')
        s--;
    splice(m->dcfg, s, end - s, "", 0);
    return 1;
}

/* ---- DCFG-trace mutators ---- */

static int t_top_object(dcfg_mctx *m)
{
    splice(m->trace, 0, 0, "[", 1);
    splice(m->trace, m->trace->len, 0, "]", 1);
    return 1;
}
static int t_top_order(dcfg_mctx *m)
{
    return replace(m, m->trace, "{\"MAJOR_VERSION\":1,\"MINOR_VERSION\":0,",
                   "{\"MINOR_VERSION\":0,\"MAJOR_VERSION\":1,");
}
static int t_top_missing(dcfg_mctx *m) { return replace(m, m->trace, "\"MINOR_VERSION\":0,", ""); }
static int t_type(dcfg_mctx *m) { return add_entry(m, "\"zz\":5"); }
static int t_dict_key(dcfg_mctx *m) { return add_entry(m, "\"z/z\":\"A\""); }
static int t_seq_char(dcfg_mctx *m) { return add_entry(m, "\"zz\":\"A=\""); }
static int t_seq_dot(dcfg_mctx *m) { return add_entry(m, "\"zz\":\"A.\""); }
static int t_seq_repeat(dcfg_mctx *m) { return add_entry(m, "\"zz\":\"(A)\""); }
static int t_seq_paren(dcfg_mctx *m) { return add_entry(m, "\"zz\":\"(2*A\""); }
static int t_seq_count(dcfg_mctx *m) { return add_entry(m, "\"zz\":\"(99999999999999999999*A)\""); }
static int t_seq_key(dcfg_mctx *m) { return add_entry(m, "\"zz\":\"A<zy\""); }
static int t_seq_missing(dcfg_mctx *m) { return add_entry(m, "\"zz\":\"<zyx>\""); }
static int t_seq_cycle(dcfg_mctx *m) { return add_entry(m, "\"zz\":\"A<zy>\",\"zy\":\"B<zz>\""); }
static int t_seq_nesting(dcfg_mctx *m)
{
    char text[2200] = "\"zz\":\"";
    size_t n = strlen(text);
    for (int i = 0; i < 300; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "(2*");
    text[n++] = 'A';
    for (int i = 0; i < 300; i++)
        text[n++] = ')';
    text[n++] = '"';
    text[n] = '\0';
    return add_entry(m, text);
}
static int t_columns(dcfg_mctx *m)
{
    return replace(m, m->trace, "[\"THREAD_ID\",\"TRACE_DATA\"]", "[\"TRACE_DATA\",\"THREAD_ID\"]");
}
static int t_row_short(dcfg_mctx *m) { return add_rows(m, ",\n  [%u,\"0\"]"); }
static int t_row_long(dcfg_mctx *m) { return add_rows(m, ",\n  [%u,\"\",[%u],0]"); }
static int t_code_syntax(dcfg_mctx *m) { return add_rows(m, ",\n  [%u,\"2\",[%u]]"); }
static int t_code_duplicate(dcfg_mctx *m)
{
    return add_rows(m, ",\n  [%u,\"0\",[%u]],[%u,\"0\",[%u]]");
}
static int t_code_prefix(dcfg_mctx *m)
{
    return add_rows(m, ",\n  [%u,\"0\",[%u]],[%u,\"01\",[%u]]");
}
static int t_code_empty(dcfg_mctx *m)
{
    return add_rows(m, ",\n  [%u,\"\",[%u]],[%u,\"1\",[%u]]");
}
static int t_next_empty(dcfg_mctx *m) { return add_rows(m, ",\n  [%u,\"\",[]]"); }

/* The first process row, again. */
static int t_process_duplicate(dcfg_mctx *m)
{
    size_t s, n;
    if (!nth_line(m->trace, ",\n [", &s, &n))
        return 0;
    s++; /* past the comma: at the newline */
    char *end = find(m->trace, "\n]}", s);
    char *next = find(m->trace, ",\n [", s);
    size_t e = (size_t)((next && next < end ? next : end) - (char *)m->trace->p);
    char *copy = malloc(e - s + 2);
    if (!copy)
        return 0;
    copy[0] = ',';
    memcpy(copy + 1, m->trace->p + s, e - s);
    splice(m->trace, e, 0, copy, e - s + 1);
    free(copy);
    return 1;
}

/* The first thread row of process 0, again. */
static int t_thread_duplicate(dcfg_mctx *m)
{
    char *hdr = find(m->trace, "[\"THREAD_ID\",\"TRACE_DATA\"]", 0);
    if (!hdr)
        return 0;
    size_t s = (size_t)(hdr - (char *)m->trace->p) + 26 + 1; /* after ",": at "\n  [" */
    size_t e = s;
    /* The row ends before the next thread row or the end of THREAD_DATA. */
    for (e = s + 3; e + 3 < m->trace->len; e++)
        if (m->trace->p[e] == ',' && !memcmp(m->trace->p + e + 1, "\n  [", 4))
            break;
        else if (!memcmp(m->trace->p + e, "]]]]", 4)) {
            e += 3; /* the chunk's, TRACE_DATA's and the row's brackets */
            break;
        }
    char *copy = malloc(e - s + 2);
    if (!copy)
        return 0;
    copy[0] = ',';
    memcpy(copy + 1, m->trace->p + s, e - s);
    splice(m->trace, e, 0, copy, e - s + 1);
    free(copy);
    return 1;
}

/* The first chunk of a thread, again, right after it. */
static int t_chunk_order(dcfg_mctx *m)
{
    size_t s, n;
    if (!nth_line(m->trace, "\n   [", &s, &n))
        return 0;
    /* The row ends at the first '"]' (after its sequence). */
    char *q = find(m->trace, "\"]", s);
    if (!q)
        return 0;
    size_t e = (size_t)(q - (char *)m->trace->p) + 2;
    char *copy = malloc(e - s + 3);
    if (!copy)
        return 0;
    memcpy(copy, ",\n", 2);
    memcpy(copy + 2, m->trace->p + s, e - s);
    splice(m->trace, e, 0, copy, e - s + 2);
    free(copy);
    return 1;
}

/* A chunk's last character cut (its bits run out) or one added. */
static int seq_end(dcfg_mctx *m, int cut)
{
    for (char *at = find(m->trace, "\n   [", 0); at;
         at = find(m->trace, "\n   [", (size_t)(at - (char *)m->trace->p) + 1)) {
        size_t e = (size_t)(at - (char *)m->trace->p) + 1;
        while (e < m->trace->len && m->trace->p[e] != '\n')
            e++;
        while (m->trace->p[e - 1] != '"')
            e--;
        e--; /* the closing quote */
        uint8_t last = m->trace->p[e - 1];
        if (cut && last != '"' && last != ')' && last != '>') {
            splice(m->trace, e - 1, 1, "", 0);
            return 1;
        }
        if (!cut) {
            splice(m->trace, e, 0, "A", 1);
            return 1;
        }
    }
    snprintf(m->why, sizeof m->why, "no chunk ends with a Base64 character");
    return 0;
}
static int t_seq_short(dcfg_mctx *m) { return seq_end(m, 1); }
static int t_seq_leftover(dcfg_mctx *m) { return seq_end(m, 0); }

/* ---- plans for the trace writer ---- */

static int p_no_entry(const dg_program *pg, dg_mutation *mu)
{
    mu->skip_cur = pg->procs[0].entry_edge[0];
    return 1;
}
static int p_no_code(const dg_program *pg, dg_mutation *mu)
{
    (void)pg;
    mu->skip_coded = 1;
    return 1;
}
static int p_pair_process(const dg_program *pg, dg_mutation *mu)
{
    (void)pg;
    mu->pid_unknown = 1;
    return 1;
}
static int p_pair_thread(const dg_program *pg, dg_mutation *mu)
{
    (void)pg;
    mu->thread_unknown = 1;
    return 1;
}
static int p_pair_edge(const dg_program *pg, dg_mutation *mu)
{
    const dg_proc *p = &pg->procs[0];
    uint32_t max = 0;
    for (uint32_t e = 0; e < p->nedges; e++)
        max = p->edges[e].id > max ? p->edges[e].id : max;
    mu->rename_edge = p->entry_edge[0];
    mu->new_edge_id = max + 1;
    return 1;
}
static int p_pair_join(const dg_program *pg, dg_mutation *mu)
{
    mu->extra_chunk = 1;
    mu->join_from = exit_edge(pg);
    mu->join_to = pg->procs[0].outs[0]; /* leaves block 0, not END */
    return mu->join_from != DG_NONE && pg->procs[0].nouts > 0;
}
static int p_pair_instr(const dg_program *pg, dg_mutation *mu)
{
    (void)pg;
    mu->extra_chunk = 2;
    return 1;
}

/* ---- plans for the DCFG writer ----
 *
 * Each names the element whose change breaks its rule alone; why the rest
 * of ruling 12 still holds is said at each. Routine 0 is a thread's root
 * (a prologue, the main loop, an epilogue); routines 0 and 1 are in image 0
 * (routine i is in image i * nimages / nroutines, nimages <= nroutines / 6
 * + 1); a routine's entry is in no loop (loops start at a block after it). */

static uint32_t entry_id(const dg_proc *p, uint32_t r)
{
    return p->blocks[p->routines[r].first].id;
}

/* An id no node of any process has: above all of them. */
static uint32_t unused_node_id(const dg_program *pg)
{
    uint32_t max = pg->start_id > pg->end_id ? pg->start_id : pg->end_id;
    for (uint32_t i = 0; i < pg->nprocs; i++)
        for (uint32_t b = 0; b < pg->procs[i].nblocks; b++)
            max = pg->procs[i].blocks[b].id > max ? pg->procs[i].blocks[b].id : max;
    return max + 1;
}

/* An edge taken by no thread, of a type outside the routines' flow (ENTRY,
 * EXIT, calls), so that counts, dominators and the trace stay right. */
static void add_edge(dg_mutation *mu, uint32_t src, uint32_t dst, int type)
{
    mu->add_edge = 1;
    mu->add_src = src;
    mu->add_dst = dst;
    mu->add_type = (uint8_t)type;
}

static int p_node_ref(const dg_program *pg, dg_mutation *mu)
{
    const dg_proc *p = &pg->procs[0];
    add_edge(mu, entry_id(p, 0), unused_node_id(pg), DG_DIRECT_CALL);
    return 1;
}
static int p_entry_edge(const dg_program *pg, dg_mutation *mu)
{
    const dg_proc *p = &pg->procs[0];
    add_edge(mu, entry_id(p, 1), entry_id(p, 0), DG_ENTRY);
    return 1;
}
static int p_exit_edge(const dg_program *pg, dg_mutation *mu)
{
    const dg_proc *p = &pg->procs[0];
    add_edge(mu, p->blocks[p->exits[p->routines[0].exits_at]].id, entry_id(p, 0), DG_EXIT);
    return 1;
}
static int p_edge_threads(const dg_program *pg, dg_mutation *mu)
{
    (void)pg;
    mu->long_counts = 0; /* one more count, 0: every sum stays */
    return 1;
}
static int p_last_instr(const dg_program *pg, dg_mutation *mu)
{
    (void)pg;
    mu->last_off_block = 0;
    return 1;
}
static int p_block_count(const dg_program *pg, dg_mutation *mu)
{
    (void)pg;
    mu->count_block = 0;
    return 1;
}
/* The last routine written in another image's ROUTINES (one more image
 * when there is one): each of its nodes is then a block of another image.
 * Its blocks are still in one routine, its graph is unchanged. */
static int p_routine_image(const dg_program *pg, dg_mutation *mu)
{
    const dg_proc *p = &pg->procs[0];
    mu->move_routine = p->nroutines - 1;
    mu->move_to = p->routines[p->nroutines - 1].image == 0 ? p->nimages : 0;
    return 1;
}
/* A block no routine lists, at an offset no routine uses, never entered. */
static int p_routine_cover(const dg_program *pg, dg_mutation *mu)
{
    mu->add_block_image = pg->procs[0].routines[0].image;
    mu->add_block_id = unused_node_id(pg);
    return 1;
}
/* The same block, listed in routine 0: no edge enters it. */
static int p_routine_unreachable(const dg_program *pg, dg_mutation *mu)
{
    p_routine_cover(pg, mu);
    mu->node_routine = 0;
    mu->node_id = mu->add_block_id;
    mu->node_idom = entry_id(&pg->procs[0], 0);
    return 1;
}
/* Routine 0's entry also listed by routine 1 (same image, checked after
 * routine 0, so routine 1 is the one found sharing). */
static int p_routine_overlap(const dg_program *pg, dg_mutation *mu)
{
    const dg_proc *p = &pg->procs[0];
    if (p->routines[1].image != p->routines[0].image)
        return 0;
    mu->node_routine = 1;
    mu->node_id = entry_id(p, 0);
    mu->node_idom = entry_id(p, 1);
    return 1;
}
static int p_routine_entry(const dg_program *pg, dg_mutation *mu)
{
    const dg_proc *p = &pg->procs[0];
    mu->idom_block = p->routines[0].first;
    mu->idom_id = p->blocks[p->routines[0].first + 1].id; /* a root has many blocks */
    return 1;
}
/* Routine 1's entry among routine 0's exits. */
static int p_routine_exit(const dg_program *pg, dg_mutation *mu)
{
    mu->exit_routine = 0;
    mu->exit_id = entry_id(&pg->procs[0], 1);
    return 1;
}
/* A node whose immediate dominator is not the entry (the main loop's body
 * is dominated by its head), said to be dominated by the entry. */
static int p_routine_idom(const dg_program *pg, dg_mutation *mu)
{
    const dg_proc *p = &pg->procs[0];
    const dg_routine *rt = &p->routines[0];
    for (uint32_t v = rt->first + 1; v < rt->first + rt->nblocks; v++)
        if (p->blocks[v].idom != rt->first) {
            mu->idom_block = v;
            mu->idom_id = entry_id(p, 0);
            return 1;
        }
    return 0;
}

/* The first loop of any process for which ok() holds (dproc and loop set). */
static int find_loop(const dg_program *pg, dg_mutation *mu,
                     int (*ok)(const dg_proc *p, uint32_t l))
{
    for (uint32_t i = 0; i < pg->nprocs; i++)
        for (uint32_t l = 0; l < pg->procs[i].nloops; l++)
            if (ok(&pg->procs[i], l)) {
                mu->dproc = i;
                mu->loop = l;
                return 1;
            }
    return 0;
}
static int outer_loop(const dg_proc *p, uint32_t l) { return p->loops[l].parent == DG_NONE; }
static int inner_loop(const dg_proc *p, uint32_t l) { return p->loops[l].parent != DG_NONE; }
static uint32_t loop_routine(const dg_proc *p, uint32_t l)
{
    return p->blocks[p->loops[l].head].routine;
}

/* Another routine's entry among an outer loop's nodes (an outer loop: no
 * parent to contain the node). */
static int p_loop_routine(const dg_program *pg, dg_mutation *mu)
{
    if (!find_loop(pg, mu, outer_loop))
        return 0;
    const dg_proc *p = &pg->procs[mu->dproc];
    mu->loop_add_id = entry_id(p, (loop_routine(p, mu->loop) + 1) % p->nroutines);
    return 1;
}
/* The head left out of its loop's nodes (no inner loop holds its head). */
static int p_loop_members(const dg_program *pg, dg_mutation *mu)
{
    if (!find_loop(pg, mu, outer_loop))
        return 0;
    mu->loop_drop = pg->procs[mu->dproc].loops[mu->loop].head;
    return 1;
}
/* A loop node without an edge to the head named as the back-edge source. */
static uint32_t no_edge_to_head(const dg_proc *p, uint32_t l)
{
    const dg_loop *lp = &p->loops[l];
    for (uint32_t n = lp->first; n <= lp->last; n++) {
        if (p->blocks[n].term == DG_T_RET)
            continue;
        int edge = 0;
        for (uint32_t e = 0; e < p->nedges && !edge; e++)
            edge = p->edges[e].src == n && p->edges[e].dst == lp->head;
        if (!edge)
            return n;
    }
    return DG_NONE;
}
static int has_no_edge_node(const dg_proc *p, uint32_t l)
{
    return no_edge_to_head(p, l) != DG_NONE;
}
static int p_loop_back_edge(const dg_program *pg, dg_mutation *mu)
{
    if (!find_loop(pg, mu, has_no_edge_node))
        return 0;
    const dg_proc *p = &pg->procs[mu->dproc];
    mu->loop_back_id = p->blocks[no_edge_to_head(p, mu->loop)].id;
    return 1;
}
/* The routine's entry as a loop's parent: it heads no loop. */
static int p_loop_parent(const dg_program *pg, dg_mutation *mu)
{
    const dg_proc *p = &pg->procs[0];
    if (!p->nloops)
        return 0;
    mu->loop = 0;
    mu->loop_parent_id = entry_id(p, loop_routine(p, 0));
    return 1;
}
/* An inner loop given the routine's entry, which its parent lacks; without
 * inner loops, an outer loop said to be inside another (disjoint) one. */
static int two_outer(const dg_proc *p, uint32_t l)
{
    if (!outer_loop(p, l))
        return 0;
    for (uint32_t k = 0; k < p->nloops; k++)
        if (k != l && outer_loop(p, k) && loop_routine(p, k) == loop_routine(p, l))
            return 1;
    return 0;
}
static int p_loop_nesting(const dg_program *pg, dg_mutation *mu)
{
    if (find_loop(pg, mu, inner_loop)) {
        const dg_proc *p = &pg->procs[mu->dproc];
        mu->loop_add_id = entry_id(p, loop_routine(p, mu->loop));
        return 1;
    }
    if (!find_loop(pg, mu, two_outer))
        return 0;
    const dg_proc *p = &pg->procs[mu->dproc];
    for (uint32_t k = 0; k < p->nloops; k++)
        if (k != mu->loop && outer_loop(p, k) && loop_routine(p, k) == loop_routine(p, mu->loop)) {
            mu->loop_parent_id = p->blocks[p->loops[k].head].id;
            break;
        }
    return 1;
}

#define R(name) TC_RULE_##name
static const dcfg_mutator table[] = {
    {R(DCFG_INTEGER), "dcfg", "MINOR_VERSION 0.5", NULL, e_integer},
    {R(DCFG_ID_RANGE), "dcfg", "a FILE_NAMES row with id 0", NULL, e_id_range},
    {R(DCFG_TABLE_TAG), "dcfg", "SOURCE_DATA header tag \"Line_Num\"", NULL, e_table_tag},
    {R(DCFG_VERSION_MAJOR), "dcfg", "MAJOR_VERSION 2", NULL, e_version_major},
    {R(DCFG_VERSION_ZERO), "dcfg", "MAJOR_VERSION 0", NULL, e_version_zero},
    {R(DCFG_TOP_OBJECT), "dcfg", "the document inside an array", NULL, e_top_object},
    {R(DCFG_VERSION_MISSING), "dcfg", "MAJOR_VERSION left out", NULL, e_version_missing},
    {R(DCFG_TYPE), "dcfg", "a FILE_NAME that is a number", NULL, e_type},
    {R(DCFG_TABLE_SHAPE), "dcfg", "an object as a FILE_NAMES row", NULL, e_table_shape},
    {R(DCFG_TABLE_HEADER), "dcfg", "an empty SYMBOLS table (the real one set aside)", NULL,
     e_table_header},
    {R(DCFG_COLUMN_MISSING), "dcfg", "a SYMBOLS table without SIZE", NULL, e_column_missing},
    {R(DCFG_COLUMN_DUPLICATE), "dcfg", "a SYMBOLS header naming NAME twice", NULL,
     e_column_duplicate},
    {R(DCFG_ROW_LONG), "dcfg", "a symbol row of 4 values under 3 columns", NULL, e_row_long},
    {R(DCFG_ROW_SHORT), "dcfg", "a symbol row without SIZE", NULL, e_row_short},
    {R(DCFG_ID_DUPLICATE), "dcfg", "a FILE_NAMES row repeating an id", NULL, e_id_duplicate},
    {R(DCFG_EDGE_TYPE_NAME), "dcfg", "the unused type UNKNOWN renamed UNKNOWN_KIND", NULL,
     e_edge_type_name},
    {R(DCFG_SPECIAL_NODE_NAME), "dcfg", "a special node named BEGIN", NULL, e_special_name},
    {R(DCFG_FILE_NAME_REF), "dcfg", "an image's FILE_NAME_ID not in FILE_NAMES", NULL,
     e_file_name_ref},
    {R(DCFG_EDGE_TYPE_REF), "dcfg", "the ENTRY row of EDGE_TYPES left out", NULL,
     e_edge_type_ref},
    {R(DCFG_NODE_ID_SPECIAL), "dcfg", "a special node with a block's id (its COUNT left out)",
     p_node_id_special, e_node_id_special},
    {R(DCFG_INSTR_COUNT_SUM), "dcfg", "INSTR_COUNT 1", NULL, e_instr_count_sum},
    {R(DCFG_RANGE_IMAGE), "dcfg", "a symbol 4 GiB long", NULL, e_range_image},
    {R(DCFG_NODE_REF), "dcfg", "an added edge (never taken) to a node defined nowhere",
     p_node_ref, NULL},
    {R(DCFG_ENTRY_EDGE), "dcfg", "an added ENTRY edge (never taken) leaving a block",
     p_entry_edge, NULL},
    {R(DCFG_EXIT_EDGE), "dcfg", "an added EXIT edge (never taken) entering a block",
     p_exit_edge, NULL},
    {R(DCFG_EDGE_THREADS), "dcfg", "an edge's COUNT_PER_THREAD with one more (0) count",
     p_edge_threads, NULL},
    {R(DCFG_LAST_INSTR_OFFSET), "dcfg", "a block's LAST_INSTR_OFFSET equal to its SIZE",
     p_last_instr, NULL},
    {R(DCFG_BLOCK_COUNT), "dcfg", "a block's COUNT one more than its incoming edges",
     p_block_count, NULL},
    {R(DCFG_ROUTINE_IMAGE), "dcfg", "a routine listed in another image's ROUTINES",
     p_routine_image, NULL},
    {R(DCFG_ROUTINE_COVER), "dcfg", "an added block (never entered) in no routine",
     p_routine_cover, NULL},
    {R(DCFG_ROUTINE_OVERLAP), "dcfg", "a routine's entry also among another routine's NODES",
     p_routine_overlap, NULL},
    {R(DCFG_ROUTINE_ENTRY), "dcfg", "a routine entry's IDOM_NODE_ID naming another node",
     p_routine_entry, NULL},
    {R(DCFG_ROUTINE_EXIT), "dcfg", "another routine's entry among EXIT_NODE_IDS",
     p_routine_exit, NULL},
    {R(DCFG_ROUTINE_UNREACHABLE), "dcfg", "an added block among a routine's NODES, no edge in",
     p_routine_unreachable, NULL},
    {R(DCFG_ROUTINE_IDOM), "dcfg", "a node's IDOM_NODE_ID naming the entry, not its dominator",
     p_routine_idom, NULL},
    {R(DCFG_LOOP_ROUTINE), "dcfg", "another routine's entry among an outer loop's nodes",
     p_loop_routine, NULL},
    {R(DCFG_LOOP_MEMBERS), "dcfg", "a loop's head left out of its LOOP_NODE_IDS",
     p_loop_members, NULL},
    {R(DCFG_LOOP_BACK_EDGE), "dcfg", "a loop node without an edge to the head as back-edge source",
     p_loop_back_edge, NULL},
    {R(DCFG_LOOP_PARENT), "dcfg", "a loop's parent named as the routine's entry (heads no loop)",
     p_loop_parent, NULL},
    {R(DCFG_LOOP_NESTING), "dcfg",
     "an inner loop's nodes with one its parent lacks (or a disjoint loop as parent)",
     p_loop_nesting, NULL},
    {R(DTRC_TOP_OBJECT), "trace", "the document inside an array", NULL, t_top_object},
    {R(DTRC_TOP_ORDER), "trace", "MINOR_VERSION before MAJOR_VERSION", NULL, t_top_order},
    {R(DTRC_TOP_MISSING), "trace", "MINOR_VERSION left out", NULL, t_top_missing},
    {R(DTRC_TYPE), "trace", "a dictionary value that is a number", NULL, t_type},
    {R(DTRC_COLUMNS), "trace", "THREAD_DATA columns swapped", NULL, t_columns},
    {R(DTRC_ROW_SHORT), "trace", "a transition row without NEXT_EDGE_IDS", NULL, t_row_short},
    {R(DTRC_ROW_LONG), "trace", "a transition row of 4 values", NULL, t_row_long},
    {R(DTRC_PROCESS_DUPLICATE), "trace", "the first process row twice", NULL,
     t_process_duplicate},
    {R(DTRC_THREAD_DUPLICATE), "trace", "a thread row twice", NULL, t_thread_duplicate},
    {R(DTRC_CHUNK_ORDER), "trace", "a chunk row twice in a row", NULL, t_chunk_order},
    {R(DTRC_DICT_KEY), "trace", "a dictionary key with '/'", NULL, t_dict_key},
    {R(DTRC_CODE_SYNTAX), "trace", "a code \"2\" (for an EXIT edge, never current)", NULL,
     t_code_syntax},
    {R(DTRC_CODE_DUPLICATE), "trace", "two codes \"0\" of one edge", NULL, t_code_duplicate},
    {R(DTRC_CODE_PREFIX), "trace", "codes \"0\" and \"01\" of one edge", NULL, t_code_prefix},
    {R(DTRC_CODE_EMPTY), "trace", "codes \"\" and \"1\" of one edge", NULL, t_code_empty},
    {R(DTRC_NEXT_EMPTY), "trace", "an empty NEXT_EDGE_IDS", NULL, t_next_empty},
    {R(DTRC_SEQ_CHAR), "trace", "a dictionary value with '='", NULL, t_seq_char},
    {R(DTRC_SEQ_DOT), "trace", "a dictionary value with '.'", NULL, t_seq_dot},
    {R(DTRC_SEQ_REPEAT), "trace", "a repeat without count: (A)", NULL, t_seq_repeat},
    {R(DTRC_SEQ_PAREN), "trace", "an unclosed repeat: (2*A", NULL, t_seq_paren},
    {R(DTRC_SEQ_COUNT), "trace", "a repeat count of 10^20", NULL, t_seq_count},
    {R(DTRC_SEQ_KEY), "trace", "an unclosed reference: <zy", NULL, t_seq_key},
    {R(DTRC_SEQ_MISSING), "trace", "a reference to a missing key", NULL, t_seq_missing},
    {R(DTRC_SEQ_CYCLE), "trace", "two entries referring to each other", NULL, t_seq_cycle},
    {R(DTRC_SEQ_NESTING), "trace", "repeats nested 300 deep", NULL, t_seq_nesting},
    {R(DTRC_SEQ_SHORT), "trace", "a chunk's last character cut", NULL, t_seq_short},
    {R(DTRC_SEQ_LEFTOVER), "trace", "a character added to a chunk", NULL, t_seq_leftover},
    {R(DTRC_SEQ_NO_CODE), "trace", "only the last code of each edge kept", p_no_code, NULL},
    {R(DTRC_SEQ_NO_ENTRY), "trace", "the rows of an ENTRY edge left out", p_no_entry, NULL},
    {R(DTRC_PAIR_PROCESS), "trace", "a PROCESS_ID the DCFG lacks", p_pair_process, NULL},
    {R(DTRC_PAIR_THREAD), "trace", "a THREAD_ID equal to the thread count", p_pair_thread, NULL},
    {R(DTRC_PAIR_EDGE), "trace", "an ENTRY edge written with an id the DCFG lacks",
     p_pair_edge, NULL},
    {R(DTRC_PAIR_JOIN), "trace", "an added chunk: an EXIT edge, then an edge from a block",
     p_pair_join, NULL},
    {R(DTRC_PAIR_INSTR_COUNT), "trace", "an added chunk whose INSTR_COUNT is one too many",
     p_pair_instr, NULL},
};
#undef R

const dcfg_mutator *dcfg_mutator_for(tc_rule_id rule)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].rule == rule)
            return &table[i];
    return NULL;
}

size_t dcfg_mutator_count(void) { return sizeof table / sizeof table[0]; }

const dcfg_mutator *dcfg_mutator_at(size_t i)
{
    return i < dcfg_mutator_count() ? &table[i] : NULL;
}
