/* Every model ovniemu 1.14.0 knows (rulings 13-17, spec/ovni/ovni.md;
 * spec/ovni/models.def):
 *
 * - the table: every event found by its own MCV, every layout parsed as
 *   its sizes say, some layouts word for word, the version of each model,
 *   and what tc_ovni_payload_mismatch says of normal, jumbo, string and
 *   array payloads;
 * - the model layer, through whole trace directories (tests/ot.h): for
 *   each rule of rulings 13 and 15 (OVNI-THREAD-INACTIVE to
 *   OVNI-TRACE-HWC-CONFLICT) and OVNI-MODEL-OLD-EVENT (ruling 17), a trace
 *   that gives exactly that finding, where and with the offending values,
 *   and a minimally different valid trace that gives none. Some cases span
 *   threads: a task made in one thread and run in another, threads on one
 *   CPU, OAr naming a thread of no stream; those are judged in clock order
 *   across the streams of a loom.
 *
 * Payloads are built from the layouts of models.def by hand, not by the
 * parser's tables.
 *
 * Four tests fail at the commit that added them, each on a parser bug kept
 * for its fix (the parser was not changed with the tests): nothing reports
 * OVNI-TRACE-MARK-CONFLICT or OVNI-TRACE-HWC-CONFLICT; a thread that comes
 * back to a CPU it shared before is not reported again (run_on's last !=
 * t); a nanos6 body run again after it ended is said to have ended at
 * "offset 0 of " (its task was dropped with the place). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/ovni/ovni_models.h"
#include "../ot.h"
#include "../suites.h"

/* ---- the table ---- */

/* The events models.def declares, counted from the file itself. */
static const size_t events_written = 0
#define TC_OVNI_EVENT(MODEL, C, V, FLAGS, FIELDS, ACTION, CHAN, STATE, MEANING) +1
#include "../../spec/ovni/models.def"
    ;

static void test_lookup(void)
{
    CHECK(tc_ovni_nevents == events_written && events_written > 300, "%zu events, models.def has %zu",
          tc_ovni_nevents, events_written);
    for (size_t i = 0; i < tc_ovni_nevents; i++) {
        const tc_ovni_event_info *e = &tc_ovni_events[i];
        const tc_ovni_event_info *found = tc_ovni_event_lookup(
            (unsigned char)e->mcv[0], (unsigned char)e->mcv[1], (unsigned char)e->mcv[2]);
        CHECK(found == e, "%s (event %zu): lookup gives %s", e->mcv, i,
              found ? found->mcv : "nothing");
        CHECK(e->model >= 0 && e->model < TC_OVNI_M__COUNT &&
                  tc_ovni_model_table[e->model].letter == e->mcv[0],
              "%s: of model %d", e->mcv, (int)e->model);
        CHECK(strlen(e->mcv) == 3, "%s: MCV of %zu characters", e->mcv, strlen(e->mcv));
    }
    /* Not events: another value, a letter of no model, bytes outside
     * printable ASCII, a known category and value under another model. */
    CU_ASSERT_PTR_NULL(tc_ovni_event_lookup('O', 'H', 'z'));
    CU_ASSERT_PTR_NULL(tc_ovni_event_lookup('O', 'U', 'j'));
    CU_ASSERT_PTR_NULL(tc_ovni_event_lookup('X', 'H', 'x'));
    CU_ASSERT_PTR_NULL(tc_ovni_event_lookup('O', 0x20, 'x'));
    CU_ASSERT_PTR_NULL(tc_ovni_event_lookup('O', 'H', 0x7f));
    CU_ASSERT_PTR_NULL(tc_ovni_event_lookup('O', 0xff, 0xff));
    CU_ASSERT_PTR_NULL(tc_ovni_event_lookup('K', 'H', 'x'));
    const tc_ovni_event_info *vtx = tc_ovni_event_lookup('V', 'T', 'x');
    const tc_ovni_event_info *ptx = tc_ovni_event_lookup('6', 'T', 'x');
    CU_ASSERT(vtx && ptx && vtx != ptx && vtx->model == TC_OVNI_M_NOSV &&
              ptx->model == TC_OVNI_M_NANOS6);
}

/* Words of the layout text as models.def writes it: F( S( A( each open a
 * field. */
static unsigned fields_written(const char *layout)
{
    unsigned n = 0;
    for (const char *p = layout; *p; p++)
        if ((*p == 'F' || *p == 'S' || *p == 'A') && p[1] == '(' &&
            (p == layout || p[-1] == ' '))
            n++;
    return n;
}

static void test_fields(void)
{
    for (size_t i = 0; i < tc_ovni_nevents; i++) {
        const tc_ovni_event_info *e = &tc_ovni_events[i];
        tc_ovni_field f[TC_OVNI_MAX_FIELDS];
        unsigned n = tc_ovni_event_fields(e, f);
        CHECK(n == fields_written(e->layout), "%s: %u fields parsed of \"%s\"", e->mcv, n,
              e->layout);
        unsigned fixed = 0, tail = 0, unit = 0;
        for (unsigned k = 0; k < n; k++) {
            CHECK(f[k].name[0] != '\0', "%s: field %u has no name", e->mcv, k);
            if (f[k].type == TC_OVNI_T_str || f[k].array) {
                CHECK(k == n - 1, "%s: the string or array %s is not the last field", e->mcv,
                      f[k].name);
                CHECK(f[k].type != TC_OVNI_T_str || !f[k].array, "%s: an array of strings", e->mcv);
                tail = 1;
                unit = f[k].type == TC_OVNI_T_str ? 1 : tc_ovni_type_size(f[k].type);
            } else {
                fixed += tc_ovni_type_size(f[k].type);
            }
        }
        CHECK(fixed == e->fixed, "%s: fields of %u bytes, the table says %u", e->mcv, fixed,
              (unsigned)e->fixed);
        CHECK(tail == e->tail, "%s: tail %u, the table says %u", e->mcv, tail, (unsigned)e->tail);
        if (tail)
            CHECK(unit == e->tail_unit, "%s: tail unit %u, the table says %u", e->mcv, unit,
                  (unsigned)e->tail_unit);
        /* A string or an array takes the rest of a jumbo payload: only a
         * jumbo event has one; a normal payload is 2 to 16 bytes or none. */
        CHECK(!tail || (e->flags & TC_OVNI_EVF_JUMBO), "%s: a tail in a normal event", e->mcv);
        CHECK((e->flags & TC_OVNI_EVF_JUMBO) || e->fixed == 0 ||
                  (e->fixed >= 2 && e->fixed <= 16),
              "%s: %u bytes cannot be a normal payload", e->mcv, (unsigned)e->fixed);
    }
    static const struct {
        const char *mcv, *layout;
        unsigned fixed, tail, jumbo;
    } exact[] = {
        {"OHx", "i32 cpu, i32 tid, u64 tag", 16, 0, 0},
        {"OHC", "i32 cpu, u64 tag", 12, 0, 0},
        {"OAr", "i32 cpu, i32 tid", 8, 0, 0},
        {"OM[", "i64 value, i32 type", 12, 0, 0},
        {"OHe", "", 0, 0, 0},
        {"VTc", "u32 taskid, u32 typeid", 8, 0, 0},
        {"VTx", "u32 taskid, u32 bodyid", 8, 0, 0},
        {"VYc", "u32 typeid, str label", 4, 1, 1},
        {"VWC", "i64 values[]", 0, 1, 1},
        {"6Tx", "u32 taskid", 4, 0, 0},
        {"6Yc", "u32 typeid, str label", 4, 1, 1},
        {"POc", "u32 typeid, str label", 4, 1, 1},
        {"PPc", "u32 taskid, u32 typeid", 8, 0, 0},
        {"PQx", "u32 typeid", 4, 0, 0},
        {"KCO", "", 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++) {
        const char *m = exact[i].mcv;
        const tc_ovni_event_info *e = tc_ovni_event_lookup((unsigned char)m[0],
                                                           (unsigned char)m[1],
                                                           (unsigned char)m[2]);
        CHECK(e != NULL, "%s: not in the table", m);
        if (!e)
            continue;
        char buf[128];
        tc_ovni_event_layout(e, buf, sizeof buf);
        CHECK(!strcmp(buf, exact[i].layout), "%s: layout \"%s\", expected \"%s\"", m, buf,
              exact[i].layout);
        CHECK(e->fixed == exact[i].fixed && e->tail == exact[i].tail &&
                  !!(e->flags & TC_OVNI_EVF_JUMBO) == exact[i].jumbo,
              "%s: fixed %u tail %u flags %u", m, (unsigned)e->fixed, (unsigned)e->tail, e->flags);
    }
    /* Old events (ruling 17): OCn and nanos6's 6TC. */
    const tc_ovni_event_info *ocn = tc_ovni_event_lookup('O', 'C', 'n');
    const tc_ovni_event_info *tc6 = tc_ovni_event_lookup('6', 'T', 'C');
    CU_ASSERT(ocn && (ocn->flags & TC_OVNI_EVF_OLD) && tc6 && (tc6->flags & TC_OVNI_EVF_OLD));
    size_t old = 0;
    for (size_t i = 0; i < tc_ovni_nevents; i++)
        old += (tc_ovni_events[i].flags & TC_OVNI_EVF_OLD) != 0;
    CHECK(old == 2, "%zu old events", old);
}

static void test_versions(void)
{
    static const struct {
        const char *name, *version;
        char letter;
    } models[] = {{"ovni", "1.1.0", 'O'},  {"nosv", "2.7.0", 'V'},   {"nanos6", "1.1.0", '6'},
                  {"nodes", "1.0.0", 'D'}, {"tampi", "1.0.0", 'T'},  {"mpi", "1.0.0", 'M'},
                  {"openmp", "1.2.1", 'P'}, {"kernel", "1.0.0", 'K'}};
    CU_ASSERT_EQUAL(TC_OVNI_M__COUNT, 8);
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
        tc_ovni_model_id id = tc_ovni_model_of_name(models[i].name);
        CHECK(id != TC_OVNI_M_NONE, "%s: no such model", models[i].name);
        if (id == TC_OVNI_M_NONE)
            continue;
        CHECK(!strcmp(tc_ovni_model_table[id].version, models[i].version), "%s: version %s",
              models[i].name, tc_ovni_model_table[id].version);
        CHECK(tc_ovni_model_table[id].letter == models[i].letter &&
                  tc_ovni_model_of_letter((unsigned char)models[i].letter) == id,
              "%s: letter %c", models[i].name, tc_ovni_model_table[id].letter);
    }
    CU_ASSERT_EQUAL(tc_ovni_model_of_name("Nosv"), TC_OVNI_M_NONE);
    CU_ASSERT_EQUAL(tc_ovni_model_of_letter('X'), TC_OVNI_M_NONE);
}

