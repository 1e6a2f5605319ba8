/* The ovni generator (generators/ovni): deterministic; valid traces of many
 * shapes and both byte orders on which tracecheck finds nothing; one
 * violation per mutator (exactly that rule, at its severity); a mutator for
 * every breakable OVNI and TC-JSON rule; and the in-memory round trip the
 * fuzzers use, read back by the parser. */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../generators/ovni/ovni_gen.h"
#include "../../generators/ovni/ovni_mutate.h"
#include "../../generators/ovni/ovni_roundtrip.h"
#include "../../parsers/ovni/ovni.h"
#include "../../parsers/ovni/ovni_meta.h"
#include "../../parsers/ovni/ovni_models.h"
#include "../../parsers/ovni/ovni_models.h"
#include "../../parsers/ovni/ovni_model.h"
#include "../suites.h"
#include "../tu.h"

/* ---- helpers ---- */

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static void rm_rf(const char *path) { nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS); }

/* mkdir -p */
static void make_dirs(const char *path)
{
    char p[1024];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            mkdir(p, 0777);
            *s = '/';
        }
    CHECK(mkdir(p, 0777) == 0, "mkdir %s", p);
}

/* A fresh directory name under the test's temporary directory. */
static void scratch_dir(char *buf, size_t size, const char *what)
{
    static unsigned n;
    snprintf(buf, size, "%s/ovni-%s-%u", tu_tmpdir(), what, n++);
    rm_rf(buf);
}

/* Checks a trace directory as `tracecheck validate --format ovni --pedantic`
 * does, collecting every finding. (--format ovni: a directory with no
 * stream.json at all, OVNI-TRACE-EMPTY, is then a trace too.) */
static int check_trace(const char *dir, tu_result *r)
{
    tu_result_free(r);
    tc_options opt = TC_OPTIONS_INIT;
    opt.format = TC_FORMAT_OVNI;
    opt.pedantic = 1;
    opt.on_diag = tu_collect;
    opt.user = r;
    tc_check_opts c = {.options = &opt};
    r->status = tu_check_path_text(dir, &c, &r->sum, r->err, sizeof r->err);
    return r->status;
}

static int gen_dir(const ovni_gen_params *p, int violate, const char *dir, char *err, size_t n)
{
    ovni_sink sink = {dir, NULL};
    tc_error why = TC_ERROR_INIT;
    return tu_error_text(ovni_generate(p, violate, NULL, sink, NULL, &why), &why, err, n);
}

static int gen_mem(const ovni_gen_params *p, int violate, ovni_mem_trace *t, char *err, size_t n)
{
    ovni_sink sink = {NULL, t};
    tc_error why = TC_ERROR_INIT;
    return tu_error_text(ovni_generate(p, violate, NULL, sink, NULL, &why), &why, err, n);
}

static const char *shape(const ovni_gen_params *p)
{
    static char buf[160];
    snprintf(buf, sizeof buf, "seed %llu size %llu shape %ux%ux%u %s",
             (unsigned long long)p->seed, (unsigned long long)p->size, p->looms, p->procs,
             p->threads, p->mixed_byte_order ? "mixed" : p->big_endian ? "big" : "little");
    return buf;
}

static int same_buf(const tc_bytebuf *a, const tc_bytebuf *b)
{
    return a->len == b->len && (a->len == 0 || memcmp(a->p, b->p, a->len) == 0);
}

/* ---- determinism, sizes, the disk and memory sinks ---- */

static const ovni_gen_params shapes[] = {
    {.size = 0, .looms = 1, .procs = 1, .threads = 1},
    {.size = 300, .looms = 2, .procs = 2, .threads = 2},
    {.size = 20000, .looms = 2, .procs = 2, .threads = 2},
    {.size = 5000, .looms = 3, .procs = 1, .threads = 4},
    {.size = 150000, .looms = 1, .procs = 5, .threads = 1},
    {.size = 40000, .looms = 4, .procs = 3, .threads = 2},
    {.size = 1 << 20, .looms = 1, .procs = 1, .threads = 1},
};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

