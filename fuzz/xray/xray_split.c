/*
 * One XRay trace on several threads (parsers/common/split.h) reports what
 * one thread reports. The bytes are checked as an FDR trace or a basic-mode
 * log on one thread, then on 2 to 4 threads in segments as small as the
 * input's last byte says (16 to 264 bytes), so that every input is cut and
 * the segments start anywhere: inside records, on false buffer starts, in
 * garbage, past the end, with threads' TSCs and call stacks crossing them.
 * Every finding, its context and the counts must be the same; the split
 * layer may fall back to one thread, never differ. The format, --pedantic
 * and the repeat cap are drawn from the input too.
 */
#include <stdlib.h>

#include "../common/harness.h"
#include "../../parsers/common/formats.h"
#include "../../parsers/common/input.h"
#include "../../parsers/common/split.h"

static void check(tc_format f, const uint8_t *data, size_t size, unsigned threads, uint64_t min,
                  int pedantic, unsigned cap, hx_findings *out)
{
    tc_diag_sink d;
    hx_sink_init(&d, out, pedantic, cap);
    tc_input *in = tc_input_open_memory(data, size, NULL);
    if (!in)
        abort();
    tc_parse_ctx ctx = {.diags = &d};
    /* On one thread when the format has no split, or the split did not
     * start (-1: nothing was reported). */
    const tc_format_ops *ops = tc_format_ops_for(f);
    FUZZ_ASSERT(ops != NULL);
    if (threads < 2 || !ops->split ||
        tc_split_check(in, ops->split, &ctx, threads, min, NULL) != 0)
        hx_parse(f, tc_input_reader(in), &ctx);
    tc_input_close(in);
    hx_sink_finish(&d, out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2 || hx_compressed(data, size))
        return 0; /* compressed inputs are never split */
    uint8_t knobs = data[size - 1];
    unsigned threads = 2 + knobs % 3;
    uint64_t min = 16 + (uint64_t)((knobs >> 2) & 31) * 8;
    int pedantic = knobs & 1;
    unsigned cap = knobs & 2 ? 2 : TC_DEFAULT_MAX_REPEATS;
    tc_format f = knobs & 0x80 ? TC_FORMAT_XRAY_BASIC : TC_FORMAT_XRAY;
    hx_findings one, many;
    check(f, data, size, 1, 0, pedantic, cap, &one);
    check(f, data, size, threads, min, pedantic, cap, &many);
    hx_assert_same(&one, "one thread", &many, "split");
    hx_findings_free(&one);
    hx_findings_free(&many);
    return 0;
}