static const tc_ovni_event_info *ev_info(const char *mcv)
{
    return tc_ovni_event_lookup((unsigned char)mcv[0], (unsigned char)mcv[1],
                                (unsigned char)mcv[2]);
}

static void test_payload_mismatch(void)
{
    static const uint8_t zeros[32];
    static const struct {
        const char *mcv;
        int jumbo;
        const char *data; /* NULL: zeros */
        uint32_t len;
        const char *why; /* NULL: it matches */
    } cases[] = {
        /* Normal events: the fixed size, exactly. */
        {"OHx", 0, NULL, 16, NULL},
        {"OHx", 0, NULL, 12, "carries a 12-byte payload; its layout is i32 cpu, i32 tid, u64 tag (16 bytes)"},
        {"OHx", 0, NULL, 0, "carries no payload; its layout is i32 cpu, i32 tid, u64 tag (16 bytes)"},
        {"OHe", 0, NULL, 0, NULL},
        {"OHe", 0, NULL, 4, "carries a 4-byte payload; it has none"},
        {"VTc", 0, NULL, 8, NULL},
        {"6Tx", 0, NULL, 8, "carries a 8-byte payload; its layout is u32 taskid (4 bytes)"},
        /* A normal event sent as jumbo, and the other way round. */
        {"VTc", 1, NULL, 8, "is a jumbo event of 8 bytes; its layout is u32 taskid, u32 typeid, in a normal event"},
        {"OB.", 1, NULL, 0, "is a jumbo event of 0 bytes; its layout is no payload, in a normal event"},
        {"VYc", 0, "\x01\x00\x00\x00" "ab\0\0", 8, "is a normal event with a 8-byte payload; its layout (u32 typeid, str label) is a jumbo event's"},
        /* Strings: the NUL is the last byte. */
        {"VYc", 1, "\x01\x00\x00\x00" "ab\0", 7, NULL},
        {"VYc", 1, "\x01\x00\x00\x00\0", 5, NULL}, /* an empty label */
        {"VYc", 1, "\x01\x00\x00\x00" "abc", 7, "carries 7 bytes of jumbo data whose string has no NUL; its layout is u32 typeid, str label, the string ending with a NUL at the end"},
        {"VYc", 1, "\x01\x00\x00\x00", 4, "carries 4 bytes of jumbo data whose string has no NUL"},
        {"VYc", 1, "\x01\x00\x00\x00" "ab\0cd", 9, "carries 9 bytes of jumbo data with 2 after the string's NUL; its layout is u32 typeid, str label, the string ending with a NUL at the end"},
        {"6Yc", 1, "\x01\x00\x00\x00" "a\0\0", 7, "with 1 after the string's NUL"},
        {"VYc", 1, "\x01\x00\x00", 3, "carries 3 bytes of jumbo data; its layout is u32 typeid, str label (at least 4 bytes)"},
        /* Arrays: whole 8-byte values, at least one. */
        {"VWC", 1, NULL, 8, NULL},
        {"VWC", 1, NULL, 24, NULL},
        {"VWC", 1, NULL, 12, "carries 12 bytes of jumbo data; its layout is i64 values[], a whole number (at least one) of 8-byte values"},
        {"VWC", 1, NULL, 7, "a whole number (at least one) of 8-byte values"},
        {"VWC", 1, NULL, 0, "carries 0 bytes of jumbo data; its layout is i64 values[], a whole number"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const tc_ovni_event_info *e = ev_info(cases[i].mcv);
        CHECK(e != NULL, "%s: not in the table", cases[i].mcv);
        if (!e)
            continue;
        char buf[300];
        const uint8_t *data = cases[i].data ? (const uint8_t *)cases[i].data : zeros;
        const char *why = tc_ovni_payload_mismatch(e, cases[i].jumbo, data, cases[i].len, buf,
                                                   sizeof buf);
        if (!cases[i].why)
            CHECK(why == NULL, "case %zu, %s: %s", i, cases[i].mcv, why);
        else
            CHECK(why && strstr(why, cases[i].why), "case %zu, %s: \"%s\", expected \"%s\"", i,
                  cases[i].mcv, why ? why : "(matches)", cases[i].why);
    }
}

/* ---- traces ---- */

#define MAXS 4

/* A thread stream of a trace: its metadata's parts and its events. */
typedef struct tstream {
    int64_t tid, pid;
    char require[192];
    char extra[512]; /* more members of the ovni object, or "" */
    char top[256];   /* more members of the top-level object, or "" */
    ob o;
} tstream;

typedef struct trace {
    tstream s[MAXS];
    int n;
    char *root;
    ot_result r;
} trace;

static const char NOSV[] = "{\"ovni\": \"1.1.0\", \"nosv\": \"2.7.0\"}";
/* Loom l's CPUs: index 0 (phyid 0) and 1 (phyid 1), given by its first
 * thread. */
static const char CPUS2[] = "\"loom_cpus\": [{\"index\": 0, \"phyid\": 0}, {\"index\": 1, \"phyid\": 1}]";

static void tr_init(trace *t)
{
    memset(t, 0, sizeof *t);
}

/* A thread of loom l, requiring ovni and nosv. */
static tstream *thr(trace *t, int64_t tid, int64_t pid)
{
    if (t->n == MAXS)
        abort();
    tstream *s = &t->s[t->n];
    s->tid = tid;
    s->pid = pid;
    snprintf(s->require, sizeof s->require, "%s", NOSV);
    snprintf(s->extra, sizeof s->extra, "%s", t->n == 0 ? CPUS2 : "");
    ob_init(&s->o, 0);
    t->n++;
    return s;
}

static char *stream_dir(const tstream *s)
{
    char *p = NULL;
    if (asprintf(&p, "loom.l/proc.%lld/thread.%lld", (long long)s->pid, (long long)s->tid) < 0)
        abort();
    return p;
}

/* root/DIR/name of stream i, malloc'd. */
static char *file_of(const trace *t, int i, const char *name)
{
    char *dir = stream_dir(&t->s[i]);
    char *p = NULL;
    if (asprintf(&p, "%s/%s/%s", t->root, dir, name) < 0)
        abort();
    free(dir);
    return p;
}

/* Writes the trace into a new directory and checks it. */
static void tr_run(trace *t)
{
    free(t->root);
    t->root = td_new("models");
    for (int i = 0; i < t->n; i++) {
        tstream *s = &t->s[i];
        char *json = NULL;
        if (asprintf(&json,
                     "{\"version\": 3, \"ovni\": {\"part\": \"thread\", \"tid\": %lld, \"pid\": "
                     "%lld, \"loom\": \"l\", \"require\": %s, \"finished\": 1%s%s}%s%s}\n",
                     (long long)s->tid, (long long)s->pid, s->require, s->extra[0] ? ", " : "",
                     s->extra, s->top[0] ? ", " : "", s->top) < 0)
            abort();
        char *dir = stream_dir(s);
        td_stream(t->root, dir, json, &s->o);
        free(dir);
        free(json);
    }
    ot_check_path(t->root, NULL, &t->r);
}

static void tr_free(trace *t)
{
    for (int i = 0; i < t->n; i++)
        ob_free(&t->s[i].o);
    free(t->root);
    ot_free(&t->r);
    t->n = 0;
    t->root = NULL;
}

/* ---- events (each returns its offset) ---- */

static uint64_t e0(tstream *s, const char *mcv, uint64_t clock)
{
    uint64_t at = s->o.b.len;
    ob_event(&s->o, mcv, clock, NULL, 0);
    return at;
}

static uint64_t e32(tstream *s, const char *mcv, uint64_t clock, uint32_t a)
{
    uint64_t at = s->o.b.len;
    uint8_t p[4];
    ob_put32(&s->o, p, a);
    ob_event(&s->o, mcv, clock, p, 4);
    return at;
}

static uint64_t e32x2(tstream *s, const char *mcv, uint64_t clock, uint32_t a, uint32_t b)
{
    uint64_t at = s->o.b.len;
    uint8_t p[8];
    ob_put32(&s->o, p, a);
    ob_put32(&s->o, p + 4, b);
    ob_event(&s->o, mcv, clock, p, 8);
    return at;
}

/* OHx: i32 cpu, i32 tid, u64 tag. */
static uint64_t ohx(tstream *s, uint64_t clock, int32_t cpu)
{
    uint64_t at = s->o.b.len;
    uint8_t p[16];
    ob_put32(&s->o, p, (uint32_t)cpu);
    ob_put32(&s->o, p + 4, 0);
    ob_put64(&s->o, p + 8, 0);
    ob_event(&s->o, "OHx", clock, p, 16);
    return at;
}

/* OM[, OM], OM=: i64 value, i32 type. */
static uint64_t mark(tstream *s, const char *mcv, uint64_t clock, int64_t value, int32_t type)
{
    uint64_t at = s->o.b.len;
    uint8_t p[12];
    ob_put64(&s->o, p, (uint64_t)value);
    ob_put32(&s->o, p + 8, (uint32_t)type);
    ob_event(&s->o, mcv, clock, p, 12);
    return at;
}

/* A type made (VYc, 6Yc, POc): jumbo, u32 typeid, the label and its NUL. */
static uint64_t type_made(tstream *s, const char *mcv, uint64_t clock, uint32_t id, const char *label)
{
    uint64_t at = s->o.b.len;
    uint8_t p[64];
    size_t n = strlen(label);
    ob_put32(&s->o, p, id);
    memcpy(p + 4, label, n + 1);
    ob_jumbo(&s->o, mcv, clock, p, (uint32_t)(4 + n + 1));
    return at;
}

/* VWC with n counter values. */
static uint64_t counters(tstream *s, uint64_t clock, unsigned n)
{
    uint64_t at = s->o.b.len;
    uint8_t p[64] = {0};
    for (unsigned i = 0; i < n; i++)
        ob_put64(&s->o, p + 8 * i, 1000 + i);
    ob_jumbo(&s->o, "VWC", clock, p, 8 * n);
    return at;
}

/* ---- expectations ---- */

static size_t words(const char *s)
{
    size_t n = 0;
    for (const char *p = s; *p; p++)
        n += *p != ' ' && (p == s || p[-1] == ' ');
    return n;
}

/* The trace gives exactly the findings `rules`, in order; the first is in
 * the file `name` of stream `in`, at offset `at` (-1: not checked) and its
 * message says `needle` (NULL: not checked). */
static void expect_at(trace *t, const char *what, const char *rules, int in, const char *name,
                      int64_t at, const char *needle, const char *file, unsigned line)
{
    tr_run(t);
    const ot_result *r = &t->r;
    char got[1024] = "";
    size_t h = 0;
    for (size_t i = 0; i < r->n && h < sizeof got; i++)
        h += (size_t)snprintf(got + h, sizeof got - h, "%s%s", i ? " " : "", r->d[i].rule->id);
    tu_assert(!strcmp(got, rules), file, line, "%s: rules: expected [%s], got [%s]:%s", what,
              rules, got, ot_describe(r));
    if (!words(rules)) {
        tu_assert(r->status == 0, file, line, "%s: status %d", what, r->status);
        return;
    }
    char first[64];
    snprintf(first, sizeof first, "%.*s", (int)strcspn(rules, " "), rules);
    const ot_diag *d = ot_find(r, first, needle);
    tu_assert(d != NULL, file, line, "%s: no %s saying \"%s\":%s", what, first,
              needle ? needle : "", ot_describe(r));
    if (!d)
        return;
    tu_assert(d->severity == TC_ERROR || !strcmp(first, "OVNI-MODEL-OLD-EVENT"), file, line,
              "%s: %s is not an error", what, first);
    if (at >= 0)
        tu_assert(d->offset == (uint64_t)at, file, line, "%s: %s at offset %llu, expected %lld",
                  what, first, (unsigned long long)d->offset, (long long)at);
    char *want = file_of(t, in, name);
    tu_assert(d->input && !strcmp(d->input, want), file, line, "%s: reported against %s, expected %s",
              what, d->input ? d->input : "(none)", want);
    free(want);
}
#define EXPECT(t, what, rules, in, at, needle) \
    expect_at((t), (what), (rules), (in), "stream.obs", (at), (needle), __FILE__, __LINE__)
#define EXPECT_JSON(t, what, rules, in, needle) \
    expect_at((t), (what), (rules), (in), "stream.json", -1, (needle), __FILE__, __LINE__)
#define VALID(t, what) expect_at((t), (what), "", 0, NULL, -1, NULL, __FILE__, __LINE__)

/* Its message names the stream.obs of stream i: "...of PATH". */
static char *needle_with_path(const trace *t, int i, const char *fmt)
{
    char *path = file_of(t, i, "stream.obs");
    char *s = NULL;
    if (asprintf(&s, fmt, path) < 0)
        abort();
    free(path);
    return s;
}

/* ---- a thread's own states ---- */

static void test_thread_inactive(void)
{
    /* nosv's events come from a running, cooling or warming thread. */
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *s = thr(&t, 2, 1);
        ohx(s, 10, 0);
        e0(s, "OHp", 11);
        uint64_t at = 0;
        if (bad)
            at = e0(s, "VHw", 12);
        e0(s, "OHr", 13);
        if (!bad)
            e0(s, "VHw", 14);
        e0(s, "VHW", 15);
        e0(s, "OHe", 16);
        if (bad)
            EXPECT(&t, "VHw while paused", "OVNI-THREAD-INACTIVE", 0, (int64_t)at,
                   "VHw, of the nosv model, while thread 2 is paused; nosv's events need the "
                   "thread running, cooling or warming");
        else
            VALID(&t, "VHw once resumed");
        tr_free(&t);
    }
    /* Before the thread's OHx. */
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *s = thr(&t, 2, 1);
        uint64_t at = 0;
        /* VPr: a thread starts Progressing (the models' connect), so VPp
         * first would be a repeat. */
        if (bad) {
            at = e0(s, "VPr", 5);
            ohx(s, 10, 0);
        } else {
            ohx(s, 5, 0);
            e0(s, "VPr", 10);
        }
        e0(s, "OHe", 16);
        if (bad)
            EXPECT(&t, "VPr before OHx", "OVNI-THREAD-INACTIVE", 0, (int64_t)at,
                   "VPr, of the nosv model, while thread 2 is not started");
        else
            VALID(&t, "VPr after OHx");
        tr_free(&t);
    }
    /* MPI's events need the thread running: cooling is not enough. */
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *s = thr(&t, 2, 1);
        snprintf(s->require, sizeof s->require, "{\"ovni\": \"1.1.0\", \"mpi\": \"1.0.0\"}");
        ohx(s, 10, 0);
        e0(s, "MUi", 11);
        uint64_t at = 0;
        if (bad) {
            e0(s, "OHc", 12);
            at = e0(s, "MUI", 13);
        } else {
            e0(s, "MUI", 12);
            e0(s, "OHc", 13);
        }
        e0(s, "OHe", 14);
        if (bad)
            EXPECT(&t, "MUI while cooling", "OVNI-THREAD-INACTIVE", 0, (int64_t)at,
                   "MUI, of the mpi model, while thread 2 is cooling; mpi's events need the "
                   "thread running");
        else
            VALID(&t, "MUI before cooling");
        tr_free(&t);
    }
}

