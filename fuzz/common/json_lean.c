/*
 * The lean JSON harness: one tokenization of the raw bytes by tracecheck's
 * strict tokenizer, judged by json_oracle.h (tokens and findings as RFC
 * 8259 says of the bytes: place, nesting, numbers, decoded strings,
 * repeated keys, the BOM) and by cJSON (json_cjson_oracle.h: the same
 * values, or a difference of a listed class; one round, no rewriting). This
 * is the harness for campaigns; json_tokens replays each input over every
 * input path, with tc_json_skip, and with cJSON's rewritten rounds.
 *
 * Its mutator (json_mutator.c) mutates JSON values, not bytes.
 */
#include "harness.h"
#include "json_events.h"
#include "json_mutator.h"
#include "json_oracle.h"
#include "json_cjson_oracle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    jrun run;
    hx_source s;
    hx_open(&s, HX_RAW, data, size, 0);
    js_tokenize(&run, hx_reader(&s), 0, 0);
    hx_close(&s);
    jo_check_run(&run, data, size);
    jc_differential(&run, data, size, 1);
    jrun_free(&run);
    return 0;
}

HX_CUSTOM_MUTATOR(json_mutate, json_cross_over)
