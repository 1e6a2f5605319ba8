#include "dcfg_roundtrip.h"

int dcfg_roundtrip_synth(tc_rng *choices, dcfg_gen_params *used, dcfg_mem *out,
                         dcfg_gen_stats *stats)
{
    dcfg_gen_params p = {0};
    p.procs = 1 + (unsigned)tc_rng_below(choices, 2);
    p.threads = 1 + (unsigned)tc_rng_below(choices, 3);
    p.size = tc_rng_below(choices, DCFG_ROUNDTRIP_MAX_SIZE + 1);
    if (used)
        *used = p;
    char err[300];
    dcfg_sink sink = {NULL, out};
    if (dcfg_generate(&p, -1, choices, sink, stats, err, sizeof err) != 0) {
        dcfg_mem_free(out);
        return -1;
    }
    return 0;
}