static void test_out_of_cpu(void)
{
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *s = thr(&t, 2, 1);
        snprintf(s->require, sizeof s->require,
                 "{\"ovni\": \"1.1.0\", \"nosv\": \"2.7.0\", \"kernel\": \"1.0.0\"}");
        ohx(s, 10, 0);
        uint64_t out = e0(s, "KCO", 11), at = 0;
        if (bad) {
            at = e0(s, "VHw", 12);
            e0(s, "KCI", 13);
        } else {
            e0(s, "KCI", 12);
            e0(s, "VHw", 13);
        }
        e0(s, "VHW", 14);
        e0(s, "OHe", 15);
        char needle[160];
        snprintf(needle, sizeof needle,
                 "VHw while the kernel has thread 2 off its CPU (KCO at offset %llu, no KCI since)",
                 (unsigned long long)out);
        if (bad)
            EXPECT(&t, "VHw between KCO and KCI", "OVNI-THREAD-OUT-OF-CPU", 0, (int64_t)at, needle);
        else
            VALID(&t, "VHw after KCI");
        tr_free(&t);
    }
}

static void test_states(void)
{
    /* A subsystem left that was never entered, or not the innermost. */
    for (int bad = 0; bad <= 2; bad++) {
        trace t;
        tr_init(&t);
        tstream *s = thr(&t, 2, 1);
        ohx(s, 10, 0);
        uint64_t at = 0, hungry = 0;
        if (bad == 1) {
            at = e0(s, "VHW", 11);
        } else {
            e0(s, "VHw", 11);
            hungry = e0(s, "VSh", 12);
            if (bad == 2)
                at = e0(s, "VHW", 13); /* refused: the stack stays */
            e0(s, "VSf", 14);
            e0(s, "VHW", 15);
        }
        e0(s, "OHe", 16);
        char needle[200];
        snprintf(needle, sizeof needle,
                 "VHW leaves 'working as a worker thread', but the innermost of the thread's nosv "
                 "subsystem is 'hungry, waiting for work from the scheduler' (entered at offset "
                 "%llu)", (unsigned long long)hungry);
        if (bad == 1)
            EXPECT(&t, "VHW alone", "OVNI-STATE-POP", 0, (int64_t)at,
                   "VHW leaves 'working as a worker thread', but the thread's nosv subsystem has "
                   "none entered");
        else if (bad == 2)
            EXPECT(&t, "VHW over VSh", "OVNI-STATE-POP", 0, (int64_t)at, needle);
        else
            VALID(&t, "VHw VSh VSf VHW");
        tr_free(&t);
    }
    /* A stack mark popped with another value (ovniemu's chan_pop). */
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *s = thr(&t, 2, 1);
        snprintf(s->extra + strlen(s->extra), sizeof s->extra - strlen(s->extra),
                 ", \"mark\": {\"4\": {\"title\": \"phase\", \"chan_type\": \"stack\"}}");
        ohx(s, 10, 0);
        uint64_t push = mark(s, "OM[", 11, 7, 4);
        uint64_t at = mark(s, "OM]", 12, bad ? 8 : 7, 4);
        e0(s, "OHe", 13);
        char needle[200];
        snprintf(needle, sizeof needle,
                 "OM] leaves value 8, but the innermost of the thread's stack of mark type 4 is "
                 "value 7 (entered at offset %llu)", (unsigned long long)push);
        if (bad)
            EXPECT(&t, "OM] of another value", "OVNI-STATE-POP", 0, (int64_t)at, needle);
        else
            VALID(&t, "OM[ OM] of one value");
        tr_free(&t);
    }
    /* A progress state set again (nosv's are set once each), and a nanos6
     * subsystem entered over itself; nosv's subsystems may repeat. */
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *s = thr(&t, 2, 1);
        ohx(s, 10, 0);
        uint64_t first = e0(s, "VPr", 11);
        uint64_t at = e0(s, bad ? "VPr" : "VPp", 12);
        e0(s, "VHw", 13);
        e0(s, "VHw", 14);
        e0(s, "VHW", 15);
        e0(s, "VHW", 16);
        e0(s, "OHe", 17);
        char needle[200];
        snprintf(needle, sizeof needle,
                 "VPr sets 'resting' again (set at offset %llu); the thread's nosv progress "
                 "state does not repeat a state", (unsigned long long)first);
        if (bad)
            EXPECT(&t, "VPr twice", "OVNI-STATE-REPEAT", 0, (int64_t)at, needle);
        else
            VALID(&t, "VPr VPp; VHw over VHw");
        tr_free(&t);
    }
    /* A thread starts Progressing: VPp first sets it again (the models'
     * connect sets every thread's progress state, ovniemu's chan_set). */
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *s = thr(&t, 2, 1);
        ohx(s, 10, 0);
        uint64_t at = e0(s, bad ? "VPp" : "VPa", 11);
        e0(s, "OHe", 12);
        if (bad)
            EXPECT(&t, "VPp first", "OVNI-STATE-REPEAT", 0, (int64_t)at,
                   "VPp sets 'progressing' again (the state a thread starts in)");
        else
            VALID(&t, "VPa first");
        tr_free(&t);
    }
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *s = thr(&t, 2, 1);
        snprintf(s->require, sizeof s->require, "{\"ovni\": \"1.1.0\", \"nanos6\": \"1.1.0\"}");
        ohx(s, 10, 0);
        uint64_t first = e0(s, "6W[", 11), at = 0;
        if (bad) {
            at = e0(s, "6W[", 12);
        } else {
            e0(s, "6Wt", 12);
            e0(s, "6WT", 13);
        }
        e0(s, "6W]", 14);
        e0(s, "OHe", 15);
        char needle[240];
        snprintf(needle, sizeof needle,
                 "6W[ enters 'in the worker loop, looking for tasks' over itself (entered at offset "
                 "%llu); the thread's nanos6 subsystem does not repeat a state",
                 (unsigned long long)first);
        if (bad)
            EXPECT(&t, "6W[ over 6W[", "OVNI-STATE-REPEAT", 0, (int64_t)at, needle);
        else
            VALID(&t, "6W[ 6Wt 6WT 6W]");
        tr_free(&t);
    }
}

