/* One input on several threads (parsers/common/split.h): the findings, their
 * order, contexts and counts are those of one thread, for valid traces, for
 * every XRay and ovni mutator and for traces damaged at random places; a
 * sound trace is really shared out, and a damaged one really resumes on one
 * thread. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../generators/ovni/ovni_gen.h"
#include "../generators/xray/xray_basic_gen.h"
#include "../generators/xray/xray_gen.h"
#include "../parsers/common/split.h"
#include "../parsers/xray/xray.h"
#include "suites.h"
#include "tu.h"

static void put(tc_bytebuf *out, const char *s) { tc_bb_append(out, s, strlen(s)); }

/* Everything a report shows of a finding. */
static void collect(void *user, const tc_diag *d)
{
    tc_bytebuf *out = user;
    char line[2048];
    snprintf(line, sizeof line, "%s %d %" PRIu64 "+%" PRIu64 " [%s] %s", d->rule->id,
             (int)d->severity, d->offset, d->length, d->context ? d->context : "-", d->message);
    put(out, line);
    for (size_t i = 0; i < d->n_related; i++) {
        snprintf(line, sizeof line, " r%" PRIu64, d->related[i]);
        put(out, line);
    }
    for (size_t i = 0; i < d->n_values; i++) {
        snprintf(line, sizeof line, " %s", d->values[i].name);
        put(out, line);
    }
    if (d->summarises) {
        snprintf(line, sizeof line, " (%s %" PRIu64 ")", d->summarises->id, d->suppressed);
        put(out, line);
    }
    put(out, "\n");
}

/* The format under test: FDR traces or basic-mode logs. */
typedef struct way {
    const tc_format_split *split;
    void (*parse)(tc_reader *r, const tc_parse_ctx *ctx);
} way;
static const way fdr = {&tc_xray_split, tc_xray_parse};
static const way basic = {&tc_xray_basic_split, tc_xray_basic_parse};
static const way *format = &fdr;

/* The report of trace (n bytes) on threads threads, segments of at least
 * min bytes: findings, then counts and the bytes read. */
static void run(const uint8_t *trace, size_t n, unsigned threads, uint64_t min, int pedantic,
                tc_bytebuf *out, tc_split_stats *st)
{
    out->len = 0;
    tc_input *in = tc_input_open_memory(trace, n, NULL);
    tc_diag_sink d;
    tc_diag_init(&d, "t", 3, pedantic, collect, out);
    tc_parse_ctx ctx = {.diags = &d};
    tc_split_stats none;
    if (tc_split_check(in, format->split, &ctx, threads, min, st ? st : &none) != 0)
        format->parse(tc_input_reader(in), &ctx);
    tc_diag_finish(&d);
    char line[200];
    snprintf(line, sizeof line, "errors %" PRIu64 " warnings %" PRIu64 " notes %" PRIu64
             " first %" PRIu64 " read %" PRIu64 "\n", d.errors, d.warnings, d.notes,
             d.first_error_offset, tc_pos(tc_input_reader(in)));
    put(out, line);
    tc_input_close(in);
}

typedef struct tally {
    unsigned inputs, split, resumed;
} tally;

/* Same report on 1 thread and on several, for a few segment sizes. */
static int same_everywhere(const uint8_t *trace, size_t n, const char *what, tally *t)
{
    static const struct { unsigned threads; uint64_t min; } ways[] = {
        {2, 4096}, {3, 1000}, {5, 777}, {4, 100000},
    };
    tc_bytebuf one = {0}, many = {0};
    int ok = 1;
    for (int pedantic = 0; pedantic <= 1 && ok; pedantic++) {
        run(trace, n, 1, 0, pedantic, &one, NULL);
        for (size_t w = 0; w < sizeof ways / sizeof *ways && ok; w++) {
            tc_split_stats st;
            run(trace, n, ways[w].threads, ways[w].min, pedantic, &many, &st);
            t->inputs++;
            t->split += st.segments > 1;
            t->resumed += st.resumed;
            if (one.len != many.len || memcmp(one.p, many.p, one.len) != 0) {
                ok = 0;
                tc_bb_append(&one, "", 1);
                tc_bb_append(&many, "", 1);
                CHECK(0, "%s, %u threads of %" PRIu64 " bytes, pedantic %d:\none thread:\n%s\n"
                      "split:\n%s", what, ways[w].threads, ways[w].min, pedantic,
                      (char *)one.p, (char *)many.p);
            }
        }
    }
    tc_bb_free(&one);
    tc_bb_free(&many);
    return ok;
}

