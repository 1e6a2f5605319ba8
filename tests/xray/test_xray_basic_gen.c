/* The basic-mode generator (generators/xray/xray_basic_*): deterministic,
 * valid in every version and byte order without any finding, about as large
 * as asked, with interleaved blocks of several threads, argument payloads and
 * (from version 2) tail exits; and every basic-mode mutator breaks its rule
 * alone in every version it applies to. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../generators/xray/xray_basic_gen.h"
#include "../../generators/xray/xray_basic_mutate.h"
#include "../../generators/xray/xray_mutate.h"
#include "../suites.h"
#include "../tu.h"

static int gen(const xray_basic_params *p, int violate, tc_bytebuf *out, xray_gen_stats *st,
               char *err, size_t errlen)
{
    out->len = 0;
    xray_sink sink = {NULL, out};
    tc_error why = TC_ERROR_INIT;
    return tu_error_text(xray_basic_generate(p, violate, NULL, sink, st, &why), &why, err, errlen);
}

static void test_determinism_and_size(void)
{
    static const uint64_t sizes[] = {0, 32, 100, 5000, 300000};
    tc_bytebuf a = {0}, b = {0};
    char err[256];
    for (unsigned v = 1; v <= 3; v++)
        for (int be = 0; be <= 1; be++)
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                xray_basic_params p = {.seed = 77 + v, .size = sizes[s], .version = v,
                                       .threads = 3, .big_endian = be};
                xray_gen_stats st;
                CU_ASSERT_EQUAL(gen(&p, -1, &a, &st, err, sizeof err), 0);
                CU_ASSERT_EQUAL(gen(&p, -1, &b, NULL, err, sizeof err), 0);
                CHECK(a.len == b.len && memcmp(a.p, b.p, a.len) == 0,
                      "v%u %s size %llu: two runs differ", v, be ? "big" : "little",
                      (unsigned long long)sizes[s]);
                uint64_t want = sizes[s] < 32 ? 32 : (sizes[s] + 31) / 32 * 32;
                CHECK(a.len == want && st.bytes == a.len, "v%u size %llu: %zu bytes, not %llu", v,
                      (unsigned long long)sizes[s], a.len, (unsigned long long)want);
                p.seed++;
                CU_ASSERT_EQUAL(gen(&p, -1, &b, NULL, err, sizeof err), 0);
                if (sizes[s] > 100)
                    CHECK(a.len != b.len || memcmp(a.p, b.p, a.len) != 0,
                          "v%u size %llu: another seed gives the same bytes", v,
                          (unsigned long long)sizes[s]);
            }
    tc_bb_free(&a);
    tc_bb_free(&b);
}

/* Valid, with no finding even under --pedantic, and showing what a real log
 * has: blocks of several threads in turn, payloads, tail exits (v2+). */
static void test_valid_and_varied(void)
{
    tc_bytebuf t = {0};
    char err[256];
    for (unsigned v = 1; v <= 3; v++)
        for (int be = 0; be <= 1; be++)
            for (uint64_t seed = 1; seed <= 4; seed++) {
                xray_basic_params p = {.seed = seed, .size = 60000, .version = v,
                                       .threads = (unsigned)seed, .buffer_size = 1024,
                                       .big_endian = be};
                xray_gen_stats st;
                CU_ASSERT_EQUAL_FATAL(gen(&p, -1, &t, &st, err, sizeof err), 0);
                tu_opts o = {.pedantic = 1, .dump = 1};
                tu_result r = {0};
                tu_check_memory(t.p, t.len, &o, &r);
                CHECK(r.status == 0 && r.n == 0, "v%u %s seed %llu: status %d, %s", v,
                      be ? "big" : "little", (unsigned long long)seed, r.status,
                      tu_describe(&r));
                CU_ASSERT_EQUAL(r.sum.format, TC_FORMAT_XRAY_BASIC);
                CHECK(st.buffers >= 30, "%llu blocks", (unsigned long long)st.buffers);
                size_t args = 0, tails = 0, switches = 0;
                char prev_tid[32] = "";
                for (size_t i = 1; i < tu_dump_lines(&r); i++) {
                    const char *line = tu_dump_line(&r, i);
                    args += strstr(line, "\"t\":\"call_arg\"") != NULL;
                    tails += strstr(line, "\"tail_exit\"") != NULL;
                    const char *tid = strstr(line, "\"tid\":");
                    if (tid && strncmp(tid, prev_tid, strcspn(tid, ",}")) != 0) {
                        switches++;
                        snprintf(prev_tid, sizeof prev_tid, "%.*s", (int)strcspn(tid, ",}"), tid);
                    }
                }
                CHECK(args > 20, "v%u seed %llu: %zu argument payloads", v,
                      (unsigned long long)seed, args);
                CHECK(v >= 2 ? tails > 5 : tails == 0, "v%u: %zu tail exits", v, tails);
                if (seed > 1)
                    CHECK(switches > 5, "v%u seed %llu threads %u: %zu thread switches", v,
                          (unsigned long long)seed, p.threads, switches);
                tu_result_free(&r);
            }
    tc_bb_free(&t);
}

