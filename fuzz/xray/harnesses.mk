# The XRay harnesses (docs/fuzzing.md): each one's seeds and dictionary, and
# its mutator. Read by fuzz/fuzz.mk, which finds the other sources of this
# folder (oracles, event layers, mutators) by itself.
FUZZ_C_TARGETS += xray_lean xray_basic_lean xray_parse xray_roundtrip xray_split
FUZZ_CXX_TARGETS += xray_differential
# The lean harnesses take the bytes xray_parse takes (its seeds and dictionary).
FUZZ_LEAN_OF += xray_lean:xray_parse xray_basic_lean:xray_parse
FUZZ_SEEDS_xray_parse := corpus/xray/seeds
FUZZ_SEEDS_xray_roundtrip := corpus/xray/seeds
FUZZ_SEEDS_xray_split := corpus/xray/seeds
FUZZ_SEEDS_xray_differential := corpus/xray/seeds
FUZZ_DICT_xray_parse := fuzz/xray/xray.dict
FUZZ_DICT_xray_split := fuzz/xray/xray.dict
FUZZ_DICT_xray_differential := fuzz/xray/xray.dict
FUZZ_MUTATORS += xray
FUZZ_MUTATOR_DESCRIPTION_xray := xray-records
FUZZ_MUTATOR_xray_lean := xray
FUZZ_MUTATOR_xray_basic_lean := xray
# Sources of one harness alone (the LLVM differential's oracle is C++).
FUZZ_EXTRA_xray_differential := fuzz/xray/xray_llvm_oracle.cc
FUZZ_SEEDS_simd_paths += corpus/xray/seeds