static int gen(const xray_gen_params *p, int violate, tc_bytebuf *out)
{
    out->len = 0;
    xray_sink sink = {NULL, out};
    tc_error why = TC_ERROR_INIT;
    int rc = xray_generate(p, violate, NULL, sink, NULL, &why);
    tc_error_free(&why);
    return rc;
}

static int basic_gen(const xray_basic_params *p, int violate, tc_bytebuf *out)
{
    out->len = 0;
    xray_sink sink = {NULL, out};
    tc_error why = TC_ERROR_INIT;
    int rc = xray_basic_generate(p, violate, NULL, sink, NULL, &why);
    tc_error_free(&why);
    return rc;
}

static void test_valid(void)
{
    tc_bytebuf t = {0};
    tally all = {0};
    for (unsigned v = 1; v <= 5; v++)
        for (int be = 0; be <= 1; be++) {
            xray_gen_params p = {.seed = 40 + v, .size = 300000, .version = v, .threads = 3,
                                 .buffer_size = v == 1 ? 2048 : 0, .big_endian = be};
            CU_ASSERT_EQUAL_FATAL(gen(&p, -1, &t), 0);
            char what[64];
            snprintf(what, sizeof what, "valid v%u %s", v, be ? "big" : "little");
            tally one = {0};
            same_everywhere(t.p, t.len, what, &one);
            /* Sound traces are shared out and never resume. */
            CHECK(one.split == one.inputs && one.resumed == 0,
                  "%s: %u of %u runs split, %u resumed", what, one.split, one.inputs,
                  one.resumed);
            all.inputs += one.inputs;
        }
    CU_ASSERT(all.inputs > 0);
    tc_bb_free(&t);
}

/* Every mutator, in every version it has, at a size that makes segments. */
static void test_mutators(void)
{
    tc_bytebuf t = {0};
    tally all = {0};
    unsigned rules = 0;
    for (int rule = 0; rule < TC_RULE__COUNT; rule++) {
        if (strncmp(tc_rules[rule].id, "XRAY-", 5) != 0 ||
            strncmp(tc_rules[rule].id, "XRAY-BASIC-", 11) == 0)
            continue;
        int any = 0;
        for (unsigned v = 1; v <= 5; v++) {
            xray_gen_params p = {.seed = 7 * (unsigned)rule + v, .size = 120000, .version = v,
                                 .threads = 2, .buffer_size = v == 1 ? 1024 : 0};
            if (gen(&p, rule, &t) != 0)
                continue;
            any = 1;
            char what[96];
            snprintf(what, sizeof what, "%s v%u", tc_rules[rule].id, v);
            same_everywhere(t.p, t.len, what, &all);
        }
        rules += any;
    }
    CHECK(rules >= 25, "%u rules with mutators", rules);
    tc_bb_free(&t);
}

/* Valid traces with bytes overwritten at random places: framing errors,
 * resynchronisation, false buffer starts, extents running on. */