static void test_determinism(void)
{
    char err[300];
    for (size_t s = 0; s < NSHAPES; s++)
        for (int be = 0; be <= 1; be++) {
            ovni_gen_params p = shapes[s];
            p.seed = 100 + s;
            p.big_endian = be;
            ovni_mem_trace a = {0}, b = {0};
            CU_ASSERT_EQUAL_FATAL(gen_mem(&p, -1, &a, err, sizeof err), 0);
            CU_ASSERT_EQUAL_FATAL(gen_mem(&p, -1, &b, err, sizeof err), 0);
            int same = a.n == b.n;
            for (size_t i = 0; same && i < a.n; i++)
                same = !strcmp(a.streams[i].rel, b.streams[i].rel) &&
                       same_buf(&a.streams[i].json, &b.streams[i].json) &&
                       same_buf(&a.streams[i].obs, &b.streams[i].obs);
            CHECK(same, "%s: two runs differ", shape(&p));
            /* Another seed, another trace. */
            p.seed++;
            ovni_mem_trace c = {0};
            CU_ASSERT_EQUAL(gen_mem(&p, -1, &c, err, sizeof err), 0);
            CHECK(c.n != a.n || !same_buf(&c.streams[0].obs, &a.streams[0].obs),
                  "%s: the next seed gives the same trace", shape(&p));
            ovni_mem_trace_free(&a);
            ovni_mem_trace_free(&b);
            ovni_mem_trace_free(&c);
        }
}

/* A violating trace too: the same options, the same bytes. */
static void test_determinism_violations(void)
{
    char err[300];
    for (size_t i = 0; i < ovni_mutator_count(); i++) {
        const ovni_mutator *m = ovni_mutator_at(i);
        ovni_gen_params p = {.seed = 40 + i, .size = 8000, .looms = 2, .procs = 1, .threads = 2,
                             .big_endian = (int)(i & 1)};
        ovni_mem_trace a = {0}, b = {0};
        int ra = gen_mem(&p, (int)m->rule, &a, err, sizeof err);
        int rb = gen_mem(&p, (int)m->rule, &b, err, sizeof err);
        int same = ra == 0 && rb == 0 && a.n == b.n;
        for (size_t k = 0; same && k < a.n; k++)
            same = !strcmp(a.streams[k].rel, b.streams[k].rel) &&
                   a.streams[k].has_json == b.streams[k].has_json &&
                   a.streams[k].has_obs == b.streams[k].has_obs &&
                   same_buf(&a.streams[k].json, &b.streams[k].json) &&
                   same_buf(&a.streams[k].obs, &b.streams[k].obs);
        CHECK(same, "%s: two runs differ (%s)", tc_rules[m->rule].id, ra || rb ? err : "");
        ovni_mem_trace_free(&a);
        ovni_mem_trace_free(&b);
    }
}

/* The files on disk are the bytes the memory sink holds, stream by stream,
 * and the streams have the number and layout asked for. */
static void test_disk_matches_memory(void)
{
    char err[300], dir[512], path[1024];
    for (size_t s = 0; s < NSHAPES; s++) {
        ovni_gen_params p = shapes[s];
        p.seed = 7 + s;
        p.big_endian = (int)(s & 1);
        ovni_mem_trace t = {0};
        scratch_dir(dir, sizeof dir, "disk");
        CU_ASSERT_EQUAL_FATAL(gen_mem(&p, -1, &t, err, sizeof err), 0);
        CU_ASSERT_EQUAL_FATAL(gen_dir(&p, -1, dir, err, sizeof err), 0);
        CHECK(t.n == (size_t)p.looms * p.procs * p.threads, "%s: %zu streams", shape(&p), t.n);
        for (size_t i = 0; i < t.n; i++) {
            const ovni_mem_stream *ms = &t.streams[i];
            CHECK(!strncmp(ms->rel, "loom.", 5) && strstr(ms->rel, "/proc.") &&
                      strstr(ms->rel, "/thread."), "layout %s", ms->rel);
            static const char *const names[] = {"stream.json", "stream.obs"};
            for (int f = 0; f < 2; f++) {
                snprintf(path, sizeof path, "%s/%s/%s", dir, ms->rel, names[f]);
                size_t n = 0;
                uint8_t *bytes = tu_read_file(path, &n);
                const tc_bytebuf *want = f ? &ms->obs : &ms->json;
                CHECK(bytes && n == want->len && memcmp(bytes, want->p, n) == 0,
                      "%s: %s differs from memory", shape(&p), path);
                free(bytes);
            }
        }
        /* The directory must be new or empty. */
        CHECK(gen_dir(&p, -1, dir, err, sizeof err) != 0 && strstr(err, "not empty"),
              "writing into a full directory: %s", err);
        rm_rf(dir);
        ovni_mem_trace_free(&t);
    }
}