static void test_depth_and_end(void)
{
    /* 512 nested states fit, 513 do not (ovniemu's MAX_CHAN_STACK). */
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *s = thr(&t, 2, 1);
        uint64_t clock = 10;
        ohx(s, clock++, 0);
        uint64_t last = 0, at = 0;
        for (int i = 0; i < 512; i++)
            last = e0(s, "VHw", clock++);
        if (bad)
            at = e0(s, "VHw", clock++);
        for (int i = 0; i < 512; i++)
            e0(s, "VHW", clock++);
        e0(s, "OHe", clock++);
        char needle[240];
        snprintf(needle, sizeof needle,
                 "VHw enters the thread's nosv subsystem 513 levels deep (innermost: 'working as a "
                 "worker thread', entered at offset %llu); the emulator holds 512",
                 (unsigned long long)last);
        if (bad)
            EXPECT(&t, "513 levels", "OVNI-STATE-DEPTH", 0, (int64_t)at, needle);
        else
            VALID(&t, "512 levels");
        tr_free(&t);
    }
    /* A subsystem still entered when the stream ends (ovniemu -l). */
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *s = thr(&t, 2, 1);
        ohx(s, 10, 0);
        uint64_t at = e0(s, "VHw", 11);
        if (!bad)
            e0(s, "VHW", 12);
        e0(s, "OHe", 13);
        char needle[200];
        snprintf(needle, sizeof needle,
                 "thread 2's stream ends with 1 nosv subsystem still entered: 'working as a "
                 "worker thread' (offset %llu)", (unsigned long long)at);
        if (bad)
            EXPECT(&t, "VHw never left", "OVNI-STATE-OPEN-AT-END", 0, (int64_t)at, needle);
        else
            VALID(&t, "VHw left");
        tr_free(&t);
    }
}

/* ---- threads on CPUs ---- */

static void test_cpus(void)
{
    /* CPU indexes of loom l: 0, 1, and -1, its virtual CPU. */
    static const int32_t cpus[] = {0, 1, -1, 2, -2};
    for (size_t i = 0; i < sizeof cpus / sizeof cpus[0]; i++) {
        trace t;
        tr_init(&t);
        tstream *s = thr(&t, 2, 1);
        uint64_t at = ohx(s, 10, cpus[i]);
        e0(s, "OHe", 11);
        char what[32], needle[160];
        snprintf(what, sizeof what, "OHx on CPU %d", (int)cpus[i]);
        snprintf(needle, sizeof needle,
                 "OHx names CPU index %d, but loom l has CPUs 0 to 1 (and -1, its virtual CPU)",
                 (int)cpus[i]);
        if (cpus[i] >= 2 || cpus[i] < -1)
            EXPECT(&t, what, "OVNI-CPU-UNKNOWN", 0, (int64_t)at, needle);
        else
            VALID(&t, what);
        tr_free(&t);
    }
    /* OAs to a CPU the loom does not have. */
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *s = thr(&t, 2, 1);
        ohx(s, 10, 0);
        uint64_t at = e32(s, "OAs", 11, bad ? 7 : 1);
        e0(s, "OHe", 12);
        if (bad)
            EXPECT(&t, "OAs to CPU 7", "OVNI-CPU-UNKNOWN", 0, (int64_t)at,
                   "OAs names CPU index 7, but loom l has CPUs 0 to 1");
        else
            VALID(&t, "OAs to CPU 1");
        tr_free(&t);
    }
}

static void test_cpu_shared(void)
{
    /* Threads 2 and 3 on CPU 0: at once, or one after the other (clock
     * order across the streams, whatever the path order). */
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *a = thr(&t, 2, 1), *b = thr(&t, 3, 1);
        ohx(a, 10, 0);
        e0(a, "OHe", 20);
        uint64_t at = ohx(b, bad ? 15 : 21, 0);
        e0(b, "OHe", 25);
        if (bad) {
            EXPECT(&t, "threads 2 and 3 on CPU 0 at once", "OVNI-CPU-SHARED", 1, (int64_t)at,
                   "OHx: thread 3 runs on CPU 0 (phyid 0) of loom l, where thread 2 runs already "
                   "(since offset 8 of ");
            /* The other thread's stream, by its path in this run's directory. */
            char *needle = needle_with_path(&t, 0, "(since offset 8 of %s); a physical CPU runs "
                                                   "one thread at a time");
            OT_MSG(&t.r, "OVNI-CPU-SHARED", needle);
            free(needle);
        } else {
            VALID(&t, "threads 2 and 3 on CPU 0, one after the other");
        }
        tr_free(&t);
    }
    /* A thread that moves itself (OAs) onto the CPU of another. */
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *a = thr(&t, 2, 1), *b = thr(&t, 3, 1);
        ohx(a, 10, 0);
        e0(a, "OHe", 20);
        ohx(b, 11, 1);
        uint64_t at = e32(b, "OAs", 12, bad ? 0 : (uint32_t)-1);
        e0(b, "OHe", 25);
        if (bad)
            EXPECT(&t, "thread 3 moves onto CPU 0", "OVNI-CPU-SHARED", 1, (int64_t)at,
                   "OAs: thread 3 runs on CPU 0 (phyid 0) of loom l, where thread 2 runs already");
        else
            VALID(&t, "thread 3 moves onto the virtual CPU");
        tr_free(&t);
    }
    /* Each time two threads come to run on one CPU is a finding: thread 3
     * starts on thread 2's CPU, pauses, and resumes there while thread 2
     * still runs. */
    {
        trace t;
        tr_init(&t);
        tstream *a = thr(&t, 2, 1), *b = thr(&t, 3, 1);
        ohx(a, 10, 0);
        e0(a, "OHe", 20);
        uint64_t first = ohx(b, 11, 0);
        e0(b, "OHp", 12);
        uint64_t again = e0(b, "OHr", 13);
        e0(b, "OHe", 14);
        EXPECT(&t, "thread 3 on CPU 0 twice", "OVNI-CPU-SHARED OVNI-CPU-SHARED", 1, (int64_t)first,
               "OHx: thread 3 runs on CPU 0 (phyid 0) of loom l, where thread 2 runs already");
        const ot_diag *d = ot_find(&t.r, "OVNI-CPU-SHARED", "OHr: thread 3 runs on CPU 0");
        CHECK(d && d->offset == again, "OHr on CPU 0 while thread 2 runs:%s", ot_describe(&t.r));
        tr_free(&t);
    }
    /* Other CPUs, the virtual CPU: at once is fine. */
    static const int32_t other[] = {1, -1};
    for (size_t i = 0; i < 2; i++) {
        trace t;
        tr_init(&t);
        tstream *a = thr(&t, 2, 1), *b = thr(&t, 3, 1);
        ohx(a, 10, other[i]);
        e0(a, "OHe", 20);
        ohx(b, 15, other[i] == 1 ? 0 : -1);
        e0(b, "OHe", 25);
        VALID(&t, other[i] == 1 ? "threads on CPUs 1 and 0" : "threads on the virtual CPU");
        tr_free(&t);
    }
    /* A paused thread gives its CPU up; resumed, it takes it back. */
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *a = thr(&t, 2, 1), *b = thr(&t, 3, 1);
        ohx(a, 10, 0);
        e0(a, "OHp", 12);
        uint64_t at = e0(a, "OHr", bad ? 14 : 17);
        e0(a, "OHe", 20);
        ohx(b, 13, 0);
        e0(b, "OHe", 16);
        if (bad)
            EXPECT(&t, "thread 2 resumes on CPU 0 while thread 3 runs there", "OVNI-CPU-SHARED",
                   0, (int64_t)at,
                   "OHr: thread 2 runs on CPU 0 (phyid 0) of loom l, where thread 3 runs already");
        else
            VALID(&t, "thread 3 runs while thread 2 is paused");
        tr_free(&t);
    }
}