static void test_damaged(void)
{
    tc_bytebuf t = {0};
    tally all = {0};
    tc_rng rng;
    tc_rng_seed(&rng, 2026);
    for (unsigned k = 0; k < 60; k++) {
        unsigned v = 1 + k % 5;
        xray_gen_params p = {.seed = 500 + k, .size = 60000 + 1000 * k, .version = v,
                             .threads = 1 + k % 4, .buffer_size = v == 1 ? 1024 : 4096,
                             .big_endian = (int)(k / 5 % 2)};
        CU_ASSERT_EQUAL_FATAL(gen(&p, -1, &t), 0);
        unsigned hits = 1 + (unsigned)tc_rng_below(&rng, 12);
        for (unsigned h = 0; h < hits; h++) {
            size_t at = 32 + (size_t)tc_rng_below(&rng, t.len - 32);
            size_t len = 1 + (size_t)tc_rng_below(&rng, 24);
            for (size_t i = at; i < at + len && i < t.len; i++)
                t.p[i] = (uint8_t)tc_rng_u64(&rng);
        }
        /* Now and then a false buffer start: a BufferExtents tag and a
         * NewBuffer tag 16 bytes on, inside a buffer's records. */
        if (k % 3 == 0 && v >= 2) {
            size_t at = 32 + (size_t)tc_rng_below(&rng, t.len - 64);
            t.p[at] = p.big_endian ? 0x87 : 0x0f;
            memset(t.p + at + 1, 0, 15);
            t.p[at + 1 + p.big_endian * 7] = 0x40;
            t.p[at + 16] = p.big_endian ? 0x80 : 0x01;
            memset(t.p + at + 21, 0, 11);
        }
        if (k % 7 == 0) /* cut short */
            t.len -= (size_t)tc_rng_below(&rng, t.len / 2);
        char what[64];
        snprintf(what, sizeof what, "damaged trace %u (v%u)", k, v);
        same_everywhere(t.p, t.len, what, &all);
    }
    /* The test reaches both ways the segments are put together. */
    CHECK(all.split > 0 && all.resumed > 0, "%u split, %u resumed of %u", all.split,
          all.resumed, all.inputs);
    tc_bb_free(&t);
}

/* Inputs that cannot be split are left to one thread. */
static void test_not_split(void)
{
    static const uint8_t small[64] = {5, 0, 1, 0};
    tc_input *in = tc_input_open_memory(small, sizeof small, NULL);
    tc_diag_sink d;
    tc_diag_init(&d, "t", 3, 0, NULL, NULL);
    tc_parse_ctx ctx = {.diags = &d};
    CU_ASSERT_EQUAL(tc_split_check(in, &tc_xray_split, &ctx, 4, 0, NULL), -1); /* too small */
    CU_ASSERT_EQUAL(tc_split_check(in, &tc_xray_split, &ctx, 1, 8, NULL), -1); /* one thread */
    CU_ASSERT_EQUAL(d.errors + d.warnings + d.notes, 0);
    tc_input_close(in);
}

/* Basic-mode logs: threads whose TSCs and open entries cross segments. */
static void test_basic(void)
{
    format = &basic;
    tc_bytebuf t = {0};
    tally sound = {0}, all = {0};
    for (unsigned v = 1; v <= 3; v++)
        for (int be = 0; be <= 1; be++) {
            xray_basic_params p = {.seed = 60 + v, .size = 300000, .version = v, .threads = 3,
                                   .big_endian = be};
            CU_ASSERT_EQUAL_FATAL(basic_gen(&p, -1, &t), 0);
            char what[64];
            snprintf(what, sizeof what, "valid basic v%u %s", v, be ? "big" : "little");
            same_everywhere(t.p, t.len, what, &sound);
        }
    /* Sound logs are shared out and never resume. */
    CHECK(sound.split == sound.inputs && sound.resumed == 0, "%u of %u runs split, %u resumed",
          sound.split, sound.inputs, sound.resumed);
    unsigned rules = 0;
    for (int rule = 0; rule < TC_RULE__COUNT; rule++) {
        if (strncmp(tc_rules[rule].id, "XRAY-", 5) != 0)
            continue;
        for (unsigned v = 1; v <= 3; v++) {
            xray_basic_params p = {.seed = 11 * (unsigned)rule + v, .size = 100000, .version = v,
                                   .threads = 2};
            if (basic_gen(&p, rule, &t) != 0)
                continue;
            rules++;
            char what[96];
            snprintf(what, sizeof what, "basic %s v%u", tc_rules[rule].id, v);
            same_everywhere(t.p, t.len, what, &all);
        }
    }
    CHECK(rules >= 8, "%u basic-mode mutator runs", rules);
    /* Damaged: records overwritten, records dropped (stacks and TSCs that
     * the state before a segment decides), a log cut short. */
    tc_rng rng;
    tc_rng_seed(&rng, 2027);
    for (unsigned k = 0; k < 40; k++) {
        xray_basic_params p = {.seed = 900 + k, .size = 50000 + 2000 * k, .version = 1 + k % 3,
                               .threads = 1 + k % 5, .big_endian = (int)(k / 3 % 2)};
        CU_ASSERT_EQUAL_FATAL(basic_gen(&p, -1, &t), 0);
        unsigned hits = 1 + (unsigned)tc_rng_below(&rng, 6);
        for (unsigned h = 0; h < hits; h++) {
            size_t rec = 1 + (size_t)tc_rng_below(&rng, (t.len - 32) / 32 - 1);
            if (h % 2) { /* drop a record: an exit or entry goes missing */
                memmove(t.p + 32 * rec, t.p + 32 * (rec + 1), t.len - 32 * (rec + 1));
                t.len -= 32;
            } else {
                t.p[32 * rec + 8 + (size_t)tc_rng_below(&rng, 16)] ^= (uint8_t)(1 + tc_rng_below(&rng, 255));
            }
        }
        if (k % 2) { /* TSCs taken back, some at a thread's first record of a segment */
            for (unsigned h = 0; h < 40; h++) {
                size_t rec = (size_t)tc_rng_below(&rng, (t.len - 32) / 32);
                if (t.p[32 + 32 * rec] == 0 && t.p[33 + 32 * rec] == 0) /* a function record */
                    memset(t.p + 32 + 32 * rec + 8, 0, 8);
            }
        }
        if (k % 9 == 0)
            t.len -= (size_t)tc_rng_below(&rng, 31) + 1;
        char what[64];
        snprintf(what, sizeof what, "damaged basic log %u", k);
        same_everywhere(t.p, t.len, what, &all);
    }
    CHECK(all.split > 0 && all.resumed > 0, "%u split, %u resumed of %u", all.split, all.resumed,
          all.inputs);
    tc_bb_free(&t);
    format = &fdr;
}

