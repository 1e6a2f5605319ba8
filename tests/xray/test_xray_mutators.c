/* The one-violation mutators (generators/xray/xray_mutate.c): every XRay
 * rule that a single change can break has one, and on its output the parser
 * reports that rule and no other rule of error severity (for a warning or
 * note rule: no error at all), in every version it applies to, both byte
 * orders and several seeds. */
#include <stdio.h>
#include <string.h>

#include "../../generators/xray/xray_gen.h"
#include "../../generators/xray/xray_mutate.h"
#include "../suites.h"
#include "../tu.h"

static void test_every_rule_has_a_mutator(void)
{
    size_t xray = 0;
    for (size_t i = 0; i < tc_rule_count(); i++) {
        const tc_rule_info *r = tc_rule_at(i);
        /* Basic mode's rules have basic-mode mutators (test_xray_basic_gen.c). */
        if (strcmp(r->family, "XRAY") != 0 || !strncmp(r->id, "XRAY-BASIC-", 11))
            continue;
        xray++;
        const xray_mutator *m = xray_mutator_for((tc_rule_id)i);
        if (r->flags & TC_RF_NO_MUTATOR)
            CHECK(m == NULL, "%s is flagged TC_RF_NO_MUTATOR but has a mutator", r->id);
        else
            CHECK(m != NULL, "%s has no mutator", r->id);
    }
    CHECK(xray >= 25, "%zu XRAY rules", xray);
}

static void test_mutator_table(void)
{
    CU_ASSERT(xray_mutator_count() > 0);
    CU_ASSERT_PTR_NULL(xray_mutator_at(xray_mutator_count()));
    for (size_t i = 0; i < xray_mutator_count(); i++) {
        const xray_mutator *m = xray_mutator_at(i);
        const tc_rule_info *r = &tc_rules[m->rule];
        CHECK(!strcmp(r->family, "XRAY"), "mutator %zu breaks %s, not an XRAY rule", i, r->id);
        CHECK(xray_mutator_for(m->rule) == m, "%s has more than one mutator", r->id);
        CHECK(m->versions != 0 && (m->versions & ~0x3Eu) == 0, "%s: versions 0x%x", r->id,
              m->versions);
        CHECK(m->how && *m->how, "%s: no description", r->id);
        CHECK(m->header || m->header_bytes || m->buffer || m->buffer_bytes, "%s: no hook", r->id);
        /* --violate without --version picks the highest version it applies to. */
        unsigned v = xray_default_version((int)m->rule);
        unsigned want = 5;
        while (!(m->versions & XRAY_VERSION_BIT(want)))
            want--;
        CHECK(v == want, "%s: default version %u, expected %u", r->id, v, want);
    }
    CU_ASSERT_EQUAL(xray_default_version(-1), 5);
}

/* Generates the violating trace and checks what the parser reports. Returns
 * 1 when the property holds; otherwise describes the failure into why. */
static int one(const xray_mutator *m, unsigned v, int be, uint64_t seed, uint64_t size,
               uint64_t buffer_size, unsigned threads, char *why, size_t whylen)
{
    const tc_rule_info *rule = &tc_rules[m->rule];
    xray_gen_params p = {.seed = seed, .size = size, .version = v, .threads = threads,
                         .buffer_size = buffer_size, .big_endian = be,
                         .noisy_padding = (int)(seed & 1)};
    tc_bytebuf t = {0};
    xray_sink sink = {NULL, &t};
    char err[256] = "";
    tc_error gen_err = TC_ERROR_INIT;
    if (tu_error_text(xray_generate(&p, (int)m->rule, NULL, sink, NULL, &gen_err), &gen_err, err,
                      sizeof err) != 0) {
        snprintf(why, whylen, "v%u %s seed %llu size %llu buffer_size %llu: generation failed: %s",
                 v, be ? "big" : "little", (unsigned long long)seed, (unsigned long long)size,
                 (unsigned long long)buffer_size, err);
        tc_bb_free(&t);
        return 0;
    }
    tu_result r = {0};
    tu_opts o = {.pedantic = 1};
    tu_check_memory(t.p, t.len, &o, &r);
    size_t hits = tu_count(&r, rule->id);
    int others = 0;
    for (size_t i = 0; i < r.n; i++)
        others += r.d[i].severity == TC_ERROR && r.d[i].rule != rule;
    int status = rule->severity == TC_ERROR ? 1 : 0;
    int ok = hits >= 1 && others == 0 && r.status == status;
    if (!ok)
        snprintf(why, whylen, "v%u %s seed %llu size %llu buffer_size %llu threads %u (%zu bytes): "
                 "status %d, findings %s", v, be ? "big" : "little", (unsigned long long)seed,
                 (unsigned long long)size, (unsigned long long)buffer_size, threads, t.len,
                 r.status, tu_describe(&r));
    tu_result_free(&r);
    tc_bb_free(&t);
    return ok;
}

