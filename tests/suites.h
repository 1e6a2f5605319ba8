/* The suites of the unit test program, one per file. */
#ifndef TC_TESTS_SUITES_H
#define TC_TESTS_SUITES_H

void register_rules_suite(void);       /* test_rules.c */
void register_diag_suite(void);        /* test_diag.c */
void register_input_suite(void);       /* test_input.c */
void register_compress_suite(void);    /* test_compress.c */
void register_equivalence_suite(void); /* test_equivalence.c */
void register_xray_header_suite(void); /* test_xray_header.c */
void register_xray_v1_suite(void);     /* test_xray_v1.c */
void register_xray_extents_suite(void); /* test_xray_extents.c */
void register_xray_grammar_suite(void); /* test_xray_grammar.c */
void register_xray_events_suite(void); /* test_xray_events.c */
void register_xray_values_suite(void); /* test_xray_values.c */
void register_generator_suite(void);   /* test_generator.c */
void register_mutator_suite(void);     /* test_mutators.c */
void register_report_suite(void);      /* test_reports.c */
void register_docs_suite(void);        /* test_docs.c */

#endif