static void test_sizes(void)
{
    char err[300];
    tc_error why = TC_ERROR_INIT;
    for (size_t s = 0; s < NSHAPES; s++) {
        ovni_gen_params p = shapes[s];
        p.seed = 3;
        ovni_gen_stats st;
        ovni_mem_trace t = {0};
        ovni_sink sink = {NULL, &t};
        CU_ASSERT_EQUAL_FATAL(
            tu_error_text(ovni_generate(&p, -1, NULL, sink, &st, &why), &why, err, sizeof err), 0);
        uint64_t obs = 0, streams = t.n, least = streams * OVNI_MIN_STREAM;
        for (size_t i = 0; i < t.n; i++)
            obs += t.streams[i].obs.len;
        uint64_t want = p.size > least ? p.size : least;
        /* Each stream stops within a few events of its share. */
        uint64_t slack = want / 8 + 200 * streams;
        CHECK(obs + slack >= want && obs <= want + 100 * streams,
              "%s: %llu bytes of events", shape(&p), (unsigned long long)obs);
        CHECK(st.streams == streams && st.events > 0, "%s: stats", shape(&p));
        ovni_mem_trace_free(&t);
    }
    /* Out of the limits. */
    ovni_gen_params bad = {.seed = 1, .size = 100, .looms = 0, .procs = 1, .threads = 1};
    ovni_mem_trace t = {0};
    CU_ASSERT(gen_mem(&bad, -1, &t, err, sizeof err) != 0 && strstr(err, "looms"));
    bad.looms = OVNI_MAX_LOOMS + 1;
    CU_ASSERT(gen_mem(&bad, -1, &t, err, sizeof err) != 0);
    ovni_mem_trace_free(&t);
}

/* What the generator promises of valid streams: OHx first with its 16-byte
 * payload, OHe present, clocks never decreasing (and equal now and then),
 * the event kinds of a realistic trace, and the payloads
 * libovni's models give other models' events (its tools decode them). */
static void test_stream_contents(void)
{
    char err[300];
    ovni_gen_params p = {.seed = 5, .size = 400000, .looms = 2, .procs = 2, .threads = 2};
    ovni_mem_trace t = {0};
    CU_ASSERT_EQUAL_FATAL(gen_mem(&p, -1, &t, err, sizeof err), 0);
    int seen[128][128] = {{0}};
    size_t equal = 0, jumbo = 0, judged = 0, other = 0;
    for (size_t i = 0; i < t.n; i++) {
        const ovni_mem_stream *s = &t.streams[i];
        CU_ASSERT_FATAL(s->nevents >= 2);
        CHECK(ovni_ev_is(&s->events[0].ev, "OHx") && s->events[0].ev.len == 16, "%s starts with "
              "%.3s", s->rel, s->events[0].ev.mcv);
        int ended = 0;
        for (size_t k = 0; k < s->nevents; k++) {
            const ovni_ev *e = &s->events[k].ev;
            seen[e->mcv[0] & 127][e->mcv[1] & 127]++;
            ended |= ovni_ev_is(e, "OHe");
            if (k) {
                CHECK(e->clock >= s->events[k - 1].ev.clock, "%s: clock goes back", s->rel);
                equal += e->clock == s->events[k - 1].ev.clock;
            }
            int is_jumbo = (e->flags & TC_OVNI_FLAG_JUMBO) != 0;
            jumbo += is_jumbo;
            /* Every event is one of its model's, laid out as the model says
             * (spec/ovni/models.def); jumbo events are task types made. */
            const tc_ovni_event_info *info =
                tc_ovni_event_lookup((unsigned char)e->mcv[0], (unsigned char)e->mcv[1],
                                     (unsigned char)e->mcv[2]);
            char why[200];
            const uint8_t *payload = ovni_mem_payload(s, &s->events[k]);
            if (info && !tc_ovni_payload_mismatch(info, is_jumbo, payload, e->len, why,
                                                  sizeof why) &&
                !(info->flags & TC_OVNI_EVF_OLD) && (!is_jumbo || info->action ==
                                                                      TC_OVNI_A_TYPE_CREATE))
                judged++;
            else
                other++;
            CHECK(other == 0, "%s: %.3s of %u bytes%s", s->rel, e->mcv, (unsigned)e->len,
                  is_jumbo ? " (jumbo)" : "");
        }
        CHECK(ended, "%s: no OHe", s->rel);
    }
    CHECK(equal > 0 && jumbo > 0 && judged > 0 && !other,
          "equal clocks %zu, jumbo events %zu, events as their model lays them out %zu, "
          "others %zu", equal, jumbo, judged, other);
    /* ovni's own kinds of event, and events of every other model. */
    static const char *const kinds[] = {"OF", "OU", "OA", "OM", "OH", "OB", "VT", "VY", "VS",
                                        "VA", "VP", "KC", "6T", "6Y", "PP", "PO", "PQ"};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        CHECK(seen[(int)kinds[k][0]][(int)kinds[k][1]] > 0, "no %s event", kinds[k]);
    for (int m = 0; m < TC_OVNI_M__COUNT; m++) {
        int any = 0;
        for (int c = 0; c < 128; c++)
            any |= seen[(int)tc_ovni_model_table[m].letter][c] > 0;
        CHECK(any, "no event of the %s model", tc_ovni_model_table[m].name);
    }
    ovni_mem_trace_free(&t);
}

