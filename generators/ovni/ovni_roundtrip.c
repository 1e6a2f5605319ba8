#include <string.h>

#include "ovni_roundtrip.h"

int ovni_roundtrip_synth(tc_rng *choices, ovni_gen_params *used, ovni_mem_trace *out)
{
    ovni_gen_params p = {0};
    p.looms = 1 + (unsigned)tc_rng_below(choices, 3);
    p.procs = 1 + (unsigned)tc_rng_below(choices, 3);
    p.threads = 1 + (unsigned)tc_rng_below(choices, 3);
    unsigned order = (unsigned)tc_rng_below(choices, 3);
    p.big_endian = order == 1;
    p.mixed_byte_order = order == 2;
    p.size = tc_rng_below(choices, OVNI_ROUNDTRIP_MAX_SIZE + 1);
    /* Now and then threads that start later, up to 50 minutes (ruling 10
     * allows an hour): seconds apart is a trace like any other. */
    if (tc_rng_chance(choices, 1, 4))
        p.start_spread = tc_rng_range(choices, 1, OVNI_MAX_START_SPREAD);
    if (used)
        *used = p;
    tc_error err = TC_ERROR_INIT; /* the generator's reason, not kept: -1 says it */
    ovni_sink sink = {NULL, out};
    int rc = ovni_generate(&p, -1, choices, sink, NULL, &err);
    tc_error_free(&err);
    if (rc != 0) {
        ovni_mem_trace_free(out);
        return -1;
    }
    return 0;
}
