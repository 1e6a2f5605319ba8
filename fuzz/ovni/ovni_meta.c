/*
 * The deep ovni metadata harness: the strict JSON tokenizer and the checks
 * of ruling 6 (parsers/ovni/ovni_meta.c) on raw bytes (a stream.json).
 * Besides crashes, leaks and undefined behaviour (the sanitizers), it checks
 * that:
 *
 *  - the reader judges the document as ruling 6 does, and locates its
 *    findings as the bytes say (ovni_meta_oracle.h);
 *  - every input path gives the same findings and the same summary of the
 *    metadata (ids, loom, CPUs, models, where each was): memory, read()
 *    with tiny windows, sliding mmap windows;
 *  - the default repeat cap changes nothing an input of this size reaches.
 *
 * ovni_meta_lean runs the oracle on one reading, for speed.
 */
#include <stdio.h>

#include "../common/harness.h"
#include "../common/json_mutator.h"
#include "ovni_meta_oracle.h"
#include "ovni_events.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hx_rng rng;
    hx_rng_init(&rng, data, size);
    ov_meta_run base, other;
    hx_source s;
    hx_open(&s, HX_RAW, data, size, 0);
    ov_parse_meta(&base, hx_reader(&s), 0);
    hx_close(&s);
    omo_check(&base, data, size);

    hx_open(&s, HX_RAW, data, size, 0);
    ov_parse_meta(&other, hx_reader(&s), TC_DEFAULT_MAX_REPEATS);
    hx_close(&s);
    FUZZ_ASSERT(other.f.n <= base.f.n);
    ov_meta_run_free(&other);

    for (hx_path path = HX_READ; path <= HX_MMAP && !hx_compressed(data, size); path++) {
        size_t w = hx_pick_window(&rng, path);
        if (path == HX_MMAP && hx_rng_below(&rng, 2))
            continue;
        if (!hx_open(&s, path, data, size, w))
            break;
        ov_parse_meta(&other, hx_reader(&s), 0);
        hx_close(&s);
        char what[64];
        snprintf(what, sizeof what, "%s (window %zu)", hx_path_name(path), w);
        hx_assert_same(&base.f, "memory", &other.f, what);
        const char *diff = ov_meta_difference(&base.meta, &other.meta);
        FUZZ_ASSERT_MSG(!diff, "%s: the summary's %s differs from memory's", what, diff);
        FUZZ_ASSERT_MSG(base.end_pos == other.end_pos, "%s stops elsewhere than memory", what);
        ov_meta_run_free(&other);
    }
    ov_meta_run_free(&base);
    return 0;
}

HX_CUSTOM_MUTATOR(json_mutate, json_cross_over)
