#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcfg_gen.h"
#include "dcfg_mutate.h"
#include "dtrc_writer.h"
#include "dcfg_writer.h"

void dcfg_mem_free(dcfg_mem *m)
{
    tc_bb_free(&m->dcfg);
    tc_bb_free(&m->trace);
}

char *dcfg_gen_path(const char *prefix, int trace)
{
    const char *ext = trace ? ".trace.json" : ".dcfg.json";
    size_t n = strlen(prefix) + strlen(ext) + 1;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s%s", prefix, ext);
    return s;
}

static int open_out(dg_out *o, const char *prefix, int trace, tc_bytebuf *mem, tc_error *err)
{
    memset(o, 0, sizeof *o);
    if (!prefix) {
        o->mem = mem;
        return 0;
    }
    char *path = dcfg_gen_path(prefix, trace);
    if (!path || !(o->f = fopen(path, "wb"))) {
        tc_error_set(err, "gen", "cannot write %s: %s", path ? path : prefix, strerror(errno));
        free(path);
        return -1;
    }
    free(path);
    return 0;
}

static int close_out(dg_out *o, const char *prefix, int trace, tc_error *err)
{
    dg_out_flush(o);
    if (!o->f)
        return 0;
    int bad = o->failed;
    if (fclose(o->f) != 0)
        bad = 1;
    o->f = NULL;
    if (bad) {
        char *path = dcfg_gen_path(prefix, trace);
        tc_error_set(err, "gen", "cannot write %s: %s", path ? path : prefix, strerror(errno));
        free(path);
        return -1;
    }
    return 0;
}

static int write_mem(const char *prefix, const dcfg_mem *m, tc_error *err)
{
    for (int t = 0; t < 2; t++) {
        const tc_bytebuf *b = t ? &m->trace : &m->dcfg;
        char *path = dcfg_gen_path(prefix, t);
        FILE *f = path ? fopen(path, "wb") : NULL;
        int bad = !f || (b->len && fwrite(b->p, 1, b->len, f) != b->len);
        if (f && fclose(f) != 0)
            bad = 1;
        if (bad) {
            tc_error_set(err, "gen", "cannot write %s: %s", path ? path : prefix, strerror(errno));
            free(path);
            return -1;
        }
        free(path);
    }
    return 0;
}

/* The bytes of the DCFG of a model of `routines` routines, built from
 * copies of the streams, as written before any thread ran (counts 0: the
 * few routines a run takes change the length little). */
static uint64_t dcfg_bytes_for(const dcfg_gen_params *p, tc_rng rm, tc_rng rl, uint64_t routines,
                               dg_out *count, tc_error *err)
{
    dg_program pg;
    if (dg_program_build(&pg, &rm, p->size, p->procs, p->threads, routines, err) != 0)
        return 0;
    memset(count, 0, sizeof *count); /* neither file nor memory: only counts */
    dg_write_dcfg(&pg, &rl, count, NULL);
    dg_program_free(&pg);
    return count->total;
}

/* How many routines make a DCFG of about p->dcfg_size bytes. A DCFG is
 * linear in its routines but for the digits of its ids, so a guess is
 * measured and scaled, and the scaled one measured and scaled again. */
static uint64_t routines_for(const dcfg_gen_params *p, const tc_rng *rm, const tc_rng *rl,
                             tc_error *err)
{
    dg_out *count = malloc(sizeof *count);
    if (!count) {
        tc_error_set(err, "gen", "out of memory");
        return 0;
    }
    uint64_t want = p->dcfg_size, n = want / 1500 + 1, got = 0;
    for (int round = 0; round < 2; round++) {
        if (!(got = dcfg_bytes_for(p, *rm, *rl, n, count, err)))
            break;
        double scaled = (double)n * (double)want / (double)got;
        if (scaled > (double)DG_MAX_ROUTINES * DCFG_GEN_MAX_PROCS)
            scaled = (double)DG_MAX_ROUTINES * DCFG_GEN_MAX_PROCS;
        n = scaled < 1 ? 1 : (uint64_t)scaled;
    }
    free(count);
    return got ? n : 0;
}