/* ---- valid traces ---- */

static void test_valid(void)
{
    char err[300], dir[512];
    unsigned runs = 0, bad = 0;
    for (uint64_t seed = 1; seed <= 12; seed++)
        for (size_t s = 0; s < NSHAPES; s++)
            for (int order = 0; order <= 2; order++) {
                ovni_gen_params p = shapes[s];
                p.seed = seed * 7919 + s;
                p.big_endian = order == 1;
                p.mixed_byte_order = order == 2;
                if (p.size > 200000 && seed > 3)
                    continue;
                scratch_dir(dir, sizeof dir, "valid");
                CU_ASSERT_EQUAL_FATAL(gen_dir(&p, -1, dir, err, sizeof err), 0);
                tu_result r = {0};
                check_trace(dir, &r);
                runs++;
                if (r.n || r.status != 0) {
                    if (bad++ < 5)
                        CHECK(0, "%s: status %d, findings %s", shape(&p), r.status,
                              tu_describe(&r));
                }
                tu_result_free(&r);
                rm_rf(dir);
            }
    CHECK(bad == 0, "%u of %u valid traces have findings", bad, runs);
}

/* ---- mutators ---- */

static int breakable(const tc_rule_info *r)
{
    return !strcmp(r->family, "OVNI") || !strncmp(r->id, "TC-JSON-", 8);
}

static void test_every_rule_has_a_mutator(void)
{
    size_t rules = 0;
    for (size_t i = 0; i < tc_rule_count(); i++) {
        const tc_rule_info *r = tc_rule_at(i);
        if (!breakable(r))
            continue;
        rules++;
        const ovni_mutator *m = ovni_mutator_for((tc_rule_id)i);
        if (r->flags & TC_RF_NO_MUTATOR)
            CHECK(m == NULL || strncmp(r->id, "OVNI-", 5) != 0,
                  "%s is flagged TC_RF_NO_MUTATOR but has a mutator", r->id);
        else
            CHECK(m != NULL, "%s has no ovni mutator", r->id);
    }
    CHECK(rules >= 48, "%zu OVNI and TC-JSON rules", rules);
}

static void test_mutator_table(void)
{
    CU_ASSERT(ovni_mutator_count() >= 48);
    CU_ASSERT_PTR_NULL(ovni_mutator_at(ovni_mutator_count()));
    for (size_t i = 0; i < ovni_mutator_count(); i++) {
        const ovni_mutator *m = ovni_mutator_at(i);
        const tc_rule_info *r = &tc_rules[m->rule];
        CHECK(breakable(r), "mutator %zu breaks %s", i, r->id);
        CHECK(ovni_mutator_for(m->rule) == m, "%s has more than one mutator", r->id);
        CHECK(m->how && *m->how && m->plan, "%s: no description or plan hook", r->id);
    }
    /* Rules of other formats are refused. */
    ovni_gen_params p = shapes[1];
    ovni_mem_trace t = {0};
    char err[300];
    CU_ASSERT(gen_mem(&p, TC_RULE_XRAY_HEADER_VERSION, &t, err, sizeof err) != 0);
    ovni_mem_trace_free(&t);
}

