/*
 * The deep JSON harness: tracecheck's strict JSON tokenizer
 * (parsers/common/json.c) on raw bytes, many times over, and against
 * cJSON. Besides crashes, leaks and undefined behaviour (the sanitizers), it
 * checks that:
 *
 *  - tokens and findings are what RFC 8259 and the tokenizer's contract say
 *    of the bytes (json_oracle.h);
 *  - every input path gives the same tokens and findings: memory, read()
 *    with tiny windows, sliding mmap windows; and skipping containers with
 *    tc_json_skip (as the ovni metadata reader does) changes nothing but
 *    which tokens are returned;
 *  - tracecheck and cJSON agree, up to the classes of
 *    json_cjson_allowlist.h, and again on the input rewritten as cJSON read
 *    it, for up to eight rounds (json_cjson_oracle.h).
 *
 * json_lean runs the oracles on one tokenization (one round of cJSON).
 */
#include <stdio.h>

#include "harness.h"
#include "json_events.h"
#include "json_mutator.h"
#include "json_oracle.h"
#include "json_cjson_oracle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hx_rng rng;
    hx_rng_init(&rng, data, size);
    jrun base, other;
    hx_source s;
    hx_open(&s, HX_RAW, data, size, 0);
    js_tokenize(&base, hx_reader(&s), 0, 1);
    hx_close(&s);
    jo_check_run(&base, data, size);

    hx_open(&s, HX_RAW, data, size, 0);
    js_tokenize(&other, hx_reader(&s), (uint32_t)hx_rng_next(&rng) | 1, 1);
    hx_close(&s);
    js_assert_skip(&base, &other);
    jrun_free(&other);

    /* Through files: read() with tiny windows, and sliding mmap windows
     * (every other input). A compressed input would be decompressed there. */
    for (hx_path path = HX_READ; path <= HX_MMAP && !hx_compressed(data, size); path++) {
        size_t w = hx_pick_window(&rng, path);
        if (path == HX_MMAP && hx_rng_below(&rng, 2))
            continue;
        if (!hx_open(&s, path, data, size, w))
            break;
        js_tokenize(&other, hx_reader(&s), 0, 1);
        hx_close(&s);
        char what[64];
        snprintf(what, sizeof what, "%s (window %zu)", hx_path_name(path), w);
        js_assert_same(&base, "memory", &other, what);
        jrun_free(&other);
    }
    jc_differential(&base, data, size, 8);
    jrun_free(&base);
    return 0;
}

HX_CUSTOM_MUTATOR(json_mutate, json_cross_over)
