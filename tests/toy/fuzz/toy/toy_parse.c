/*
 * The toy format's harness: one parse of the raw bytes through the format's
 * descriptor, judged by an oracle written from spec/toy/toy.md alone: every
 * finding well formed and inside the input, and the verdict as the oracle
 * reckons it (the magic, whole records, steps that never decrease).
 */
#include <string.h>

#include "../../parsers/common/formats.h"
#include "../common/harness.h"

/* Errors the oracle expects: 0 for a valid file. */
static int oracle_errors(const uint8_t *p, size_t n)
{
    if (n < 4 || memcmp(p, "TOY1", 4) != 0)
        return 1;
    int errors = (n - 4) % 4 != 0, have = 0;
    unsigned last = 0;
    for (size_t at = 4; at + 4 <= n; at += 4) {
        unsigned kind = p[at] | (unsigned)p[at + 1] << 8, value = p[at + 2] | (unsigned)p[at + 3] << 8;
        if (kind != 1)
            continue;
        errors += have && value < last;
        have = 1;
        last = value;
    }
    return errors;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const tc_format_ops *toy = tc_format_ops_for(tc_format_from_name("toy"));
    FUZZ_ASSERT(toy != NULL);
    hx_findings f;
    tc_diag_sink sink;
    hx_sink_init(&sink, &f, 0, TC_DEFAULT_MAX_REPEATS);
    tc_reader r;
    tc_reader_init_memory(&r, data, size);
    tc_parse_ctx ctx = {.diags = &sink};
    toy->parse(&r, &ctx);
    hx_sink_finish(&sink, &f);
    hx_check_well_formed(&f, "TOY");
    hx_check_binary_locations(&f, size, NULL);
    int expected = oracle_errors(data, size);
    FUZZ_ASSERT_MSG((expected == 0) == (f.errors == 0), "the oracle expects %d error(s), the parser found %u",
                    expected, (unsigned)f.errors);
    hx_findings_free(&f);
    return 0;
}