typedef struct tally {
    unsigned runs, failed, warned;
    char first[1500];
} tally;

/* One violating trace: the rule, at least once; no other error; the status
 * its severity gives. */
static void one(const ovni_mutator *m, const ovni_gen_params *p, tally *t)
{
    const tc_rule_info *rule = &tc_rules[m->rule];
    char err[300], dir[512], why[1500] = "";
    scratch_dir(dir, sizeof dir, "mut");
    t->runs++;
    if (gen_dir(p, (int)m->rule, dir, err, sizeof err) != 0) {
        snprintf(why, sizeof why, "%s: generation failed: %s", shape(p), err);
    } else {
        tu_result r = {0};
        check_trace(dir, &r);
        size_t hits = tu_count(&r, rule->id), others = 0, warnings = 0;
        for (size_t i = 0; i < r.n; i++) {
            others += r.d[i].severity == TC_ERROR && r.d[i].rule != rule;
            warnings += r.d[i].severity == TC_WARNING && r.d[i].rule != rule;
        }
        int status = rule->severity == TC_ERROR ? 1 : 0;
        t->warned += warnings > 0;
        if (warnings && getenv("TU_OVNI_WARNINGS"))
            fprintf(stderr, "%s %s: %s\n", rule->id, shape(p), tu_describe(&r));
        if (!(hits >= 1 && others == 0 && r.status == status))
            snprintf(why, sizeof why, "%s: status %d, findings %s", shape(p), r.status,
                     tu_describe(&r));
        tu_result_free(&r);
    }
    rm_rf(dir);
    if (why[0] && t->failed++ == 0)
        snprintf(t->first, sizeof t->first, "%s", why);
}

static void test_property(void)
{
    static const ovni_gen_params prop_shapes[] = {
        {.size = 20000, .looms = 2, .procs = 2, .threads = 2},
        {.size = 0, .looms = 1, .procs = 1, .threads = 1},
        {.size = 3000, .looms = 3, .procs = 1, .threads = 2},
        {.size = 60000, .looms = 1, .procs = 3, .threads = 1},
        {.size = 700, .looms = 1, .procs = 1, .threads = 3},
    };
    /* TU_OVNI_SEEDS=N in the environment: a longer run. */
    const char *env = getenv("TU_OVNI_SEEDS");
    uint64_t seeds = env && atoi(env) > 0 ? (uint64_t)atoi(env) : 10;
    unsigned runs = 0, warned = 0;
    for (size_t i = 0; i < ovni_mutator_count(); i++) {
        const ovni_mutator *m = ovni_mutator_at(i);
        tally t = {0};
        for (uint64_t seed = 1; seed <= seeds; seed++)
            for (int be = 0; be <= 1; be++) {
                ovni_gen_params p = prop_shapes[(seed + (uint64_t)be) % 5];
                p.seed = seed * 1000003u + i;
                p.big_endian = be;
                one(m, &p, &t);
            }
        CHECK(t.failed == 0, "%s: %u of %u runs break the property; first: %s",
              tc_rules[m->rule].id, t.failed, t.runs, t.first);
        runs += t.runs;
        warned += t.warned;
    }
    fprintf(stderr, "\n    ovni mutators: %zu, property runs: %u (%u with a warning besides)\n",
            ovni_mutator_count(), runs, warned);
}

/* The draw on which two changes of one magic byte undid each other, and
 * the trace came out valid (found by conformance --generate). */
static void test_magic_changes(void)
{
    const ovni_mutator *m = ovni_mutator_for(TC_RULE_OVNI_STREAM_MAGIC);
    ovni_gen_params p = {.seed = 389012010, .size = 95, .looms = 2, .procs = 1, .threads = 2,
                         .big_endian = 1};
    tally t = {0};
    one(m, &p, &t);
    CHECK(t.failed == 0, "--seed 389012010 --size 95 --big-endian: %s", t.first);
}

/* A mutation starts from the valid trace of the same seed: the other
 * streams are the valid trace's, byte for byte. */
