/*
 * The deep ovni stream harness: the stream parser and model layer on raw
 * bytes (a stream.obs), many times over. Besides crashes, leaks and
 * undefined behaviour (the sanitizers), it checks that:
 *
 *  - the parser reads the stream as spec/ovni/ovni.md says (ovni_stream_oracle.h:
 *    the same events, field by field, and the same findings, rule, offset
 *    and length, in order), without metadata and with metadata picked from
 *    the seeded source (a thread or not, which of every model are required,
 *    some at an incompatible version), and every event re-encodes to the
 *    input's bytes;
 *  - every input path gives the same result: memory, read() with tiny
 *    windows, sliding mmap windows; the library's entry point (which keeps
 *    payloads and writes the canonical dump) and the stream calls a whole
 *    trace's check makes; the stream layer with payloads and without;
 *  - options change only what they should: without the model layer only its
 *    findings go; with the default repeat cap each rule stops at the cap
 *    with one TC-DIAG-SUPPRESSED note;
 *  - findings are well formed (OVNI rules with the catalogue's severity,
 *    one-line messages, located inside the input), and the canonical dump is
 *    strict JSON, one line per record, exactly the schema's lines
 *    (ovni_dump_oracle.h).
 *
 * ovni_lean runs the spec's reading on one parse, for speed. Both mutate
 * inputs event by event (ovni_mutator.c).
 */
#include <stdio.h>
#include <string.h>

#include "../common/harness.h"
#include "ovni_dump_oracle.h"
#include "ovni_stream_oracle.h"
#include "ovni_events.h"
#include "ovni_mutator.h"

/* The library's entry point reads what starts like a JSON object as
 * metadata (ovni_trace.c: after a BOM and white space, a '{'). */
static int read_as_metadata(const uint8_t *data, size_t size)
{
    if (size >= 4 && memcmp(data, "ovni", 4) == 0)
        return 0;
    size_t i = size >= 3 && data[0] == 0xef && data[1] == 0xbb && data[2] == 0xbf ? 3 : 0;
    while (i < size && i < 64 && strchr(" \t\n\r", data[i]) && data[i])
        i++;
    return i < size && i < 64 && data[i] == '{';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const ovni_oracle_view plain = {1, 0, NULL, 0, 0, NULL}; /* no metadata: a thread's stream, any model */
    hx_rng rng;
    hx_rng_init(&rng, data, size);
    int as_meta = read_as_metadata(data, size);

    ov_run entry, base, other; /* entry: tc_ovni_parse, as validate reads a file */
    const ov_opts entry_opts = {.library = 1, .models = 1, .keep = 1, .hash = 1, .dump = 1};
    ov_parse_stream_path(&entry, HX_RAW, data, size, 0, &entry_opts);
    hx_check_well_formed(&entry.f, as_meta ? "OVNI TC" : "OVNI");

    /* As a whole trace's check reads it, with payloads: the base run. */
    const ov_opts base_opts = {.payloads = 1, .models = 1, .keep = 1, .hash = 1};
    ov_parse_stream_path(&base, HX_RAW, data, size, 0, &base_opts);
    hx_check_well_formed(&base.f, "OVNI");
    hx_check_binary_locations(&base.f, size, NULL);
    ovni_oracle_check_stream(&base, data, size, &plain, 1, "the stream calls");
    ovni_oracle_check_reencode(&base, data, size);
    if (!as_meta) {
        ov_assert_same_runs(&entry, "tc_ovni_parse", &base, "the stream calls", 1);
        ovni_oracle_check_dump(&entry);
    }

    /* Without payloads: jumbo data is skipped, not held, so the model layer
     * cannot read a jumbo event's string; everything else is the same. */
    const ov_opts quiet = {.keep = 1, .hash = 1};
    const ov_opts loud = {.payloads = 1, .keep = 1, .hash = 1};
    ov_run held;
    ov_parse_stream_path(&other, HX_RAW, data, size, 0, &quiet);
    ov_parse_stream_path(&held, HX_RAW, data, size, 0, &loud);
    ov_assert_same_runs(&held, "with payloads", &other, "without", 0);
    ov_run_free(&held);
    ov_run_free(&other);

    const ov_opts no_models = {.payloads = 1, .hash = 1};
    ov_parse_stream_path(&other, HX_RAW, data, size, 0, &no_models);
    hx_assert_without(&base.f, &other.f, "without the model layer", ovni_oracle_model_rule);
    FUZZ_ASSERT(other.event_hash == base.event_hash && other.nevents == base.nevents);
    ov_run_free(&other);

    const ov_opts capped = {.payloads = 1, .models = 1, .max_repeats = TC_DEFAULT_MAX_REPEATS};
    ov_parse_stream_path(&other, HX_RAW, data, size, 0, &capped);
    hx_assert_capped(&base.f, &other.f, TC_DEFAULT_MAX_REPEATS);
    ov_run_free(&other);

    /* With metadata, from the seeded source. */
    tc_ovni_meta meta;
    ovni_oracle_view v;
    ovni_oracle_pick_meta(&meta, &v, &rng);
    const ov_opts with_meta = {.payloads = 1, .models = 1, .meta = &meta, .keep = 1};
    ov_parse_stream_path(&other, HX_RAW, data, size, 0, &with_meta);
    hx_check_well_formed(&other.f, "OVNI");
    ovni_oracle_check_stream(&other, data, size, &v, 1, "with metadata");
    ov_run_free(&other);

    /* Through files, as `tracecheck validate` reads them: read() with tiny
     * windows and sliding mmap windows (every other input), the library's
     * entry point or the stream calls, compared with the same reading from
     * memory. A compressed input would be decompressed on that path only. */
    for (hx_path path = HX_READ; path <= HX_MMAP && !hx_compressed(data, size); path++) {
        size_t w = hx_pick_window(&rng, path);
        const ov_opts o = {.library = (int)hx_rng_below(&rng, 2),
                           .payloads = (int)hx_rng_below(&rng, 2), .models = 1, .hash = 1};
        if (path == HX_MMAP && hx_rng_below(&rng, 2))
            continue;
        ov_run ref;
        ov_parse_stream_path(&ref, HX_RAW, data, size, 0, &o);
        if (!ov_parse_stream_path(&other, path, data, size, w, &o)) {
            ov_run_free(&ref);
            break;
        }
        char what[64];
        snprintf(what, sizeof what, "%s (window %zu)", hx_path_name(path), w);
        FUZZ_ASSERT_MSG(!other.read_failed, "%s: the read failed", what);
        ov_assert_same_runs(&ref, "memory", &other, what, 1);
        FUZZ_ASSERT_MSG(other.end_pos == ref.end_pos, "%s stops elsewhere than memory", what);
        ov_run_free(&ref);
        ov_run_free(&other);
    }
    ov_run_free(&entry);
    ov_run_free(&base);
    return 0;
}

HX_CUSTOM_MUTATOR(ovni_mutate, ovni_cross_over)
