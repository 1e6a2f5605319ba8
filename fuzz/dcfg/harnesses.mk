# The DCFG and DCFG-trace harnesses (docs/fuzzing.md): each one's seeds and
# dictionary, and its mutator. Read by fuzz/fuzz.mk, which finds the other
# sources of this folder (oracles, runs) by itself.
FUZZ_C_TARGETS += dcfg_lean dtrc_lean dcfg_parse dtrc_parse dtrc_sequence dcfg_dom dcfg_roundtrip
FUZZ_LEAN_OF += dcfg_lean:dcfg_parse dtrc_lean:dtrc_parse
FUZZ_SEEDS_dcfg_parse := corpus/dcfg/parse
FUZZ_SEEDS_dtrc_parse := corpus/dcfg/dtrc/parse
FUZZ_SEEDS_dtrc_sequence := corpus/dcfg/dtrc/sequence
FUZZ_SEEDS_dcfg_dom := corpus/dcfg/dom
FUZZ_SEEDS_dcfg_roundtrip := corpus/dcfg/roundtrip
FUZZ_DICT_dcfg_parse := fuzz/dcfg/dcfg.dict
FUZZ_DICT_dtrc_parse := fuzz/dcfg/dtrc.dict
FUZZ_DICT_dtrc_sequence := fuzz/dcfg/dtrc.dict
# Both formats are JSON: the JSON mutator (fuzz/common).
$(foreach t,dcfg_lean dcfg_parse dtrc_lean dtrc_parse,$(eval FUZZ_MUTATOR_$(t) := json))
# The JSON tokenizer's harness also reads the JSON of these formats.
FUZZ_SEEDS_json_tokens += corpus/dcfg/parse corpus/dcfg/dtrc/parse
FUZZ_SEEDS_simd_paths += corpus/dcfg/parse corpus/dcfg/dom corpus/dcfg/roundtrip corpus/dcfg/dtrc
