/* The table of every model ovniemu 1.14.0 knows (parsers/ovni/ovni_models.c,
 * compiled from spec/ovni/models.def; rulings 13-17, spec/ovni/ovni.md):
 * every event found by its own MCV, every layout parsed as its sizes say,
 * some layouts word for word, the version of each model, and what
 * tc_ovni_payload_mismatch says of normal, jumbo, string and array
 * payloads. Payloads are built from the layouts of models.def by hand, not
 * by the parser's tables.
 *
 * The model layer's judgement of whole traces by these models is in
 * test_ovni_model_threads.c (threads and CPUs) and
 * test_ovni_model_tasks_marks.c (tasks, marks, counters, old events). */
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

static const tu_test tests[] = {
    {"table: every event found by its MCV", test_lookup},
    {"table: every layout parsed; some word for word", test_fields},
    {"table: the models' versions", test_versions},
    {"table: payloads against layouts", test_payload_mismatch},
    {NULL, NULL},
};

void register_ovni_models_suite(void) { tu_add_suite("ovni_models", tests); }
