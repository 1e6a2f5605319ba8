/* The DCFG generator (generators/dcfg): deterministic; the DCFG and its
 * DCFG-trace agree with each other, as the independent checker of
 * pair_checker.h judges them, over many seeds and shapes, and the checker
 * catches a pair with one count, one idom or one code changed; the
 * features the generator promises are there; the sizes asked for; the
 * round trip the fuzzers use; generated pairs valid through tracecheck's
 * parsers; one mutator for every DCFG and DTRC rule that one change can
 * break, each breaking its rule alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../generators/dcfg/dcfg_gen.h"
#include "../../generators/dcfg/dcfg_mutate.h"
#include "../../generators/dcfg/dcfg_roundtrip.h"
#include "../../parsers/dcfg/dcfg_model.h"
#include "../../parsers/dcfg/dtrc.h"
#include "../suites.h"
#include "../tu.h"
#include "pair_checker.h"

/* ---- tests ---- */

static int gen_mem(const dcfg_gen_params *p, dcfg_mem *m, dcfg_gen_stats *st)
{
    char err[300];
    tc_error why = TC_ERROR_INIT;
    dcfg_sink sink = {NULL, m};
    int rc = tu_error_text(dcfg_generate(p, -1, NULL, sink, st, &why), &why, err, sizeof err);
    CHECK(rc == 0, "generation failed: %s", err);
    return rc;
}

static const char *shape(const dcfg_gen_params *p)
{
    static char buf[120];
    snprintf(buf, sizeof buf, "seed %llu size %llu procs %u threads %u",
             (unsigned long long)p->seed, (unsigned long long)p->size, p->procs, p->threads);
    return buf;
}

static int same(const tc_bytebuf *a, const tc_bytebuf *b)
{
    return a->len == b->len && (!a->len || !memcmp(a->p, b->p, a->len));
}

static const dcfg_gen_params shapes[] = {
    {.size = 0},
    {.size = 1000},
    {.size = 6000, .procs = 2, .threads = 3},
    {.size = 20000},
    {.size = 40000, .procs = 1, .threads = 1},
    {.size = 70000, .procs = 3, .threads = 2},
};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

static void test_determinism(void)
{
    for (size_t s = 0; s < NSHAPES; s++) {
        dcfg_gen_params p = shapes[s];
        p.seed = 40 + s;
        dcfg_mem a = {0}, b = {0}, c = {0};
        gen_mem(&p, &a, NULL);
        gen_mem(&p, &b, NULL);
        CHECK(same(&a.dcfg, &b.dcfg) && same(&a.trace, &b.trace), "%s: two runs differ",
              shape(&p));
        p.seed++;
        gen_mem(&p, &c, NULL);
        CHECK(!same(&a.trace, &c.trace), "%s: the next seed gives the same trace", shape(&p));
        dcfg_mem_free(&a);
        dcfg_mem_free(&b);
        dcfg_mem_free(&c);
    }
}

static void test_files(void)
{
    dcfg_gen_params p = {.seed = 9, .size = 5000};
    char prefix[600], err[300];
    tc_error why = TC_ERROR_INIT;
    snprintf(prefix, sizeof prefix, "%s/gen-dcfg", tu_tmpdir());
    dcfg_sink sink = {prefix, NULL};
    CU_ASSERT_EQUAL_FATAL(
        tu_error_text(dcfg_generate(&p, -1, NULL, sink, NULL, &why), &why, err, sizeof err), 0);
    dcfg_mem m = {0};
    gen_mem(&p, &m, NULL);
    for (int t = 0; t < 2; t++) {
        char *path = dcfg_gen_path(prefix, t);
        size_t n = 0;
        uint8_t *bytes = tu_read_file(path, &n);
        const tc_bytebuf *want = t ? &m.trace : &m.dcfg;
        CHECK(bytes && n == want->len && !memcmp(bytes, want->p, n), "%s differs from memory",
              path);
        CHECK(strstr(path, t ? ".trace.json" : ".dcfg.json") != NULL, "named %s", path);
        free(bytes);
        free(path);
    }
    dcfg_mem_free(&m);
    /* A directory that does not exist: an error with the path. */
    dcfg_sink nowhere = {"/nonexistent-dir/x", NULL};
    CHECK(tu_error_text(dcfg_generate(&p, -1, NULL, nowhere, NULL, &why), &why, err, sizeof err) !=
                  0 &&
              strstr(err, "/nonexistent-dir/x.trace.json"),
          "error: %s", err);
    dcfg_gen_params big = {.procs = DCFG_GEN_MAX_PROCS + 1};
    CHECK(tu_error_text(dcfg_generate(&big, -1, NULL, sink, NULL, &why), &why, err, sizeof err) !=
              0,
          "65 processes");
}

