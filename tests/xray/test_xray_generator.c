/* The XRay generator (generators/xray): deterministic, valid in every
 * version and byte order, and about as large as asked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../generators/xray/xray_gen.h"
#include "../suites.h"
#include "../tu.h"

static int gen(const xray_gen_params *p, int violate, tc_bytebuf *out, xray_gen_stats *st,
               char *err, size_t errlen)
{
    out->len = 0;
    xray_sink sink = {NULL, out};
    tc_error why = TC_ERROR_INIT;
    return tu_error_text(xray_generate(p, violate, NULL, sink, st, &why), &why, err, errlen);
}

static void test_rng(void)
{
    tc_rng a, b;
    tc_rng_seed(&a, 42);
    tc_rng_seed(&b, 42);
    int same = 1;
    for (int i = 0; i < 1000; i++)
        same &= tc_rng_u64(&a) == tc_rng_u64(&b);
    CU_ASSERT(same);
    tc_rng_seed(&b, 43);
    CU_ASSERT(tc_rng_u64(&a) != tc_rng_u64(&b));
    /* Bounds. */
    int in = 1;
    for (int i = 0; i < 10000; i++) {
        uint64_t v = tc_rng_below(&a, 7);
        uint64_t w = tc_rng_range(&a, 10, 12);
        in &= v < 7 && w >= 10 && w <= 12;
    }
    CU_ASSERT(in);
    CU_ASSERT_EQUAL(tc_rng_below(&a, 0), 0);
    CU_ASSERT_EQUAL(tc_rng_range(&a, 5, 5), 5);
    CU_ASSERT_EQUAL(tc_rng_range(&a, 9, 3), 9);
    /* A choice stream: the same bytes, the same choices; zeros after. */
    static const uint8_t bytes[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    tc_rng_from_bytes(&a, bytes, sizeof bytes);
    CU_ASSERT_EQUAL(tc_rng_u64(&a), 0x0807060504030201ull);
    CU_ASSERT_EQUAL(tc_rng_below(&a, 256), 9);
    CU_ASSERT_EQUAL(tc_rng_u64(&a), 0);
    CU_ASSERT_EQUAL(tc_rng_below(&a, 1000), 0);
}

static void test_bytebuf(void)
{
    /* Appending nothing to an empty buffer (an event with no payload into an
     * empty pool) must not compute NULL + 0, which UBSan rejects. */
    tc_bytebuf b = {0};
    uint8_t *p = tc_bb_append(&b, NULL, 0);
    CU_ASSERT_PTR_NOT_NULL(p);
    CU_ASSERT_EQUAL(b.len, 0);
    p = tc_bb_append(&b, "abc", 3);
    CU_ASSERT(p && memcmp(b.p, "abc", 3) == 0 && b.len == 3);
    uint8_t *z = tc_bb_append(&b, NULL, 5000); /* zeroed, and growing */
    CU_ASSERT(b.len == 5003 && b.cap >= 5003 && z[0] == 0 && z[4999] == 0);
    CU_ASSERT(memcmp(b.p, "abc", 3) == 0);
    tc_bb_free(&b);
    CU_ASSERT(b.p == NULL && b.len == 0 && b.cap == 0);
}