/* An ovni trace's streams checked at once (tc_split_each): every mutator,
 * in traces of 12 streams, pedantic or not, with a cap of 3. */
static void ovni_run(const char *dir, unsigned threads, int pedantic, tu_result *r)
{
    tu_result_free(r);
    tc_options opt = TC_OPTIONS_INIT;
    opt.format = TC_FORMAT_OVNI;
    opt.pedantic = pedantic;
    opt.max_repeats = 3;
    opt.on_diag = tu_collect;
    opt.user = r;
    tc_check_opts c = {.options = &opt, .threads = threads};
    r->status = tu_check_path_text(dir, &c, &r->sum, r->err, sizeof r->err);
}

static void test_ovni(void)
{
    unsigned traces = 0, with_findings = 0;
    for (int rule = -1; rule < TC_RULE__COUNT; rule++) {
        if (rule >= 0 && strncmp(tc_rules[rule].id, "OVNI-", 5) != 0)
            continue;
        char dir[512];
        snprintf(dir, sizeof dir, "%s/split-ovni-%d", tu_tmpdir(), rule);
        ovni_gen_params p = {.seed = 300 + (unsigned)(rule + 1), .size = 60000, .looms = 2,
                             .procs = 2, .threads = 3};
        ovni_sink sink = {dir, NULL};
        tc_error why = TC_ERROR_INIT;
        int rc = ovni_generate(&p, rule, NULL, sink, NULL, &why);
        tc_error_free(&why);
        if (rc != 0)
            continue;
        for (int pedantic = 0; pedantic <= 1; pedantic++) {
            tu_result one = {0}, many = {0};
            ovni_run(dir, 1, pedantic, &one);
            ovni_run(dir, 3, pedantic, &many);
            char what[96];
            snprintf(what, sizeof what, "ovni %s, pedantic %d",
                     rule >= 0 ? tc_rules[rule].id : "valid", pedantic);
            tu_assert_same(&one, &many, 0, what);
            traces++;
            with_findings += one.n > 0;
            tu_result_free(&one);
            tu_result_free(&many);
        }
    }
    CHECK(traces >= 40 && with_findings >= 30, "%u ovni traces, %u with findings", traces,
          with_findings);
}

static const tu_test tests[] = {
    {"ovni streams at once: same report", test_ovni},
    {"basic-mode logs: shared out, same report", test_basic},
    {"valid traces: shared out, same report", test_valid},
    {"every mutator: same report", test_mutators},
    {"damaged traces: same report, resumed", test_damaged},
    {"too small or one thread: not split", test_not_split},
    {NULL, NULL},
};

void register_split_suite(void) { tu_add_suite("split", tests); }