static void test_consistent(void)
{
    unsigned runs = 0, bad = 0;
    unsigned long long idoms = 0, loops = 0, multi = 0, longc = 0, edges = 0;
    for (uint64_t seed = 1; seed <= 8; seed++)
        for (size_t s = 0; s < NSHAPES; s++) {
            dcfg_gen_params p = shapes[s];
            p.seed = seed * 131 + s;
            dcfg_mem m = {0};
            if (gen_mem(&p, &m, NULL) != 0)
                continue;
            pc_checker c;
            runs++;
            if (!pc_check_pair(&m, &c) && bad++ < 3)
                CHECK(0, "%s: %s (%d problems)", shape(&p), c.why, c.bad);
            idoms += c.idoms;
            loops += c.loops;
            multi += c.multi;
            longc += c.codes_long;
            edges += c.decoded;
            dcfg_mem_free(&m);
        }
    CHECK(bad == 0, "%u of %u pairs inconsistent", bad, runs);
    /* What was checked is there to check. */
    CHECK(idoms > 1000 && loops > 100 && multi > 100 && longc > 100 && edges > 100000,
          "checked %llu idoms, %llu loops, %llu multi-edge rows, %llu codes of 2+ bits, "
          "%llu edges", idoms, loops, multi, longc, edges);
}

/* The checker itself: a pair with one count, one idom or one code changed
 * is caught. */
static void replace_once(tc_bytebuf *b, const char *from, const char *to)
{
    char *s = malloc(b->len + 1);
    memcpy(s, b->p, b->len);
    s[b->len] = '\0';
    char *at = strstr(s, from);
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    size_t head = (size_t)(at - s), lf = strlen(from), lt = strlen(to);
    tc_bytebuf nb = {0};
    tc_bb_append(&nb, s, head);
    tc_bb_append(&nb, to, lt);
    tc_bb_append(&nb, s + head + lf, b->len - head - lf);
    free(s);
    tc_bb_free(b);
    *b = nb;
}

