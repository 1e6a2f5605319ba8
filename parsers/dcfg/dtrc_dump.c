/*
 * The canonical dump of a DCFG-trace (spec/canonical-dump.md): a header,
 * one line per process, one per chunk, and the chunk's decoded edges in
 * lines of at most TC_DTRC_DUMP_PIECE ids, so that no line grows with the
 * chunk however many edges its repeats stand for; at most
 * TC_DTRC_DUMP_MAX_EDGES of them, then a "truncated" line.
 */

#include "../common/dump.h"
#include "dtrc.h"

void tc_dtrc_dump(tc_jsonl *w, const void *event)
{
    const tc_dtrc_event *e = event;
    switch (e->kind) {
    case TC_DTRC_EV_HEADER:
        tc_jl_begin(w, "header");
        tc_jl_str(w, "format", "dcfg-trace");
        tc_jl_int(w, "dump_version", TC_DUMP_VERSION);
        if (e->has_version) {
            tc_jl_u64s(w, "major", e->major);
            tc_jl_u64s(w, "minor", e->minor);
        } else {
            tc_jl_null(w, "major");
            tc_jl_null(w, "minor");
        }
        break;
    case TC_DTRC_EV_PROCESS:
        tc_jl_begin(w, "process");
        tc_jl_u64s(w, "pid", e->pid);
        break;
    case TC_DTRC_EV_CHUNK:
        tc_jl_begin(w, "chunk");
        tc_jl_u64s(w, "pid", e->pid);
        tc_jl_u64s(w, "thread", e->thread);
        tc_jl_u64s(w, "preceding_instr_count", e->preceding);
        tc_jl_u64s(w, "instr_count", e->instrs);
        tc_jl_u64s(w, "edge_count", e->edge_count);
        break;
    case TC_DTRC_EV_TRUNCATED:
        tc_jl_begin(w, "truncated");
        tc_jl_u64s(w, "pid", e->pid);
        tc_jl_u64s(w, "thread", e->thread);
        tc_jl_u64s(w, "index", e->index);
        tc_jl_u64s(w, "edge_count", e->edge_count);
        break;
    default:
        /* Ids are below 2^31: JSON numbers, exact in any reader. */
        tc_jl_begin(w, "edges");
        tc_jl_u64s(w, "index", e->index);
        tc_jl_u32_array(w, "ids", e->ids, e->nids);
        break;
    }
    tc_jl_end(w);
}
