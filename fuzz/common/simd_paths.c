/*
 * Every vector level of the parsers (parsers/common/simd.h) on the same
 * input: the scalar kernels are the reference, and SSE2, AVX2 and AVX-512
 * must give the same findings (rule, location, message, context, in order)
 * and the same canonical dump, byte for byte. The first byte picks the
 * format (each registered format in turn, so that every format's kernels
 * see every input) and --pedantic; the rest is the input.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/common/check.h"
#include "../../parsers/common/simd.h"
#include "harness.h"

typedef struct run {
    hx_findings f;
    char *dump;
    size_t dump_len;
    int status;
} run;

static void check_at(tc_simd_level level, tc_format format, int pedantic, const uint8_t *p,
                     size_t n, run *out)
{
    tc_simd_level_set(level);
    memset(out, 0, sizeof *out);
    tc_options opt = TC_OPTIONS_INIT;
    opt.format = format;
    opt.pedantic = pedantic;
    opt.max_repeats = UINT32_MAX;
    opt.on_diag = hx_collect;
    opt.user = &out->f;
    out->f.max_repeats = UINT32_MAX;
    FILE *dump = open_memstream(&out->dump, &out->dump_len);
    FUZZ_CHECK_ALLOC(dump);
    tc_check_opts c = {.options = &opt, .dump = dump};
    tc_input *in = tc_input_open_memory(p, n, NULL);
    FUZZ_CHECK_ALLOC(in);
    tc_summary sum;
    out->status = tc_check_input(in, "input", &c, &sum, NULL);
    tc_input_close(in);
    fclose(dump);
}

static void run_free(run *r)
{
    hx_findings_free(&r->f);
    free(r->dump);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    if (size == 0)
        return 0;
    size_t nformats = 0;
    while (tc_format_at(nformats))
        nformats++;
    const tc_format_ops *f = tc_format_at((data[0] >> 1) % nformats);
    int pedantic = data[0] & 1;
    const uint8_t *p = data + 1;
    size_t n = size - 1;
    tc_simd_level max = tc_simd_level_max();
    run ref, got;
    check_at(TC_SIMD_SCALAR, f->format, pedantic, p, n, &ref);
    for (tc_simd_level l = TC_SIMD_SCALAR + 1; l <= max; l++) {
        check_at(l, f->format, pedantic, p, n, &got);
        FUZZ_ASSERT_MSG(got.status == ref.status, "%s: status %d, scalar %d", f->name,
                        got.status, ref.status);
        hx_assert_same(&ref.f, "scalar", &got.f, tc_simd_level_name(l));
        FUZZ_ASSERT_MSG(got.dump_len == ref.dump_len &&
                            memcmp(got.dump, ref.dump, ref.dump_len) == 0,
                        "%s: the %s dump (%zu bytes) differs from the scalar one (%zu bytes)",
                        f->name, tc_simd_level_name(l), got.dump_len, ref.dump_len);
        run_free(&got);
    }
    run_free(&ref);
    tc_simd_level_set(max);
    return 0;
}