static void test_starts_from_valid_trace(void)
{
    static const tc_rule_id rules[] = {TC_RULE_OVNI_EVENT_FLAGS, TC_RULE_OVNI_META_FINISHED,
                                       TC_RULE_JSON_BOM, TC_RULE_OVNI_CLOCK_RANGE};
    char err[300];
    for (size_t k = 0; k < sizeof rules / sizeof rules[0]; k++) {
        ovni_gen_params p = {.seed = 11 + k, .size = 30000, .looms = 2, .procs = 2, .threads = 2};
        ovni_mem_trace valid = {0}, bad = {0};
        CU_ASSERT_EQUAL_FATAL(gen_mem(&p, -1, &valid, err, sizeof err), 0);
        CU_ASSERT_EQUAL_FATAL(gen_mem(&p, (int)rules[k], &bad, err, sizeof err), 0);
        CU_ASSERT_EQUAL_FATAL(valid.n, bad.n);
        size_t streams = 0, bytes = 0;
        for (size_t i = 0; i < valid.n; i++) {
            const ovni_mem_stream *a = &valid.streams[i], *b = &bad.streams[i];
            int json = same_buf(&a->json, &b->json), obs = same_buf(&a->obs, &b->obs);
            streams += !json || !obs;
            if (json && obs)
                continue;
            /* The span that differs: all but the common prefix and suffix. */
            const tc_bytebuf *x = json ? &a->obs : &a->json, *y = json ? &b->obs : &b->json;
            size_t least = x->len < y->len ? x->len : y->len, pre = 0, post = 0;
            while (pre < least && x->p[pre] == y->p[pre])
                pre++;
            while (post < least - pre && x->p[x->len - 1 - post] == y->p[y->len - 1 - post])
                post++;
            bytes += (x->len > y->len ? x->len : y->len) - pre - post;
        }
        CHECK(streams == 1 && bytes >= 1 && bytes <= 40, "%s: %zu streams and %zu bytes differ",
              tc_rules[rules[k]].id, streams, bytes);
        ovni_mem_trace_free(&valid);
        ovni_mem_trace_free(&bad);
    }
}

/* ---- the round trip ---- */

static void count_diag(void *user, const tc_diag *d)
{
    (void)d;
    ++*(unsigned *)user;
}

/* Reads every stream of t back with the parser and compares with the model. */
static int read_back(const ovni_mem_trace *t, char *why, size_t whylen)
{
    for (size_t i = 0; i < t->n; i++) {
        const ovni_mem_stream *s = &t->streams[i];
        unsigned findings = 0;
        tc_diag_sink d;
        tc_diag_init(&d, s->rel, 0, 1, count_diag, &findings);
        /* metadata */
        tc_input *in = tc_input_open_memory(s->json.p, s->json.len, NULL);
        tc_ovni_meta meta;
        tc_ovni_meta_read(tc_input_reader(in), &d, &meta);
        tc_input_close(in);
        int ok = meta.readable && meta.thread && meta.has_tid && meta.tid == s->tid &&
                 meta.has_pid && meta.pid == s->pid && !strcmp(meta.loom, s->loom);
        if (!ok || findings) {
            snprintf(why, whylen, "%s: metadata read back as tid %lld pid %lld loom %s (%u "
                     "findings)", s->rel, (long long)meta.tid, (long long)meta.pid, meta.loom,
                     findings);
            tc_ovni_meta_free(&meta);
            return 0;
        }
        /* events, with the model layer */
        in = tc_input_open_memory(s->obs.p, s->obs.len, NULL);
        tc_ovni_stream *st = tc_ovni_stream_new(tc_input_reader(in), &d, 1);
        tc_ovni_model model;
        tc_ovni_model_init(&model, &d, &meta);
        size_t k = 0;
        ok = tc_ovni_stream_header(st) && tc_ovni_stream_big_endian(st) == s->big_endian;
        tc_ovni_event ev;
        while (ok && tc_ovni_stream_next(st, &ev)) {
            tc_ovni_model_event(&model, &ev);
            const ovni_mem_event *e = k < s->nevents ? &s->events[k] : NULL;
            const uint8_t *want = e ? ovni_mem_payload(s, e) : NULL;
            ok = e && ev.offset == e->offset && !memcmp(ev.mcv, e->ev.mcv, 3) &&
                 ev.clock == e->ev.clock && ev.flags == e->ev.flags &&
                 ev.size_code == e->ev.size_code && ev.payload_len == e->ev.len &&
                 (ev.payload_len == 0 || (ev.payload && !memcmp(ev.payload, want, ev.payload_len)));
            if (!ok)
                snprintf(why, whylen, "%s: event %zu (%s at %llu) differs from the model", s->rel,
                         k, ev.mcv, (unsigned long long)ev.offset);
            k++;
        }
        tc_ovni_model_finish(&model);
        if (ok && (k != s->nevents || findings))
            snprintf(why, whylen, "%s: %zu events read, %zu made, %u findings", s->rel, k,
                     s->nevents, findings);
        ok = ok && k == s->nevents && !findings;
        tc_ovni_stream_free(st);
        tc_input_close(in);
        tc_ovni_meta_free(&meta);
        if (!ok)
            return 0;
    }
    return 1;
}