static void test_checker_catches(void)
{
    dcfg_gen_params p = {.seed = 77, .size = 3000, .procs = 1, .threads = 1};
    static const struct {
        int trace;
        const char *from, *to, *why;
    } cases[] = {
        {0, "\"INSTR_COUNT\":", "\"INSTR_COUNT\":1+", "INSTR_COUNT"},
        {0, "[\"NODE_ID\",\"IDOM_NODE_ID\"],[", "[\"NODE_ID\",\"IDOM_NODE_ID\"],[1", "idom"},
        {1, "\",[", "1\",[", "code"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dcfg_mem m = {0};
        gen_mem(&p, &m, NULL);
        replace_once(cases[i].trace ? &m.trace : &m.dcfg, cases[i].from, cases[i].to);
        pc_checker c;
        CHECK(!pc_check_pair(&m, &c), "a changed %s goes unnoticed", cases[i].why);
        dcfg_mem_free(&m);
    }
}

static void test_features(void)
{
    dcfg_gen_params p = {.seed = 5, .size = 300000, .procs = 2, .threads = 2};
    dcfg_mem m = {0};
    dcfg_gen_stats st;
    gen_mem(&p, &m, &st);
    CHECK(st.repeats > 0 && st.dict_refs > 0 && st.multi_rows > 0 && st.chunks > 4,
          "repeats %llu, dictionary references %llu, multi-edge rows %llu, chunks %llu",
          (unsigned long long)st.repeats, (unsigned long long)st.dict_refs,
          (unsigned long long)st.multi_rows, (unsigned long long)st.chunks);
    tc_bb_append(&m.trace, "", 1);
    tc_bb_append(&m.dcfg, "", 1);
    const char *t = (const char *)m.trace.p, *d = (const char *)m.dcfg.p;
    CHECK(strstr(t, "*<") && strstr(t, "\"(16*<"), "nested dictionary references");
    CHECK(strstr(d, "\"0x") && strstr(d, ",[0") && strstr(t, "\"0x"), "integer forms");
    static const char *const types[] = {"\"REP\"", "\"FALL_THROUGH\"", "\"DIRECT_CALL\"",
                                        "\"INDIRECT_CALL\"", "\"RETURN\"", "\"CALL_BYPASS\"",
                                        "\"SYSTEM_CALL_BYPASS\"", "\"ENTRY\"", "\"EXIT\""};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        CHECK(strstr(d, types[i]) != NULL, "no %s", types[i]);
    CHECK(strstr(d, "\"LOOPS\"") && strstr(d, "PARENT_LOOP_HEAD_NODE_ID"), "loops");
    CHECK(st.trace_bytes >= p.size * 9 / 10 && st.trace_bytes <= p.size * 11 / 10,
          "%llu bytes of trace for %llu", (unsigned long long)st.trace_bytes,
          (unsigned long long)p.size);
    dcfg_mem_free(&m);
}

static void validate_pair(const dcfg_mem *m, tu_result *r);

/* The round trip: whatever the fuzzer's bytes, a consistent pair. */
static void test_roundtrip(void)
{
    tc_rng seeds;
    tc_rng_seed(&seeds, 3);
    unsigned bad = 0;
    for (int i = 0; i < 60; i++) {
        uint8_t bytes[512];
        size_t n = (size_t)tc_rng_below(&seeds, sizeof bytes + 1);
        tc_rng_fill(&seeds, bytes, n);
        if (i % 7 == 0)
            memset(bytes, i % 2 ? 0xff : 0, n); /* runs of equal choices */
        tc_rng ch;
        tc_rng_from_bytes(&ch, bytes, n);
        dcfg_mem m = {0};
        dcfg_gen_params used;
        dcfg_gen_stats st;
        CU_ASSERT_EQUAL_FATAL(dcfg_roundtrip_synth(&ch, &used, &m, &st), 0);
        CHECK(used.size <= DCFG_ROUNDTRIP_MAX_SIZE && used.procs >= 1 && used.threads >= 1,
              "parameters %s", shape(&used));
        pc_checker c;
        if (!pc_check_pair(&m, &c) && bad++ < 3)
            CHECK(0, "input %d (%zu bytes): %s", i, n, c.why);
        CHECK(st.traversed == c.decoded, "%llu edges run, %llu decoded",
              (unsigned long long)st.traversed, (unsigned long long)c.decoded);
        tu_result r = {0};
        validate_pair(&m, &r);
        CHECK(r.n == 0, "input %d: findings %s", i, tu_describe(&r));
        tu_result_free(&r);
        dcfg_mem_free(&m);
    }
}

/* ---- through tracecheck's parsers, the trace paired with its DCFG ---- */

static void validate_pair(const dcfg_mem *m, tu_result *r)
{
    tu_result_free(r);
    tc_input_opts io = {0};
    tc_input *in = tc_input_open_memory(m->dcfg.p, m->dcfg.len, &io);
    tc_diag_sink ds;
    tc_diag_init(&ds, "dcfg", 1000, 0, tu_collect, r);
    tc_dcfg_model *model = tc_dcfg_model_load(tc_input_reader(in), &ds);
    tc_diag_finish(&ds);
    tc_input_close(in);
    in = tc_input_open_memory(m->trace.p, m->trace.len, &io);
    tc_diag_sink ts;
    tc_diag_init(&ts, "trace", 1000, 0, tu_collect, r);
    tc_parse_ctx ctx = {.diags = &ts};
    tc_dtrc_parse_paired(tc_input_reader(in), &ctx, model);
    tc_diag_finish(&ts);
    tc_input_close(in);
    tc_dcfg_model_free(model);
}

static void test_valid_validates(void)
{
    unsigned bad = 0, runs = 0;
    for (uint64_t seed = 1; seed <= 4; seed++)
        for (size_t s = 0; s < NSHAPES; s++) {
            dcfg_gen_params p = shapes[s];
            p.seed = seed * 977 + s;
            dcfg_mem m = {0};
            if (gen_mem(&p, &m, NULL) != 0)
                continue;
            tu_result r = {0};
            validate_pair(&m, &r);
            runs++;
            if (r.n && bad++ < 3)
                CHECK(0, "%s: findings %s", shape(&p), tu_describe(&r));
            tu_result_free(&r);
            dcfg_mem_free(&m);
        }
    CHECK(bad == 0, "%u of %u valid pairs have findings", bad, runs);
}

/* --dcfg-size: a DCFG of about the size asked, whatever the trace's size,
 * valid, consistent with its trace (the routines no thread enters count
 * 0), and the same bytes twice. */
static void test_dcfg_size(void)
{
    static const dcfg_gen_params ps[] = {
        {.seed = 3, .size = 20000, .procs = 2, .threads = 2, .dcfg_size = 2u << 20},
        {.seed = 8, .size = 1000, .dcfg_size = 3u << 20},
    };
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
        const dcfg_gen_params *p = &ps[i];
        dcfg_mem m = {0}, again = {0};
        dcfg_gen_stats st;
        if (gen_mem(p, &m, &st) != 0)
            continue;
        double want = (double)p->dcfg_size, got = (double)m.dcfg.len;
        CHECK(got > want * 0.9 && got < want * 1.1, "%s: asked %.0f bytes of DCFG, got %.0f",
              shape(p), want, got);
        /* The trace stays about --size: the large model is not run. */
        CHECK(m.trace.len < 4 * p->size + 16384, "%s: trace of %zu bytes", shape(p),
              m.trace.len);
        CHECK(st.blocks > 10000, "%s: only %llu blocks", shape(p),
              (unsigned long long)st.blocks);
        tu_result r = {0};
        validate_pair(&m, &r);
        CHECK(r.n == 0, "%s: findings %s", shape(p), tu_describe(&r));
        tu_result_free(&r);
        pc_checker c;
        CHECK(pc_check_pair(&m, &c), "%s: %s (%d problems)", shape(p), c.why, c.bad);
        gen_mem(p, &again, NULL);
        CHECK(same(&m.dcfg, &again.dcfg) && same(&m.trace, &again.trace), "%s: two runs differ",
              shape(p));
        dcfg_mem_free(&m);
        dcfg_mem_free(&again);
    }
}

