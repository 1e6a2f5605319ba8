/* The rule catalogue (spec/rules.def): its invariants, which the enums, the
 * documentation and the coverage check all rely on. */
#include <ctype.h>
#include <string.h>

#include "../parsers/common/rules.h"
#include "suites.h"
#include "tu.h"

static const char *const families[] = {"TC", "XRAY", "PERF", "DCFG", "DTRC", "OVNI"};

static void test_count_and_index(void)
{
    CHECK(tc_rule_count() == TC_RULE__COUNT, "tc_rule_count %zu, enum %d", tc_rule_count(),
          TC_RULE__COUNT);
    CHECK(tc_rule_count() >= 30, "the catalogue has %zu rules", tc_rule_count());
    CU_ASSERT_PTR_NULL(tc_rule_at(tc_rule_count()));
    CU_ASSERT_PTR_NULL(tc_rule_at((size_t)-1));
    for (size_t i = 0; i < tc_rule_count(); i++) {
        CHECK(tc_rule_at(i) == &tc_rules[i], "tc_rule_at(%zu)", i);
        CHECK((size_t)tc_rule_index(tc_rule_at(i)) == i, "tc_rule_index of %s", tc_rules[i].id);
    }
    /* The enum names the right entries. */
    CU_ASSERT_STRING_EQUAL(tc_rules[TC_RULE_XRAY_WALLTIME_USEC].id, "XRAY-WALLTIME-USEC");
    CU_ASSERT_STRING_EQUAL(tc_rules[TC_RULE_DIAG_SUPPRESSED].id, "TC-DIAG-SUPPRESSED");
}

static void test_ids_unique(void)
{
    for (size_t i = 0; i < tc_rule_count(); i++)
        for (size_t j = i + 1; j < tc_rule_count(); j++)
            CHECK(strcmp(tc_rule_at(i)->id, tc_rule_at(j)->id) != 0,
                  "rule id %s appears at %zu and %zu", tc_rule_at(i)->id, i, j);
}

