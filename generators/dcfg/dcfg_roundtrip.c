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
    tc_error err = TC_ERROR_INIT; /* the generator's reason, not kept: -1 says it */
    dcfg_sink sink = {NULL, out};
    int rc = dcfg_generate(&p, -1, choices, sink, stats, &err);
    tc_error_free(&err);
    if (rc != 0) {
        dcfg_mem_free(out);
        return -1;
    }
    return 0;
}