static void test_affinity(void)
{
    /* OAr names a thread by tid: of no stream (OVNI-THREAD-UNKNOWN), on the
     * CPU it is on (OVNI-AFFINITY-STATE), or moved to the virtual CPU
     * (valid). Thread 3 runs on CPU 1, thread 2 on CPU 0. */
    for (int bad = 0; bad <= 2; bad++) {
        trace t;
        tr_init(&t);
        tstream *a = thr(&t, 2, 1), *b = thr(&t, 3, 1);
        ohx(b, 5, 1);
        e0(b, "OHe", 20);
        ohx(a, 10, 0);
        uint64_t at = e32x2(a, "OAr", 12, bad == 2 ? 1u : (uint32_t)-1, bad == 1 ? 99 : 3);
        e0(a, "OHe", 21);
        if (bad == 1)
            EXPECT(&t, "OAr of thread 99", "OVNI-THREAD-UNKNOWN", 0, (int64_t)at,
                   "OAr moves thread 99 to CPU index -1, but no stream of loom l is thread 99");
        else if (bad == 2)
            EXPECT(&t, "OAr to the CPU it is on", "OVNI-AFFINITY-STATE", 0, (int64_t)at,
                   "OAr moves thread 3 to CPU 1 (phyid 1) of loom l, where it is already");
        else
            VALID(&t, "OAr of thread 3 to the virtual CPU");
        tr_free(&t);
    }
    /* OAs before the thread runs: it has no CPU to leave. */
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *s = thr(&t, 2, 1);
        uint64_t at = 0;
        if (bad) {
            at = e32(s, "OAs", 5, 1);
            ohx(s, 10, 0);
        } else {
            ohx(s, 5, 0);
            e32(s, "OAs", 10, 1);
        }
        e0(s, "OHe", 11);
        if (bad)
            EXPECT(&t, "OAs before OHx", "OVNI-AFFINITY-STATE", 0, (int64_t)at,
                   "OAs moves the thread to CPU index 1 before it runs (no OHx before it)");
        else
            VALID(&t, "OAs after OHx");
        tr_free(&t);
    }
    /* OAr of a thread that has ended. */
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *a = thr(&t, 2, 1), *b = thr(&t, 3, 1);
        ohx(b, 5, 1);
        e0(b, "OHe", bad ? 11 : 13);
        ohx(a, 10, 0);
        uint64_t at = e32x2(a, "OAr", 12, (uint32_t)-1, 3);
        e0(a, "OHe", 21);
        if (bad)
            EXPECT(&t, "OAr of an ended thread", "OVNI-AFFINITY-STATE", 0, (int64_t)at,
                   "OAr moves thread 3 to CPU index -1, but thread 3 has ended (OHe)");
        else
            VALID(&t, "OAr of a running thread");
        tr_free(&t);
    }
}

/* ---- tasks ---- */

/* A nosv thread 2 with task type 1 made: OHx at 10, VYc at 11. */
static tstream *nosv_thread(trace *t)
{
    tstream *s = thr(t, 2, 1);
    ohx(s, 10, 0);
    type_made(s, "VYc", 11, 1, "t");
    return s;
}

static void test_task_books(void)
{
    /* A task id given twice. */
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *s = nosv_thread(&t);
        e32x2(s, "VTc", 12, 5, 1);
        uint64_t at = e32x2(s, "VTc", 13, bad ? 5 : 6, 1);
        e0(s, "OHe", 14);
        if (bad)
            EXPECT(&t, "VTc 5 twice", "OVNI-TASK-DUPLICATE", 0, (int64_t)at,
                   "VTc makes task 5, which process 1 made already (the emulator's task_create)");
        else
            VALID(&t, "VTc 5, VTc 6");
        tr_free(&t);
    }
    /* A task of a type never made. */
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *s = nosv_thread(&t);
        uint64_t at = e32x2(s, "VTc", 12, 5, bad ? 2 : 1);
        e0(s, "OHe", 13);
        if (bad)
            EXPECT(&t, "VTc of type 2", "OVNI-TASK-TYPE-UNKNOWN", 0, (int64_t)at,
                   "VTc makes task 5 of type 2, but process 1 made no nosv task type 2 (the "
                   "emulator's task_create)");
        else
            VALID(&t, "VTc of type 1");
        tr_free(&t);
    }
    /* A type id given twice; in another process it is another type. */
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *s = nosv_thread(&t);
        uint64_t at = type_made(s, "VYc", 12, bad ? 1 : 2, "u");
        e0(s, "OHe", 13);
        tstream *o = thr(&t, 3, 7); /* process 7 */
        ohx(o, 20, 0);
        type_made(o, "VYc", 21, 1, "t");
        e0(o, "OHe", 22);
        if (bad)
            EXPECT(&t, "VYc 1 twice", "OVNI-TASK-TYPE-DUPLICATE", 0, (int64_t)at,
                   "VYc makes task type 1 of nosv, which process 1 made already");
        else
            VALID(&t, "VYc 1, VYc 2; VYc 1 in process 7");
        tr_free(&t);
    }
    /* Ids start at 1: a type 0 when made, a task 0 when its body runs. */
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *s = thr(&t, 2, 1);
        ohx(s, 10, 0);
        uint64_t at = type_made(s, "VYc", 11, bad ? 0 : 1, "t");
        e0(s, "OHe", 12);
        if (bad)
            EXPECT(&t, "VYc 0", "OVNI-TASK-ID-ZERO", 0, (int64_t)at,
                   "VYc makes task type 0; type ids start at 1 (the emulator's task_type_create)");
        else
            VALID(&t, "VYc 1");
        tr_free(&t);
    }
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *s = nosv_thread(&t);
        uint32_t id = bad ? 0 : 5;
        e32x2(s, "VTc", 12, id, 1);
        uint64_t at = e32x2(s, "VTx", 13, id, 0);
        e32x2(s, "VTe", 14, id, 0);
        e0(s, "OHe", 15);
        if (bad)
            EXPECT(&t, "task 0 runs", "OVNI-TASK-ID-ZERO", 0, (int64_t)at,
                   "VTx runs task 0; task ids start at 1 (the nosv model's chan_body_running)");
        else
            VALID(&t, "task 5 runs");
        tr_free(&t);
    }
    /* Body ids: 0 for a task that is not parallel, 1 up for a parallel
     * one (VTC). */
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *s = nosv_thread(&t);
        e32x2(s, "VTc", 12, 5, 1);
        uint64_t at = e32x2(s, "VTx", 13, 5, bad ? 1 : 0);
        e32x2(s, "VTe", 14, 5, bad ? 1 : 0);
        e0(s, "OHe", 15);
        if (bad)
            EXPECT(&t, "body 1 of task 5", "OVNI-TASK-BODY-ID OVNI-TASK-BODY-ID", 0, (int64_t)at,
                   "VTx names body 1 of non-parallel task 5; a task that is not parallel has one "
                   "body, named 0");
        else
            VALID(&t, "body 0 of task 5");
        tr_free(&t);
    }
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *s = nosv_thread(&t);
        e32x2(s, "VTC", 12, 6, 1);
        uint64_t at = e32x2(s, "VTx", 13, 6, bad ? 0 : 1);
        e32x2(s, "VTe", 14, 6, bad ? 0 : 1);
        e0(s, "OHe", 15);
        if (bad)
            EXPECT(&t, "body 0 of parallel task 6", "OVNI-TASK-BODY-ID OVNI-TASK-BODY-ID", 0,
                   (int64_t)at, "VTx names body 0 of parallel task 6; the bodies of a parallel "
                                "task are numbered from 1");
        else
            VALID(&t, "body 1 of parallel task 6");
        tr_free(&t);
    }
}

/* A task made in one thread and run in another of its process: valid only
 * once the creation's clock has come, whatever the streams' path order. */