static void test_options(void)
{
    tc_bytebuf t = {0};
    char err[256];
    xray_basic_params p = {.seed = 1, .size = 1000, .version = 4};
    CU_ASSERT_EQUAL(gen(&p, -1, &t, NULL, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "versions 1 to 3"));
    p.version = 3;
    p.buffer_size = 100;
    CU_ASSERT_EQUAL(gen(&p, -1, &t, NULL, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "multiple of 32"));
    p.buffer_size = 64;
    CU_ASSERT_EQUAL(gen(&p, TC_RULE_XRAY_WALLTIME_USEC, &t, NULL, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "cannot be broken in a basic-mode log"));
    CU_ASSERT_EQUAL(gen(&p, TC_RULE_XRAY_BASIC_TAIL_EXIT_VERSION, &t, NULL, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "version 3"));
    CU_ASSERT_EQUAL(xray_basic_default_version(TC_RULE_XRAY_BASIC_TAIL_EXIT_VERSION), 1);
    CU_ASSERT_EQUAL(xray_basic_default_version(TC_RULE_XRAY_BASIC_PID_BEFORE_V3), 2);
    CU_ASSERT_EQUAL(xray_basic_default_version(TC_RULE_XRAY_BASIC_ARG_PLACEMENT), 3);
    CU_ASSERT_EQUAL(xray_basic_default_version(-1), 3);
    tc_bb_free(&t);
}

/* ---- mutators ---- */

/* Every XRAY rule that a single change can break has a mutator: the
 * XRAY-BASIC-* ones in basic mode, the others in FDR. */
static void test_every_basic_rule_has_a_mutator(void)
{
    size_t basic = 0;
    for (size_t i = 0; i < tc_rule_count(); i++) {
        const tc_rule_info *r = tc_rule_at(i);
        if (strncmp(r->id, "XRAY-BASIC-", 11) != 0)
            continue;
        basic++;
        const xray_basic_mutator *m = xray_basic_mutator_for((tc_rule_id)i);
        if (r->flags & TC_RF_NO_MUTATOR)
            CHECK(m == NULL, "%s is flagged TC_RF_NO_MUTATOR but has a mutator", r->id);
        else
            CHECK(m != NULL, "%s has no basic-mode mutator", r->id);
        CHECK(xray_mutator_for((tc_rule_id)i) == NULL, "%s has an FDR mutator", r->id);
    }
    CHECK(basic >= 9, "%zu XRAY-BASIC rules", basic);
    for (size_t i = 0; i < xray_basic_mutator_count(); i++) {
        const xray_basic_mutator *m = xray_basic_mutator_at(i);
        const tc_rule_info *r = &tc_rules[m->rule];
        CHECK(!strcmp(r->family, "XRAY"), "basic mutator %zu breaks %s", i, r->id);
        CHECK(xray_basic_mutator_for(m->rule) == m, "%s has more than one mutator", r->id);
        CHECK(m->versions && (m->versions & ~0xEu) == 0, "%s: versions 0x%x", r->id, m->versions);
        CHECK(m->how && *m->how, "%s: no description", r->id);
        CHECK(m->header || m->header_bytes || m->block || m->block_bytes, "%s: no hook", r->id);
    }
    CU_ASSERT_PTR_NULL(xray_basic_mutator_at(xray_basic_mutator_count()));
}

/* The violating log: its rule reported (at its severity, --pedantic on), no
 * other error; 1 when so, else why. */