static void test_determinism(void)
{
    static const uint64_t sizes[] = {32, 1000, 70000, 300000};
    tc_bytebuf a = {0}, b = {0};
    char err[256];
    tc_error why = TC_ERROR_INIT;
    for (unsigned v = 1; v <= 5; v++)
        for (int be = 0; be <= 1; be++)
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                xray_gen_params p = {.seed = 1234 + v, .size = sizes[s], .version = v,
                                     .threads = 3, .big_endian = be, .noisy_padding = v == 1};
                CU_ASSERT_EQUAL(gen(&p, -1, &a, NULL, err, sizeof err), 0);
                CU_ASSERT_EQUAL(gen(&p, -1, &b, NULL, err, sizeof err), 0);
                CHECK(a.len == b.len && memcmp(a.p, b.p, a.len) == 0,
                      "v%u %s size %llu: two runs differ", v, be ? "big" : "little",
                      (unsigned long long)sizes[s]);
                if (sizes[s] > 32) {
                    p.seed++;
                    CU_ASSERT_EQUAL(gen(&p, -1, &b, NULL, err, sizeof err), 0);
                    CHECK(a.len != b.len || memcmp(a.p, b.p, a.len) != 0,
                          "v%u size %llu: seeds %llu and %llu give the same bytes", v,
                          (unsigned long long)sizes[s], (unsigned long long)p.seed - 1,
                          (unsigned long long)p.seed);
                }
            }
    /* A FILE sink writes the same bytes as the memory sink. */
    xray_gen_params p = {.seed = 5, .size = 100000, .version = 5, .threads = 2};
    CU_ASSERT_EQUAL(gen(&p, -1, &a, NULL, err, sizeof err), 0);
    char path[600];
    snprintf(path, sizeof path, "%s/gen.xray", tu_tmpdir());
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    xray_sink sink = {f, NULL};
    CU_ASSERT_EQUAL(
        tu_error_text(xray_generate(&p, -1, NULL, sink, NULL, &why), &why, err, sizeof err), 0);
    fclose(f);
    size_t n = 0;
    uint8_t *file = tu_read_file(path, &n);
    CU_ASSERT(file && n == a.len && memcmp(file, a.p, n) == 0);
    free(file);
    /* Deterministic with a mutation too. */
    CU_ASSERT_EQUAL(gen(&p, TC_RULE_XRAY_CALLARG_PLACEMENT, &a, NULL, err, sizeof err), 0);
    CU_ASSERT_EQUAL(gen(&p, TC_RULE_XRAY_CALLARG_PLACEMENT, &b, NULL, err, sizeof err), 0);
    CU_ASSERT(a.len == b.len && memcmp(a.p, b.p, a.len) == 0);
    tc_bb_free(&a);
    tc_bb_free(&b);
}

static void test_valid_everywhere(void)
{
    static const uint64_t buffer_sizes[] = {0, 4096, 1000, 200};
    tc_bytebuf t = {0};
    char err[256];
    for (unsigned v = 1; v <= 5; v++)
        for (int be = 0; be <= 1; be++)
            for (size_t b = 0; b < sizeof buffer_sizes / sizeof buffer_sizes[0]; b++)
                for (uint64_t seed = 1; seed <= 3; seed++) {
                    xray_gen_params p = {.seed = seed * 7919 + v, .size = 60000, .version = v,
                                         .threads = (unsigned)seed, .buffer_size = buffer_sizes[b],
                                         .big_endian = be, .noisy_padding = (int)seed & 1};
                    int rc = gen(&p, -1, &t, NULL, err, sizeof err);
                    CHECK(rc == 0, "generate: %s", err);
                    tu_result r = {0};
                    tu_opts o = {.pedantic = 1};
                    tu_check_memory(t.p, t.len, &o, &r);
                    CHECK(r.status == 0 && r.sum.errors == 0 && r.sum.warnings == 0 &&
                              r.sum.notes == 0,
                          "v%u %s buffer_size %llu seed %llu: %s", v, be ? "big" : "little",
                          (unsigned long long)buffer_sizes[b], (unsigned long long)p.seed,
                          tu_describe(&r));
                    CU_ASSERT_EQUAL(r.sum.bytes, t.len);
                    tu_result_free(&r);
                }
    tc_bb_free(&t);
}

/* Every record kind of the version shows up, so that valid traces exercise
 * the whole parser. */
static void test_record_variety(void)
{
    tc_bytebuf t = {0};
    char err[256];
    for (unsigned v = 1; v <= 5; v++) {
        xray_gen_params p = {.seed = 99, .size = 200000, .version = v, .threads = 4};
        CU_ASSERT_EQUAL_FATAL(gen(&p, -1, &t, NULL, err, sizeof err), 0);
        tu_result r = {0};
        tu_opts o = {.dump = 1};
        tu_check_memory(t.p, t.len, &o, &r);
        const char *kinds[] = {"new_buffer", "wall_time", "new_cpu", "tsc_wrap", "call_arg",
                               "custom_event", "\"enter\"", "\"exit\"", "\"tail_exit\"",
                               "\"enter_args\"", v == 1 ? "end_of_buffer" : "buffer_extents",
                               v >= 3 ? "\"pid\"" : "new_buffer",
                               v >= 5 ? "typed_event" : "new_buffer"};
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
            CHECK(r.dump && strstr(r.dump, kinds[k]), "v%u: no %s in a 200 KB trace", v, kinds[k]);
        tu_result_free(&r);
    }
    tc_bb_free(&t);
}

