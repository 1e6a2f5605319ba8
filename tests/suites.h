/* The suites of the unit test program, one per file. */
#ifndef TC_TESTS_SUITES_H
#define TC_TESTS_SUITES_H

void register_rules_suite(void);       /* test_rules.c */
void register_diag_suite(void);        /* test_diag.c */
void register_error_suite(void);       /* test_error.c */
void register_input_suite(void);       /* test_input.c */
void register_compress_suite(void);    /* test_compress.c */
void register_equivalence_suite(void); /* test_equivalence.c */
void register_xray_header_suite(void); /* test_xray_header.c */
void register_xray_v1_suite(void);     /* test_xray_v1.c */
void register_xray_extents_suite(void); /* test_xray_extents.c */
void register_xray_grammar_suite(void); /* test_xray_grammar.c */
void register_xray_events_suite(void); /* test_xray_events.c */
void register_xray_values_suite(void); /* test_xray_values.c */
void register_xray_basic_suite(void);  /* test_xray_basic.c */
void register_xray_basic_gen_suite(void); /* test_xray_basic_gen.c */
void register_xray_binary_suite(void); /* test_xray_binary.c */
void register_show_suite(void);        /* test_show.c */
void register_generator_suite(void);   /* test_generator.c */
void register_split_suite(void);       /* test_split.c */
void register_mutator_suite(void);     /* test_mutators.c */
void register_report_suite(void);      /* test_reports.c */
void register_docs_suite(void);        /* test_docs.c */
void register_json_syntax_suite(void); /* test_json_syntax.c */
void register_json_values_suite(void); /* test_json_values.c */
void register_json_stream_suite(void); /* test_json_stream.c */
void register_ovni_stream_suite(void); /* test_ovni_stream.c */
void register_ovni_meta_suite(void);   /* test_ovni_meta.c */
void register_ovni_model_suite(void);  /* test_ovni_model.c */
void register_ovni_trace_suite(void);  /* test_ovni_trace.c */
void register_ovni_dump_suite(void);   /* test_ovni_dump.c */
void register_ovni_paths_suite(void);  /* test_ovni_paths.c */
void register_ovni_models_suite(void); /* test_ovni_models.c */
void register_ovni_generator_suite(void); /* test_ovni_generator.c */
void register_dcfg_checks_suite(void);  /* test_dcfg_checks.c */
void register_dcfg_rules_suite(void);   /* test_dcfg_rules.c */
void register_dcfg_model_suite(void);   /* test_dcfg_model.c */
void register_dtrc_seq_suite(void);    /* test_dtrc_seq.c */
void register_dtrc_reader_suite(void); /* test_dtrc_reader.c */
void register_dtrc_pairing_suite(void); /* test_dtrc_pairing.c */
void register_dtrc_fast_suite(void);   /* test_dtrc_fast.c */
void register_dcfg_generator_suite(void); /* test_dcfg_generator.c */
void register_show_dcfg_suite(void);  /* test_show_dcfg.c */
void register_conf_pair_suite(void);   /* test_conf_pair.c */
void register_conf_tools_suite(void);  /* test_conf_tools.c */
void register_gen_answer_suite(void);  /* test_gen_answer.c */
void register_perf_generator_suite(void); /* test_perf_generator.c */
void register_perf_container_suite(void); /* test_perf_container.c */
void register_perf_sm_suite(void);     /* test_perf_sm.c */
void register_perf_files_suite(void);  /* test_perf_files.c */
void register_perf_binary_suite(void); /* test_perf_binary.c */
void register_conformance_html_suite(void); /* test_conformance_html.c */
void register_library_api_suite(void); /* test_library_api.c */
void register_validate_reports_suite(void); /* test_validate_reports.c */
void register_show_ovni_suite(void);   /* test_show_ovni.c */

#endif
