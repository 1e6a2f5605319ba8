/*
 * The DCFG kept for pairing with a DCFG-trace (ruling 13): the checked
 * document itself, its id tables sorted, so lookups are binary searches.
 */
#include <stdlib.h>

#include "dcfg_doc.h"
#include "dcfg_model.h"

struct tc_dcfg_model {
    tc_dcfg_doc doc;
};

tc_dcfg_model *tc_dcfg_model_load(tc_reader *r, tc_diag_sink *d)
{
    tc_dcfg_model *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->doc.d = d;
    tc_dcfg_read(r, &m->doc);
    if (m->doc.broken) {
        tc_dcfg_doc_free(&m->doc);
        free(m);
        return NULL;
    }
    tc_dcfg_check(&m->doc);
    return m;
}

void tc_dcfg_model_free(tc_dcfg_model *m)
{
    if (!m)
        return;
    tc_dcfg_doc_free(&m->doc);
    free(m);
}

static const tc_dcfg_proc *proc(const tc_dcfg_model *m, uint64_t pid)
{
    size_t lo = 0, hi = m->doc.procs.n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->doc.procs.v[mid].pid < pid)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < m->doc.procs.n && m->doc.procs.v[lo].pid == pid ? &m->doc.procs.v[lo] : NULL;
}

int tc_dcfg_model_process(const tc_dcfg_model *m, uint64_t pid, uint64_t *threads)
{
    const tc_dcfg_proc *p = proc(m, pid);
    if (threads)
        *threads = p && p->has_threads ? p->nthreads : 0;
    return p != NULL;
}

int tc_dcfg_model_edge(const tc_dcfg_model *m, uint64_t pid, uint64_t edge_id, uint64_t *source,
                       uint64_t *target)
{
    const tc_dcfg_proc *p = proc(m, pid);
    if (!p || edge_id > UINT32_MAX)
        return 0;
    long e = tc_dcfg_find_edge(p, (uint32_t)edge_id);
    if (e < 0)
        return 0;
    if (source)
        *source = p->edges.v[e].source;
    if (target)
        *target = p->edges.v[e].target;
    return 1;
}

uint64_t tc_dcfg_model_node_instrs(const tc_dcfg_model *m, uint64_t pid, uint64_t node_id)
{
    const tc_dcfg_proc *p = proc(m, pid);
    if (!p || node_id > UINT32_MAX)
        return 0;
    long b = tc_dcfg_find_block(p, (uint32_t)node_id);
    return b >= 0 && (p->blocks.v[b].has & TC_DCFG_B_NINSTRS) ? p->blocks.v[b].ninstrs : 0;
}