static void test_roundtrip(void)
{
    tc_rng seeder;
    tc_rng_seed(&seeder, 99);
    uint8_t bytes[4096];
    char why[400], dir[512], path[1024];
    unsigned bad = 0, streams = 0;
    for (unsigned k = 0; k < 300; k++) {
        size_t n = k == 0 ? 0 : (size_t)tc_rng_below(&seeder, sizeof bytes + 1);
        tc_rng_fill(&seeder, bytes, n);
        tc_rng choices;
        tc_rng_from_bytes(&choices, bytes, n);
        ovni_mem_trace t = {0};
        ovni_gen_params used;
        CU_ASSERT_EQUAL_FATAL(ovni_roundtrip_synth(&choices, &used, &t), 0);
        CHECK(t.n == (size_t)used.looms * used.procs * used.threads && used.looms <= 3 &&
                  used.size <= OVNI_ROUNDTRIP_MAX_SIZE, "shape %ux%ux%u", used.looms,
              used.procs, used.threads);
        streams += (unsigned)t.n;
        if (!read_back(&t, why, sizeof why) && bad++ < 3)
            CHECK(0, "input %u (%zu bytes): %s", k, n, why);
        /* Now and then the whole trace, as tracecheck validate sees it. */
        if (k % 15 == 0) {
            scratch_dir(dir, sizeof dir, "rt");
            for (size_t i = 0; i < t.n; i++) {
                snprintf(path, sizeof path, "%s/%s", dir, t.streams[i].rel);
                make_dirs(path);
                static const char *const names[] = {"stream.json", "stream.obs"};
                for (int f = 0; f < 2; f++) {
                    char file[1300];
                    snprintf(file, sizeof file, "%s/%s", path, names[f]);
                    const tc_bytebuf *b = f ? &t.streams[i].obs : &t.streams[i].json;
                    FILE *out = fopen(file, "wb");
                    CU_ASSERT_FATAL(out != NULL);
                    CU_ASSERT(fwrite(b->p, 1, b->len, out) == b->len);
                    fclose(out);
                }
            }
            tu_result r = {0};
            check_trace(dir, &r);
            CHECK(r.status == 0 && r.n == 0, "input %u: %s", k, tu_describe(&r));
            tu_result_free(&r);
            rm_rf(dir);
        }
        ovni_mem_trace_free(&t);
    }
    CHECK(bad == 0, "%u of 300 round trips differ", bad);
    CHECK(streams > 300, "%u streams in 300 round trips", streams);
}

static const tu_test tests[] = {
    {"determinism", test_determinism},
    {"determinism of violating traces", test_determinism_violations},
    {"the files are the bytes made", test_disk_matches_memory},
    {"sizes and limits", test_sizes},
    {"what valid streams hold", test_stream_contents},
    {"valid traces: no finding, many shapes, both byte orders", test_valid},
    {"every breakable OVNI and TC-JSON rule has a mutator", test_every_rule_has_a_mutator},
    {"mutator table", test_mutator_table},
    {"one violation: every mutator, byte order, seeds, shapes", test_property},
    {"a stream's magic always changes", test_magic_changes},
    {"mutations start from the valid trace", test_starts_from_valid_trace},
    {"round trip from a fuzzer's choices", test_roundtrip},
    {NULL, NULL},
};

void register_ovni_generator_suite(void) { tu_add_suite("ovni_generator", tests); }
