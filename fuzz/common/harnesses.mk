# The harnesses of what the formats share (docs/fuzzing.md): the JSON
# tokenizer, and the vector levels against the scalar paths of every format.
# Read by fuzz/fuzz.mk before the formats' folders, which add to the seeds.
FUZZ_C_TARGETS += json_lean json_tokens simd_paths
FUZZ_LEAN_OF += json_lean:json_tokens
FUZZ_SEEDS_json_tokens := corpus/common/json
FUZZ_DICT_json_tokens := fuzz/common/json.dict
FUZZ_MUTATORS += json
FUZZ_MUTATOR_DESCRIPTION_json := json-values
FUZZ_MUTATOR_json_lean := json
FUZZ_MUTATOR_json_tokens := json
# Every format's seeds (each format's folder adds its own).
FUZZ_SEEDS_simd_paths :=
