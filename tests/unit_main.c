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

static void (*const registrations[])(void) = {
    register_rules_suite,     register_diag_suite,       register_error_suite,
    register_input_suite,
    register_compress_suite,  register_equivalence_suite, register_xray_header_suite,
    register_xray_v1_suite,   register_xray_extents_suite, register_xray_grammar_suite,
    register_xray_events_suite, register_xray_values_suite, register_xray_basic_suite,
    register_xray_basic_gen_suite, register_xray_binary_suite, register_show_suite,
    register_generator_suite, register_split_suite,
    register_mutator_suite,   register_report_suite,     register_docs_suite,
    register_json_syntax_suite, register_json_values_suite, register_json_stream_suite,
    register_ovni_stream_suite, register_ovni_meta_suite,  register_ovni_model_suite,
    register_ovni_trace_suite,  register_ovni_dump_suite,  register_ovni_paths_suite,
    register_ovni_models_suite,
    register_ovni_generator_suite, register_dcfg_checks_suite, register_dcfg_rules_suite,
    register_dcfg_model_suite,
    register_dtrc_seq_suite, register_dtrc_reader_suite, register_dtrc_pairing_suite,
    register_dtrc_fast_suite,
    register_dcfg_generator_suite,
    register_show_dcfg_suite,
    register_conf_pair_suite,
    register_conf_tools_suite,
    register_gen_answer_suite,
    register_perf_generator_suite,
    register_perf_container_suite,
    register_perf_sm_suite,
    register_perf_files_suite,
    register_perf_binary_suite,
    register_conformance_html_suite,
    register_library_api_suite,
    register_validate_reports_suite,
    register_show_ovni_suite,
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