/* One assertion per rule: how many runs failed, and the first failure. */
typedef struct tally {
    unsigned runs, failed;
    char first[1200];
} tally;

static void count(tally *t, int ok, const char *why)
{
    t->runs++;
    if (!ok && t->failed++ == 0)
        snprintf(t->first, sizeof t->first, "%s", why);
}

static void report(const xray_mutator *m, const tally *t)
{
    CHECK(t->failed == 0, "%s: %u of %u runs break the property; first: %s",
          tc_rules[m->rule].id, t->failed, t->runs, t->first);
}

static void test_property(void)
{
    char why[1200];
    for (size_t i = 0; i < xray_mutator_count(); i++) {
        const xray_mutator *m = xray_mutator_at(i);
        tally t = {0};
        for (unsigned v = 1; v <= 5; v++) {
            if (!(m->versions & XRAY_VERSION_BIT(v)))
                continue;
            for (int be = 0; be <= 1; be++)
                for (uint64_t seed = 1; seed <= 6; seed++)
                    count(&t, one(m, v, be, seed * 1000003u + v, 20000, 4096,
                                  1 + (unsigned)(seed % 3), why, sizeof why), why);
        }
        report(m, &t);
    }
}

/* Larger traces with the default buffer size, smaller ones, and buffer sizes
 * barely above a buffer's preamble (where a mutation has the least room). */
static void test_property_sizes(void)
{
    static const struct { uint64_t size, buffer_size; } shapes[] = {
        {300000, 0}, {5000, 0}, {2000, 512}, {600, 200}, {3000, 65}, {3000, 81}, {4000, 96},
    };
    char why[1200];
    for (size_t i = 0; i < xray_mutator_count(); i++) {
        const xray_mutator *m = xray_mutator_at(i);
        tally t = {0};
        for (unsigned v = 1; v <= 5; v++) {
            if (!(m->versions & XRAY_VERSION_BIT(v)))
                continue;
            for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
                uint64_t bs = shapes[s].buffer_size;
                if (bs && bs < (v == 1 ? 64u : 80u))
                    continue; /* below what the generator accepts */
                int ok = one(m, v, (int)(s & 1), 77 + s, shapes[s].size, bs, 4, why, sizeof why);
                /* Tiny buffers may leave a mutation no room at all: the
                 * generator must then say so, never write a wrong trace. */
                if (!ok && strstr(why, "could not break") && bs && bs < 100)
                    ok = 1;
                count(&t, ok, why);
            }
        }
        report(m, &t);
    }
}

/* The mutation starts from the valid trace of the same seed: the bytes before
 * the first difference are the valid trace's. */
static void test_starts_from_valid_trace(void)
{
    xray_gen_params p = {.seed = 11, .size = 50000, .version = 5, .threads = 2};
    tc_bytebuf valid = {0}, bad = {0};
    tc_error err = TC_ERROR_INIT;
    xray_sink sv = {NULL, &valid}, sb = {NULL, &bad};
    CU_ASSERT_EQUAL_FATAL(xray_generate(&p, -1, NULL, sv, NULL, &err), 0);
    CU_ASSERT_EQUAL_FATAL(xray_generate(&p, TC_RULE_XRAY_WALLTIME_USEC, NULL, sb, NULL, &err), 0);
    /* Same length (a value changed in place), differing in 4 bytes at most. */
    CU_ASSERT_EQUAL(valid.len, bad.len);
    size_t diff = 0;
    for (size_t i = 0; i < valid.len && i < bad.len; i++)
        diff += valid.p[i] != bad.p[i];
    CHECK(diff >= 1 && diff <= 4, "%zu bytes differ", diff);
    tc_bb_free(&valid);
    tc_bb_free(&bad);
}

static const tu_test tests[] = {
    {"every breakable XRAY rule has a mutator", test_every_rule_has_a_mutator},
    {"mutator table", test_mutator_table},
    {"one violation: every rule, version, byte order, seeds", test_property},
    {"one violation: trace and buffer sizes", test_property_sizes},
    {"mutations start from the valid trace", test_starts_from_valid_trace},
    {NULL, NULL},
};

void register_mutator_suite(void) { tu_add_suite("mutator", tests); }
