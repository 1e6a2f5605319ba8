/*
 * The lean ovni metadata harness: one reading of a raw stream.json
 * (tc_ovni_meta_read: the strict JSON tokenizer, then ruling 6), uncapped,
 * judged by ovni_meta_oracle.h: ruling 6 and 9 judged again on the tokens,
 * the same findings and summary; findings at the line:column and JSON path
 * the bytes give. This is the harness for campaigns; ovni_meta replays each
 * input over every input path.
 *
 * Its mutator (json_mutator.c) mutates JSON values, not bytes.
 */
#include "../common/harness.h"
#include "../common/json_mutator.h"
#include "ovni_meta_oracle.h"
#include "ovni_events.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hx_source s;
    hx_open(&s, HX_RAW, data, size, 0);
    ov_meta_run run;
    ov_parse_meta(&run, hx_reader(&s), 0);
    hx_close(&s);
    omo_check(&run, data, size);
    ov_meta_run_free(&run);
    return 0;
}

HX_CUSTOM_MUTATOR(json_mutate, json_cross_over)