static void test_task_across_threads(void)
{
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *a = nosv_thread(&t); /* thread 2 on CPU 0 */
        e32x2(a, "VTc", 20, 5, 1);
        e0(a, "OHe", 30);
        tstream *b = thr(&t, 3, 1);
        ohx(b, 12, 1);
        uint64_t clock = bad ? 15 : 25;
        uint64_t at = e32x2(b, "VTx", clock, 5, 0);
        e32x2(b, "VTe", clock + 1, 5, 0);
        e0(b, "OHe", 40);
        if (bad)
            EXPECT(&t, "VTx in thread 3 before VTc in thread 2",
                   "OVNI-TASK-UNKNOWN OVNI-TASK-UNKNOWN", 1, (int64_t)at,
                   "VTx names task 5, which process 1 never made (no VTc/VTC of it before; the "
                   "nosv model's update_task_state)");
        else
            VALID(&t, "VTx in thread 3 after VTc in thread 2");
        tr_free(&t);
    }
    /* The same, made in another process: its tasks are not this one's. */
    {
        trace t;
        tr_init(&t);
        tstream *a = nosv_thread(&t);
        e32x2(a, "VTc", 20, 5, 1);
        e0(a, "OHe", 30);
        tstream *b = thr(&t, 3, 4);
        ohx(b, 12, 1);
        uint64_t at = e32x2(b, "VTx", 25, 5, 0);
        e32x2(b, "VTe", 26, 5, 0);
        e0(b, "OHe", 40);
        EXPECT(&t, "VTx in process 4 of a task of process 1",
               "OVNI-TASK-UNKNOWN OVNI-TASK-UNKNOWN", 1, (int64_t)at,
               "VTx names task 5, which process 4 never made");
        tr_free(&t);
    }
    /* A body run by thread 2 and ended by thread 3. */
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *a = nosv_thread(&t);
        e32x2(a, "VTc", 12, 5, 1);
        uint64_t ran = e32x2(a, "VTx", 13, 5, 0);
        e32x2(a, "VTe", 40, 5, 0);
        e0(a, "OHe", 41);
        tstream *b = thr(&t, 3, 1);
        ohx(b, 14, 1);
        uint64_t at = 0;
        if (bad)
            at = e32x2(b, "VTe", 20, 5, 0);
        e0(b, "OHe", 30);
        if (bad) {
            char needle[160];
            snprintf(needle, sizeof needle,
                     "VTe ends body(id=1,taskid=5), which thread 2 runs (offset %llu of ",
                     (unsigned long long)ran);
            EXPECT(&t, "thread 3 ends thread 2's body", "OVNI-TASK-STACK", 1, (int64_t)at, needle);
            char *path = file_of(&t, 0, "stream.obs");
            OT_MSG(&t.r, "OVNI-TASK-STACK", path);
            free(path);
        } else {
            VALID(&t, "thread 2 ends its body");
        }
        tr_free(&t);
    }
    /* At a nosv version tracecheck does not know, nosv's events are not
     * judged (rulings 9, 15): the same trace gives the version alone. */
    {
        trace t;
        tr_init(&t);
        tstream *a = nosv_thread(&t);
        e32x2(a, "VTc", 20, 5, 1);
        e0(a, "OHe", 30);
        tstream *b = thr(&t, 3, 1);
        snprintf(b->require, sizeof b->require, "{\"ovni\": \"1.1.0\", \"nosv\": \"1.0.0\"}");
        ohx(b, 12, 1);
        e32x2(b, "VTx", 15, 5, 0);
        e32x2(b, "VTe", 16, 5, 0);
        e0(b, "OHe", 40);
        EXPECT_JSON(&t, "nosv 1.0.0", "OVNI-REQUIRE-VERSION", 1,
                    "ovni.require.nosv is \"1.0.0\", but the nosv model is 2.7.0 here");
        tr_free(&t);
    }
}

static void test_bodies(void)
{
    /* Resumed while running; a parallel body paused. */
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *s = nosv_thread(&t);
        e32x2(s, "VTc", 12, 5, 1);
        uint64_t ran = e32x2(s, "VTx", 13, 5, 0);
        if (!bad)
            e32x2(s, "VTp", 14, 5, 0);
        uint64_t at = e32x2(s, "VTr", 15, 5, 0);
        e32x2(s, "VTe", 16, 5, 0);
        e0(s, "OHe", 17);
        if (bad) {
            char n2[200];
            snprintf(n2, sizeof n2,
                     "VTr resumes body(id=1,taskid=5), which must be Paused but is Running (since "
                     "offset %llu of ", (unsigned long long)ran);
            EXPECT(&t, "VTr of a running body", "OVNI-TASK-STATE", 0, (int64_t)at, n2);
            OT_MSG(&t.r, "OVNI-TASK-STATE", "; the emulator's body_resume refuses it");
        } else {
            VALID(&t, "VTx VTp VTr VTe");
        }
        tr_free(&t);
    }
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *s = nosv_thread(&t);
        e32x2(s, bad ? "VTC" : "VTc", 12, 6, 1);
        uint32_t body = bad ? 1 : 0;
        e32x2(s, "VTx", 13, 6, body);
        uint64_t at = e32x2(s, "VTp", 14, 6, body);
        if (bad) {
            e32x2(s, "VTe", 15, 6, body);
        } else {
            e32x2(s, "VTr", 15, 6, body);
            e32x2(s, "VTe", 16, 6, body);
        }
        e0(s, "OHe", 17);
        if (bad)
            EXPECT(&t, "a parallel body paused", "OVNI-TASK-STATE", 0, (int64_t)at,
                   "VTp pauses body(id=1,taskid=6), but parallel nosv tasks do not pause (the "
                   "emulator's body_pause)");
        else
            VALID(&t, "a body paused");
        tr_free(&t);
    }
    /* A body run over a running one. */
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *s = nosv_thread(&t);
        e32x2(s, "VTc", 12, 5, 1);
        e32x2(s, "VTc", 13, 6, 1);
        e32x2(s, "VTx", 14, 5, 0);
        if (!bad)
            e32x2(s, "VTp", 15, 5, 0);
        uint64_t at = e32x2(s, "VTx", 16, 6, 0);
        /* Reported, the nested body is taken as run: it ends first. */
        e32x2(s, "VTe", 17, 6, 0);
        if (!bad)
            e32x2(s, "VTr", 18, 5, 0);
        e32x2(s, "VTe", 19, 5, 0);
        e0(s, "OHe", 20);
        if (bad)
            EXPECT(&t, "VTx over a running body", "OVNI-TASK-NESTING", 0, (int64_t)at,
                   "VTx runs body(id=1,taskid=6) over body(id=1,taskid=5), which is running on "
                   "this thread");
        else
            VALID(&t, "VTx over a paused body");
        tr_free(&t);
    }
    /* A body resumed that is not the innermost. */
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *s = nosv_thread(&t);
        e32x2(s, "VTc", 12, 5, 1);
        e32x2(s, "VTc", 13, 6, 1);
        e32x2(s, "VTx", 14, 5, 0);
        e32x2(s, "VTp", 15, 5, 0);
        e32x2(s, "VTx", 16, 6, 0);
        uint64_t at = 0;
        if (bad)
            at = e32x2(s, "VTr", 17, 5, 0);
        e32x2(s, "VTe", 18, 6, 0);
        e32x2(s, "VTr", 19, 5, 0);
        e32x2(s, "VTe", 20, 5, 0);
        e0(s, "OHe", 21);
        if (bad)
            EXPECT(&t, "VTr of the outer body", "OVNI-TASK-STACK", 0, (int64_t)at,
                   "VTr resumes body(id=1,taskid=5), but the innermost body of the thread is "
                   "body(id=1,taskid=6): bodies end, pause and resume innermost first");
        else
            VALID(&t, "the inner body ends first");
        tr_free(&t);
    }
}

/* Whole lives of tasks in each model with tasks, valid as ovniemu plays
 * them. */
