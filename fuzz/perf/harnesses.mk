# The SiFive perf harnesses (docs/fuzzing.md): each one's seeds and
# dictionary, and its mutator. Read by fuzz/fuzz.mk, which finds the other
# sources of this folder (oracles, event layer, mutator) by itself.
FUZZ_C_TARGETS += perf_lean perf_container perf_messages perf_roundtrip
FUZZ_LEAN_OF += perf_lean:perf_container
FUZZ_SEEDS_perf_container := corpus/perf/container
FUZZ_SEEDS_perf_messages := corpus/perf/messages
FUZZ_SEEDS_perf_roundtrip := corpus/perf/roundtrip
FUZZ_DICT_perf_container := fuzz/perf/perf.dict
FUZZ_DICT_perf_messages := fuzz/perf/perf_messages.dict
FUZZ_MUTATORS += perf
FUZZ_MUTATOR_DESCRIPTION_perf := nexus-messages
FUZZ_MUTATOR_perf_lean := perf
FUZZ_MUTATOR_perf_container := perf
FUZZ_SEEDS_simd_paths += corpus/perf/container corpus/perf/messages corpus/perf/roundtrip
