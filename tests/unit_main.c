/*
 * The unit test program: every suite of tests/, run with CUnit's basic
 * interface. Arguments, when given, name the suites to run. Exits 1 when an
 * assertion failed, 2 when CUnit itself failed.
 */
#include <stdio.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "suites.h"
#include "tu.h"

/* Every suite the build found (tests/tests.mk writes suites.inc from the
 * register_*_suite functions of tests/ and its folders). */
static void (*const registrations[])(void) = {
#define TC_SUITE(fn) fn,
#include "suites.inc"
#undef TC_SUITE
};

int main(int argc, char **argv)
{
    if (CU_initialize_registry() != CUE_SUCCESS) {
        fprintf(stderr, "CUnit: %s\n", CU_get_error_msg());
        return 2;
    }
    for (size_t i = 0; i < sizeof registrations / sizeof registrations[0]; i++)
        registrations[i]();
    CU_basic_set_mode(CU_BRM_VERBOSE);
    if (argc > 1) {
        /* Only the suites named: deactivate the others. */
        CU_pTestRegistry reg = CU_get_registry();
        for (CU_pSuite s = reg->pSuite; s; s = s->pNext) {
            int wanted = 0;
            for (int a = 1; a < argc; a++)
                wanted |= strcmp(s->pName, argv[a]) == 0;
            CU_set_suite_active(s, wanted ? CU_TRUE : CU_FALSE);
        }
        for (int a = 1; a < argc; a++)
            if (!CU_get_suite(argv[a])) {
                fprintf(stderr, "no suite '%s'\n", argv[a]);
                CU_cleanup_registry();
                return 2;
            }
    }
    CU_ErrorCode rc = CU_basic_run_tests();
    if (rc == CUE_SUITE_INACTIVE && argc > 1)
        rc = CUE_SUCCESS; /* the suites left out on purpose */
    unsigned failures = CU_get_number_of_failures();
    unsigned failed_tests = CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    tu_cleanup_tmpdir();
    if (rc != CUE_SUCCESS) {
        fprintf(stderr, "CUnit: %s\n", CU_get_error_msg());
        return 2;
    }
    if (failures)
        fprintf(stderr, "unit: %u assertions failed in %u tests\n", failures, failed_tests);
    return failures ? 1 : 0;
}