static void test_task_lives(void)
{
    /* nosv: a body runs again after it ended (nosv resurrects); a
     * parallel task's bodies on two threads at once. */
    {
        trace t;
        tr_init(&t);
        tstream *a = nosv_thread(&t);
        e32x2(a, "VTc", 12, 5, 1);
        e32x2(a, "VTx", 13, 5, 0);
        e32x2(a, "VTe", 14, 5, 0);
        e32x2(a, "VTx", 15, 5, 0);
        e32x2(a, "VTe", 16, 5, 0);
        e32x2(a, "VTC", 17, 6, 1);
        e32x2(a, "VTx", 18, 6, 1);
        e32x2(a, "VTe", 21, 6, 1);
        e0(a, "OHe", 30);
        tstream *b = thr(&t, 3, 1);
        ohx(b, 12, 1);
        e32x2(b, "VTx", 19, 6, 2);
        e32x2(b, "VTe", 20, 6, 2);
        e0(b, "OHe", 31);
        VALID(&t, "nosv: a body run again; a parallel task on two threads");
        tr_free(&t);
    }
    /* nosv: a parallel task's body does not run again. */
    {
        trace t;
        tr_init(&t);
        tstream *a = nosv_thread(&t);
        e32x2(a, "VTC", 12, 6, 1);
        e32x2(a, "VTx", 13, 6, 1);
        e32x2(a, "VTe", 14, 6, 1);
        uint64_t at = e32x2(a, "VTx", 15, 6, 1);
        e0(a, "OHe", 30);
        EXPECT(&t, "a parallel body run again", "OVNI-TASK-STATE", 0, (int64_t)at,
               "body(id=1,taskid=6) has ended and is not allowed to run again");
        tr_free(&t);
    }
    /* nanos6: a task inline over a running one (ovniemu's body_execute
     * allows it; the subsystem 'running a task body' is entered again over
     * another state, as chan_push wants), a task paused and resumed; an
     * ended task does not run again, and the message says where it ended. */
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *s = thr(&t, 2, 1);
        snprintf(s->require, sizeof s->require, "{\"ovni\": \"1.1.0\", \"nanos6\": \"1.1.0\"}");
        ohx(s, 10, 0);
        type_made(s, "6Yc", 11, 1, "t");
        e32x2(s, "6Tc", 12, 5, 1);
        e32x2(s, "6Tc", 13, 6, 1);
        e32(s, "6Tx", 14, 5);
        e32(s, "6Tp", 15, 5);
        e32(s, "6Tr", 16, 5);
        e0(s, "6Wt", 17);
        e32(s, "6Tx", 18, 6);
        e32(s, "6Te", 19, 6);
        e0(s, "6WT", 20);
        uint64_t ended = e32(s, "6Te", 21, 5), at = 0;
        if (bad) {
            at = e32(s, "6Tx", 22, 5);
            e32(s, "6Te", 23, 5);
        }
        e0(s, "OHe", 24);
        if (bad) {
            EXPECT(&t, "nanos6: an ended task run again", "OVNI-TASK-STATE OVNI-TASK-STATE", 0,
                   (int64_t)at, "6Tx runs body(id=1,taskid=5) again, but it has ended and nanos6 "
                   "bodies do not run again");
            (void)ended; /* an ended task is an id: where it ended is not kept */
        } else {
            VALID(&t, "nanos6: a task inline over another");
        }
        tr_free(&t);
    }
    /* nanos6: 'running a task body' entered right over itself is refused
     * by chan_push (no duplicates in nanos6's subsystem channel). */
    {
        trace t;
        tr_init(&t);
        tstream *s = thr(&t, 2, 1);
        snprintf(s->require, sizeof s->require, "{\"ovni\": \"1.1.0\", \"nanos6\": \"1.1.0\"}");
        ohx(s, 10, 0);
        type_made(s, "6Yc", 11, 1, "t");
        e32x2(s, "6Tc", 12, 5, 1);
        e32x2(s, "6Tc", 13, 6, 1);
        uint64_t outer = e32(s, "6Tx", 14, 5);
        uint64_t at = e32(s, "6Tx", 15, 6);
        e0(s, "OHe", 24);
        char needle[200];
        snprintf(needle, sizeof needle, "6Tx enters 'running a task body' over itself (entered at "
                 "offset %llu)", (unsigned long long)outer);
        EXPECT(&t, "nanos6: a body right over a body", "OVNI-STATE-REPEAT OVNI-STATE-OPEN-AT-END",
               0, (int64_t)at, needle);
        tr_free(&t);
    }
    /* openmp: tasks and worksharings of types made (POc); ids 0 refused
     * when made. */
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *s = thr(&t, 2, 1);
        snprintf(s->require, sizeof s->require, "{\"ovni\": \"1.1.0\", \"openmp\": \"1.2.1\"}");
        ohx(s, 10, 0);
        type_made(s, "POc", 11, 1, "loop");
        type_made(s, "POc", 12, 2, "task");
        uint64_t at = e32x2(s, "PPc", 13, bad ? 0 : 5, 2);
        if (!bad) {
            e32(s, "PPx", 14, 5);
            e32(s, "PQx", 15, 1);
            e32(s, "PQe", 16, 1);
            e32(s, "PPe", 17, 5);
        }
        e0(s, "OHe", 18);
        if (bad)
            EXPECT(&t, "openmp: task 0 made", "OVNI-TASK-ID-ZERO", 0, (int64_t)at,
                   "PPc makes task 0 of type 2; task and type ids start at 1");
        else
            VALID(&t, "openmp: a task with a worksharing inside");
        tr_free(&t);
    }
    /* openmp: a worksharing of a type never made. */
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *s = thr(&t, 2, 1);
        snprintf(s->require, sizeof s->require, "{\"ovni\": \"1.1.0\", \"openmp\": \"1.2.1\"}");
        ohx(s, 10, 0);
        type_made(s, "POc", 11, 1, "loop");
        uint64_t at = e32(s, "PQx", 12, bad ? 3 : 1);
        e32(s, "PQe", 13, bad ? 3 : 1);
        e0(s, "OHe", 14);
        if (bad)
            EXPECT(&t, "openmp: worksharing of type 3", "OVNI-TASK-TYPE-UNKNOWN OVNI-TASK-TYPE-UNKNOWN",
                   0, (int64_t)at, "PQx names worksharing type 3, but process 1 made no openmp type 3");
        else
            VALID(&t, "openmp: worksharing of type 1");
        tr_free(&t);
    }
}

/* ---- marks and counters ---- */

static void test_marks(void)
{
    static const char SINGLE3[] = ", \"mark\": {\"3\": {\"title\": \"phase\", \"chan_type\": \"single\"}}";
    /* A type that no stream declares; one stream declaring it is enough. */
    for (int bad = 0; bad <= 2; bad++) {
        trace t;
        tr_init(&t);
        tstream *s = thr(&t, 2, 1);
        tstream *o = thr(&t, 3, 1);
        if (bad == 0) /* the other stream declares it */
            strcat(o->extra, SINGLE3 + 2);
        if (bad == 2)
            strcat(s->extra, SINGLE3);
        ohx(s, 10, 0);
        uint64_t at = mark(s, "OM=", 11, 5, 3);
        e0(s, "OHe", 12);
        ohx(o, 13, 0);
        e0(o, "OHe", 14);
        if (bad == 1)
            EXPECT(&t, "OM= of an undeclared type", "OVNI-MARK-UNDECLARED", 0, (int64_t)at,
                   "OM= is of mark type 3, which no stream's ovni.mark declares");
        else
            VALID(&t, bad ? "OM= of a type its stream declares"
                          : "OM= of a type another stream declares");
        tr_free(&t);
    }
    /* The value 0 is no mark. */
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *s = thr(&t, 2, 1);
        strcat(s->extra, SINGLE3);
        ohx(s, 10, 0);
        uint64_t at = mark(s, "OM=", 11, bad ? 0 : 7, 3);
        e0(s, "OHe", 12);
        if (bad)
            EXPECT(&t, "OM= 0", "OVNI-MARK-VALUE-ZERO", 0, (int64_t)at,
                   "OM= gives mark type 3 the value 0, which means no mark");
        else
            VALID(&t, "OM= 7");
        tr_free(&t);
    }
    /* A stack is pushed and popped, not set. */
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *s = thr(&t, 2, 1);
        strcat(s->extra, ", \"mark\": {\"4\": {\"title\": \"depth\", \"chan_type\": \"stack\"}}");
        ohx(s, 10, 0);
        uint64_t at = 0;
        if (bad) {
            at = mark(s, "OM=", 11, 7, 4);
        } else {
            mark(s, "OM[", 11, 7, 4);
            mark(s, "OM]", 12, 7, 4);
        }
        e0(s, "OHe", 13);
        if (bad)
            EXPECT(&t, "OM= of a stack", "OVNI-MARK-KIND", 0, (int64_t)at,
                   "OM= sets mark type 4, which ovni.mark declares \"stack\"; a stack is pushed "
                   "(OM[) and popped (OM]), not set");
        else
            VALID(&t, "OM[ OM] of a stack");
        tr_free(&t);
    }
}

static void test_meta_declarations(void)
{
    /* ovni.mark: types 0 to 99, chan_type single or stack. */
    static const struct {
        const char *mark, *needle, *path;
    } marks[] = {
        {"{\"3\": {\"title\": \"phase\", \"chan_type\": \"queue\"}}",
         "the chan_type of ovni.mark.3 is \"queue\"; \"single\" or \"stack\" is required",
         "$.ovni.mark[\"3\"].chan_type"},
        {"{\"100\": {\"title\": \"phase\", \"chan_type\": \"single\"}}",
         "ovni.mark has the key \"100\"; a mark type is a decimal number from 0 to 99", NULL},
        {"{\"3\": {\"title\": \"\", \"chan_type\": \"single\"}}",
         "the title of ovni.mark.3 is empty; a string that is not empty is required", NULL},
        {"{\"3\": {\"chan_type\": \"single\"}}", "ovni.mark.3 lacks its title", NULL},
    };
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++) {
        trace t;
        tr_init(&t);
        tstream *s = thr(&t, 2, 1);
        snprintf(s->extra + strlen(s->extra), sizeof s->extra - strlen(s->extra),
                 ", \"mark\": %s", marks[i].mark);
        ohx(s, 10, 0);
        e0(s, "OHe", 11);
        EXPECT_JSON(&t, marks[i].mark, "OVNI-META-MARK", 0, marks[i].needle);
        const ot_diag *d = ot_find(&t.r, "OVNI-META-MARK", NULL);
        if (d && marks[i].path)
            CHECK(d->path && !strcmp(d->path, marks[i].path), "%s: at %s", marks[i].mark,
                  d->path ? d->path : "(no path)");
        tr_free(&t);
    }
    {
        trace t;
        tr_init(&t);
        tstream *s = thr(&t, 2, 1);
        strcat(s->extra, ", \"mark\": {\"3\": {\"title\": \"phase\", \"chan_type\": \"single\", "
                         "\"labels\": {\"1\": \"init\", \"2\": \"run\"}}, \"99\": {\"title\": "
                         "\"depth\", \"chan_type\": \"stack\"}}");
        ohx(s, 10, 0);
        e0(s, "OHe", 11);
        VALID(&t, "ovni.mark of types 3 and 99");
        tr_free(&t);
    }
    /* nosv.hwc: indexes 0 to N-1, each with a name. */
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *s = thr(&t, 2, 1);
        snprintf(s->top, sizeof s->top,
                 "\"nosv\": {\"hwc\": {\"0\": {\"name\": \"cycles\"}, \"%d\": {\"name\": "
                 "\"instructions\"}}}", bad ? 2 : 1);
        ohx(s, 10, 0);
        e0(s, "OHe", 11);
        if (bad) {
            EXPECT_JSON(&t, "nosv.hwc 0 and 2", "OVNI-META-HWC", 0,
                        "nosv.hwc declares 2 counters, so indexes 0 to 1, but index 2 is given");
            const ot_diag *d = ot_find(&t.r, "OVNI-META-HWC", NULL);
            if (d)
                CHECK(d->path && !strcmp(d->path, "$.nosv.hwc"), "hwc at %s",
                      d->path ? d->path : "(no path)");
        } else {
            VALID(&t, "nosv.hwc 0 and 1");
        }
        tr_free(&t);
    }
}