/* Every DCFG-* and DTRC-* rule that one change can break has a mutator,
 * and none that is flagged as unbreakable has one. */
static void test_every_rule_has_a_mutator(void)
{
    size_t rules = 0, flagged = 0;
    for (size_t i = 0; i < tc_rule_count(); i++) {
        const tc_rule_info *r = tc_rule_at(i);
        if (strcmp(r->family, "DCFG") && strcmp(r->family, "DTRC"))
            continue;
        rules++;
        const dcfg_mutator *m = dcfg_mutator_for((tc_rule_id)i);
        if (r->flags & TC_RF_NO_MUTATOR) {
            flagged++;
            CHECK(m == NULL, "%s is flagged TC_RF_NO_MUTATOR but has a mutator", r->id);
        } else {
            CHECK(m != NULL, "%s has no DCFG mutator", r->id);
        }
    }
    CHECK(rules >= 77 && rules - flagged <= dcfg_mutator_count(),
          "%zu DCFG and DTRC rules, %zu flagged, %zu mutators", rules, flagged,
          dcfg_mutator_count());
}

static void test_mutators(void)
{
    CU_ASSERT(dcfg_mutator_count() >= 74);
    CU_ASSERT_PTR_NULL(dcfg_mutator_at(dcfg_mutator_count()));
    for (size_t i = 0; i < dcfg_mutator_count(); i++) {
        const dcfg_mutator *mu = dcfg_mutator_at(i);
        const tc_rule_info *rule = &tc_rules[mu->rule];
        CHECK(!strcmp(rule->family, "DCFG") || !strcmp(rule->family, "DTRC"), "%s", rule->id);
        CHECK(!(rule->flags & TC_RF_NO_MUTATOR), "%s is flagged TC_RF_NO_MUTATOR", rule->id);
        CHECK(dcfg_mutator_for(mu->rule) == mu, "%s has two mutators", rule->id);
        unsigned failed = 0;
        for (uint64_t seed = 1; seed <= 3; seed++) {
            dcfg_gen_params p = {.seed = seed, .size = seed == 1 ? 0 : 12000 * seed};
            dcfg_mem m = {0};
            char err[300];
            tc_error why = TC_ERROR_INIT;
            dcfg_sink sink = {NULL, &m};
            if (tu_error_text(dcfg_generate(&p, (int)mu->rule, NULL, sink, NULL, &why), &why, err,
                              sizeof err) != 0) {
                CHECK(0, "%s seed %llu: %s", rule->id, (unsigned long long)seed, err);
                continue;
            }
            tu_result r = {0};
            validate_pair(&m, &r);
            /* Nothing else of error or warning severity: a mutator that
             * set off a second rule would hide whether the first is
             * checked on its own. */
            size_t others = 0;
            for (size_t k = 0; k < r.n; k++)
                others += r.d[k].severity != TC_NOTE && r.d[k].rule != rule;
            if ((!tu_count(&r, rule->id) || others) && failed++ == 0)
                CHECK(0, "%s seed %llu: findings %s", rule->id, (unsigned long long)seed,
                      tu_describe(&r));
            tu_result_free(&r);
            /* The same options, the same bytes. */
            dcfg_mem again = {0};
            dcfg_sink sink2 = {NULL, &again};
            tu_error_text(dcfg_generate(&p, (int)mu->rule, NULL, sink2, NULL, &why), &why, err,
                          sizeof err);
            CHECK(same(&m.dcfg, &again.dcfg) && same(&m.trace, &again.trace),
                  "%s: two runs differ", rule->id);
            dcfg_mem_free(&again);
            dcfg_mem_free(&m);
        }
    }
    /* A rule of another format is refused. */
    dcfg_gen_params p = {.seed = 1};
    dcfg_mem m = {0};
    char err[300];
    tc_error why = TC_ERROR_INIT;
    dcfg_sink sink = {NULL, &m};
    CHECK(tu_error_text(dcfg_generate(&p, TC_RULE_XRAY_HEADER_VERSION, NULL, sink, NULL, &why),
                        &why, err, sizeof err) != 0,
          "an XRay rule accepted");
    dcfg_mem_free(&m);
}

void register_dcfg_generator_suite(void)
{
    static const tu_test tests[] = {
        {"determinism", test_determinism},
        {"files", test_files},
        {"consistent", test_consistent},
        {"checker_catches", test_checker_catches},
        {"features", test_features},
        {"roundtrip", test_roundtrip},
        {"valid_validates", test_valid_validates},
        {"dcfg_size", test_dcfg_size},
        {"every_rule_has_a_mutator", test_every_rule_has_a_mutator},
        {"mutators", test_mutators},
        {NULL, NULL},
    };
    tu_add_suite("dcfg_generator", tests);
}