static int one(const xray_basic_mutator *m, unsigned v, int be, uint64_t seed, uint64_t size,
               uint64_t buffer_size, unsigned threads, char *why, size_t whylen)
{
    const tc_rule_info *rule = &tc_rules[m->rule];
    xray_basic_params p = {.seed = seed, .size = size, .version = v, .threads = threads,
                           .buffer_size = buffer_size, .big_endian = be};
    tc_bytebuf t = {0};
    char err[256] = "";
    if (gen(&p, (int)m->rule, &t, NULL, err, sizeof err) != 0) {
        snprintf(why, whylen, "v%u %s seed %llu size %llu: generation failed: %s", v,
                 be ? "big" : "little", (unsigned long long)seed, (unsigned long long)size, err);
        tc_bb_free(&t);
        return 0;
    }
    tu_result r = {0};
    tu_opts o = {.pedantic = 1};
    tu_check_memory(t.p, t.len, &o, &r);
    int others = 0;
    for (size_t i = 0; i < r.n; i++)
        others += r.d[i].severity == TC_ERROR && r.d[i].rule != rule;
    int ok = tu_count(&r, rule->id) >= 1 && others == 0 &&
             r.status == (rule->severity == TC_ERROR ? 1 : 0);
    if (!ok)
        snprintf(why, whylen, "v%u %s seed %llu size %llu buffer %llu threads %u: status %d, %s",
                 v, be ? "big" : "little", (unsigned long long)seed, (unsigned long long)size,
                 (unsigned long long)buffer_size, threads, r.status, tu_describe(&r));
    tu_result_free(&r);
    tc_bb_free(&t);
    return ok;
}

static void test_mutator_property(void)
{
    static const struct { uint64_t size, buffer_size; } shapes[] = {
        {20000, 1024}, {3000, 64}, {300000, 0}, {100, 128}, {5000, 96},
    };
    char why[1200];
    for (size_t i = 0; i < xray_basic_mutator_count(); i++) {
        const xray_basic_mutator *m = xray_basic_mutator_at(i);
        unsigned runs = 0, failed = 0;
        char first[1200] = "";
        for (unsigned v = 1; v <= 3; v++) {
            if (!(m->versions & (1u << v)))
                continue;
            for (int be = 0; be <= 1; be++)
                for (uint64_t seed = 1; seed <= 5; seed++) {
                    size_t s = (size_t)(seed % (sizeof shapes / sizeof shapes[0]));
                    runs++;
                    if (!one(m, v, be, seed * 1000003u + v, shapes[s].size, shapes[s].buffer_size,
                             1 + (unsigned)(seed % 4), why, sizeof why) &&
                        failed++ == 0)
                        snprintf(first, sizeof first, "%s", why);
                }
        }
        CHECK(failed == 0, "%s: %u of %u runs break the property; first: %s",
              tc_rules[m->rule].id, failed, runs, first);
    }
}

/* A mutation starts from the valid log of the same seed. */
static void test_starts_from_valid_log(void)
{
    xray_basic_params p = {.seed = 11, .size = 50000, .version = 2, .threads = 2};
    tc_bytebuf valid = {0}, bad = {0};
    char err[256];
    CU_ASSERT_EQUAL_FATAL(gen(&p, -1, &valid, NULL, err, sizeof err), 0);
    CU_ASSERT_EQUAL_FATAL(gen(&p, TC_RULE_XRAY_BASIC_PID_BEFORE_V3, &bad, NULL, err, sizeof err),
                          0);
    CU_ASSERT_EQUAL(valid.len, bad.len);
    size_t diff = 0;
    for (size_t i = 0; i < valid.len && i < bad.len; i++)
        diff += valid.p[i] != bad.p[i];
    CHECK(diff >= 1 && diff <= 4, "%zu bytes differ", diff);
    tc_bb_free(&valid);
    tc_bb_free(&bad);
}

static const tu_test tests[] = {
    {"deterministic, as large as asked", test_determinism_and_size},
    {"valid: no finding; threads, payloads, tail exits", test_valid_and_varied},
    {"options", test_options},
    {"every breakable XRAY-BASIC rule has a mutator", test_every_basic_rule_has_a_mutator},
    {"one violation: every mutator, version, byte order", test_mutator_property},
    {"mutations start from the valid log", test_starts_from_valid_log},
    {NULL, NULL},
};

void register_xray_basic_gen_suite(void) { tu_add_suite("xray_basic_gen", tests); }