static void test_counters(void)
{
    /* VWC without nosv.hwc in any stream. */
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *s = thr(&t, 2, 1);
        tstream *o = thr(&t, 3, 1);
        if (!bad) /* another stream's declaration counts */
            snprintf(o->top, sizeof o->top, "\"nosv\": {\"hwc\": {\"0\": {\"name\": \"cycles\"}}}");
        ohx(s, 10, 0);
        uint64_t at = counters(s, 11, 1);
        e0(s, "OHe", 12);
        ohx(o, 13, 0);
        e0(o, "OHe", 14);
        if (bad)
            EXPECT(&t, "VWC without nosv.hwc", "OVNI-HWC-UNDECLARED", 0, (int64_t)at,
                   "VWC gives hardware counter values, but no stream's nosv.hwc declares a "
                   "counter");
        else
            VALID(&t, "VWC of the one counter declared");
        tr_free(&t);
    }
    /* One value per counter declared. */
    {
        trace t;
        tr_init(&t);
        tstream *s = thr(&t, 2, 1);
        snprintf(s->top, sizeof s->top,
                 "\"nosv\": {\"hwc\": {\"0\": {\"name\": \"cycles\"}, \"1\": {\"name\": "
                 "\"instructions\"}}}");
        ohx(s, 10, 0);
        uint64_t at = counters(s, 11, 1);
        counters(s, 12, 2);
        e0(s, "OHe", 13);
        EXPECT(&t, "VWC of 1 value, 2 counters", "OVNI-MODEL-PAYLOAD", 0, (int64_t)at,
               "VWC carries 8 bytes of counter values; nosv.hwc declares 2 counters, 16 bytes");
        tr_free(&t);
    }
}

/* Streams declare marks and counters that the emulator merges: the same
 * type, value or counter declared differently is a conflict. */
static void test_conflicts(void)
{
    static const struct {
        const char *what, *first, *second, *needle; /* NULL needle: valid */
    } marks[] = {
        {"the same declaration twice", "{\"3\": {\"title\": \"phase\", \"chan_type\": \"single\"}}",
         "{\"3\": {\"title\": \"phase\", \"chan_type\": \"single\"}}", NULL},
        {"other types", "{\"3\": {\"title\": \"phase\", \"chan_type\": \"single\"}}",
         "{\"4\": {\"title\": \"depth\", \"chan_type\": \"stack\"}}", NULL},
        {"chan_type single and stack", "{\"3\": {\"title\": \"phase\", \"chan_type\": \"single\"}}",
         "{\"3\": {\"title\": \"phase\", \"chan_type\": \"stack\"}}", "mark type 3"},
        {"two titles", "{\"3\": {\"title\": \"phase\", \"chan_type\": \"single\"}}",
         "{\"3\": {\"title\": \"stage\", \"chan_type\": \"single\"}}", "stage"},
        {"two labels of value 1",
         "{\"3\": {\"title\": \"phase\", \"chan_type\": \"single\", \"labels\": {\"1\": \"init\"}}}",
         "{\"3\": {\"title\": \"phase\", \"chan_type\": \"single\", \"labels\": {\"1\": \"run\"}}}",
         "run"},
    };
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++) {
        trace t;
        tr_init(&t);
        tstream *a = thr(&t, 2, 1), *b = thr(&t, 3, 1);
        snprintf(a->extra + strlen(a->extra), sizeof a->extra - strlen(a->extra), ", \"mark\": %s",
                 marks[i].first);
        snprintf(b->extra, sizeof b->extra, "\"mark\": %s", marks[i].second);
        ohx(a, 10, 0);
        e0(a, "OHe", 11);
        ohx(b, 12, 0);
        e0(b, "OHe", 13);
        if (marks[i].needle)
            EXPECT_JSON(&t, marks[i].what, "OVNI-TRACE-MARK-CONFLICT", 1, marks[i].needle);
        else
            VALID(&t, marks[i].what);
        tr_free(&t);
    }
    static const struct {
        const char *what, *first, *second, *needle;
    } hwc[] = {
        {"the same counters", "{\"0\": {\"name\": \"cycles\"}}", "{\"0\": {\"name\": \"cycles\"}}", NULL},
        {"another name at index 0", "{\"0\": {\"name\": \"cycles\"}}",
         "{\"0\": {\"name\": \"instructions\"}}", "instructions"},
        {"another number of counters", "{\"0\": {\"name\": \"cycles\"}}",
         "{\"0\": {\"name\": \"cycles\"}, \"1\": {\"name\": \"instructions\"}}", "2"},
    };
    for (size_t i = 0; i < sizeof hwc / sizeof hwc[0]; i++) {
        trace t;
        tr_init(&t);
        tstream *a = thr(&t, 2, 1), *b = thr(&t, 3, 1);
        snprintf(a->top, sizeof a->top, "\"nosv\": {\"hwc\": %s}", hwc[i].first);
        snprintf(b->top, sizeof b->top, "\"nosv\": {\"hwc\": %s}", hwc[i].second);
        ohx(a, 10, 0);
        e0(a, "OHe", 11);
        ohx(b, 12, 0);
        e0(b, "OHe", 13);
        if (hwc[i].needle)
            EXPECT_JSON(&t, hwc[i].what, "OVNI-TRACE-HWC-CONFLICT", 1, hwc[i].needle);
        else
            VALID(&t, hwc[i].what);
        tr_free(&t);
    }
}

/* ---- old events (ruling 17) ---- */

static void test_old_events(void)
{
    /* OCn as nOS-V writes it (two i32, 8 bytes where the table has 4): a
     * warning that names it, its payload not checked. */
    static const size_t sizes[] = {8, 4, 0};
    for (size_t i = 0; i <= sizeof sizes / sizeof sizes[0]; i++) {
        int bad = i < sizeof sizes / sizeof sizes[0];
        trace t;
        tr_init(&t);
        tstream *s = thr(&t, 2, 1);
        ohx(s, 10, 0);
        uint64_t at = 0;
        if (bad) {
            at = s->o.b.len;
            ob_event(&s->o, "OCn", 11, "\x02\x00\x00\x00\x02\x00\x00\x00", sizes[i]);
        }
        e0(s, "OHe", 12);
        if (bad) {
            char what[32];
            snprintf(what, sizeof what, "OCn of %zu bytes", sizes[i]);
            EXPECT(&t, what, "OVNI-MODEL-OLD-EVENT", 0, (int64_t)at,
                   "event OCn is an old event of the ovni model, which the emulator ignores; its "
                   "payload is not checked");
            CU_ASSERT(t.r.status == 0 && t.r.n == 1 && t.r.d[0].severity == TC_WARNING);
        } else {
            VALID(&t, "no OCn");
        }
        tr_free(&t);
    }
    /* nanos6's 6TC, even before the thread runs. */
    for (int bad = 0; bad <= 1; bad++) {
        trace t;
        tr_init(&t);
        tstream *s = thr(&t, 2, 1);
        snprintf(s->require, sizeof s->require, "{\"ovni\": \"1.1.0\", \"nanos6\": \"1.1.0\"}");
        uint64_t at = 0;
        if (bad)
            at = e32(s, "6TC", 5, 1);
        ohx(s, 10, 0);
        e0(s, "OHe", 12);
        if (bad)
            EXPECT(&t, "6TC", "OVNI-MODEL-OLD-EVENT", 0, (int64_t)at,
                   "event 6TC is an old event of the nanos6 model, which the emulator ignores");
        else
            VALID(&t, "no 6TC");
        tr_free(&t);
    }
}

static const tu_test tests[] = {
    {"table: every event found by its MCV", test_lookup},
    {"table: every layout parsed; some word for word", test_fields},
    {"table: the models' versions", test_versions},
    {"table: payloads against layouts", test_payload_mismatch},
    {"a model's events need an active thread", test_thread_inactive},
    {"events while the kernel has the thread off its CPU", test_out_of_cpu},
    {"channels: pops, repeats", test_states},
    {"channels: 512 levels, states left open", test_depth_and_end},
    {"CPU indexes", test_cpus},
    {"two threads on one CPU", test_cpu_shared},
    {"OAs and OAr", test_affinity},
    {"tasks and types: ids", test_task_books},
    {"tasks across threads", test_task_across_threads},
    {"task bodies: states, nesting, stacks", test_bodies},
    {"task lives in nosv, nanos6 and openmp", test_task_lives},
    {"marks", test_marks},
    {"ovni.mark and nosv.hwc", test_meta_declarations},
    {"hardware counters", test_counters},
    {"marks and counters declared differently", test_conflicts},
    {"old events (ruling 17)", test_old_events},
    {NULL, NULL},
};

void register_ovni_models_suite(void) { tu_add_suite("ovni_models", tests); }
