# The ovni harnesses (docs/fuzzing.md): each one's seeds and dictionary, and
# its mutator. Read by fuzz/fuzz.mk, which finds the other sources of this
# folder (oracles, event layer, mutator) by itself.
FUZZ_C_TARGETS += ovni_lean ovni_meta_lean ovni_stream ovni_meta ovni_roundtrip
FUZZ_LEAN_OF += ovni_lean:ovni_stream ovni_meta_lean:ovni_meta
FUZZ_SEEDS_ovni_stream := corpus/ovni/stream
FUZZ_SEEDS_ovni_meta := corpus/ovni/meta
FUZZ_SEEDS_ovni_roundtrip := corpus/ovni/roundtrip
FUZZ_DICT_ovni_stream := fuzz/ovni/ovni_stream.dict
FUZZ_DICT_ovni_meta := fuzz/ovni/ovni_meta.dict
FUZZ_MUTATORS += ovni
FUZZ_MUTATOR_DESCRIPTION_ovni := ovni-events
FUZZ_MUTATOR_ovni_stream := ovni
FUZZ_MUTATOR_ovni_lean := ovni
# stream.json is JSON: the JSON mutator (fuzz/common).
FUZZ_MUTATOR_ovni_meta := json
FUZZ_MUTATOR_ovni_meta_lean := json
# The JSON tokenizer's harness also reads stream.json documents.
FUZZ_SEEDS_json_tokens += corpus/ovni/meta
FUZZ_SEEDS_simd_paths += corpus/ovni/stream corpus/ovni/meta corpus/ovni/roundtrip