static void test_id_shape_and_family(void)
{
    for (size_t i = 0; i < tc_rule_count(); i++) {
        const tc_rule_info *r = tc_rule_at(i);
        int known = 0;
        for (size_t f = 0; f < sizeof families / sizeof families[0]; f++)
            known |= strcmp(r->family, families[f]) == 0;
        CHECK(known, "%s has unknown family '%s'", r->id, r->family);
        size_t fl = strlen(r->family);
        CHECK(strncmp(r->id, r->family, fl) == 0 && r->id[fl] == '-' && r->id[fl + 1] != '\0',
              "%s does not start with its family %s-", r->id, r->family);
        int shape = 1;
        for (const char *p = r->id; *p; p++)
            shape &= isupper((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '-';
        shape &= r->id[strlen(r->id) - 1] != '-' && strstr(r->id, "--") == NULL;
        CHECK(shape, "%s is not upper-case words joined by single hyphens", r->id);
    }
}

static void test_fields_non_empty(void)
{
    for (size_t i = 0; i < tc_rule_count(); i++) {
        const tc_rule_info *r = tc_rule_at(i);
        CHECK(r->id && *r->id, "rule %zu: empty id", i);
        CHECK(r->family && *r->family, "%s: empty family", r->id);
        CHECK(r->reference && *r->reference, "%s: empty reference", r->id);
        CHECK(r->summary && *r->summary, "%s: empty summary", r->id);
        CHECK(r->explanation && strlen(r->explanation) > strlen(r->summary),
              "%s: the explanation is empty or shorter than the summary", r->id);
        CHECK(r->severity == TC_ERROR || r->severity == TC_WARNING || r->severity == TC_NOTE,
              "%s: severity %d", r->id, (int)r->severity);
        CHECK((r->flags & ~(unsigned)(TC_RF_PEDANTIC | TC_RF_NO_MUTATOR | TC_RF_NEEDS_INPUT)) == 0,
              "%s: unknown flags 0x%x", r->id, r->flags);
    }
}

static void test_pedantic_only_notes(void)
{
    size_t pedantic = 0;
    for (size_t i = 0; i < tc_rule_count(); i++) {
        const tc_rule_info *r = tc_rule_at(i);
        if (r->flags & TC_RF_PEDANTIC) {
            pedantic++;
            CHECK(r->severity == TC_NOTE, "%s is pedantic but not a note", r->id);
        }
    }
    /* The two reserved-bytes rules of ruling 3. */
    CHECK(pedantic >= 2, "%zu pedantic rules", pedantic);
    CU_ASSERT(tc_rule_find("XRAY-HEADER-RESERVED-NONZERO")->flags & TC_RF_PEDANTIC);
    CU_ASSERT(tc_rule_find("XRAY-RECORD-RESERVED-NONZERO")->flags & TC_RF_PEDANTIC);
}

static void test_find_round_trip(void)
{
    for (size_t i = 0; i < tc_rule_count(); i++) {
        const tc_rule_info *r = tc_rule_at(i);
        CHECK(tc_rule_find(r->id) == r, "tc_rule_find(\"%s\")", r->id);
    }
    CU_ASSERT_PTR_NULL(tc_rule_find(""));
    CU_ASSERT_PTR_NULL(tc_rule_find("XRAY-NO-SUCH-RULE"));
    CU_ASSERT_PTR_NULL(tc_rule_find("xray-walltime-usec")); /* ids are exact */
    CU_ASSERT_PTR_NULL(tc_rule_find("XRAY-WALLTIME-USE"));  /* no prefix matching */
    CU_ASSERT_PTR_NULL(tc_rule_find("XRAY-WALLTIME-USEC "));
}

/* Severities that the rulings fix: a change here changes exit statuses. */
static void test_ruled_severities(void)
{
    static const struct { const char *id; tc_severity s; } ruled[] = {
        {"XRAY-HEADER-CYCLE-FREQUENCY-ZERO", TC_WARNING}, /* ruling 9 */
        {"XRAY-EXTENTS-OVER-BUFFER-SIZE", TC_WARNING},    /* ruling 5 */
        {"XRAY-CALLARG-AFTER-ENTER", TC_WARNING},         /* ruling 7 */
        {"XRAY-CALLARG-PLACEMENT", TC_ERROR},             /* ruling 7 */
        {"XRAY-CALLSTACK-MISMATCH", TC_WARNING},          /* ruling 10 */
        {"XRAY-TSC-DELTA-LARGE", TC_WARNING},             /* ruling 11 */
        {"XRAY-WALLTIME-USEC", TC_ERROR},                 /* ruling 9 */
        {"XRAY-HEADER-VERSION", TC_ERROR},                /* ruling 1 */
        {"XRAY-FUNCTION-ACTION", TC_ERROR},               /* ruling 8 */
        {"TC-DIAG-SUPPRESSED", TC_NOTE},
    };
    for (size_t i = 0; i < sizeof ruled / sizeof ruled[0]; i++) {
        const tc_rule_info *r = tc_rule_find(ruled[i].id);
        CHECK(r != NULL, "%s missing", ruled[i].id);
        if (r)
            CHECK(r->severity == ruled[i].s, "%s: severity %d, ruled %d", r->id, (int)r->severity,
                  (int)ruled[i].s);
    }
}

static const tu_test tests[] = {
    {"count and index", test_count_and_index},
    {"ids unique", test_ids_unique},
    {"id shape and family prefix", test_id_shape_and_family},
    {"fields non-empty", test_fields_non_empty},
    {"pedantic only on notes", test_pedantic_only_notes},
    {"tc_rule_find round trip", test_find_round_trip},
    {"severities fixed by rulings", test_ruled_severities},
    {NULL, NULL},
};

void register_rules_suite(void) { tu_add_suite("rules", tests); }