int dcfg_generate(const dcfg_gen_params *p, int violate, tc_rng *choices, dcfg_sink sink,
                  dcfg_gen_stats *stats, tc_error *err)
{
    dcfg_gen_stats dummy;
    const char *mut_prefix = NULL;
    if (!stats)
        stats = &dummy;
    memset(stats, 0, sizeof *stats);
    if (p->procs > DCFG_GEN_MAX_PROCS || p->threads > DCFG_GEN_MAX_THREADS) {
        tc_error_set(err, "gen", "at most %u processes and %u threads per process",
                     DCFG_GEN_MAX_PROCS, DCFG_GEN_MAX_THREADS);
        return -1;
    }
    const dcfg_mutator *mut = NULL;
    if (violate >= 0 && !(mut = dcfg_mutator_for((tc_rule_id)violate))) {
        tc_error_set(err, "gen", "%s has no DCFG mutator", tc_rules[violate].id);
        return -1;
    }
    /* A violation is made in memory (the edits need the whole text), then
     * written out. */
    dcfg_mem scratch = {0};
    if (mut && !sink.mem) {
        sink.mem = &scratch;
        mut_prefix = sink.prefix;
        sink.prefix = NULL;
    }
    /* Three independent streams of choices, so that the model, the run and
     * the DCFG's presentation do not shift one another. */
    tc_rng model, run, look;
    if (choices) {
        model = *choices;
    } else {
        tc_rng_seed(&model, p->seed);
        tc_rng_seed(&run, p->seed ^ 0x5eed0f7ace5ull);
        tc_rng_seed(&look, p->seed * 0x9e3779b97f4a7c15ull + 0xdcf6);
    }
    tc_rng *rm = choices ? choices : &model, *rr = choices ? choices : &run,
           *rl = choices ? choices : &look;
    uint64_t routines = 0;
    if (p->dcfg_size && !(routines = routines_for(p, rm, rl, err)))
        return -1;
    dg_program pg;
    if (dg_program_build(&pg, rm, p->size, p->procs, p->threads, routines, err) != 0)
        return -1;
    dg_out *trace = malloc(sizeof *trace), *dcfg = malloc(sizeof *dcfg);
    int rc = -1;
    if (!trace || !dcfg) {
        tc_error_set(err, "gen", "out of memory");
        goto done;
    }
    if (open_out(trace, sink.prefix, 1, sink.mem ? &sink.mem->trace : NULL, err) != 0)
        goto done;
    if (open_out(dcfg, sink.prefix, 0, sink.mem ? &sink.mem->dcfg : NULL, err) != 0) {
        close_out(trace, sink.prefix, 1, err);
        goto done;
    }
    dg_mutation mu;
    dg_mutation_init(&mu);
    if (mut && mut->plan && !mut->plan(&pg, &mu)) {
        tc_error_set(err, "gen", "%s: this program offers no way (try another seed)",
                     tc_rules[violate].id);
        goto done;
    }
    dg_trace_stats ts;
    dg_write_trace(&pg, p->size, rr, trace, &ts, mut ? &mu : NULL);
    dg_write_dcfg(&pg, rl, dcfg, mut ? &mu : NULL);
    stats->trace_bytes = trace->total;
    stats->dcfg_bytes = dcfg->total;
    int bad = close_out(trace, sink.prefix, 1, err);
    bad |= close_out(dcfg, sink.prefix, 0, err);
    if (bad)
        goto done;
    if (mut && mut->edit) {
        dcfg_mctx mc = {&sink.mem->dcfg, &sink.mem->trace, &pg, ""};
        if (!mut->edit(&mc)) {
            tc_error_set(err, "gen", "%s: %s", tc_rules[violate].id, mc.why);
            goto done;
        }
    }
    if (mut_prefix && write_mem(mut_prefix, sink.mem, err) != 0)
        goto done;
    stats->processes = pg.nprocs;
    for (uint32_t i = 0; i < pg.nprocs; i++) {
        stats->threads += pg.procs[i].nthreads;
        stats->blocks += pg.procs[i].nblocks;
        stats->edges += pg.procs[i].nedges;
    }
    stats->traversed = ts.edges;
    stats->chunks = ts.chunks;
    stats->repeats = ts.repeats;
    stats->dict_refs = ts.dict_refs;
    stats->multi_rows = ts.multi_rows;
    rc = 0;
done:
    dcfg_mem_free(&scratch);
    free(trace);
    free(dcfg);
    dg_program_free(&pg);
    return rc;
}