static void test_size(void)
{
    tc_bytebuf t = {0};
    xray_gen_stats st;
    char err[256];
    for (unsigned v = 1; v <= 5; v++) {
        /* Header only. */
        for (uint64_t size = 0; size <= 32; size += 32) {
            xray_gen_params p = {.seed = 3, .size = size, .version = v};
            CU_ASSERT_EQUAL(gen(&p, -1, &t, &st, err, sizeof err), 0);
            CHECK(t.len == 32 && st.bytes == 32 && st.buffers == 0, "v%u size %llu: %zu bytes", v,
                  (unsigned long long)size, t.len);
            tu_result r = {0};
            tu_check_memory(t.p, t.len, NULL, &r);
            CU_ASSERT_EQUAL(r.status, 0);
            tu_result_free(&r);
        }
        static const uint64_t sizes[] = {100, 5000, 3u << 20};
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            xray_gen_params p = {.seed = 4, .size = sizes[s], .version = v, .threads = 2};
            CU_ASSERT_EQUAL(gen(&p, -1, &t, &st, err, sizeof err), 0);
            uint64_t bs = XRAY_DEFAULT_BUFFER_SIZE;
            /* Version 1 writes whole buffers; later versions trim the last
             * one, which may fall short by a record or an event. */
            uint64_t lo = v == 1 ? sizes[s] : sizes[s] > 300 ? sizes[s] - 300 : 0;
            uint64_t hi = sizes[s] + bs + 16;
            CHECK(t.len >= lo && t.len <= hi && t.len > 32,
                  "v%u size %llu: %zu bytes, expected %llu..%llu", v,
                  (unsigned long long)sizes[s], t.len, (unsigned long long)lo,
                  (unsigned long long)hi);
            CU_ASSERT_EQUAL(st.bytes, t.len);
            if (v == 1)
                CU_ASSERT_EQUAL(t.len, 32 + st.buffers * bs);
            tu_result r = {0};
            tu_check_memory(t.p, t.len, NULL, &r);
            CHECK(r.status == 0 && r.n == 0, "v%u size %llu: %s", v,
                  (unsigned long long)sizes[s], tu_describe(&r));
            tu_result_free(&r);
        }
    }
    tc_bb_free(&t);
}

static void test_bad_parameters(void)
{
    tc_bytebuf t = {0};
    char err[256] = "";
    xray_gen_params p = {.seed = 1, .size = 1000, .version = 6};
    CU_ASSERT_EQUAL(gen(&p, -1, &t, NULL, err, sizeof err), -1);
    CHECK(strstr(err, "version") != NULL, "%s", err);
    p.version = 0;
    CU_ASSERT_EQUAL(gen(&p, -1, &t, NULL, err, sizeof err), -1);
    p.version = 1;
    p.buffer_size = 63;
    CU_ASSERT_EQUAL(gen(&p, -1, &t, NULL, err, sizeof err), -1);
    p.buffer_size = 64;
    CU_ASSERT_EQUAL(gen(&p, -1, &t, NULL, err, sizeof err), 0);
    p.version = 2;
    p.buffer_size = 79;
    CU_ASSERT_EQUAL(gen(&p, -1, &t, NULL, err, sizeof err), -1);
    p.buffer_size = 80;
    CU_ASSERT_EQUAL(gen(&p, -1, &t, NULL, err, sizeof err), 0);
    p.buffer_size = 0;
    err[0] = '\0';
    CU_ASSERT_EQUAL(gen(&p, TC_RULE_FORMAT_UNKNOWN, &t, NULL, err, sizeof err), -1);
    CHECK(strstr(err, "no mutator") != NULL, "%s", err);
    CU_ASSERT_EQUAL(gen(&p, TC_RULE_XRAY_V1_FILE_SIZE, &t, NULL, err, sizeof err), -1);
    CHECK(strstr(err, "version 2") != NULL, "%s", err);
    tc_bb_free(&t);
}

static const tu_test tests[] = {
    {"rng", test_rng},
    {"bytebuf", test_bytebuf},
    {"determinism", test_determinism},
    {"valid in every version and byte order", test_valid_everywhere},
    {"every record kind appears", test_record_variety},
    {"size respected", test_size},
    {"bad parameters", test_bad_parameters},
    {NULL, NULL},
};

void register_generator_suite(void) { tu_add_suite("generator", tests); }
