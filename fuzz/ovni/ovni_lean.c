/*
 * The lean ovni harness: one parse of a raw stream.obs through the stream
 * and model calls a whole trace's check makes, with payloads and the repeat cap,
 * without metadata or with metadata from the seeded source (a thread or
 * not, the models required, ovni's own at an incompatible version), judged
 * by ovni_stream_oracle.h's reading of the stream from spec/ovni/ovni.md: the
 * same events, field by field, and the same findings, rule, offset and
 * length, in order; every event re-encodes to the input's bytes; findings
 * are well formed and located. This is the harness for campaigns;
 * ovni_stream replays each input over every input path and option.
 *
 * Its mutator (ovni_mutator.c) mutates events, not bytes.
 */
#include "../common/harness.h"
#include "ovni_stream_oracle.h"
#include "ovni_events.h"
#include "ovni_mutator.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hx_rng rng;
    hx_rng_init(&rng, data, size);
    tc_ovni_meta meta;
    ovni_oracle_view v = {1, 0, NULL, 0, 0, NULL}; /* no metadata: a thread's stream, any model */
    int with_meta = (int)hx_rng_below(&rng, 2);
    if (with_meta)
        ovni_oracle_pick_meta(&meta, &v, &rng);
    const ov_opts o = {.payloads = 1, .models = 1, .meta = with_meta ? &meta : NULL, .keep = 1,
                       .max_repeats = TC_DEFAULT_MAX_REPEATS};
    ov_run run;
    ov_parse_stream_path(&run, HX_RAW, data, size, 0, &o);
    hx_check_well_formed(&run.f, "OVNI");
    hx_check_binary_locations(&run.f, size, NULL);
    ovni_oracle_check_stream(&run, data, size, &v, 1, with_meta ? "with metadata" : "without metadata");
    ovni_oracle_check_reencode(&run, data, size);
    ov_run_free(&run);
    return 0;
}

HX_CUSTOM_MUTATOR(ovni_mutate, ovni_cross_over)
