/*
 * Generator round trip: the fuzzer's bytes steer the synthesiser (its
 * every choice), the writer encodes the model, the parser reads it back.
 * Checked (xray_model_oracle.h):
 *
 *  - the trace is valid: no finding of any severity, --pedantic included,
 *    with and without events (the parser's two paths);
 *  - the records the parser decodes rebuild the model exactly, field by
 *    field, and the TSC, CPU, thread and process each event carries are
 *    those the model implies;
 *  - the rebuilt model, written again, gives the same bytes.
 *
 * The first PARAM_BYTES bytes pick what a user picks on the command line
 * (FDR or basic mode, version, byte order, threads, buffer size, size); the
 * rest are the synthesiser's choices (zeros once they run out). Basic-mode
 * logs (bit 5 of the second byte) go through their own synthesiser and
 * writer, and the same checks.
 */
#include <string.h>

#include "../common/harness.h"
#include "../../generators/common/bytebuf.h"
#include "../../generators/common/rng.h"
#include "../../generators/xray/xray_basic_model.h"
#include "../../generators/xray/xray_basic_synth.h"
#include "../../generators/xray/xray_model.h"
#include "../../generators/xray/xray_synth.h"
#include "xray_model_oracle.h"

#define PARAM_BYTES 8
#define MAX_TRACE (32u << 10) /* small traces: many of them per second */

static uint16_t le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

/* Valid on both of the parser's paths; returns the run with events. */
static void read_back(xr_run *run, const tc_bytebuf *bytes, const char *what)
{
    static const xr_opts with_events = {.pedantic = 1, .events = 1, .keep = 1};
    static const xr_opts quiet = {.pedantic = 1};
    xr_run fast;
    xr_parse_path(run, HX_RAW, bytes->p, bytes->len, 0, &with_events);
    xray_model_oracle_expect_no_findings(run, what);
    xr_parse_path(&fast, HX_RAW, bytes->p, bytes->len, 0, &quiet);
    xray_model_oracle_expect_no_findings(&fast, "without events");
    FUZZ_ASSERT(fast.end_pos == bytes->len && run->end_pos == bytes->len);
    xr_run_free(&fast);
}

static void basic_round_trip(const uint8_t *param, const uint8_t *data, size_t size)
{
    xray_basic_params p = {0};
    p.version = 1u + param[0] % 3u;
    p.big_endian = param[1] & 1;
    p.threads = 1u + ((param[1] >> 2) & 7u);
    /* Thread buffers of 2 to 258 records: small ones mean many blocks, and
     * argument payloads that must not be split from their record. */
    p.buffer_size = 64u + (le16(param + 2) % 257u) * TC_XRAY_BASIC_RECORD_SIZE;
    p.size = TC_XRAY_HEADER_SIZE + le16(param + 4) % MAX_TRACE;

    tc_rng choices;
    tc_rng_from_bytes(&choices, data, size);
    xray_basic_synth *s = xray_basic_synth_new(&p, &choices);
    FUZZ_CHECK_ALLOC(s);
    const xray_basic_header bh = *xray_basic_synth_header(s);
    tc_bytebuf bytes = {0};
    xray_basic_write_header(&bytes, &bh);
    xray_basic_block b = {0}, all = {0}; /* all: every record, in file order */
    int last = 0;
    while (xray_basic_synth_next(s, &b, &last)) {
        xray_basic_write_block(&bytes, &bh.h, &b);
        for (size_t i = 0; i < b.n; i++)
            *xray_basic_insert(&all, all.n) = b.recs[i];
        if (last)
            break;
    }
    xray_basic_block_free(&b);
    xray_basic_synth_free(s);

    xr_run run;
    read_back(&run, &bytes, "basic mode, with events");
    xray_model_oracle_compare_basic(&bh, &all, &run, &bytes);
    xray_basic_block_free(&all);
    xr_run_free(&run);
    tc_bb_free(&bytes);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t param[PARAM_BYTES] = {0};
    size_t skip = size < PARAM_BYTES ? size : PARAM_BYTES;
    memcpy(param, data, skip);
    if (param[1] & 0x20) {
        basic_round_trip(param, data + skip, size - skip);
        return 0;
    }
    xray_gen_params p = {0};
    p.version = 1u + param[0] % 5u;
    p.big_endian = param[1] & 1;
    p.noisy_padding = (param[1] >> 1) & 1;
    p.threads = 1u + ((param[1] >> 2) & 7u);
    /* The smallest buffer xray_generate allows, up to about 8 KiB: small
     * buffers mean many buffers, and the edges of the preamble's fit. */
    p.buffer_size = (p.version == 1 ? 64u : 80u) + le16(param + 2) % 8192u;
    p.size = TC_XRAY_HEADER_SIZE + le16(param + 4) % MAX_TRACE;
    uint64_t padding_seed = le16(param + 6);

    tc_rng choices, padding;
    tc_rng_from_bytes(&choices, data + skip, size - skip);
    xray_synth *s = xray_synth_new(&p, &choices);
    FUZZ_CHECK_ALLOC(s);
    xray_model_oracle_model m = {.fh = *xray_synth_header(s)};
    tc_bytebuf bytes = {0};
    tc_rng_seed(&padding, padding_seed);
    xray_write_header(&bytes, &m.fh);
    xray_buffer b = {0};
    int last = 0;
    while (xray_synth_next(s, &b, &last)) {
        xray_model_oracle_keep(&m, &b);
        xray_write_buffer(&bytes, &m.fh.h, &b, p.noisy_padding ? &padding : NULL);
        if (last)
            break;
    }
    xray_buffer_free(&b);
    xray_synth_free(s);

    /* Decoded = generated, and written again = the same bytes. */
    xr_run run;
    read_back(&run, &bytes, "with events");
    tc_bytebuf again = {0};
    tc_rng_seed(&padding, padding_seed);
    xray_model_oracle_compare_fdr(&m, &run, &again, p.noisy_padding ? &padding : NULL);
    FUZZ_ASSERT_MSG(again.len == bytes.len, "the rebuilt model writes %zu bytes, not %zu",
                    again.len, bytes.len);
    for (size_t i = 0; i < bytes.len; i++)
        FUZZ_ASSERT_MSG(again.p[i] == bytes.p[i], "the rebuilt model writes 0x%02x at offset %zu, "
                        "not 0x%02x", again.p[i], i, bytes.p[i]);
    tc_bb_free(&again);
    xr_run_free(&run);
    tc_bb_free(&bytes);
    xray_model_oracle_model_free(&m);
    return 0;
}
